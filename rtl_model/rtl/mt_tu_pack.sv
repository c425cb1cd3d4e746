// mt_tu_pack: the one packet assembler of the trace unit (the last pipeline stage before the
// FIFO).  Every packet of docs/trace-format.md has the same shape: a fixed prefix of 1..7 bytes
// (header, and for SYNC its signature and seq, for SECTION its flags, for a sample or RUN its run
// byte) followed by at most two LEB128 fields (SYNC: prev_bytes, cycle; SECTION: r, cycle;
// OVERFLOW/MARKER: the value; END: samples, dropped; sample: skip, payload).  The field lengths
// come in with the fields (the stage before computed them), so this stage only forms the LEB
// bytes and shifts them into place.  Sharing one assembler among all packet types keeps the unit
// small: the arbiter selects values, not finished packets.
module mt_tu_pack (
  input  logic [55:0]  pre_i,      // prefix, byte 0 in [7:0]; bytes past pre_len_i are zero
  input  logic [2:0]   pre_len_i,  // 1, 2 or 7
  input  logic [47:0]  fa_i,       // first LEB field (up to 7 bytes)
  input  logic [3:0]   la_i,       // its LEB length, 0 when absent
  input  logic [55:0]  fb_i,       // second LEB field (up to 8 bytes)
  input  logic [3:0]   lb_i,       // its LEB length, 0 when absent
  output logic [127:0] bytes_o
);
  logic [55:0] fa_bytes;
  logic [63:0] fb_bytes;
  logic [3:0]  off_b;

  assign fa_bytes = 56'(mt_tu_pkg::leb_bytes({16'd0, fa_i}, la_i));
  assign fb_bytes = 64'(mt_tu_pkg::leb_bytes({8'd0, fb_i}, lb_i));
  assign off_b = {1'b0, pre_len_i} + la_i;

  // Byte shifters as explicit stages (shift amounts in bytes).
  logic [111:0] a_sh;    // prefix + field A: at most 14 bytes
  logic [127:0] b_sh;
  always_comb begin
    logic [111:0] x;
    logic [127:0] y;
    // the prefix is 1, 2 (a header and one byte) or 7 bytes (SYNC) long: a 3-way select, not a
    // shifter by 0..7
    if (pre_len_i[2]) x = {fa_bytes, 56'd0};
    else if (pre_len_i[1]) x = {40'd0, fa_bytes, 16'd0};
    else x = {48'd0, fa_bytes, 8'd0};
    a_sh = x | {56'd0, pre_i};
    y = {64'd0, fb_bytes};
    if (off_b[0]) y = {y[119:0], 8'd0};
    if (off_b[1]) y = {y[111:0], 16'd0};
    if (off_b[2]) y = {y[95:0], 32'd0};
    if (off_b[3]) y = {y[63:0], 64'd0};
    b_sh = y;
  end

  assign bytes_o = {16'd0, a_sh} | b_sh;
endmodule
