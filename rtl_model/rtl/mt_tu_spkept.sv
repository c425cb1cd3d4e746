// mt_tu_spkept: the spatial front end's per-size memory (mt_tu_spatial): 16 words of 32 bits, one
// write and one registered read a clock (read-first; the front end never reads the word it
// writes).  For iCE40 synthesis (MT_TU_ICE40) two SB_RAM40_4K in 256 x 16 mode, since yosys keeps
// a memory this small in flip-flops; elsewhere (Verilator, lint) the equivalent array.
module mt_tu_spkept (
  input  logic        clk_i,
  input  logic        we_i,
  input  logic [3:0]  waddr_i,
  input  logic [31:0] wdata_i,
  input  logic [3:0]  raddr_i,
  output logic [31:0] rdata_o
);
`ifdef MT_TU_ICE40
  for (genvar i = 0; i < 2; i++) begin : g_bram
    SB_RAM40_4K #(.READ_MODE(0), .WRITE_MODE(0)) u_bram (
      .RDATA (rdata_o[i*16 +: 16]),
      .RADDR ({7'd0, raddr_i}),
      .RCLK  (clk_i),
      .RCLKE (1'b1),
      .RE    (1'b1),
      .WADDR ({7'd0, waddr_i}),
      .WCLK  (clk_i),
      .WCLKE (we_i),
      .WE    (we_i),
      .WDATA (wdata_i[i*16 +: 16]),
      .MASK  (16'h0000)
    );
  end
`else
  logic [31:0] mem [16];
  always_ff @(posedge clk_i) begin
    if (we_i) mem[waddr_i] <= wdata_i;
    rdata_o <= mem[raddr_i];
  end
`endif
endmodule
