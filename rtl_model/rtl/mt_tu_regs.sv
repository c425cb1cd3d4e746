// mt_tu_regs: the trace unit's MMIO register block (docs/trace-unit.md section 1, lib/mt_regs.h).
// Holds the configuration registers (written at the end of the cycle of the write; the control
// block latches them when a session starts) and the read port, which answers a read of cycle t in
// cycle t + 1 with the state at the start of cycle t (reg_rdata_o, registered).  Reading a *_LO
// counter latches its HI half for a later read.  The wide configuration registers (SYNC_PERIOD,
// RATE_*, LEN_*) live in block RAM (mt_tu_awram); KIND_MASK, TAP and FMT, which the capture uses in
// the cycle after a start, and the zero flags of the lengths, in flip-flops.
// 32-bit word accesses only: reg_addr_i is the word index (byte offset >> 2) in the 4 KiB window.
module mt_tu_regs #(
  parameter bit FullFmt = 1'b1   // the full and line formats are built (mt_tu)
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic [15:0]  depth_i,   // FIFO capacity strap, low 16 bits (FIFO_INFO: 65536 reads as 0)
  input  logic [4:0]   drain_i,   // drain strap (FIFO_INFO)
  input  logic         reg_rd_i,
  input  logic         reg_wr_i,
  input  logic [9:0]   reg_addr_i,
  input  logic [31:0]  reg_wdata_i,
  output logic [31:0]  reg_rdata_o,      // the read of the last cycle
  output logic [31:0]  reg_rdata_now_o,  // the same value in the cycle of the read (simulation only)
  // Configuration (to the control block)
  output logic [4:0]   kind_mask_o,
  output logic         tap_o,
  output logic [1:0]   fmt_h_o,
  output logic [1:0]   fmt_l_o,
  // SYNC_PERIOD and a section's {RATE, LEN} as written up to two cycles ago (the rates and
  // SYNC_PERIOD before rate_norm / sync_norm: the flags below), the section (1: span, RATE_L and
  // LEN_L) chosen by the read address of the last cycle, on two ports (mt_tu_awram)
  input  logic         aw_raddr_a_i,
  input  logic         aw_raddr_b_i,
  output logic [13:0]  aw_sync_o,
  output logic [71:0]  aw_word_a_o,
  output logic [71:0]  aw_word_b_o,
  output logic         len_h_zero_o,   // LEN_H == 0 as written now
  output logic         first_l_o,      // LEN_H == 0 and LEN_L != 0 as written now (a session
                                       // would start with a section of LEN_L)
  output logic [1:0]   fmt_first_o,    // that section's format as written now
  output logic         len_l_zero_o,
  output logic         len_h_one_o,    // LEN_H == 1 as written now
  output logic         len_l_one_o,
  output logic         len_h_two_o,    // LEN_H == 2 as written now
  output logic         len_l_two_o,
  output logic         rate_h_one_o,   // RATE_H == 1 as written now (a 0 written counts as 1)
  output logic         rate_l_one_o,
  output logic         sync_lo_o,      // SYNC_PERIOD < 64 as written now (it reads as 64)
  output logic         sync_hi_o,      // SYNC_PERIOD > 8192 as written now (it reads as 8192)
  // Commands (to the control block, this cycle)
  output logic         ctrl_wr_o,
  output logic [3:0]   ctrl_dec_o,   // the CTRL write's partial decode, for the start and stop
                                     // tables (mt_tu_ctrl): {[9:6] == 0, [5:3] matched and a
                                     // write, [2:0] matched and ENABLE set, ... and clear}
  output logic         marker_wr_o,
  output logic [2:0]   mark_dec_o,   // the MARKER write's partial decode: {[9:6] == 0, [5:3]
                                     // matched and a write, [2:0] matched}
  // State to read back (start of this cycle)
  input  logic [7:0]   status_i,
  input  logic [16:0]  fifo_level_i,
  input  logic [31:0]  dropped_i,       // DROPPED at the start of this cycle (drops counted late)
  input  logic [31:0]  dropped_next_i,  // the count register, which holds that value one cycle later
  input  logic [47:0]  samples_i,
  input  logic [47:0]  bytes_i,
  input  logic [63:0]  cycle_i
);
  localparam logic [9:0] RegId = 10'h000, RegVersion = 10'h001, RegCtrl = 10'h002;
  localparam logic [9:0] RegStatus = 10'h003, RegFifoLevel = 10'h004, RegFifoInfo = 10'h005;
  localparam logic [9:0] RegKindMask = 10'h006, RegTap = 10'h007, RegFmt = 10'h008;
  localparam logic [9:0] RegSyncPeriod = 10'h009, RegRateH = 10'h00A, RegRateL = 10'h00B;
  localparam logic [9:0] RegLenHLo = 10'h00C, RegLenHHi = 10'h00D, RegLenLLo = 10'h00E;
  localparam logic [9:0] RegLenLHi = 10'h00F, RegMarker = 10'h010, RegDropped = 10'h011;
  localparam logic [9:0] RegSamplesLo = 10'h012, RegSamplesHi = 10'h013, RegBytesLo = 10'h014;
  localparam logic [9:0] RegBytesHi = 10'h015, RegCycleLo = 10'h016, RegCycleHi = 10'h017;

  // the reset values: SYNC_PERIOD 4096, RATE_H 24, RATE_L 2048, LEN_H 1e9, LEN_L 1e10
  localparam logic [13:0] AwResetSync = 14'd4096;
  localparam logic [71:0] AwResetH = {32'd24, 40'h00_3B9A_CA00};
  localparam logic [71:0] AwResetL = {32'd2048, 40'h02_540B_E400};

  logic [4:0]  kind_mask_q;
  logic        tap_q;
  logic [1:0]  fmt_h_q, fmt_l_q;
  logic        len_h_lo_zero_q, len_h_hi_zero_q, len_l_lo_zero_q, len_l_hi_zero_q;
  // (the registers' values of 1, flagged as they are written, so that a session's start latches
  // them instead of testing the block RAM's words in its first cycles; the rates and SYNC_PERIOD
  // are stored as written, and these flags normalise them where they are read: rate_norm,
  // sync_norm)
  logic        len_h_lo_one_q, len_l_lo_one_q, rate_h_one_q, rate_l_one_q, sync_lo_q, sync_hi_q;
  logic        len_h_lo_two_q, len_l_lo_two_q;
  logic [15:0] samples_hi_q, bytes_hi_q;
  logic [31:0] cycle_hi_q;

  logic wr;
  assign wr = reg_wr_i;

  // Writes of the block-RAM registers (every one at a word index 0x009..0x00F: [9:6] == 0,
  // [5:3] == 1): the strobes as two levels of tables over the address, with copies of their own
  // (the mapper otherwise shares the decode with the read port's and the flags', five levels
  // deep).  The RAM takes the bus word as it is (mt_tu_awram: both sections' registers write the
  // same bits of their section's word), so it needs one strobe per field, both sections alike,
  // and the section as its write address; the flags below take one strobe per register.
  logic [159:0] aw_peek;
  logic       aw_hi_zero, aw_mid;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'b0000))) u_l_awhi (.i(reg_addr_i[9:6]), .o(aw_hi_zero));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b0111, 4'b0001))) u_l_awmid (.i({1'b0, reg_addr_i[5:3]}), .o(aw_mid));
  // the low three bits' sets: SYNC_PERIOD {1}, RATE_H {2}, RATE_L {3}, LEN_H_LO {4}, LEN_H_HI
  // {5}, LEN_L_LO {6}, LEN_L_HI {7}; the fields' strobes RATE_* {2, 3}, LEN_*_LO {4, 6},
  // LEN_*_HI {5, 7}
  localparam int unsigned AwGroups = 10;
  localparam logic [AwGroups*8-1:0] AwLoSet = {
      8'b1010_0000, 8'b0101_0000, 8'b0000_1100,                 // 9-7: LEN_*_HI, LEN_*_LO, RATE_*
      8'b1000_0000, 8'b0100_0000, 8'b0010_0000, 8'b0001_0000,   // 6-3: LEN_L_HI .. LEN_H_LO
      8'b0000_1000, 8'b0000_0100, 8'b0000_0010};                // 2-0: RATE_L, RATE_H, SYNC
  // (the index as a 4-bit logic: yosys 0.23 evaluates a part-select of the int loop variable,
  // k[2:0], as signed in a constant function, so set[k[2:0]] read 0 for k[2:0] >= 4; the gate-
  // level co-simulation found the LEN_* lanes never written)
  function automatic logic [15:0] lut_lo_wr(input logic [7:0] set);
    logic [3:0] x;
    for (int k = 0; k < 16; k++) begin
      x = 4'(k);
      lut_lo_wr[k] = x[3] && set[x[2:0]];   // x = {wr, addr[2:0]}
    end
  endfunction
  localparam logic [15:0] LAll3 = mt_tu_pkg::lut_match(4'b0111, 4'b0111);   // i[2:0] all set
  logic [AwGroups-1:0] aw_lo, aw_grp_we;
  for (genvar g = 0; g < AwGroups; g++) begin : g_awwe
    mt_tu_lut4 #(.Init(lut_lo_wr(AwLoSet[g*8 +: 8]))) u_l_lo (.i({wr, reg_addr_i[2:0]}), .o(aw_lo[g]));
    mt_tu_lut4 #(.Init(LAll3)) u_l (.i({1'b0, aw_lo[g], aw_mid, aw_hi_zero}), .o(aw_grp_we[g]));
  end
  logic w_sync, w_rate_h, w_rate_l, w_len_h_lo, w_len_h_hi, w_len_l_lo, w_len_l_hi;
  assign {w_len_l_hi, w_len_l_lo, w_len_h_hi, w_len_h_lo, w_rate_l, w_rate_h, w_sync} = aw_grp_we[6:0];
  // the section of the register written: RATE_L, LEN_L_LO, LEN_L_HI ({3, 6, 7})
  logic aw_wspan;
  mt_tu_lut4 #(.Init(lut_lo_wr(8'b1100_1000))) u_l_awspan (.i({1'b1, reg_addr_i[2:0]}), .o(aw_wspan));

  mt_tu_awram #(.ResetSync(AwResetSync), .ResetH(AwResetH), .ResetL(AwResetL)) u_aw (
    .clk_i,
    .rst_ni,
    .we_sync_i   (w_sync),
    .we_rate_i   (aw_grp_we[7]),
    .we_len_lo_i (aw_grp_we[8]),
    .we_len_hi_i (aw_grp_we[9]),
    .wspan_i     (aw_wspan),
    .wdata_i     (reg_wdata_i),
    .raddr_a_i   (aw_raddr_a_i),
    .raddr_b_i   (aw_raddr_b_i),
    .sync_o      (aw_sync_o),
    .word_a_o    (aw_word_a_o),
    .word_b_o    (aw_word_b_o),
    .peek_o      (aw_peek)
  );

  // The write data's tests behind the flags, in at most three levels of 4-input tables
  // (mt_tu_lut4; left to itself the mapper chains the 32-bit compares through each other and the
  // write's decode, six levels deep): the nibbles' zero tests and the low nibble's values, their
  // ANDs in two groups, then one table per flag.
  logic [7:1] wd_nz;      // reg_wdata_i[4k+3:4k] == 0
  logic       wd_n0_0, wd_n0_1, wd_n0_2, wd_n0_le1;   // reg_wdata_i[3:0] == 0, 1, 2, <= 1
  logic       wd_hi_a, wd_hi_b;                         // nibbles 1-4, 5-7 zero
  logic       wd_s_ends, wd_low13_zero;
  logic       wd_is0, wd_is1, wd_is2, wd_le1, wd_b0_zero, wd_sync_lo, wd_sync_hi;
  localparam logic [15:0] LZero4 = mt_tu_pkg::lut_match(4'b1111, 4'b0000);
  localparam logic [15:0] LAnd4  = mt_tu_pkg::lut_match(4'b1111, 4'b1111);
  for (genvar k = 1; k < 8; k++) begin : g_wdz
    mt_tu_lut4 #(.Init(LZero4)) u_l (.i(reg_wdata_i[4*k +: 4]), .o(wd_nz[k]));
  end
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'd0))) u_l_n00 (.i(reg_wdata_i[3:0]), .o(wd_n0_0));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'd1))) u_l_n01 (.i(reg_wdata_i[3:0]), .o(wd_n0_1));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'd2))) u_l_n02 (.i(reg_wdata_i[3:0]), .o(wd_n0_2));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1110, 4'd0))) u_l_n0l (.i(reg_wdata_i[3:0]), .o(wd_n0_le1));
  // (SYNC_PERIOD < 64: bits 13:6 zero; > 8192: bit 13 and any of bits 12:0)
  mt_tu_lut4 #(.Init(LZero4)) u_l_sends (.i({reg_wdata_i[13:12], reg_wdata_i[7:6]}), .o(wd_s_ends));
  mt_tu_lut4 #(.Init(LAnd4)) u_l_hia (.i(wd_nz[4:1]), .o(wd_hi_a));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b0111, 4'b0111))) u_l_hib (.i({1'b0, wd_nz[7:5]}), .o(wd_hi_b));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b0011, 4'b0011))) u_l_b0z (.i({2'b0, wd_nz[1], wd_n0_0}), .o(wd_b0_zero));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b0011, 4'b0011))) u_l_slo (.i({2'b0, wd_nz[2], wd_s_ends}), .o(wd_sync_lo));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'b0111))) u_l_l13z (
    .i({reg_wdata_i[12], wd_nz[2], wd_nz[1], wd_n0_0}), .o(wd_low13_zero));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b0011, 4'b0010))) u_l_shi (.i({2'b0, reg_wdata_i[13], wd_low13_zero}), .o(wd_sync_hi));
  mt_tu_lut4 #(.Init(LAll3)) u_l_is0 (.i({1'b0, wd_hi_b, wd_hi_a, wd_n0_0}), .o(wd_is0));
  mt_tu_lut4 #(.Init(LAll3)) u_l_is1 (.i({1'b0, wd_hi_b, wd_hi_a, wd_n0_1}), .o(wd_is1));
  mt_tu_lut4 #(.Init(LAll3)) u_l_is2 (.i({1'b0, wd_hi_b, wd_hi_a, wd_n0_2}), .o(wd_is2));
  mt_tu_lut4 #(.Init(LAll3)) u_l_le1 (.i({1'b0, wd_hi_b, wd_hi_a, wd_n0_le1}), .o(wd_le1));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      kind_mask_q     <= 5'h1F;
      tap_q           <= 1'b0;
      fmt_h_q         <= 2'd0;
      fmt_l_q         <= 2'd1;
      len_h_lo_zero_q <= 1'b0;
      len_h_hi_zero_q <= 1'b1;
      len_l_lo_zero_q <= 1'b0;
      len_l_hi_zero_q <= 1'b0;
      len_h_lo_one_q  <= 1'b0;
      len_l_lo_one_q  <= 1'b0;
      len_h_lo_two_q  <= 1'b0;
      len_l_lo_two_q  <= 1'b0;
      rate_h_one_q    <= 1'b0;
      rate_l_one_q    <= 1'b0;
      sync_lo_q       <= 1'b0;
      sync_hi_q       <= 1'b0;
      samples_hi_q    <= '0;
      bytes_hi_q      <= '0;
      cycle_hi_q      <= '0;
    end else begin
      if (wr) begin
        case (reg_addr_i)
          RegKindMask: kind_mask_q <= reg_wdata_i[4:0];
          RegTap:      tap_q <= reg_wdata_i[0];
          RegFmt: begin
            // (without the full and line formats, bit 1 of each field is not implemented)
            fmt_h_q <= {FullFmt && reg_wdata_i[1], reg_wdata_i[0]};
            fmt_l_q <= {FullFmt && reg_wdata_i[5], reg_wdata_i[4]};
          end
          default: ;
        endcase
      end
      // The flags of the block-RAM registers take the strobes of their lanes (two levels of
      // tables over the address; a case here was mapped with the other decodes, five deep).
      if (w_sync) begin   // SYNC_PERIOD (the model keeps bits 13:0, then clamps)
        sync_lo_q <= wd_sync_lo;
        sync_hi_q <= wd_sync_hi;
      end
      if (w_rate_h) rate_h_one_q <= wd_le1;
      if (w_rate_l) rate_l_one_q <= wd_le1;
      if (w_len_h_lo) begin
        len_h_lo_zero_q <= wd_is0;
        len_h_lo_one_q  <= wd_is1;
        len_h_lo_two_q  <= wd_is2;
      end
      if (w_len_h_hi) len_h_hi_zero_q <= wd_b0_zero;
      if (w_len_l_lo) begin   // LEN_L_LO
        len_l_lo_zero_q <= wd_is0;
        len_l_lo_one_q  <= wd_is1;
        len_l_lo_two_q  <= wd_is2;
      end
      if (w_len_l_hi) len_l_hi_zero_q <= wd_b0_zero;
      if (reg_rd_i) begin
        case (reg_addr_i)
          RegSamplesLo: samples_hi_q <= samples_i[47:32];
          RegBytesLo:   bytes_hi_q <= bytes_i[47:32];
          RegCycleLo:   cycle_hi_q <= cycle_i[63:32];
          default: ;
        endcase
      end
    end
  end

  // The commands in two levels of 4-input tables (mt_tu_lut4: the mapper otherwise shares the
  // address decode with the other registers' and puts them behind it); a start fans out to most
  // of the unit.
  logic a_hi_zero, a_ctrl_mid, a_ctrl_lo, a_mark_mid, a_mark_lo;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'b0000))) u_l_hi (
    .i(reg_addr_i[9:6]), .o(a_hi_zero));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, {RegCtrl[5:3], 1'b1}))) u_l_cmid (
    .i({reg_addr_i[5:3], wr}), .o(a_ctrl_mid));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b0111, {1'b0, RegCtrl[2:0]}))) u_l_clo (
    .i({1'b0, reg_addr_i[2:0]}), .o(a_ctrl_lo));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, {RegMarker[5:3], 1'b1}))) u_l_mmid (
    .i({reg_addr_i[5:3], wr}), .o(a_mark_mid));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b0111, {1'b0, RegMarker[2:0]}))) u_l_mlo (
    .i({1'b0, reg_addr_i[2:0]}), .o(a_mark_lo));
  mt_tu_lut4 #(.Init(LAll3)) u_l_ctrl (.i({1'b0, a_ctrl_lo, a_ctrl_mid, a_hi_zero}), .o(ctrl_wr_o));
  // (the start and the stop, which fan out to most of the unit, take the decode's first level
  // with the write data's ENABLE folded in, so that each is one table after it: a copy of the
  // high bits' test for them)
  logic a_hi_zero_c, a_ctrl_en, a_ctrl_dis;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'b0000))) u_l_hic (
    .i(reg_addr_i[9:6]), .o(a_hi_zero_c));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, {1'b1, RegCtrl[2:0]}))) u_l_cen (
    .i({reg_wdata_i[0], reg_addr_i[2:0]}), .o(a_ctrl_en));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, {1'b0, RegCtrl[2:0]}))) u_l_cdis (
    .i({reg_wdata_i[0], reg_addr_i[2:0]}), .o(a_ctrl_dis));
  assign ctrl_dec_o = {a_hi_zero_c, a_ctrl_mid, a_ctrl_en, a_ctrl_dis};
  assign mark_dec_o = {a_hi_zero_c, a_mark_mid, a_mark_lo};
  mt_tu_lut4 #(.Init(LAll3)) u_l_mark (.i({1'b0, a_mark_lo, a_mark_mid, a_hi_zero}), .o(marker_wr_o));
  assign len_h_zero_o = len_h_lo_zero_q && len_h_hi_zero_q;
  // (the first section and its format as two levels of tables over the flip-flops: they are
  // behind a start's and a CTRL write's format, mt_tu_ctrl)
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_first_l())) u_l_firstl (
    .i({len_l_hi_zero_q, len_l_lo_zero_q, len_h_hi_zero_q, len_h_lo_zero_q}), .o(first_l_o));
  for (genvar i = 0; i < 2; i++) begin : g_ffirst
    mt_tu_lut4 #(.Init(mt_tu_pkg::lut_sel())) u_l (.i({1'b0, fmt_l_q[i], fmt_h_q[i], first_l_o}), .o(fmt_first_o[i]));
  end
  assign len_l_zero_o = len_l_lo_zero_q && len_l_hi_zero_q;
  assign len_h_one_o  = len_h_lo_one_q && len_h_hi_zero_q;
  assign len_l_one_o  = len_l_lo_one_q && len_l_hi_zero_q;
  assign len_h_two_o  = len_h_lo_two_q && len_h_hi_zero_q;
  assign len_l_two_o  = len_l_lo_two_q && len_l_hi_zero_q;
  assign rate_h_one_o = rate_h_one_q;
  assign rate_l_one_o = rate_l_one_q;
  assign sync_lo_o    = sync_lo_q;
  assign sync_hi_o    = sync_hi_q;

  // Read: the block-RAM registers from the word (in the next cycle, from the RAM's output), the
  // others from a register of this cycle's values.
  // (no write shares a read's cycle, so the flags of the cycle after the read are those of its
  // word)
  function automatic logic [31:0] aw_field(input logic [2:0] sel, input logic [157:0] w);
    case (sel)
      3'd0:    aw_field = {18'd0, mt_tu_pkg::sync_norm(w[157:144], sync_lo_q, sync_hi_q)};
      3'd1:    aw_field = mt_tu_pkg::rate_norm(w[143:112], rate_h_one_q);
      3'd2:    aw_field = mt_tu_pkg::rate_norm(w[111:80], rate_l_one_q);
      3'd3:    aw_field = w[71:40];
      3'd4:    aw_field = {24'd0, w[79:72]};
      3'd5:    aw_field = w[31:0];
      default: aw_field = {24'd0, w[39:32]};
    endcase
  endfunction

  // The word of a register that is not in block RAM, under the one-hot address decode sel: an
  // AND-OR (the mapper otherwise chains a case).  The registers that do not change between a read
  // and its answer are taken as they are; the others are arguments (this cycle's values, or those
  // registered at the request).  (DROPPED is read one cycle later from the count: is_dropped)
  function automatic logic [31:0] live_word(input logic [23:0] sel, input logic [7:0] st,
                                            input logic [16:0] level, input logic [31:0] s_lo,
                                            input logic [31:0] b_lo, input logic [31:0] c_lo);
    live_word = ({32{sel[RegId[4:0]]}} & 32'h4D54_5455) |
                ({32{sel[RegVersion[4:0]]}} & 32'h0001_0000) |
                ({32{sel[RegCtrl[4:0]]}} & {31'd0, st[0]}) |
                ({32{sel[RegStatus[4:0]]}} & {24'd0, st}) |
                ({32{sel[RegFifoLevel[4:0]]}} & {15'd0, level}) |
                ({32{sel[RegFifoInfo[4:0]]}} & {8'd16, 3'd0, drain_i, depth_i}) |
                ({32{sel[RegKindMask[4:0]]}} & {27'd0, kind_mask_q}) |
                ({32{sel[RegTap[4:0]]}} & {31'd0, tap_q}) |
                ({32{sel[RegFmt[4:0]]}} & {26'd0, fmt_l_q, 2'd0, fmt_h_q}) |
                ({32{sel[RegSamplesLo[4:0]]}} & s_lo) |
                ({32{sel[RegSamplesHi[4:0]]}} & {16'd0, samples_hi_q}) |
                ({32{sel[RegBytesLo[4:0]]}} & b_lo) |
                ({32{sel[RegBytesHi[4:0]]}} & {16'd0, bytes_hi_q}) |
                ({32{sel[RegCycleLo[4:0]]}} & c_lo) |
                ({32{sel[RegCycleHi[4:0]]}} & cycle_hi_q);
  endfunction

  logic        is_aw, is_dropped;
  logic [2:0]  aw_sel;
  assign is_dropped = reg_addr_i == RegDropped;
  logic [31:0] live;
  // the address decoded, one per register, in two levels of tables (a_hi_zero above; the middle
  // and low three bits' matches, then their AND)
  logic [23:0] rsel;
  logic [2:0]  a_mid;    // reg_addr_i[5:3] == m
  logic [7:0]  a_lo;     // reg_addr_i[2:0] == l
  for (genvar m = 0; m < 3; m++) begin : g_amid
    mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b0111, 4'(m)))) u_l (.i({1'b0, reg_addr_i[5:3]}), .o(a_mid[m]));
  end
  for (genvar l = 0; l < 8; l++) begin : g_alo
    mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b0111, 4'(l)))) u_l (.i({1'b0, reg_addr_i[2:0]}), .o(a_lo[l]));
  end
  for (genvar k = 0; k < 24; k++) begin : g_rsel
    mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b0111, 4'b0111))) u_l (
      .i({1'b0, a_lo[k % 8], a_mid[k / 8], a_hi_zero}), .o(rsel[k]));
  end
  always_comb begin
    is_aw = 1'b1;
    case (reg_addr_i)
      RegSyncPeriod: aw_sel = 3'd0;
      RegRateH:      aw_sel = 3'd1;
      RegRateL:      aw_sel = 3'd2;
      RegLenHLo:     aw_sel = 3'd3;
      RegLenHHi:     aw_sel = 3'd4;
      RegLenLLo:     aw_sel = 3'd5;
      RegLenLHi:     aw_sel = 3'd6;
      default: begin
        aw_sel = 3'd0;
        is_aw = 1'b0;
      end
    endcase
    live = live_word(rsel, status_i, fifo_level_i, samples_i[31:0], bytes_i[31:0], cycle_i[31:0]);
  end

  // The read data of the next cycle: the registers that change only by a register write and the
  // constant ones come out of a copy of them in block RAM read at the request's address
  // (mt_tu_rdcopy), already selected; the others are an AND-OR of their words under the one-hot
  // address decode registered now (rsel_q), so that no AND-OR is between the address and a
  // flip-flop: in the request's cycle only the decode (two levels of tables) and, for the values
  // that may change before the answer, a register of them: the status, the FIFO level, and the low
  // words of SAMPLES, BYTES and the cycle counter as one word selected by address bits 2:1 (two
  // levels; the decode says whether it is read).  The other registers cannot change between a
  // read and its answer: no register write shares the read's cycle (one access per clock), and
  // the HI latches change only on a read of their LO.  So the read data is one level of tables
  // after the RAM's output and the registers.
  logic [23:0] rsel_q;
  logic [7:0]  status_q;
  logic [16:0] level_q;
  logic [31:0] cnt_lo_q;   // SAMPLES_LO (0x012), BYTES_LO (0x014) or CYCLE_LO (0x016)
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rsel_q   <= '0;
      status_q <= '0;
      level_q  <= '0;
      cnt_lo_q <= '0;
    end else begin
      rsel_q   <= rsel;
      status_q <= status_i;
      level_q  <= fifo_level_i;
      cnt_lo_q <= reg_addr_i[2] ? (reg_addr_i[1] ? cycle_i[31:0] : bytes_i[31:0]) : samples_i[31:0];
    end
  end

  // The copy: words 0x000..0x00F, written at a write of SYNC_PERIOD .. LEN_L_HI (0x009..0x00F:
  // aw_hi_zero, aw_mid and a non-zero [2:0]) with the bits the register keeps (SYNC_PERIOD's 14,
  // LEN_*_HI's eight: a mask of the address alone, so that the RAM's write data is two tables
  // from the write's flip-flops); the normalisations, which depend on the value written (a rate
  // of 0 or 1 reads as 1, SYNC_PERIOD clamped to 64..8192), are applied to the answer from the
  // flags set at the write (rc_one_q, rc_64_q and the clamp's gates, registered at the request:
  // placed with them in the write data, the value's tests were five tables before the RAM and
  // the worst path of two of three placements).  ID and VERSION are its initial contents.  A read
  // outside 0x000..0x00F reads its word 0x002 (CTRL, not in the copy: 0).
  localparam logic [16*32-1:0] RcReset = {32'h0000_0002, 32'h540B_E400, 32'h0000_0000,
      32'h3B9A_CA00, 32'd2048, 32'd24, 32'd4096, {7{32'd0}}, 32'h0001_0000, 32'h4D54_5455};
  logic        rc_we, rc_lo_nz, rc_low16, rc_wide, rc_mid;
  logic [3:0]  rc_raddr;
  logic [31:0] rc_wdata, rc_rdata;
  logic        rc_one_q, rc_64_q, rc_clamp_lo_q, rc_clamp_hi_q;
  assign rc_lo_nz = reg_addr_i[2:0] != 3'd0;
  mt_tu_lut4 #(.Init(LAnd4)) u_l_rcwe (.i({rc_lo_nz, wr, aw_mid, aw_hi_zero}), .o(rc_we));
  assign rc_low16 = aw_hi_zero && reg_addr_i[5:4] == 2'd0;
  assign rc_raddr = rc_low16 ? reg_addr_i[3:0] : RegCtrl[3:0];
  always_comb begin
    rc_wide = reg_addr_i[3:0] == RegRateH[3:0] || reg_addr_i[3:0] == RegRateL[3:0] ||
              reg_addr_i[3:0] == RegLenHLo[3:0] || reg_addr_i[3:0] == RegLenLLo[3:0];
    rc_mid  = !(reg_addr_i[3:0] == RegLenHHi[3:0] || reg_addr_i[3:0] == RegLenLHi[3:0]);
    rc_wdata = {reg_wdata_i[31:14] & {18{rc_wide}}, reg_wdata_i[13:8] & {6{rc_mid}},
                reg_wdata_i[7:0]};
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rc_one_q <= 1'b0;  rc_64_q <= 1'b0;  rc_clamp_lo_q <= 1'b0;  rc_clamp_hi_q <= 1'b0;
    end else begin
      // (SYNC_PERIOD < 64 has bits 13:6 zero, so its answer zeroes bits 5:0 and sets bit 6; one
      // > 8192 has bit 13 set, so its answer zeroes bits 12:0)
      rc_one_q      <= (rsel[RegRateH[4:0]] && rate_h_one_q) || (rsel[RegRateL[4:0]] && rate_l_one_q);
      rc_64_q       <= rsel[RegSyncPeriod[4:0]] && sync_lo_q;
      rc_clamp_lo_q <= rsel[RegSyncPeriod[4:0]] && (sync_lo_q || sync_hi_q);
      rc_clamp_hi_q <= rsel[RegSyncPeriod[4:0]] && sync_hi_q;
    end
  end
  mt_tu_rdcopy #(.Reset(RcReset)) u_rc (
    .clk_i,
    .rst_ni,
    .we_i    (rc_we),
    .waddr_i (reg_addr_i[3:0]),
    .wdata_i (rc_wdata),
    .raddr_i (rc_raddr),
    .rdata_o (rc_rdata)
  );

  // The registers of the AND-OR: ID and VERSION are in the copy (their selects held at 0 here).
  logic [23:0] live_sel_q;
  logic        dropped_sel_q;
  logic [31:0] live_q;
  assign live_sel_q = rsel_q & ~((24'd1 << RegId[4:0]) | (24'd1 << RegVersion[4:0]));
  assign dropped_sel_q = rsel_q[RegDropped[4:0]];
  assign live_q = live_word(live_sel_q, status_q, level_q, cnt_lo_q, cnt_lo_q, cnt_lo_q);
  // DROPPED: the count plus the drops of the last cycle (which are added one cycle late) is what
  // the count register holds in the next cycle, the cycle the read data is due; no register
  // write shares the read's cycle (one register access per clock), so no start clears it between.
  assign reg_rdata_o = live_q | (rc_rdata & ~{19'd0, {7{rc_clamp_hi_q}}, {6{rc_clamp_lo_q}}}) |
                       32'(rc_one_q) | (32'(rc_64_q) << 6) | ({32{dropped_sel_q}} & dropped_next_i);
  assign reg_rdata_now_o = is_aw ? aw_field(aw_sel, aw_peek[157:0]) : (is_dropped ? dropped_i : live);
  logic [1:0] unused_peek;
  assign unused_peek = aw_peek[159:158];

  assign kind_mask_o   = kind_mask_q;
  assign tap_o         = tap_q;
  assign fmt_h_o       = fmt_h_q;
  assign fmt_l_o       = fmt_l_q;
endmodule
