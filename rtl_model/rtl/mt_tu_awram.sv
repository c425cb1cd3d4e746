// mt_tu_awram: the configuration registers as written (SYNC_PERIOD, RATE_*, LEN_*) in block RAM
// instead of flip-flops, read back continuously through the RAM's output registers.  A write at
// the end of cycle t is on the outputs from cycle t + 2 on (so an output in cycle t + 1 is the
// state at the start of cycle t: the configuration latched by an ENABLE in cycle t, used from
// t + 1 on).  The reset values are the RAM's initial contents: they are loaded when the FPGA is
// configured, and in simulation at reset.
//
// A section's rate and length are one word, {RATE[31:0], LEN[39:0]}, the burst's (RATE_H, LEN_H)
// at address 0 and the span's (RATE_L, LEN_L) at address 1, so that the unit reads the section
// it needs by the RAM's read address rather than by a select after it (mt_tu_ctrl: the section
// to load next).  Both sections' registers write the same bit positions (RATE_x the word's
// rate, LEN_x_LO its length's bits 31:0, LEN_x_HI bits 39:32), so the write data is the bus
// word with no select either, and the register's section is the write address.  The word has two
// read ports (two copies of the RAM, written alike): port a for the section loaded in a
// session's first cycles, port b for the copy into the latched configuration (mt_tu_cfgram),
// which needs the other section in the same cycle.  SYNC_PERIOD is a RAM of its own at address 0.
//
// For iCE40 synthesis (MT_TU_ICE40) each copy of the word is five SB_RAM40_4K in 256 x 16 mode
// (rate 2, length 3, the last holding bits 39:32) and SYNC_PERIOD one; elsewhere (Verilator,
// lint) the equivalent registers.  peek_o (simulation only) is the contents now in the layout of
// the register map's read answer, {2'b0, SYNC_PERIOD, RATE_H, RATE_L, LEN_H, LEN_L}: what the
// outputs show in the next cycle, for the simulation library's register reads.
module mt_tu_awram #(
  parameter logic [13:0] ResetSync = '0,
  parameter logic [71:0] ResetH = '0,   // {RATE_H, LEN_H}
  parameter logic [71:0] ResetL = '0    // {RATE_L, LEN_L}
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         we_sync_i,     // a write of SYNC_PERIOD
  input  logic         we_rate_i,     // ... of RATE_H or RATE_L
  input  logic         we_len_lo_i,   // ... of LEN_H_LO or LEN_L_LO
  input  logic         we_len_hi_i,   // ... of LEN_H_HI or LEN_L_HI
  input  logic         wspan_i,       // the write is of the span's register (RATE_L, LEN_L_*)
  input  logic [31:0]  wdata_i,
  input  logic         raddr_a_i,     // the section whose word port a shows next cycle (1: span)
  input  logic         raddr_b_i,     // the same, port b
  output logic [13:0]  sync_o,        // SYNC_PERIOD as written
  output logic [71:0]  word_a_o,      // {RATE, LEN} of section raddr_a_i of the last cycle
  output logic [71:0]  word_b_o,
  output logic [159:0] peek_o
);
  // The behavioural memory: the model of the RAMs outside synthesis, and the shadow that gives
  // peek_o to the simulation of the iCE40 variant (test_rtl_ice40.sh).
`ifndef MT_TU_ICE40
`define MT_TU_AWRAM_BEHAVIOURAL
`elsif MT_TU_SIMCHECK
`define MT_TU_AWRAM_BEHAVIOURAL
`endif
`ifdef MT_TU_AWRAM_BEHAVIOURAL
  logic [13:0] m_sync_q;
  logic [71:0] m_word_q [2];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      m_sync_q <= ResetSync;
      m_word_q[0] <= ResetH;
      m_word_q[1] <= ResetL;
    end else begin
      if (we_sync_i) m_sync_q <= wdata_i[13:0];
      if (we_rate_i) m_word_q[wspan_i][71:40] <= wdata_i;
      if (we_len_lo_i) m_word_q[wspan_i][31:0] <= wdata_i;
      if (we_len_hi_i) m_word_q[wspan_i][39:32] <= wdata_i[7:0];
    end
  end
  assign peek_o = {2'd0, m_sync_q, m_word_q[0][71:40], m_word_q[1][71:40], m_word_q[0][39:0],
                   m_word_q[1][39:0]};
`else
  assign peek_o = '0;
`endif
`ifdef MT_TU_ICE40
  logic unused_rst;
  assign unused_rst = rst_ni;
  // column c of a word: bits 16c +: 16 of {8'd0, RATE, LEN}, written by the strobe of its field
  localparam int unsigned Cols = 5;
  logic [159:0] r_cols;   // the ports' columns, port p at p * 80
  logic [1:0]       raddr;
  assign raddr = {raddr_b_i, raddr_a_i};
  logic [Cols-1:0] col_we;
  localparam logic [79:0] ResetH80 = {ResetH[71:40], 8'd0, ResetH[39:0]};
  localparam logic [79:0] ResetL80 = {ResetL[71:40], 8'd0, ResetL[39:0]};
  // ({RATE, LEN} in columns: rate 4-3, length bits 39:32 in column 2, 31:0 in columns 1-0)
  assign col_we = {we_rate_i, we_rate_i, we_len_hi_i, we_len_lo_i, we_len_lo_i};
  logic [79:0] wd_cols_ordered;
  // column 2 holds bits 39:32 of the length, column 1 bits 31:16, column 0 bits 15:0
  assign wd_cols_ordered = {wdata_i, 8'd0, wdata_i[7:0], wdata_i};
  for (genvar p = 0; p < 2; p++) begin : g_port
    for (genvar c = 0; c < Cols; c++) begin : g_col
      SB_RAM40_4K #(
        .READ_MODE  (0),
        .WRITE_MODE (0),
        .INIT_0     ({224'd0, ResetL80[c*16 +: 16], ResetH80[c*16 +: 16]})
      ) u_bram (
        .RDATA (r_cols[p*80 + c*16 +: 16]),
        .RADDR ({10'd0, raddr[p]}),
        .RCLK  (clk_i),
        .RCLKE (1'b1),
        .RE    (1'b1),
        .WADDR ({10'd0, wspan_i}),
        .WCLK  (clk_i),
        .WCLKE (col_we[c]),
        .WE    (1'b1),
        .WDATA (wd_cols_ordered[c*16 +: 16]),
        .MASK  (16'h0000)
      );
    end
  end
  assign word_a_o = {r_cols[79:48], r_cols[39:0]};
  assign word_b_o = {r_cols[159:128], r_cols[119:80]};
  logic [15:0] unused_cols;
  assign unused_cols = {r_cols[47:40], r_cols[127:120]};
  logic [15:0] sync_col;
  SB_RAM40_4K #(
    .READ_MODE  (0),
    .WRITE_MODE (0),
    .INIT_0     ({240'd0, 2'd0, ResetSync})
  ) u_bram_sync (
    .RDATA (sync_col),
    .RADDR (11'd0),
    .RCLK  (clk_i),
    .RCLKE (1'b1),
    .RE    (1'b1),
    .WADDR (11'd0),
    .WCLK  (clk_i),
    .WCLKE (we_sync_i),
    .WE    (1'b1),
    .WDATA ({2'd0, wdata_i[13:0]}),
    .MASK  (16'h0000)
  );
  assign sync_o = sync_col[13:0];
  logic [1:0] unused_sync;
  assign unused_sync = sync_col[15:14];
`else
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sync_o <= ResetSync;
      word_a_o <= ResetH;
      word_b_o <= ResetH;
    end else begin
      sync_o <= m_sync_q;
      word_a_o <= m_word_q[raddr_a_i];
      word_b_o <= m_word_q[raddr_b_i];
    end
  end
`endif
endmodule
