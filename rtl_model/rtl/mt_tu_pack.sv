// mt_tu_pack: the one packet assembler of the trace unit (the last pipeline stage before the
// FIFO).  Every packet of docs/trace-format.md has the same shape: a fixed prefix of 1..7 bytes
// (header, and for SYNC its signature and seq, for SECTION its flags, for a sample or RUN its run
// byte) followed by at most two LEB128 fields (SYNC: prev_bytes, cycle; SECTION: r, cycle;
// OVERFLOW/MARKER: the value; END: samples, dropped; sample: skip, payload).  The field lengths
// come in with the fields (the stage before computed them), so this stage only forms the LEB
// bytes and shifts them into place.  Sharing one assembler among all packet types keeps the unit
// small: the arbiter selects values, not finished packets.
//
// The FIFO's write port takes Lanes bytes a clock (8, or 4: mt_tu_fifo), so the assembler forms
// one chunk of the packet at a time: bytes Lanes * ck_i .. Lanes * ck_i + Lanes - 1, chunk k in
// the k-th clock of the packet.  (A 4-byte chunk needs half the selects and rotators of an 8-byte
// one.)
//
// Two steps (contract v4's pipeline): in the clock of its inputs the LEB bytes, the prefix with
// field A in place (the whole 14-byte word) and field B's rotation are formed and registered; in
// the next clock the chunk's bytes are selected from that word, field B is rotated into place and
// the two are merged (bytes_o).  (The chunk's select was in the first step until 2026-12-06: after
// field A's LEB bytes and the prefix's select it made the first step seven tables deep, the
// minimal build's worst path on most placement seeds; in the second it runs beside field B's
// rotation.)
module mt_tu_pack #(
  parameter int unsigned Lanes = 8,  // bytes a chunk: 8 or 4
  // Field A is 0 whenever its length is 0 (the caller guarantees it: mt_tu_pktpipe's FaClean),
  // so its bytes need no mask for an absent field
  parameter bit          FaClean = 1'b0
) (
  input  logic        clk_i,
  input  logic [55:0] pre_i,      // prefix, byte 0 in [7:0]; bytes past pre_len_i are zero
  input  logic [2:0]  pre_len_i,  // 1, 2 or 7
  input  logic [47:0] fa_i,       // first LEB field (up to 7 bytes)
  input  logic [3:0]  la_i,       // its LEB length, 0 when absent
  input  logic [55:0] fb_i,       // second LEB field (up to 8 bytes)
  input  logic [3:0]  lb_i,       // its LEB length, 0 when absent
  input  logic [1:0]  ck_i,       // which chunk of the packet (0 .. 16 / Lanes - 1)
  output logic [Lanes*8-1:0] bytes_o   // one clock after the inputs
);
  localparam int unsigned W = Lanes * 8;   // bits a chunk
  logic [55:0] fa_bytes;
  logic [63:0] fb_bytes;
  logic [3:0]  off_b, rot_b, ck_off;

  // A field's LEB bytes are its 7-bit groups with the continuation bits set below its length:
  // no mask of the groups by the length, since a field's value is below 2^(7 * length) (its
  // length is the value's minimal LEB length, mt_tu_pktpipe's P1), so its groups at and past the
  // length are 0 already.  Only an absent field (length 0) may carry a value, which the bytes
  // must not show: field B's are zeroed then (OVERFLOW and MARKER carry SYNC's cycle there);
  // field A's only without FaClean (a RUN's field A is a sample's skip or MARKER's value).
  // (The mask cost a table for most of the 120 bits: docs/trace-unit-rtl.md section 3, "The LEB
  // bytes without a mask".)
  logic [55:0] fa_leb;
  assign fa_leb   = 56'(mt_tu_pkg::leb_groups({8'd0, fa_i}, la_i));
  assign fa_bytes = (FaClean || la_i != 4'd0) ? fa_leb : 56'd0;
  assign fb_bytes = (lb_i != 4'd0) ? mt_tu_pkg::leb_groups(fb_i, lb_i) : 64'd0;
  assign off_b  = {1'b0, pre_len_i} + la_i;
  assign ck_off = (Lanes == 4) ? {ck_i, 2'b00} : {ck_i[0], 3'b000};   // the chunk's first byte
  // field B's offset within this chunk, mod 16 (negative when it started in an earlier chunk)
  assign rot_b  = off_b - ck_off;

  logic [111:0] a;       // prefix + field A, the packet's bytes 0..13
  logic [W-1:0] a_sh;    // the same, this chunk's bytes
  logic [W-1:0] b_sh;    // field B, this chunk
  always_comb begin
    // the prefix is 1, 2 (a header and one byte) or 7 bytes (SYNC) long: a select, not a shifter
    // (field A is at most 7 bytes, so the two end within 14 bytes)
    if (pre_len_i[2]) a = {fa_bytes, 56'd0};
    else if (pre_len_i[1]) a = {40'd0, fa_bytes, 16'd0};
    else a = {48'd0, fa_bytes, 8'd0};
    a = a | {56'd0, pre_i};
  end

  logic [111:0] a_q;
  logic [63:0]  fb_bytes_q;
  logic [3:0]   rot_b_q, ck_off_q;
  // (no reset: these carry the packet of P2, read only through the FIFO's write mask, which
  // covers only a packet's chunks; mt_tu_pktpipe, "the stages' data without a reset")
  always_ff @(posedge clk_i) begin
    a_q <= a;  fb_bytes_q <= fb_bytes;  rot_b_q <= rot_b;  ck_off_q <= ck_off;
  end

  // the chunk's bytes of the prefix and field A (bytes past 13 are zero)
  assign a_sh = W'({16'd0, a_q} >> {ck_off_q, 3'b000});

  // field B rotated left by rot_b bytes within 16 (its non-zero bytes never wrap: a packet is at
  // most 16 bytes), the largest step first; only the chunk's bytes are kept
  always_comb begin
    logic [127:0] y;
    y = {64'd0, fb_bytes_q};
    if (rot_b_q[3]) y = {y[63:0], y[127:64]};
    if (rot_b_q[2]) y = {y[95:0], y[127:96]};
    if (rot_b_q[1]) y = {y[111:0], y[127:112]};
    if (rot_b_q[0]) y = {y[119:0], y[127:120]};
    b_sh = y[W-1:0];
  end

  assign bytes_o = a_sh | b_sh;
endmodule
