// mt_tu_spram: a single-port RAM with the iCE40 UltraPlus SPRAM's behaviour (SB_SPRAM256KA,
// 16 K x 16 each): one access a clock, a read or a write at one address.  A read (re_i, we_i low)
// puts the row on rdata_o at the next clock; a clock with neither holds rdata_o; after a write
// rdata_o is undefined (the primitive's DATAOUT is X then), so a user may rely on rdata_o only in
// the clock after a read and until the next write.
//
// For iCE40 synthesis (MT_TU_ICE40) ceil(Width / 16) SB_SPRAM256KA side by side (yosys infers
// no SPRAM without -spram, and the unit wants the count of them fixed by the RTL), or block RAM
// on a device without SPRAM (MT_TU_NO_SPRAM: the HX8K); elsewhere
// (Verilator, lint) an array that models the undefined output after a write by a value that
// is not the row's (the complement of the data written), so that a user reading rdata_o after
// a write diverges from the C model in co-simulation instead of agreeing by chance.
module mt_tu_spram #(
  parameter int unsigned Depth = 16384,  // rows, at most 16384 (one SPRAM deep)
  parameter int unsigned Width = 16,     // bits per row
  localparam int unsigned AW = $clog2(Depth)
) (
  input  logic             clk_i,
  input  logic             re_i,
  input  logic             we_i,         // a write wins over a read in the same clock
  input  logic [AW-1:0]    addr_i,
  input  logic [Width-1:0] wdata_i,
  output logic [Width-1:0] rdata_o
);
`ifdef MT_TU_ICE40
`ifdef MT_TU_NO_SPRAM
  // The iCE40 HX and LP have no SPRAM (run_synth.sh defines MT_TU_NO_SPRAM for the HX8K): block
  // RAM, a read enable on its output register, the same behaviour but for the undefined output.
  (* ram_style = "block", no_rw_check *) logic [Width-1:0] mem [Depth];
  always_ff @(posedge clk_i) begin
    if (we_i) mem[addr_i] <= wdata_i;
    if (re_i && !we_i) rdata_o <= mem[addr_i];
  end
`else
  localparam int unsigned N = (Width + 15) / 16;
  logic [N*16-1:0] wd, rd;
  assign wd = (N*16)'(wdata_i);
  for (genvar i = 0; i < N; i++) begin : g_spram
    SB_SPRAM256KA u_spram (
      .ADDRESS    (14'(addr_i)),
      .DATAIN     (wd[i*16 +: 16]),
      .MASKWREN   (4'b1111),
      .WREN       (we_i),
      .CHIPSELECT (re_i || we_i),
      .CLOCK      (clk_i),
      .STANDBY    (1'b0),
      .SLEEP      (1'b0),
      .POWEROFF   (1'b1),
      .DATAOUT    (rd[i*16 +: 16])
    );
  end
  assign rdata_o = rd[Width-1:0];
  logic unused_rd;
  if (N*16 > Width) begin : g_pad
    assign unused_rd = ^rd[N*16-1:Width];
  end else begin : g_nopad
    assign unused_rd = 1'b0;
  end
`endif
`else
  logic [Width-1:0] mem [Depth];
  always_ff @(posedge clk_i) begin
    if (we_i) begin
      mem[addr_i] <= wdata_i;
      rdata_o <= ~wdata_i;   // undefined in the primitive: not the row (see above)
    end else if (re_i) begin
      rdata_o <= mem[addr_i];
    end
  end
`endif
endmodule
