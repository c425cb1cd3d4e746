// mt_tu_enc: the value step of the ETE-style sample compressor (combinational), run in the first
// pipeline stage after the arbitration (docs/trace-unit.md section 4, contract v2): for a sample
// that matched no history entry it picks DELTA when the newest entry at the time of the choice was
// valid and the LEB of the zigzag delta against it is strictly shorter than the LEB of the value,
// FULL otherwise (lib/mt_enc.c mt_enc_plan_sample).  The match/run decision itself is made in the
// arbitration cycle (mt_tu_ctrl); the subtraction is P1's too (mt_tu_ctrl, against history entry
// 1); this stage takes the raw difference and forms the zigzag value, the LEB lengths and the
// choice.
module mt_tu_enc (
  input  logic [1:0]  fmt_i,        // the encoder's format
  input  logic [55:0] a_i,          // the sample's address part, already reduced to w bits
  input  logic [55:0] diff_i,       // a minus the newest history entry at the time of the choice
  input  logic        ref_valid_i,  // that entry was valid
  output logic        delta_o,      // DELTA (else FULL)
  output logic [55:0] pay_o,        // payload value (zigzag delta or the address part)
  output logic [3:0]  pay_len_o     // its LEB length
);
  logic [55:0] mask;
  assign mask = mt_tu_pkg::fmt_mask(fmt_i);

  // Delta against the reference, zigzag-coded in w bits.
  logic [55:0] d, z, sign_mask;
  logic [5:0]  w;
  logic        sign;
  assign w = mt_tu_pkg::fmt_width(fmt_i);
  assign d = diff_i & mask;
  assign sign = d[w - 6'd1];
  assign sign_mask = sign ? mask : '0;
  assign z = ((d << 1) ^ sign_mask) & mask;

  logic [3:0] len_a, len_z;
  assign len_a = mt_tu_pkg::leb_len({8'd0, a_i});
  assign len_z = mt_tu_pkg::leb_len({8'd0, z});

  assign delta_o   = ref_valid_i && (len_z < len_a);
  assign pay_o     = delta_o ? z : a_i;
  assign pay_len_o = delta_o ? len_z : len_a;
endmodule
