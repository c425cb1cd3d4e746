// mt_tu_ram: one FIFO bank, a simple dual-port RAM (one write port, one read port) with a
// registered, read-first output.  Written in the plain form that yosys maps to an iCE40
// SB_RAM40_4K and Verilator simulates as an array (read-first); the FIFO never reads a byte in
// the cycle it is written (bytes are committed one cycle after they are written), so this RAM
// never needs to be transparent.
module mt_tu_ram #(
  parameter int unsigned Depth = 256,  // entries
  parameter int unsigned Width = 8,    // bits per entry
  localparam int unsigned AW = $clog2(Depth)
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [AW-1:0]    waddr_i,
  input  logic [Width-1:0] wdata_i,
  input  logic [AW-1:0]    raddr_i,
  output logic [Width-1:0] rdata_o
);
  // no_rw_check: a read of the row being written may return anything (the FIFO does not use
  // that byte), so yosys maps to a bare SB_RAM40_4K instead of adding collision logic.
  (* no_rw_check *) logic [Width-1:0] mem [Depth];

  always_ff @(posedge clk_i) begin
    if (we_i) mem[waddr_i] <= wdata_i;
    rdata_o <= mem[raddr_i];
  end
endmodule
