// mt_tu_leblen: the LEB128 length (1..7 bytes) of a 48-bit value, as four levels of 4-input tables
// (mt_tu_lut4).  For the counters in SB_MAC16 blocks (the cycle counter, SAMPLES), whose outputs
// arrive late and far away: left to itself the mapper chains the group tests and the encode five
// levels deep.  The length is 1 + the index of the highest non-zero 7-bit group above the first
// (g1 = bits 13:7 .. g6 = bits 47:42):
//   level 1: each group's bits ORed in two chunks;
//   level 2: G6, G5, G4, G3, G6|G5, G4|G3, G2|G1 and G2|!G1 from the chunks;
//   level 3: len[2] = G6|G5|G4|G3, len[1] = (G6|G5) | (!(G4|G3) & (G2|G1)),
//            T = G4 | (!G3 & (G2|!G1));
//   level 4: len[0] = G6 | (!G5 & T)   (lengths 1, 3, 5, 7).
module mt_tu_leblen (
  input  logic [47:0] v_i,
  output logic [3:0]  len_o
);
  logic unused_low;   // the first group's bits do not change the length
  assign unused_low = ^v_i[6:0];
  localparam logic [15:0] LNz = ~mt_tu_pkg::lut_match(4'b1111, 4'b0000);   // any input set
  // level 1: chunk c[2j] = the group's low bits, c[2j+1] its high bits (group j = 1..6 at 2j-2)
  logic [11:0] c;
  for (genvar j = 1; j <= 6; j++) begin : g_chunk
    localparam int unsigned Lo = 7 * j;
    localparam int unsigned Hi = (j == 6) ? 47 : 7 * j + 6;
    mt_tu_lut4 #(.Init(LNz)) u_lo (.i(v_i[Lo +: 4]), .o(c[2 * j - 2]));
    if (Hi - Lo + 1 == 7) begin : g_hi3
      mt_tu_lut4 #(.Init(LNz)) u_hi (.i({1'b0, v_i[Lo + 4 +: 3]}), .o(c[2 * j - 1]));
    end else begin : g_hi2
      mt_tu_lut4 #(.Init(LNz)) u_hi (.i({2'b0, v_i[Lo + 4 +: 2]}), .o(c[2 * j - 1]));
    end
  end
  // level 2
  logic g6, g5, g4, g3, g65, g43, g21, g2n1;
  mt_tu_lut4 #(.Init(LNz)) u_g6  (.i({2'b0, c[11:10]}), .o(g6));
  mt_tu_lut4 #(.Init(LNz)) u_g5  (.i({2'b0, c[9:8]}), .o(g5));
  mt_tu_lut4 #(.Init(LNz)) u_g4  (.i({2'b0, c[7:6]}), .o(g4));
  mt_tu_lut4 #(.Init(LNz)) u_g3  (.i({2'b0, c[5:4]}), .o(g3));
  mt_tu_lut4 #(.Init(LNz)) u_g65 (.i(c[11:8]), .o(g65));
  mt_tu_lut4 #(.Init(LNz)) u_g43 (.i(c[7:4]), .o(g43));
  mt_tu_lut4 #(.Init(LNz)) u_g21 (.i(c[3:0]), .o(g21));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_leb(0))) u_g2n1 (.i(c[3:0]), .o(g2n1));
  // level 3
  logic t;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_leb(1))) u_l2 (.i({2'b0, g43, g65}), .o(len_o[2]));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_leb(2))) u_l1 (.i({1'b0, g21, g43, g65}), .o(len_o[1]));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_leb(3))) u_t  (.i({1'b0, g2n1, g3, g4}), .o(t));
  // level 4
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_leb(4))) u_l0 (.i({1'b0, t, g5, g6}), .o(len_o[0]));
  assign len_o[3] = 1'b0;
endmodule
