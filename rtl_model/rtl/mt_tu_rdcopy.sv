// mt_tu_rdcopy: the MMIO read port's copy of the registers whose value changes only by a register
// write (SYNC_PERIOD, RATE_*, LEN_*, as they read back) and of the constant ones (ID, VERSION):
// one 32-bit word per register at its word index 0x000..0x00F, read at the request's address, so
// that the read data of these registers comes out of the RAM already selected instead of through
// an AND-OR over their fields (mt_tu_regs; the configuration as written that the control block
// uses, 160 bits side by side, stays in mt_tu_awram).  The other words of 0x000..0x00F hold 0 and
// are never written; a read outside 0x000..0x00F reads word 0x002 (CTRL, which lives elsewhere):
// 0.  The caller writes the value as the register reads it (clamped, normalised, masked).
// Timing as mt_tu_awram's: a write at the end of cycle t is read by a request of cycle t + 1 on;
// a request of cycle t is answered on rdata_o in cycle t + 1.  Reads and writes never share a
// cycle (one register access a clock).  The reset values are the RAM's initial contents (loaded
// when the FPGA is configured; in simulation at reset).
//
// For iCE40 synthesis (MT_TU_ICE40) two SB_RAM40_4K in 256 x 16 mode (words 0..15 used);
// elsewhere the equivalent registers.
module mt_tu_rdcopy #(
  parameter logic [16*32-1:0] Reset = '0   // word i at [i*32 +: 32]
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        we_i,
  input  logic [3:0]  waddr_i,
  input  logic [31:0] wdata_i,
  input  logic [3:0]  raddr_i,
  output logic [31:0] rdata_o
);
`ifdef MT_TU_ICE40
  // the initial contents of one half: word i's 16 bits of that half at [16 i +: 16]
  function automatic logic [255:0] half_init(input int unsigned h);
    for (int i = 0; i < 16; i++) half_init[16 * i +: 16] = Reset[32 * i + 16 * h +: 16];
  endfunction
  logic unused_rst;
  assign unused_rst = rst_ni;
  for (genvar h = 0; h < 2; h++) begin : g_bram
    SB_RAM40_4K #(
      .READ_MODE  (0),
      .WRITE_MODE (0),
      .INIT_0     (half_init(h))
    ) u_bram (
      .RDATA (rdata_o[16 * h +: 16]),
      .RADDR ({7'd0, raddr_i}),
      .RCLK  (clk_i),
      .RCLKE (1'b1),
      .RE    (1'b1),
      .WADDR ({7'd0, waddr_i}),
      .WCLK  (clk_i),
      .WCLKE (we_i),
      .WE    (1'b1),
      .WDATA (wdata_i[16 * h +: 16]),
      .MASK  (16'd0)
    );
  end
`else
  logic [31:0] mem_q [16];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < 16; i++) mem_q[i] <= Reset[32 * i +: 32];
      rdata_o <= '0;
    end else begin
      if (we_i) mem_q[waddr_i] <= wdata_i;
      rdata_o <= mem_q[raddr_i];
    end
  end
`endif
endmodule
