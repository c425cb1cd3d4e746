// mt_tu_pktpipe: the packet pipeline behind the arbitration (contract v4), from the winner's
// descriptor (mt_tu_desc) to the FIFO's write and commit ports.  P1: the payload, the fields taken
// from the state after the choice, the LEB lengths as a select of lengths registered a cycle
// early; P2 and PQ: assembly (mt_tu_pack); PW: the write into the FIFO's banks; P3: the commit
// into the FIFO's occupancy.  So a packet chosen in cycle t enters the FIFO at the end of cycle
// t + 5 (MT_UNIT_LATENCY in lib/mt_unit.h).
//
// The FIFO's write port takes Lanes bytes a clock (mt_tu_fifo): a packet is written in chunks of
// Lanes bytes from PW on, one a clock, and the packer forms chunk k k cycles after P2 (P2's data
// stays until then: the next packet is chosen no earlier than PACE cycles after this one, so it
// reaches P2 after the last of at most four chunks left it).
module mt_tu_pktpipe #(
  parameter int unsigned Lanes = 8,  // the FIFO's write port, 8 or 4 bytes a clock
  // The compressor is built (mt_tu_ctrl's Compress).  Without it no RUN is written and field A
  // is absent only from a sample whose skip is 0, whose field A is that skip: field A is then 0
  // whenever its length is 0, and the packer needs no mask for it (mt_tu_pack FaClean)
  parameter bit          Compress = 1'b1
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // The choice of this cycle (mt_tu_ctrl) and its descriptor (mt_tu_desc)
  input  logic        write_i,          // a packet is written: P1 takes it
  input  logic        sample_i,         // it is the hold's sample, matching nothing
  input  logic        sync_i,           // SYNC, SECTION, OVERFLOW, MARKER, END (a RUN: none)
  input  logic        sect_i,
  input  logic        ovf_i,
  input  logic        mark_i,
  input  logic        end_i,
  input  logic        sw_i,             // the schedule in the choice's cycle: a switch,
  input  logic        swld_i,           // a section load (a switch or the first cycle),
  input  logic        active_i,         // the session is active
  input  logic [7:0]  hdr_i,
  input  logic [7:0]  b1_i,
  input  logic [2:0]  pre_len_i,
  input  logic [4:0]  bound_i,
  input  logic        fa_en_i,
  input  logic [47:0] fa_i,
  input  logic        fb_en_i,
  input  logic [55:0] fb_i,
  // Stage C of the precompute (mt_tu_precomp), the sample's payload were it to match nothing
  input  logic        delta_i,
  input  logic [55:0] pay_i,
  input  logic [3:0]  pay_len_i,
  input  logic [39:0] skip_i,           // the sample's skip (for its LEB length)
  // The fields P1 takes from the state after the choice's cycle
  input  logic [47:0] t_i,              // the cycle counter (the fields' 48 bits)
  input  logic [47:0] rep_cycle_i,      // SECTION's start
  input  logic        sec_span_i,       // SECTION's type
  input  logic [31:0] sec_r_i,          // SECTION's rate, and the latched rate (as written) of
  input  logic [31:0] rate_n_i,         // the section loaded next: one that starts in the choice's cycle
  input  logic [31:0] drop_pending_i,   // OVERFLOW's count
  input  logic [47:0] samples_i,        // END's counts
  input  logic [31:0] dropped_i,
  input  logic [31:0] marker_val_i,     // MARKER's value
  input  logic [13:0] sync_bytes_i,     // SYNC's prev_bytes
  // FIFO
  output logic        fifo_inflight_o,  // a packet is in P3 next cycle
  output logic        fifo_wr_o,
  output logic [3:0]  fifo_cnt_o,       // bytes of this write (0..Lanes)
  output logic        fifo_wr_next_o,   // fifo_wr_o and fifo_cnt_o of the next cycle
  output logic [3:0]  fifo_cnt_next_o,
  output logic [Lanes*8-1:0] fifo_data_o,
  output logic        fifo_commit_o,
  output logic [4:0]  fifo_commit_len_o,
  output logic        fifo_commit_next_o,      // fifo_commit_o and fifo_commit_len_o of the next
  output logic [4:0]  fifo_commit_len_next_o,  // cycle (the FIFO's flags take them a cycle ahead)
  // The stages, for the state that follows them
  output logic        p1_v_o,           // a packet in P1 ...
  output logic        p1_sync_o,
  output logic        p1_ovf_o,
  output logic        p1_active_o,      // ... chosen while the session was active
  output logic [4:0]  p1_bound_o,
  output logic [55:0] p1_fb_o,          // its field B as chosen (a sample's value part)
  output logic        p1_rw_o,          // a sample's R/W bit
  output logic [4:0]  pw_len_o,         // the length of the packet in PW
  output logic        pw_v_o,           // a packet in PW (in P3 next cycle) ...
  output logic        pw_end_o,         // ... an END
  output logic        p3_v_o,           // the packet in P3 (entering the FIFO now)
  output logic        p3_sync_o,
  output logic        p3_end_o,
  output logic [4:0]  p3_len_o
);
  // The packet in flight in stage P1 / P2 (registered below).
  logic        p1_v_q, p1_sample_q, p1_sync_q, p1_end_q, p1_fa_en_q, p1_fb_en_q;
  logic        p1_sect_q, p1_ovf_q, p1_mark_q;
  logic        p1_sw_q, p1_swld_q;   // the schedule in the choice's cycle
  logic [4:0]  p1_bound_q;     // the SYNC estimate's length bound of the packet in P1
  logic [7:0]  p1_hdr_q, p1_b1_q;
  logic [2:0]  p1_pre_len_q;
  logic [47:0] p1_fa_q;
  logic [55:0] p1_fb_q;
  logic        p2_v_q, p2_sync_q, p2_end_q;
  logic [7:0]  p2_hdr_q, p2_b1_q;
  logic [2:0]  p2_pre_len_q;
  logic [47:0] p2_fa_q;
  logic [3:0]  p2_la_q, p2_lb_q;
  logic [55:0] p2_fb_q;
  logic [4:0]  p2_len;      // formed in P2 from the prefix's and the fields' lengths
  logic [4:0]  p2_pb_q;     // the prefix's length + field B's
  logic        pq_v_q, pq_sync_q, pq_end_q, pq_w_q;
  logic [4:0]  pq_len_q;
  logic [3:0]  pq_cnt_q;
  logic        pw_v_q, pw_sync_q, pw_end_q;
  logic [4:0]  pw_len_q;
  logic        w_q;
  logic [3:0]  w_cnt_q;
  logic [Lanes*8-1:0] w_data_q, w_bytes;
  logic        p3_v_q, p3_sync_q, p3_end_q;
  logic [4:0]  p3_len_q;
  // The write port takes Lanes bytes a clock; a longer packet takes it for up to 16 / Lanes
  // clocks, chunk k (bytes Lanes * k on) formed k cycles after P2 (the cycles after P2 are rest
  // cycles of its choice, v4).  p2x_q: a chunk after the first is formed now, p2k_q its index,
  // p2rem_q the bytes of the packet from it on.
  logic        p2x_q;
  logic [1:0]  p2k_q;
  logic [4:0]  p2rem_q;
  logic [4:0]  ck_left;   // the bytes of the packet from this cycle's chunk on
  logic [1:0]  ck;        // this cycle's chunk
  assign ck_left = p2_v_q ? p2_len : p2rem_q;
  // More than a chunk left: ck_left > Lanes spelt as "some bit above the lane is set and it is
  // not Lanes itself", which yosys maps as tables; as a compare it went on a carry chain behind
  // P2's length adder and ck_left's select (the minimal build's two slowest seeds, 2026-12-07).
  logic        ck_more;
  assign ck_more = (ck_left >> $clog2(Lanes)) != 5'd0 && ck_left != 5'(Lanes);
  assign ck      = p2_v_q ? 2'd0 : p2k_q;
  logic        p1_active_q;   // the session was active in the choice's cycle

  // P1: the sample's payload from stage C, SYNC's prev_bytes, the LEB lengths.  SYNC's
  // prev_bytes is the bytes since the last SYNC's first byte, the packets in flight at its choice
  // included; under contract v4 the last of them was chosen at least PACE cycles before the SYNC,
  // so it enters the FIFO by the end of the SYNC's cycle and prev_bytes is the SYNC byte count in
  // its P1 (which stays until the SYNC's own entry).
  logic [47:0] q_fa, q_fa2;   // q_fa2: with SYNC's prev_bytes
  // The LEB lengths of the fields' sources, registered every cycle: in a packet's P1 each holds
  // the length of its register's value in the choice's cycle, which is the field's value: the
  // SYNC's or a SECTION's cycle (t_i, or rep_cycle_i when the section did not start in that
  // cycle), END's counts (no sample is counted and no drop is pending in its cycle), MARKER's
  // value, the sample's skip (the precompute's registers hold it then), the rate of the section
  // (sec_r_i, or the latched rate of the section that starts in that cycle, rate_n_i: as written,
  // whose length is the normalised rate's, since a rate of 0 reads as 1).
  logic [3:0] len_t_q, len_rep_q, len_drop_q, len_samples_q, len_mv_q, len_skip_q;
  logic [3:0] len_sec_r_q, len_rn_q;
  // (the two counters in SB_MAC16 blocks as explicit tables: mt_tu_leblen)
  logic [3:0] len_t_d, len_samples_d;
  mt_tu_leblen u_len_t       (.v_i(t_i), .len_o(len_t_d));
  mt_tu_leblen u_len_samples (.v_i(samples_i), .len_o(len_samples_d));
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      len_t_q <= 4'd1;      len_rep_q <= 4'd1;    len_drop_q <= 4'd1;  len_samples_q <= 4'd1;
      len_mv_q <= 4'd1;     len_skip_q <= 4'd1;   len_sec_r_q <= 4'd1; len_rn_q <= 4'd1;
    end else begin
      len_t_q       <= len_t_d;
      len_rep_q     <= mt_tu_pkg::leb_len({16'd0, rep_cycle_i});
      len_drop_q    <= mt_tu_pkg::leb_len({32'd0, dropped_i});
      len_samples_q <= len_samples_d;
      len_mv_q      <= mt_tu_pkg::leb_len({32'd0, marker_val_i});
      len_skip_q    <= mt_tu_pkg::leb_len({24'd0, skip_i});
      len_sec_r_q   <= mt_tu_pkg::leb_len({32'd0, sec_r_i});
      len_rn_q      <= mt_tu_pkg::leb_len({32'd0, rate_n_i});
    end
  end
  // OVERFLOW's LEB length, of the count itself (drop_pending_i, an SB_MAC16's output), in three
  // levels of tables (left to itself the mapper chained it through q_la's select, seven deep):
  // ORs of the bits in 4- and 3-bit groups cut at the LEB group bounds (bits 28, 21, 14, 7); then
  // P = bits 31:21 (the length is at least 4), Q = bits 20:14, R = bits 13:7; then the length,
  // 1 + the number of LEB groups above the first: [2] = P, [1] = !P && (Q || R),
  // [0] = !(P || Q || R) || (Q && !P) || bits 31:28 (lengths 1, 3 and 5).
  logic [6:0] ovf_g;   // |v[31:28], |v[27:24], |v[23:21], |v[20:17], |v[16:14], |v[13:10], |v[9:7]
  logic       ovf_p, ovf_q, ovf_r;
  logic [3:0] ovf_len;
  localparam logic [15:0] LNz4 = ~mt_tu_pkg::lut_match(4'b1111, 4'b0000);
  mt_tu_lut4 #(.Init(LNz4)) u_l_og6 (.i(drop_pending_i[31:28]), .o(ovf_g[6]));
  mt_tu_lut4 #(.Init(LNz4)) u_l_og5 (.i(drop_pending_i[27:24]), .o(ovf_g[5]));
  mt_tu_lut4 #(.Init(LNz4)) u_l_og4 (.i({1'b0, drop_pending_i[23:21]}), .o(ovf_g[4]));
  mt_tu_lut4 #(.Init(LNz4)) u_l_og3 (.i(drop_pending_i[20:17]), .o(ovf_g[3]));
  mt_tu_lut4 #(.Init(LNz4)) u_l_og2 (.i({1'b0, drop_pending_i[16:14]}), .o(ovf_g[2]));
  mt_tu_lut4 #(.Init(LNz4)) u_l_og1 (.i(drop_pending_i[13:10]), .o(ovf_g[1]));
  mt_tu_lut4 #(.Init(LNz4)) u_l_og0 (.i({1'b0, drop_pending_i[9:7]}), .o(ovf_g[0]));
  mt_tu_lut4 #(.Init(LNz4)) u_l_op (.i({1'b0, ovf_g[6:4]}), .o(ovf_p));
  mt_tu_lut4 #(.Init(LNz4)) u_l_oq (.i({2'b0, ovf_g[3:2]}), .o(ovf_q));
  mt_tu_lut4 #(.Init(LNz4)) u_l_or (.i({2'b0, ovf_g[1:0]}), .o(ovf_r));
  assign ovf_len[2] = ovf_p;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LLen1))) u_l_ol1 (.i({ovf_g[6], ovf_r, ovf_q, ovf_p}), .o(ovf_len[1]));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LLen0))) u_l_ol0 (.i({ovf_g[6], ovf_r, ovf_q, ovf_p}), .o(ovf_len[0]));
  assign ovf_len[3] = 1'b0;
  logic [55:0] q_fb;
  logic [3:0]  q_la, q_lb, q_la_reg;
  logic        q_la_ovf;   // field A is OVERFLOW's count (the packets' flags are one-hot)
  logic [7:0]  q_hdr;
  assign q_la_ovf = p1_fa_en_q && !p1_sync_q && p1_ovf_q;
  for (genvar i = 0; i < 4; i++) begin : g_qla
    mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LMux))) u_l (.i({1'b0, q_la_reg[i], ovf_len[i], q_la_ovf}), .o(q_la[i]));
  end
  always_comb begin
    // The fields that P1 takes from the state after the choice's cycle rather than from the
    // choice (so that no carry chain or select of them is behind the choice): SECTION's rate
    // (sec_r_i, the rate of the choice's cycle) and start (rep_cycle_i, which holds it from the
    // switch on), OVERFLOW's count (drop_pending_i: the count of the choice's cycle, which
    // the OVERFLOW clears only in P1) and END's counts (samples_i, unchanged in its cycle since
    // END waits for an empty hold; dropped_i: DROPPED of its cycle).
    if (p1_ovf_q) q_fa = {16'd0, drop_pending_i};
    else if (p1_sect_q) q_fa = {16'd0, sec_r_i};
    else if (p1_end_q) q_fa = samples_i;
    else q_fa = p1_fa_q;
    q_fa2 = p1_sync_q ? {34'd0, sync_bytes_i} : q_fa;
    // The LEB lengths: of registers whose lengths are registered every cycle (len_*_q, below),
    // so that a length in P1 is a select of flip-flops; OVERFLOW's, of drop_pending_i itself.
    // (OVERFLOW's length, the late one, is taken last: q_la_ovf and the tables g_qla below)
    if (!p1_fa_en_q) q_la_reg = 4'd0;
    else if (p1_sync_q) q_la_reg = (sync_bytes_i[13:7] != '0) ? 4'd2 : 4'd1;
    else if (p1_sect_q) q_la_reg = p1_swld_q ? len_rn_q : len_sec_r_q;
    else if (p1_end_q) q_la_reg = len_samples_q;
    else if (p1_mark_q) q_la_reg = len_mv_q;
    else q_la_reg = len_skip_q;
    if (p1_sample_q) q_fb = pay_i;
    else if (p1_end_q) q_fb = {24'd0, dropped_i};
    else if (p1_sect_q) q_fb = {8'd0, rep_cycle_i};
    else q_fb = p1_fb_q;
    if (!p1_fb_en_q) q_lb = 4'd0;
    else if (p1_sample_q) q_lb = pay_len_i;
    else if (p1_end_q) q_lb = len_drop_q;
    else if (p1_sect_q) q_lb = p1_sw_q ? len_t_q : len_rep_q;
    else q_lb = len_t_q;   // SYNC's cycle
    q_hdr = p1_hdr_q | (p1_sample_q ? {1'b0, (delta_i ? mt_tu_pkg::OpDelta : mt_tu_pkg::OpFull),
                                       4'd0} : 8'd0);
  end

  // The prefix's length + field B's (P2's p2_pb_q), as a select of sums rather than a sum of
  // selects: the sums of each source's length (registers) and its packet's prefix length are
  // formed beside the select, so no carry chain follows it (until 2026-12-06 the adder after
  // q_lb's select was the minimal build's worst path on three of four placement seeds).  The
  // prefix's length is the packet's: a sample's 1, or 2 with a run byte (pre_len); END 1; SECTION
  // 2; SYNC 7; a packet without field B (RUN, OVERFLOW, MARKER, a match) its pre_len alone.
  logic [4:0] q_pb, pb_pay1, pb_pay2, pb_drop, pb_t2, pb_rep2, pb_t7;
  assign pb_pay1 = 5'd1 + 5'(pay_len_i);
  assign pb_pay2 = 5'd2 + 5'(pay_len_i);
  assign pb_drop = 5'd1 + 5'(len_drop_q);
  assign pb_t2   = 5'd2 + 5'(len_t_q);
  assign pb_rep2 = 5'd2 + 5'(len_rep_q);
  assign pb_t7   = 5'd7 + 5'(len_t_q);
  always_comb begin
    if (!p1_fb_en_q) q_pb = 5'(p1_pre_len_q);
    else if (p1_sample_q) q_pb = p1_pre_len_q[1] ? pb_pay2 : pb_pay1;
    else if (p1_end_q) q_pb = pb_drop;
    else if (p1_sect_q) q_pb = p1_sw_q ? pb_t2 : pb_rep2;
    else q_pb = pb_t7;   // SYNC
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p1_v_q <= 1'b0;       p1_sample_q <= 1'b0;  p1_sync_q <= 1'b0;   p1_end_q <= 1'b0;
      p1_sect_q <= 1'b0;    p1_ovf_q <= 1'b0;     p1_mark_q <= 1'b0;
      p1_sw_q <= 1'b0;      p1_swld_q <= 1'b0;
      p1_fa_en_q <= 1'b0;   p1_fb_en_q <= 1'b0;    p1_bound_q <= '0;    p1_active_q <= 1'b0;
      p2_v_q <= 1'b0;       p2_sync_q <= 1'b0;    p2_end_q <= 1'b0;
      p3_v_q <= 1'b0;       p3_sync_q <= 1'b0;    p3_end_q <= 1'b0;    p3_len_q <= '0;
      pw_v_q <= 1'b0;       pw_sync_q <= 1'b0;    pw_end_q <= 1'b0;    pw_len_q <= '0;
      pq_v_q <= 1'b0;       pq_sync_q <= 1'b0;    pq_end_q <= 1'b0;    pq_len_q <= '0;
      pq_w_q <= 1'b0;       pq_cnt_q <= '0;
      w_q <= 1'b0;          w_cnt_q <= '0;
      p2x_q <= 1'b0;        p2k_q <= '0;          p2rem_q <= '0;
    end else begin
      p2x_q   <= (p2_v_q || p2x_q) && ck_more;
      p2k_q   <= ck + 2'd1;
      p2rem_q <= ck_left - 5'(Lanes);
      // The stages' data registers load every cycle (meaningful only with their valid bit), so
      // the late write decision drives only p1_v_q.
      p1_v_q <= write_i;
      begin
        p1_sample_q  <= sample_i;
        p1_sync_q    <= sync_i;
        p1_end_q     <= end_i;
        p1_sect_q    <= sect_i;
        p1_ovf_q     <= ovf_i;
        p1_mark_q    <= mark_i;
        p1_sw_q      <= sw_i;
        p1_swld_q    <= swld_i;
        p1_fa_en_q   <= fa_en_i;
        p1_bound_q   <= bound_i;
        p1_active_q  <= active_i;
        p1_fb_en_q   <= fb_en_i;
      end
      p2_v_q <= p1_v_q;
      if (p1_v_q) begin
        p2_sync_q    <= p1_sync_q;
        p2_end_q     <= p1_end_q;
      end
      // PQ: the packer's second step; PW: the packet's bytes on their way to the FIFO's banks
      // (written from PW); P3 commits the packet one clock after its first write
      pq_v_q    <= p2_v_q;
      pq_sync_q <= p2_sync_q;
      pq_end_q  <= p2_end_q;
      pq_len_q  <= p2_len;
      pq_w_q    <= p2_v_q || p2x_q;
      pq_cnt_q  <= ck_more ? 4'(Lanes) : 4'(ck_left);
      pw_v_q    <= pq_v_q;
      pw_sync_q <= pq_sync_q;
      pw_end_q  <= pq_end_q;
      pw_len_q  <= pq_len_q;
      w_q       <= pq_w_q;
      w_cnt_q   <= pq_cnt_q;
      p3_v_q <= pw_v_q;
      begin
        p3_sync_q <= pw_sync_q;
        p3_end_q  <= pw_end_q;
        p3_len_q  <= pw_len_q;
      end
    end
  end

  // The stages' data without a reset (docs/trace-unit-rtl.md section 3, "Data registers without
  // a reset"): each is read only under its stage's valid bit (or a flag formed from it), which
  // the reset clears, and every packet after a reset loads them before that bit is set, so no
  // value from before the reset is ever read.  Without the asynchronous reset yosys can map the
  // zero legs of P1's field selects (OVERFLOW's, SECTION's and SYNC's high bytes, END's and
  // SECTION's field B above their width) into the flip-flops' synchronous reset (SB_DFFESR):
  // with an asynchronous reset an iCE40 flip-flop has none, and each leg cost a table.
  always_ff @(posedge clk_i) begin
    p1_hdr_q     <= hdr_i;
    p1_b1_q      <= b1_i;
    p1_pre_len_q <= pre_len_i;
    p1_fa_q      <= fa_i;
    p1_fb_q      <= fb_i;
    // (P2's data stays while P1 is empty: a long packet's second half is formed from it in the
    // cycle after its first; the next packet is chosen no earlier than that cycle, so P1 is
    // empty in the first)
    if (p1_v_q) begin
      p2_hdr_q     <= q_hdr;
      p2_b1_q      <= {p1_b1_q[7:1], p1_b1_q[0] || (p1_sect_q && sec_span_i)};
      p2_pre_len_q <= p1_pre_len_q;
      p2_fa_q      <= q_fa2;
      p2_la_q      <= q_la;
      p2_fb_q      <= q_fb;
      p2_lb_q      <= q_lb;
      p2_pb_q      <= q_pb;
    end
    w_data_q <= w_bytes;   // (the FIFO writes a byte only under its write mask, from w_q's)
  end

  // (the prefix's and field B's lengths are added in P1, where neither is late, so that P2's
  // length, behind which are the FIFO counts and the second half, is one adder from registers;
  // q_pb above)
  assign p2_len = p2_pb_q + 5'(p2_la_q);

  // P2: the packet's bytes, into the FIFO's banks at the end of this cycle; P3 commits it.
  logic [55:0]  p2_pre;
  always_comb begin
    if (p2_sync_q) p2_pre = {p2_b1_q, 8'h80, 40'd0};
    else if (p2_pre_len_q == 3'd2) p2_pre = {40'd0, p2_b1_q, p2_hdr_q};
    else p2_pre = {48'd0, p2_hdr_q};
  end

  mt_tu_pack #(.Lanes(Lanes), .FaClean(!Compress)) u_pack (
    .clk_i,
    .pre_i     (p2_pre),
    .pre_len_i (p2_pre_len_q),
    .fa_i      (p2_fa_q),
    .la_i      (p2_la_q),
    .fb_i      (p2_fb_q),
    .lb_i      (p2_lb_q),
    .ck_i      (ck),
    .bytes_o   (w_bytes)
  );

  // the first chunk assembled in P2 and written from PW, the rest one cycle later each
  assign fifo_wr_o         = w_q;
  assign fifo_cnt_o        = w_cnt_q;
  assign fifo_wr_next_o    = pq_w_q;      // (w_q and w_cnt_q take them every cycle)
  assign fifo_cnt_next_o   = pq_cnt_q;
  assign fifo_data_o       = w_data_q;
  assign fifo_commit_o     = p3_v_q;
  assign fifo_commit_len_o = p3_len_q;
  assign fifo_commit_next_o     = pw_v_q;     // (p3_v_q and p3_len_q take them every cycle)
  assign fifo_commit_len_next_o = pw_len_q;

  assign fifo_inflight_o = pw_v_q || pq_v_q;
  assign p1_v_o      = p1_v_q;
  assign p1_sync_o   = p1_sync_q;
  assign p1_ovf_o    = p1_ovf_q;
  assign p1_active_o = p1_active_q;
  assign p1_bound_o  = p1_bound_q;
  assign p1_fb_o     = p1_fb_q;
  assign p1_rw_o     = p1_hdr_q[3];
  assign pw_len_o    = pw_len_q;
  assign pw_v_o      = pw_v_q;
  assign pw_end_o    = pw_end_q;
  assign p3_v_o      = p3_v_q;
  assign p3_sync_o   = p3_sync_q;
  assign p3_end_o    = p3_end_q;
  assign p3_len_o    = p3_len_q;
endmodule
