// mt_tu_cfgram: the part of the latched configuration that the unit reads only at a section
// switch or for the SYNC estimate (rates, lengths, SYNC period), held in block RAM instead of
// flip-flops: one word, written when a session starts, read back continuously through the RAM's
// output register.  The value written at the end of cycle t (the start) is on rdata_o from
// cycle t + 2 on; mt_tu_ctrl uses it no earlier (the first section switch and the first SYNC
// estimate that matters come later, see there).  Before the first write rdata_o is undefined.
//
// For iCE40 synthesis (run_synth.sh defines MT_TU_ICE40) the word is Width / 16 SB_RAM40_4K in
// 256 x 16 mode at address 0, since yosys turns a memory of one constant address into
// flip-flops; elsewhere (Verilator, lint) it is the equivalent register pair.
module mt_tu_cfgram #(
  parameter int unsigned Width = 160   // a multiple of 16
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [Width-1:0] wdata_i,
  output logic [Width-1:0] rdata_o
);
`ifdef MT_TU_ICE40
  for (genvar i = 0; i < Width / 16; i++) begin : g_bram
    SB_RAM40_4K #(.READ_MODE(0), .WRITE_MODE(0)) u_bram (
      .RDATA (rdata_o[i*16 +: 16]),
      .RADDR (11'd0),
      .RCLK  (clk_i),
      .RCLKE (1'b1),
      .RE    (1'b1),
      .WADDR (11'd0),
      .WCLK  (clk_i),
      .WCLKE (we_i),
      .WE    (we_i),
      .WDATA (wdata_i[i*16 +: 16]),
      .MASK  (16'h0000)
    );
  end
`else
  logic [Width-1:0] mem_q;
  always_ff @(posedge clk_i) begin
    if (we_i) mem_q <= wdata_i;
    rdata_o <= mem_q;
  end
`endif
endmodule
