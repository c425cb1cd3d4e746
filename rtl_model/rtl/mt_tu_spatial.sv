// mt_tu_spatial: the spatial front end (docs/trace-unit-rtl.md "The spatial front end"; the C
// model is lib/mt_unit_spatial.c, clock for clock).  With SPATIAL.EN latched at a session's start,
// the session's accesses that pass the kind and tap filter come here instead of to the capture,
// and the capture takes this module's records: at most one a clock, an access whose address is
// docs/trace-format.md 4.1's size-masked value ({page, 2'b0, mask}) with the R/W, kind and tap of
// the access it stands for.
//
// One H3 hash unit (sixteen AND-XOR trees) and one compare serve the ten metapage sizes in turn:
// a *pass* over a page is ten clocks, size i in its clock i, and the record leaves in the clock
// after it.  The pass's page turns right by one bit a clock (cur_q = page rotated right by i), so
// size i's metapage number is cur_q with the i bits that wrapped round masked, and its low 31
// bits are cur_q[30:0]; after the pass cur_q is the page rotated by ten, wired back for the
// record.  Size i's last recorded metapage (low 31 bits) is word i of mt_tu_spkept, read a clock
// ahead (the word of the next size, or size 0 when no pass runs); its valid bits are flip-flops.
// An access is taken only when no pass runs; a non-repeat access during a pass is lost.
module mt_tu_spatial (
  input  logic        clk_i,
  input  logic        rst_ni,
  // Access port
  input  logic        acc_valid_i,
  input  logic [55:0] acc_addr_i,
  input  logic        acc_write_i,
  input  logic [2:0]  acc_kind_i,
  input  logic        acc_tap_i,
  // The session (STATUS.ACTIVE) and the kind and tap filter as written (latched here)
  input  logic        active_i,
  input  logic [4:0]  kind_mask_i,
  input  logic        tap_i,
  // MMIO: the SPATIAL register (mt_tu_regs answers 0 at its address; mt_tu ORs the two)
  input  logic        reg_wr_i,
  input  logic [9:0]  reg_addr_i,
  input  logic [31:0] reg_wdata_i,
  output logic [31:0] reg_rdata_o,      // the read of the last clock
  output logic [31:0] reg_rdata_now_o,  // the same in the request's clock (simulation only)
  // The capture's input in spatial mode
  output logic        on_o,             // a session in spatial mode: the capture takes rec_*
  output logic        rec_valid_o,
  output logic [55:0] rec_addr_o,
  output logic        rec_write_o,
  output logic [2:0]  rec_kind_o,
  output logic        rec_tap_o
);
  localparam logic [9:0] RegSpatial = 10'h018;   // byte offset 0x060
  localparam int unsigned Sizes = 10;
  // H3[b] restricted to the 44 bits of a page number (docs/trace-format.md 4.1)
  localparam logic [16*44-1:0] H3 = {
    44'hf97971d80ab, 44'hf1600cc4d19, 44'h555983aa92f, 44'h03fe0bbdb7b,
    44'h6e0055bdef6, 44'hcdd3cb13d09, 44'h88c368cb0a6, 44'h89041c98ac3,
    44'h33ac916ab3c, 44'habe1f4532e1, 44'hf0c747ea2ea, 44'h96a51a8749b,
    44'h8a8724c81ec, 44'hd188009454f, 44'he6aa1b965f4, 44'h8397b1dcdaf};

  // ---- the register, and its value latched while no session runs (mt_tu_modereg) -------------
  logic       en_l_q, tap_l_q;
  logic [4:0] lg_l_q, km_l_q;
  mt_tu_modereg #(.Addr(RegSpatial), .LgMax(16)) u_reg (
    .clk_i,
    .rst_ni,
    .active_i,
    .kind_mask_i,
    .tap_i,
    .reg_wr_i,
    .reg_addr_i,
    .reg_wdata_i,
    .reg_rdata_o,
    .reg_rdata_now_o,
    .en_o        (en_l_q),
    .lg_o        (lg_l_q),
    .kind_mask_o (km_l_q),
    .tap_o       (tap_l_q)
  );
  // (the access's page offset and the memory's spare bit are not used)
  logic unused_bits;
  assign unused_bits = ^{acc_addr_i[11:0], kept_rdata[31]};

  // ---- state ---------------------------------------------------------------------------------
  typedef enum logic [1:0] {StIdle = 2'd0, StPass = 2'd1, StChain = 2'd2} st_e;
  st_e         st_q, st_d;
  logic        last_v_q, prev_v_q, last_v_d, prev_v_d;
  logic [43:0] last_q, prev_q, last_d, prev_d;
  logic [9:0]  last_sm_q, prev_sm_q, last_sm_d, prev_sm_d;
  logic [1:0]  alt_q, alt_d;               // steps of the alternation, saturating at 3
  logic        alt_ok_q, alt_ok_d;
  logic        skip_v_q, skip_rw_q, skip_tap_q, skip_v_d, skip_rw_d, skip_tap_d;
  logic [2:0]  skip_kind_q, skip_kind_d;
  logic        nxt_v_q, nxt_rw_q, nxt_tap_q, nxt_v_d, nxt_rw_d, nxt_tap_d;
  logic [2:0]  nxt_kind_q, nxt_kind_d;
  logic [9:0]  kept_v_q, kept_v_d;
  logic [3:0]  step_q, step_d;
  logic        hash_q, hash_d, cur_rw_q, cur_tap_q, cur_rw_d, cur_tap_d;
  logic [2:0]  cur_kind_q, cur_kind_d;
  logic [43:0] cur_q, cur_d;
  logic [9:0]  cur_sm_q, cur_rec_q, cur_sm_d, cur_rec_d;
  logic [15:0] rm_q, rm_d;                 // the hash bits size `step` tests: (N - 1) >> step
  logic        out_q, out_d;

  // ---- this clock -----------------------------------------------------------------------------
  logic        on, pass_f, busy, rep, alt, take;
  logic [43:0] page, hin;
  logic [15:0] h;
  logic        keep, hit, recb, alt_ok_c;
  logic [31:0] kept_rdata;
  logic [3:0]  raddr;

  assign on     = en_l_q && active_i;
  assign busy   = st_q != StIdle;
  assign page   = acc_addr_i[55:12];
  logic [7:0] km8;
  assign km8    = {3'b000, km_l_q};   // kinds 5..7 never pass
  assign pass_f = acc_valid_i && km8[acc_kind_i] && (acc_tap_i == tap_l_q);
  assign rep    = last_v_q && (page == last_q);
  assign alt    = prev_v_q && (page == prev_q);
  assign take   = on && pass_f && !rep && !busy;

  // size `step`'s metapage: the bits that wrapped round masked (bit 43 - k once step > k)
  always_comb begin
    hin = cur_q;
    for (int k = 0; k < Sizes - 1; k++)
      if (step_q > 4'(k)) hin[43-k] = 1'b0;
    for (int b = 0; b < 16; b++)
      h[b] = ^(hin & H3[b*44 +: 44]);
  end
  assign keep = hash_q ? ((h & rm_q) == '0) : cur_sm_q[step_q];
  assign hit  = kept_v_q[step_q] && (kept_rdata[30:0] == cur_q[30:0]);
  assign recb = st_q == StPass && keep && !hit;
  // (a size of rate 1, i >= log2 N, that tells the two pages apart forbids the skip)
  always_comb begin
    alt_ok_c = 1'b1;
    for (int k = 0; k < 44; k++)
      if (6'(k) >= {1'b0, lg_l_q} && page[k] != last_q[k]) alt_ok_c = 1'b0;
    if (lg_l_q >= 5'(Sizes)) alt_ok_c = 1'b1;
  end
  // the word of the next clock's size (size 0 when no pass runs, or after size 9)
  assign raddr = (st_q == StPass && step_q != 4'(Sizes - 1)) ? step_q + 4'd1 : 4'd0;

  mt_tu_spkept u_kept (
    .clk_i,
    .we_i    (recb),
    .waddr_i (step_q),
    .wdata_i ({1'b0, cur_q[30:0]}),
    .raddr_i (raddr),
    .rdata_o (kept_rdata)
  );

  // the record: the pass's registers in the clock after it
  assign on_o        = on;
  assign rec_valid_o = on && out_q;
  assign rec_addr_o  = {cur_q[33:0], cur_q[43:34], 2'b00, cur_rec_q};   // page = cur_q rotated left by 10
  assign rec_write_o = cur_rw_q;
  assign rec_kind_o  = cur_kind_q;
  assign rec_tap_o   = cur_tap_q;

  always_comb begin
    st_d = st_q;
    last_v_d = last_v_q;   prev_v_d = prev_v_q;
    last_d = last_q;       prev_d = prev_q;
    last_sm_d = last_sm_q; prev_sm_d = prev_sm_q;
    alt_d = alt_q;         alt_ok_d = alt_ok_q;
    skip_v_d = skip_v_q;   skip_rw_d = skip_rw_q; skip_kind_d = skip_kind_q; skip_tap_d = skip_tap_q;
    nxt_v_d = nxt_v_q;     nxt_rw_d = nxt_rw_q;   nxt_kind_d = nxt_kind_q;   nxt_tap_d = nxt_tap_q;
    kept_v_d = kept_v_q;
    step_d = step_q;       hash_d = hash_q;
    cur_d = cur_q;         cur_rw_d = cur_rw_q;   cur_kind_d = cur_kind_q;   cur_tap_d = cur_tap_q;
    cur_sm_d = cur_sm_q;   cur_rec_d = cur_rec_q; rm_d = rm_q;
    out_d = 1'b0;

    if (st_q == StPass) begin
      // size step_q of the pass
      if (hash_q) cur_sm_d[step_q] = keep;
      if (recb) begin
        cur_rec_d[step_q] = 1'b1;
        kept_v_d[step_q] = 1'b1;
      end
      cur_d = {cur_q[0], cur_q[43:1]};
      rm_d = {1'b0, rm_q[15:1]};
      step_d = step_q + 4'd1;
      if (step_q == 4'(Sizes - 1)) begin
        out_d = (cur_rec_d != '0);
        if (hash_q) last_sm_d = cur_sm_d;   // a hashed pass is the last page's
        st_d = nxt_v_q ? StChain : StIdle;
      end
    end else if (st_q == StChain) begin
      // after a replay's record: the new page's pass
      nxt_v_d = 1'b0;
      st_d = StPass;  step_d = '0;  hash_d = 1'b1;
      cur_d = last_q; cur_rw_d = nxt_rw_q; cur_kind_d = nxt_kind_q; cur_tap_d = nxt_tap_q;
      cur_sm_d = '0;  cur_rec_d = '0;
      rm_d = 16'((17'd1 << lg_l_q) - 17'd1);
    end

    if (take) begin
      st_d = StPass;  step_d = '0;  cur_rec_d = '0;
      cur_rw_d = acc_write_i; cur_kind_d = acc_kind_i; cur_tap_d = acc_tap_i;
      rm_d = 16'((17'd1 << lg_l_q) - 17'd1);
      if (alt) begin
        // x y x: a step of an alternation (the masks of both pages are known)
        last_d = page;    last_sm_d = prev_sm_q;
        prev_d = last_q;  prev_sm_d = last_sm_q;
        if (alt_q != 2'd3) alt_d = alt_q + 2'd1;
        if (alt_q == 2'd0) alt_ok_d = alt_ok_c;
        if (alt_ok_d && alt_q >= 2'd2) begin
          // settled: remember the step, no pass
          st_d = st_q;
          skip_v_d = 1'b1; skip_rw_d = acc_write_i; skip_kind_d = acc_kind_i; skip_tap_d = acc_tap_i;
        end else begin
          hash_d = 1'b0;  cur_d = page;  cur_sm_d = prev_sm_q;
        end
      end else begin
        // a new page
        alt_d = '0;
        prev_v_d = last_v_q;  prev_d = last_q;  prev_sm_d = last_sm_q;
        last_v_d = 1'b1;      last_d = page;    last_sm_d = '0;
        if (skip_v_q) begin
          // the skipped alternation ends: its last step first, then this page
          skip_v_d = 1'b0;
          hash_d = 1'b0;  cur_d = last_q;  cur_sm_d = last_sm_q;
          cur_rw_d = skip_rw_q; cur_kind_d = skip_kind_q; cur_tap_d = skip_tap_q;
          nxt_v_d = 1'b1; nxt_rw_d = acc_write_i; nxt_kind_d = acc_kind_i; nxt_tap_d = acc_tap_i;
        end else begin
          hash_d = 1'b1;  cur_d = page;  cur_sm_d = '0;
        end
      end
    end

    // no session: the state of the next one starts clear
    if (!on) begin
      st_d = StIdle;  out_d = 1'b0;
      last_v_d = 1'b0; prev_v_d = 1'b0; alt_d = '0; alt_ok_d = 1'b0;
      skip_v_d = 1'b0; nxt_v_d = 1'b0;  kept_v_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= StIdle;
      last_v_q <= 1'b0; prev_v_q <= 1'b0; last_q <= '0; prev_q <= '0;
      last_sm_q <= '0;  prev_sm_q <= '0;  alt_q <= '0;  alt_ok_q <= 1'b0;
      skip_v_q <= 1'b0; skip_rw_q <= 1'b0; skip_kind_q <= '0; skip_tap_q <= 1'b0;
      nxt_v_q <= 1'b0;  nxt_rw_q <= 1'b0;  nxt_kind_q <= '0;  nxt_tap_q <= 1'b0;
      kept_v_q <= '0;   step_q <= '0;      hash_q <= 1'b0;
      cur_q <= '0;      cur_rw_q <= 1'b0;  cur_kind_q <= '0;  cur_tap_q <= 1'b0;
      cur_sm_q <= '0;   cur_rec_q <= '0;   rm_q <= '0;        out_q <= 1'b0;
    end else begin
      st_q <= st_d;
      last_v_q <= last_v_d; prev_v_q <= prev_v_d; last_q <= last_d; prev_q <= prev_d;
      last_sm_q <= last_sm_d; prev_sm_q <= prev_sm_d; alt_q <= alt_d; alt_ok_q <= alt_ok_d;
      skip_v_q <= skip_v_d; skip_rw_q <= skip_rw_d; skip_kind_q <= skip_kind_d; skip_tap_q <= skip_tap_d;
      nxt_v_q <= nxt_v_d;   nxt_rw_q <= nxt_rw_d;   nxt_kind_q <= nxt_kind_d;   nxt_tap_q <= nxt_tap_d;
      kept_v_q <= kept_v_d; step_q <= step_d;       hash_q <= hash_d;
      cur_q <= cur_d;       cur_rw_q <= cur_rw_d;   cur_kind_q <= cur_kind_d;   cur_tap_q <= cur_tap_d;
      cur_sm_q <= cur_sm_d; cur_rec_q <= cur_rec_d; rm_q <= rm_d;               out_q <= out_d;
    end
  end
endmodule
