// mt_tu_cfgram: the part of the latched configuration that the unit reads only at a section
// switch or for the SYNC estimate (rates, lengths, SYNC period), held in block RAM instead of
// flip-flops, copied from mt_tu_awram in a session's first two cycles and read back
// continuously through the RAM's output registers.  A value written at the end of cycle t is on
// the outputs from cycle t + 2 on; mt_tu_ctrl uses it no earlier (see there).  Before the first
// write the outputs are undefined.
//
// As in mt_tu_awram a section's rate and length are one word, {RATE[31:0], LEN[39:0]}, the
// burst's at address 0 and the span's at address 1, so that the section the unit loads next is
// chosen by the read address (raddr_i) and not by a select after the RAM; SYNC_PERIOD is a RAM of
// its own.
//
// For iCE40 synthesis (run_synth.sh defines MT_TU_ICE40) the word is five SB_RAM40_4K in
// 256 x 16 mode and SYNC_PERIOD one; elsewhere (Verilator, lint) the equivalent registers.
module mt_tu_cfgram (
  input  logic        clk_i,
  input  logic        we_i,
  input  logic        waddr_i,     // the section of the word written (1: span)
  input  logic [71:0] wdata_i,     // {RATE, LEN}
  input  logic        we_sync_i,
  input  logic [13:0] wsync_i,
  input  logic        raddr_i,     // the section whose word rdata_o shows next cycle
  output logic [71:0] rdata_o,
  output logic [13:0] rsync_o
);
`ifdef MT_TU_ICE40
  logic [79:0] wd_cols, rd_cols;
  // (columns: rate 4-3, the length's bits 39:32 in column 2, 31:0 in columns 1-0)
  assign wd_cols = {wdata_i[71:40], 8'd0, wdata_i[39:0]};
  for (genvar c = 0; c < 5; c++) begin : g_bram
    SB_RAM40_4K #(.READ_MODE(0), .WRITE_MODE(0)) u_bram (
      .RDATA (rd_cols[c*16 +: 16]),
      .RADDR ({10'd0, raddr_i}),
      .RCLK  (clk_i),
      .RCLKE (1'b1),
      .RE    (1'b1),
      .WADDR ({10'd0, waddr_i}),
      .WCLK  (clk_i),
      .WCLKE (we_i),
      .WE    (we_i),
      .WDATA (wd_cols[c*16 +: 16]),
      .MASK  (16'h0000)
    );
  end
  assign rdata_o = {rd_cols[79:48], rd_cols[39:0]};
  logic [15:0] sync_col;
  SB_RAM40_4K #(.READ_MODE(0), .WRITE_MODE(0)) u_bram_sync (
    .RDATA (sync_col),
    .RADDR (11'd0),
    .RCLK  (clk_i),
    .RCLKE (1'b1),
    .RE    (1'b1),
    .WADDR (11'd0),
    .WCLK  (clk_i),
    .WCLKE (we_sync_i),
    .WE    (we_sync_i),
    .WDATA ({2'd0, wsync_i}),
    .MASK  (16'h0000)
  );
  assign rsync_o = sync_col[13:0];
  logic [9:0] unused_cols;
  assign unused_cols = {rd_cols[47:40], sync_col[15:14]};
`else
  logic [71:0] mem_q [2];
  logic [13:0] sync_q;
  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
    if (we_sync_i) sync_q <= wsync_i;
    rdata_o <= mem_q[raddr_i];
    rsync_o <= sync_q;
  end
`endif
endmodule
