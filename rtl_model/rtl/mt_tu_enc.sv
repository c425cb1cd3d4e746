// mt_tu_enc: the value step of the ETE-style sample compressor, for the sample in the hold: were
// it to match no history entry, DELTA when the newest entry at the time of the choice is valid
// and the LEB of the zigzag delta against it is strictly shorter than the LEB of the value, FULL
// otherwise (lib/mt_enc.c mt_enc_plan_sample).  The match/run decision is the arbitration's
// (mt_tu_arb), the difference is formed in the precompute before it (mt_tu_precomp, stages A and
// B).  Two steps: stage C (registered here) forms the zigzag value and which 7-bit groups of it
// are non-zero, and from the value its LEB length and which groups lie at or above its highest
// non-zero one; stage D (combinational, in the cycle of the choice, registered for its P1) the
// choice, as "no non-zero group of the delta at or above the value's highest" rather than a
// compare of two lengths, the delta's LEB length and the payload.  Under contract v4 the inputs
// are stable for the three cycles before any cycle in which the hold is chosen, so stage C's
// registers hold their values then.
module mt_tu_enc (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [1:0]  fmt_i,        // the encoder's format
  input  logic [55:0] a_i,          // the sample's address part, already reduced to w bits
  input  logic [55:0] diff_i,       // a minus the newest history entry
  input  logic        ref_valid_i,  // that entry is valid
  output logic        delta_o,      // DELTA (else FULL)
  output logic [55:0] pay_o,        // payload value (zigzag delta or the address part)
  output logic [3:0]  pay_len_o     // its LEB length
);
  // Stage C: the delta in w bits, zigzag-coded; the non-zero 7-bit groups of it and of a.
  // The sign is the top bit of the w-bit delta (fmt 0: 44 bits, 1: 26, 2: 56, 3: 50), a select
  // of four register bits in two levels of tables; its last level in one copy per 7-bit group
  // (sign_g), so that no single net fans out to all of z.
  logic [55:0] mask, d, z;
  logic        sign_lo, sign_hi;   // fmt 0 or 1; fmt 2 or 3
  logic [7:0]  sign_g;
  assign mask = mt_tu_pkg::fmt_mask(fmt_i);
  assign d    = diff_i & mask;
  localparam logic [15:0] LSel = mt_tu_pkg::lut_sel();   // i[0] ? i[2] : i[1]
  mt_tu_lut4 #(.Init(LSel)) u_l_slo (.i({1'b0, diff_i[25], diff_i[43], fmt_i[0]}), .o(sign_lo));
  mt_tu_lut4 #(.Init(LSel)) u_l_shi (.i({1'b0, diff_i[49], diff_i[55], fmt_i[0]}), .o(sign_hi));
  for (genvar g = 0; g < 8; g++) begin : g_sign
    mt_tu_lut4 #(.Init(LSel)) u_l (.i({1'b0, sign_hi, sign_lo, fmt_i[1]}), .o(sign_g[g]));
  end
  always_comb begin
    logic [55:0] sm;
    for (int i = 0; i < 56; i++) sm[i] = sign_g[i / 7];
    z = ((d << 1) ^ (sm & mask)) & mask;
  end

  // LEB length = 1 + the index of the highest non-zero group (1 for 0).
  function automatic logic [3:0] len_of(input logic [7:0] nz);
    len_of = 4'd1;
    for (int g = 1; g < 8; g++) begin
      if (nz[g]) len_of = 4'(g + 1);
    end
  endfunction
  // (as one level of tables over the groups and the top four's OR: the mapper otherwise chains
  // a_top_le from the top down, seven levels, even through kept nets)
  logic [7:0] a_nz;
  logic       a_nz_hi;    // a group of the top four is non-zero
  logic [7:0] a_top_le;   // a_top_le[g]: no non-zero group of a above g
  always_comb begin
    for (int g = 0; g < 8; g++) a_nz[g] = |a_i[g*7 +: 7];
  end
  localparam logic [15:0] LNor = mt_tu_pkg::lut_match(4'b1111, 4'b0000);
  mt_tu_lut4 #(.Init(~LNor)) u_l_nzhi (.i(a_nz[7:4]), .o(a_nz_hi));
  // g >= 3: none of a_nz[g+1..7] (at most four); g < 3: not a_nz_hi, none of a_nz[g+1..3]
  mt_tu_lut4 #(.Init(LNor)) u_l_le6 (.i({3'b0, a_nz[7]}), .o(a_top_le[6]));
  mt_tu_lut4 #(.Init(LNor)) u_l_le5 (.i({2'b0, a_nz[7:6]}), .o(a_top_le[5]));
  mt_tu_lut4 #(.Init(LNor)) u_l_le4 (.i({1'b0, a_nz[7:5]}), .o(a_top_le[4]));
  mt_tu_lut4 #(.Init(LNor)) u_l_le3 (.i(a_nz[7:4]), .o(a_top_le[3]));
  mt_tu_lut4 #(.Init(LNor)) u_l_le2 (.i({2'b0, a_nz_hi, a_nz[3]}), .o(a_top_le[2]));
  mt_tu_lut4 #(.Init(LNor)) u_l_le1 (.i({1'b0, a_nz_hi, a_nz[3:2]}), .o(a_top_le[1]));
  mt_tu_lut4 #(.Init(LNor)) u_l_le0 (.i({a_nz_hi, a_nz[3:1]}), .o(a_top_le[0]));
  assign a_top_le[7] = 1'b1;

  logic [55:0] z_q;
  logic [7:0]  z_nz_q;     // group g (bits 7g..7g+6) is non-zero
  logic [7:0]  a_top_le_q;
  logic        a_long_q;   // a's LEB is longer than one byte
  logic [3:0]  len_a_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      z_q <= '0;  z_nz_q <= '0;  a_top_le_q <= '0;  a_long_q <= 1'b0;  len_a_q <= '0;
    end else begin
      z_q <= z;
      for (int g = 0; g < 8; g++) z_nz_q[g] <= |z[g*7 +: 7];
      a_top_le_q <= a_top_le;
      a_long_q   <= |a_i[55:7];
      len_a_q    <= len_of(a_nz);
    end
  end

  // Stage D: the delta's LEB is strictly shorter than the value's when the value's is longer than
  // one byte and no group of the delta at or above the value's highest non-zero one is non-zero.
  logic [3:0] len_z;
  assign len_z = len_of(z_nz_q);

  assign delta_o   = ref_valid_i && a_long_q && !(|(z_nz_q & a_top_le_q));
  assign pay_o     = delta_o ? z_q : a_i;
  assign pay_len_o = delta_o ? len_z : len_a_q;
endmodule
