// mt_tu_precomp: the hold's sample against the compressor's state, in three registered stages
// that run every cycle (pa_*, pb_*, and stage C in mt_tu_enc, each from the one before), so that
// the arbitration (mt_tu_arb) chooses from flip-flops.  Neither the hold nor the history, the
// report index, the run or the previous sample changes in the three cycles before a cycle in
// which the hold acts (it was captured at least five cycles ago, and every act is followed by
// four rest cycles, its wide update in the first: contract v4), so there they are the state's
// values at the choice.  Stage A: the 56-bit compares as 16-bit group results, the skip's zero
// test, the low halves of the skip (hold index - report index) and of the DELTA difference (hold
// - newest entry), index + 1 and the sample point for the report; stage B: the matches, the run
// test and the high halves with stage A's borrows (the skip's as a carry: the report index comes
// complemented, h - r = h + ~r + 1, docs/trace-unit-rtl.md section 3); stage C: DELTA or FULL,
// the payload and its LEB length.  Without the compressor (Compress = 0, the minimal build) the
// history is never valid: no compare is built, and synthesis removes the DELTA path and the run
// test behind it.
module mt_tu_precomp #(
  parameter bit Compress = 1'b1   // the compressor is built (mt_tu_ctrl)
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  // The hold (its address part already in the encoder's format)
  input  logic [55:0]  hold_a_i,
  input  logic         hold_rw_i,
  input  logic [39:0]  hold_idx_i,
  input  logic [47:0]  hold_nsp_i,      // its sample point + r
  // The compressor's state
  input  logic [1:0]   enc_fmt_i,
  input  logic [167:0] hist_i,          // entry i at [i*56 +: 56], newest first
  input  logic [2:0]   hist_valid_i,
  input  logic [39:0]  rep_idx_n_i,     // the report index, complemented (mt_tu_ctrl)
  input  logic [1:0]   prev_idx_i,
  input  logic         prev_rw_i,
  input  logic         prev_valid_i,
  input  logic [6:0]   run_cnt_i,
  // Stage A
  output logic [39:0]  idx1_o,          // the hold's index + 1 (its report's rep_idx)
  output logic [47:0]  nsp_o,           // its sample point + r (its report's rep_cycle)
  output logic         skip_zero_o,     // its index is the report index
  // Stage B
  output logic [39:0]  skip_o,          // its index - the report index
  output logic         any_match_o,     // it matches a valid history entry
  output logic [1:0]   midx_o,          // the first entry it matches
  output logic         absorbed_o,      // it extends the run (no bytes, no room needed)
  // Stage C: were it to match nothing
  output logic         delta_o,         // DELTA (else FULL)
  output logic [55:0]  pay_o,           // its payload
  output logic [3:0]   pay_len_o        // and the payload's LEB length
);
  logic [11:0] pa_sup_eq_q;
  logic [39:0] pa_idx1_q;
  logic [47:0] pa_nsp_q;
  logic        pa_skip_zero_q;
  logic [20:0] pa_skip_lo_q;    // [20]: the carry (no borrow: h - r = h + ~r + 1)
  logic [28:0] pa_diff_lo_q;    // [28]: borrow
  logic [19:0] pb_skip_hi_q;
  logic [27:0] pb_diff_hi_q;
  logic        pb_any_q, pb_absorbed_q;
  logic [1:0]  pb_midx_q;
  logic [11:0] pa_sup_eq_d;
  if (!Compress) begin : g_no_eq
    assign pa_sup_eq_d = '0;
    logic unused_hist;   // (entry 0 still feeds the DELTA difference, which nothing then reads)
    assign unused_hist = ^hist_i[167:56];
  end else for (genvar i = 0; i < 3; i++) begin : g_eq
    // a two-level tree of kept 4-bit group results: left to itself the mapper chains the 56-bit
    // compare through LUTs
    (* keep *) logic [13:0] grp_eq;
    for (genvar g = 0; g < 14; g++) begin : g_grp
      assign grp_eq[g] = (hist_i[i*56 + g*4 +: 4] == hold_a_i[g*4 +: 4]);
    end
    assign pa_sup_eq_d[i*4 +: 4] = {&grp_eq[13:12], &grp_eq[11:8], &grp_eq[7:4], &grp_eq[3:0]};
  end
  logic [2:0] pb_eq;
  logic       pb_any, pb_absorbed;
  logic [1:0] pb_midx;
  always_comb begin
    for (int i = 0; i < 3; i++) pb_eq[i] = hist_valid_i[i] && (&pa_sup_eq_q[i*4 +: 4]);
    pb_any = |pb_eq;
    pb_midx = pb_eq[0] ? 2'd0 : (pb_eq[1] ? 2'd1 : 2'd2);
    // the sample extends the run (no bytes, no room needed)
    pb_absorbed = prev_valid_i && pb_any && (pb_midx == prev_idx_i) && (hold_rw_i == prev_rw_i) &&
                  pa_skip_zero_q && (run_cnt_i != mt_tu_pkg::RunMax);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pa_sup_eq_q <= '0;   pa_skip_zero_q <= 1'b0; pa_idx1_q <= '0; pa_nsp_q <= '0; pa_skip_lo_q <= '0; pa_diff_lo_q <= '0;
      pb_skip_hi_q <= '0;  pb_diff_hi_q <= '0;
      pb_any_q <= 1'b0;    pb_absorbed_q <= 1'b0;  pb_midx_q <= '0;
    end else begin
      pa_sup_eq_q    <= pa_sup_eq_d;
      pa_skip_zero_q <= (hold_idx_i == ~rep_idx_n_i);
      pa_idx1_q      <= hold_idx_i + 40'd1;
      pa_nsp_q       <= hold_nsp_i;
      pa_skip_lo_q   <= {1'b0, hold_idx_i[19:0]} + {1'b0, rep_idx_n_i[19:0]} + 21'd1;
      pa_diff_lo_q   <= {1'b0, hold_a_i[27:0]} - {1'b0, hist_i[27:0]};
      pb_skip_hi_q   <= hold_idx_i[39:20] + rep_idx_n_i[39:20] + 20'(pa_skip_lo_q[20]);
      pb_diff_hi_q   <= hold_a_i[55:28] - hist_i[55:28] - 28'(pa_diff_lo_q[28]);
      pb_any_q       <= pb_any;
      pb_absorbed_q  <= pb_absorbed;
      pb_midx_q      <= pb_midx;
    end
  end

  // Stage C (mt_tu_enc): DELTA or FULL for the hold's sample, were it to match nothing (against
  // the newest entry at the choice), its payload and LEB length, registered every cycle.  In the
  // cycle after a choice (the chosen packet's P1) these registers hold the values of the choice's
  // cycle, whose state stage B still reflected.
  logic        pc_delta_q, e_delta;
  logic [55:0] pc_pay_q, e_pay;
  logic [3:0]  pc_pay_len_q, e_pay_len;
  mt_tu_enc u_enc (
    .clk_i,
    .rst_ni,
    .fmt_i       (enc_fmt_i),
    .a_i         (hold_a_i),
    .diff_i      ({pb_diff_hi_q, pa_diff_lo_q[27:0]}),
    .ref_valid_i (hist_valid_i[0]),
    .delta_o     (e_delta),
    .pay_o       (e_pay),
    .pay_len_o   (e_pay_len)
  );
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pc_delta_q <= 1'b0;  pc_pay_q <= '0;  pc_pay_len_q <= '0;
    end else begin
      pc_delta_q <= e_delta;  pc_pay_q <= e_pay;  pc_pay_len_q <= e_pay_len;
    end
  end

  assign idx1_o      = pa_idx1_q;
  assign nsp_o       = pa_nsp_q;
  assign skip_o      = {pb_skip_hi_q, pa_skip_lo_q[19:0]};
  assign skip_zero_o = pa_skip_zero_q;
  assign any_match_o = pb_any_q;
  assign midx_o      = pb_midx_q;
  assign absorbed_o  = pb_absorbed_q;
  assign delta_o     = pc_delta_q;
  assign pay_o       = pc_pay_q;
  assign pay_len_o   = pc_pay_len_q;
endmodule
