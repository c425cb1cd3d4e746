// mt_tu_enc: the ETE-style sample compressor's planning step (combinational), the hardware
// twin of lib/mt_enc.c mt_enc_plan_sample().  Given the history state and one sample it says
// whether the sample extends the current run (absorbed: no bytes), or else which packet to write:
// MATCH i when the address part equals a valid history entry (lowest index first), DELTA when
// hist[0] is valid and the LEB of the zigzag delta is strictly shorter than the LEB of the value,
// FULL otherwise; with the run prefix (run_cnt > 0) and the skip prefix (skip > 0).
// The caller assembles the packet (mt_tu_pack) and commits (history push, run counter) only if
// it fits in the FIFO.
module mt_tu_enc (
  input  logic [1:0]      fmt_i,         // the encoder's format (set at SYNC/SECTION)
  input  logic [167:0]    hist_i,        // entry i at [i*56 +: 56], newest first
  input  logic [2:0]      hist_valid_i,
  input  logic [1:0]      prev_idx_i,
  input  logic            prev_rw_i,
  input  logic            prev_valid_i,
  input  logic [6:0]      run_cnt_i,
  input  logic [55:0]     a_i,           // address part, already reduced to w bits
  input  logic            rw_i,
  input  logic [39:0]     skip_i,
  output logic            absorbed_o,
  output logic            push_o,        // DELTA or FULL: the value enters the history
  output logic [1:0]      match_idx_o,   // MATCH index (valid when !push_o)
  output logic [7:0]      hdr_o,         // sample header byte
  output logic            has_run_o,     // run prefix (the run byte follows the header)
  output logic            has_skip_o,    // skip prefix (LEB of skip_i)
  output logic            pay_en_o,      // DELTA/FULL payload present
  output logic [55:0]     pay_o,         // payload value (zigzag delta or the address part)
  output logic [3:0]      pay_len_o      // its LEB length (known here: no second length tree)
);
  logic [55:0] mask;
  logic [55:0] a;
  logic [2:0]  eq;
  logic        any_match;
  logic [1:0]  midx;

  assign mask = mt_tu_pkg::fmt_mask(fmt_i);
  assign a    = a_i & mask;

  for (genvar i = 0; i < 3; i++) begin : g_eq
    assign eq[i] = hist_valid_i[i] && (hist_i[i*56 +: 56] == a);
  end
  assign any_match = |eq;
  assign midx = eq[0] ? 2'd0 : (eq[1] ? 2'd1 : 2'd2);

  // Delta against the newest entry, zigzag-coded in w bits.
  logic [55:0] d, z, sign_mask;
  logic [5:0]  w;
  logic        sign;
  assign w = mt_tu_pkg::fmt_width(fmt_i);
  assign d = (a - hist_i[55:0]) & mask;
  assign sign = d[w - 6'd1];
  assign sign_mask = sign ? mask : '0;
  assign z = ((d << 1) ^ sign_mask) & mask;

  logic [3:0] len_a, len_z;
  assign len_a = mt_tu_pkg::leb_len({8'd0, a});
  assign len_z = mt_tu_pkg::leb_len({8'd0, z});

  logic        use_delta;
  assign use_delta = hist_valid_i[0] && (len_z < len_a);

  assign absorbed_o = prev_valid_i && any_match && (midx == prev_idx_i) && (rw_i == prev_rw_i) &&
                      (skip_i == '0) && (run_cnt_i < mt_tu_pkg::RunMax);
  assign push_o = !any_match;
  assign match_idx_o = midx;

  // The packet's parts, assembled by mt_tu_pack: header, [run byte], [skip LEB], [payload LEB].
  logic [2:0] op;
  assign op         = any_match ? {1'b0, midx} : (use_delta ? mt_tu_pkg::OpDelta : mt_tu_pkg::OpFull);
  assign has_run_o  = (run_cnt_i != '0);
  assign has_skip_o = (skip_i != '0);
  assign hdr_o      = mt_tu_pkg::HdrSample | {1'b0, op, rw_i, has_run_o, has_skip_o, 1'b0};
  assign pay_en_o   = !any_match;
  assign pay_o      = use_delta ? z : a;
  assign pay_len_o  = use_delta ? len_z : len_a;
endmodule
