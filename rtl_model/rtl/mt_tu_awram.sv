// mt_tu_awram: the configuration registers as written (SYNC_PERIOD, RATE_*, LEN_*) in block RAM
// instead of flip-flops: one 160-bit word (the layout of mt_tu_cfgram's), written one register
// at a time through a bit mask, read back continuously through the RAM's output register.  A write
// at the end of cycle t is on rdata_o from cycle t + 2 on (so rdata_o in cycle t + 1 is the state
// at the start of cycle t: the MMIO read of cycle t, answered in t + 1, and the configuration
// latched by an ENABLE in cycle t, used from t + 1 on).  The reset values are the RAM's initial
// contents: they are loaded when the FPGA is configured, and in simulation at reset.
//
// For iCE40 synthesis (MT_TU_ICE40) the word is 10 SB_RAM40_4K in 256 x 16 mode at address 0 with
// per-bit write masks (lane_we_i: the 16-bit lanes the write touches, decoded by the register
// block from the address, so that a RAM's write enable is not an OR over the mask); elsewhere the equivalent register pair, and peek_o (the contents now, i.e.
// what rdata_o shows in the next cycle) for the simulation library's register reads.
module mt_tu_awram #(
  parameter logic [159:0] Reset = '0
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic [9:0]   lane_we_i, // write lane i (bits i*16 +: 16) under wmask_i
  input  logic [159:0] wmask_i,   // 1: write this bit (of a lane lane_we_i enables)
  input  logic [159:0] wdata_i,
  output logic [159:0] rdata_o,
  output logic [159:0] peek_o
);
  logic [159:0] wbits;   // the bits this write changes
  for (genvar i = 0; i < 10; i++) begin : g_lane
    assign wbits[i*16 +: 16] = wmask_i[i*16 +: 16] & {16{lane_we_i[i]}};
  end
`ifdef MT_TU_ICE40
`ifdef MT_TU_SIMCHECK
  // (simulation of this variant, test_rtl_ice40.sh: a behavioural shadow gives peek_o, against
  // which the simulation library checks the block RAMs' answers)
  logic [159:0] shadow_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) shadow_q <= Reset;
    else shadow_q <= (shadow_q & ~wbits) | (wdata_i & wbits);
  end
  assign peek_o = shadow_q;
`else
  logic unused_rst;
  logic [159:0] unused_wbits;
  assign unused_rst = rst_ni;
  assign unused_wbits = wbits;
  assign peek_o = '0;
`endif
  for (genvar i = 0; i < 10; i++) begin : g_bram
    SB_RAM40_4K #(
      .READ_MODE  (0),
      .WRITE_MODE (0),
      .INIT_0     ({240'd0, Reset[i*16 +: 16]})
    ) u_bram (
      .RDATA (rdata_o[i*16 +: 16]),
      .RADDR (11'd0),
      .RCLK  (clk_i),
      .RCLKE (1'b1),
      .RE    (1'b1),
      .WADDR (11'd0),
      .WCLK  (clk_i),
      .WCLKE (lane_we_i[i]),
      .WE    (1'b1),
      .WDATA (wdata_i[i*16 +: 16]),
      .MASK  (~wmask_i[i*16 +: 16])
    );
  end
`else
  logic [159:0] mem_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mem_q <= Reset;
      rdata_o <= Reset;
    end else begin
      mem_q <= (mem_q & ~wbits) | (wdata_i & wbits);
      rdata_o <= mem_q;
    end
  end
  assign peek_o = mem_q;
`endif
endmodule
