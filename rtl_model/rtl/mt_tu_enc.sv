// mt_tu_enc: the ETE-style sample compressor's planning step (combinational), the hardware
// twin of lib/mt_enc.c mt_enc_plan_sample().  Given the history state and one sample it says
// whether the sample extends the current run (absorbed: no bytes), or else which packet to write:
// MATCH i when the address part equals a valid history entry (lowest index first), DELTA when
// hist[0] is valid and the LEB of the zigzag delta is strictly shorter than the LEB of the value,
// FULL otherwise; with the run prefix (run_cnt > 0) and the skip prefix (skip > 0).
// The caller commits (history push, run counter) only if the packet fits in the FIFO.
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
  output logic [4:0]      len_o,         // packet length (0 when absorbed)
  output logic [127:0]    bytes_o
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

  // Packet: header, [run LEB], [skip LEB], [payload LEB].
  logic [2:0]   op;
  logic         has_run, has_skip;
  logic [3:0]   len_skip, len_pay;
  logic [55:0]  pay;
  logic [79:0]  skip_bytes, pay_bytes;
  logic [4:0]   off_skip, off_pay;
  logic [127:0] pkt;

  assign op       = any_match ? {1'b0, midx} : (use_delta ? mt_tu_pkg::OpDelta : mt_tu_pkg::OpFull);
  assign has_run  = (run_cnt_i != '0);
  assign has_skip = (skip_i != '0);
  assign len_skip = mt_tu_pkg::leb_len({24'd0, skip_i});
  assign pay      = use_delta ? z : a;
  assign len_pay  = any_match ? 4'd0 : (use_delta ? len_z : len_a);
  assign skip_bytes = mt_tu_pkg::leb_bytes({24'd0, skip_i}, len_skip);
  assign pay_bytes  = mt_tu_pkg::leb_bytes({8'd0, pay}, len_pay);
  assign off_skip = has_run ? 5'd2 : 5'd1;
  assign off_pay  = off_skip + (has_skip ? {1'b0, len_skip} : 5'd0);

  always_comb begin
    pkt = '0;
    pkt[7:0] = mt_tu_pkg::HdrSample | {1'b0, op, rw_i, has_run, has_skip, 1'b0};
    if (has_run) pkt[15:8] = {1'b0, run_cnt_i};
    if (has_skip) pkt = pkt | (128'(skip_bytes) << {off_skip, 3'b000});
    pkt = pkt | (128'(pay_bytes) << {off_pay, 3'b000});
  end

  assign bytes_o = pkt;
  assign len_o   = absorbed_o ? 5'd0 : (off_pay + {1'b0, len_pay});
endmodule
