// mt_tu_leb: minimal unsigned LEB128 of a value of up to W bits (docs/trace-format.md 1):
// 7 bits per byte, least significant group first, bit 7 set on every byte but the last.
// Purely combinational; len_o is 1..ceil(W/7).
module mt_tu_leb #(
  parameter int unsigned W = 56,
  localparam int unsigned NB = (W + 6) / 7
) (
  input  logic [W-1:0]    val_i,
  output logic [NB*8-1:0] bytes_o,
  output logic [3:0]      len_o
);
  logic [NB*7-1:0] v;
  logic [NB-1:0]   nz;  // group i is non-zero
  assign v = (NB*7)'(val_i);

  for (genvar i = 0; i < NB; i++) begin : g_grp
    assign nz[i] = |v[i*7 +: 7];
  end

  // The length is one more than the index of the highest non-zero group (1 for zero).
  always_comb begin
    len_o = 4'd1;
    for (int i = 1; i < NB; i++) begin
      if (nz[i]) len_o = 4'(i + 1);
    end
  end

  for (genvar i = 0; i < NB; i++) begin : g_byte
    assign bytes_o[i*8 +: 8] = {(len_o > 4'(i + 1)), v[i*7 +: 7]};
  end
endmodule
