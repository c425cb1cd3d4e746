// mt_tu_pack: the one packet assembler of the trace unit (the last pipeline stage before the
// FIFO).  Every packet of docs/trace-format.md has the same shape: a fixed prefix of 1..7 bytes
// (header, and for SYNC its signature and seq, for SECTION its flags, for a sample or RUN its run
// byte) followed by at most two LEB128 fields (SYNC: prev_bytes, cycle; SECTION: r, cycle;
// OVERFLOW/MARKER: the value; END: samples, dropped; sample: skip, payload).  The field lengths
// come in with the fields (the stage before computed them), so this stage only forms the LEB
// bytes and shifts them into place.  Sharing one assembler among all packet types keeps the unit
// small: the arbiter selects values, not finished packets.
//
// The FIFO's write port is 8 bytes wide (contract v3), so the assembler forms one half of the
// packet at a time: bytes 0..7 (half_i = 0) or bytes 8..15 (half_i = 1, the clock after).
//
// Two steps (contract v4's pipeline): in the clock of its inputs the LEB bytes, the prefix with
// field A in place and field B's rotation are formed and registered; in the next clock field B is
// rotated into place and the two are merged (bytes_o).
module mt_tu_pack (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [55:0] pre_i,      // prefix, byte 0 in [7:0]; bytes past pre_len_i are zero
  input  logic [2:0]  pre_len_i,  // 1, 2 or 7
  input  logic [47:0] fa_i,       // first LEB field (up to 7 bytes)
  input  logic [3:0]  la_i,       // its LEB length, 0 when absent
  input  logic [55:0] fb_i,       // second LEB field (up to 8 bytes)
  input  logic [3:0]  lb_i,       // its LEB length, 0 when absent
  input  logic        half_i,     // which 8 bytes of the packet
  output logic [63:0] bytes_o      // one clock after the inputs
);
  logic [55:0] fa_bytes;
  logic [63:0] fb_bytes;
  logic [3:0]  off_b, rot_b;

  assign fa_bytes = 56'(mt_tu_pkg::leb_bytes({16'd0, fa_i}, la_i));
  assign fb_bytes = 64'(mt_tu_pkg::leb_bytes({8'd0, fb_i}, lb_i));
  assign off_b = {1'b0, pre_len_i} + la_i;
  // field B's offset within this half, mod 16 (negative when it started in the first half)
  assign rot_b = {off_b[3] ^ half_i, off_b[2:0]};

  logic [63:0] a_sh;    // prefix + field A, this half
  logic [63:0] b_sh;    // field B, this half
  always_comb begin
    // the prefix is 1, 2 (a header and one byte) or 7 bytes (SYNC) long: a select, not a shifter
    // (field A is at most 7 bytes, so after a 1-byte prefix it ends in the first half)
    if (!half_i) begin
      if (pre_len_i[2]) a_sh = {fa_bytes[7:0], 56'd0};
      else if (pre_len_i[1]) a_sh = {fa_bytes[47:0], 16'd0};
      else a_sh = {fa_bytes, 8'd0};
      a_sh = a_sh | {8'd0, pre_i};
    end else begin
      if (pre_len_i[2]) a_sh = {16'd0, fa_bytes[55:8]};
      else if (pre_len_i[1]) a_sh = {56'd0, fa_bytes[55:48]};
      else a_sh = '0;
    end
  end

  logic [63:0] a_sh_q, fb_bytes_q;
  logic [3:0]  rot_b_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_sh_q <= '0;  fb_bytes_q <= '0;  rot_b_q <= '0;
    end else begin
      a_sh_q <= a_sh;  fb_bytes_q <= fb_bytes;  rot_b_q <= rot_b;
    end
  end

  // field B rotated left by rot_b bytes within 16 (its non-zero bytes never wrap: a packet is at
  // most 16 bytes), the largest step first; only the low 8 bytes are kept
  always_comb begin
    logic [127:0] y;
    y = {64'd0, fb_bytes_q};
    if (rot_b_q[3]) y = {y[63:0], y[127:64]};
    if (rot_b_q[2]) y = {y[95:0], y[127:96]};
    if (rot_b_q[1]) y = {y[111:0], y[127:112]};
    if (rot_b_q[0]) y = {y[119:0], y[127:120]};
    b_sh = y[63:0];
  end

  assign bytes_o = a_sh_q | b_sh;
endmodule
