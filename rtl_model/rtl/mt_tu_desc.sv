// mt_tu_desc: the descriptor of the arbitration's winner (or of the RUN that flushes before it),
// which P1 (mt_tu_pktpipe) registers: the prefix (header, run or SYNC byte, its length), field
// A's and field B's values where the choice's cycle has them, whether each is present, and the
// packet's length bound for the SYNC estimate.  (The section start after a switch: rep_cycle
// holds it from the switch to its SECTION, which resets the report state anyway, so no separate
// section-start register; P1 reads it.)
module mt_tu_desc #(
  // The compressor (mt_tu_ctrl's Compress): with it the history takes the sample's value part
  // from P1's field B register (fb_o), so a sample's descriptor carries it; without it nothing
  // reads that value (a sample's field B in P1 is the precompute's payload, mt_tu_pktpipe's
  // q_fb), so field B is SYNC's cycle alone and its select goes (44 tables of the minimal build)
  parameter bit Compress = 1'b1
) (
  // The winning row (mt_tu_arb): at most one is set
  input  logic        r_hold_i,         // the hold's sample
  input  logic        r_hold_w_i,       // (a copy for the wide fields)
  input  logic        r_sect_i,
  input  logic        r_sync_i,
  input  logic        r_ovf_i,
  input  logic        r_mark_i,         // the MARKER row: r_mark_i || r_murg_i
  input  logic        r_murg_i,         // (row 0, the urgent MARKER: a first-level table)
  input  logic        r_end_i,
  input  logic        s_sect_i,         // SECTION, unless a RUN flushes first
  input  logic        s_sync_i,         // SYNC, the same
  // The compressor's state
  input  logic        run_nz_i,         // a run is open
  input  logic [6:0]  run_cnt_i,
  input  logic [7:0]  sync_seq_i,
  // The hold's sample and the precompute's results (mt_tu_precomp)
  input  logic [55:0] a_i,
  input  logic        rw_i,
  input  logic        any_match_i,
  input  logic [1:0]  midx_i,
  input  logic        skip_zero_i,
  input  logic [39:0] skip_i,
  // Other fields' sources in the choice's cycle
  input  logic [1:0]  fmt_i,            // the section's format (SECTION)
  input  logic [31:0] marker_val_i,     // MARKER's value
  input  logic [47:0] t_i,              // the cycle (SYNC)
  output logic [7:0]  hdr_o,
  output logic [7:0]  b1_o,             // the byte after the header (run count, SECTION's, SYNC's seq)
  output logic [2:0]  pre_len_o,        // the prefix's length
  output logic [4:0]  bound_o,          // length bound for the SYNC estimate (lib/mt_unit.c BOUND_*)
  output logic        fa_en_o,          // field A is present ...
  output logic [47:0] fa_o,             // ... with this value unless P1 supplies it
  output logic        fb_en_o,          // field B, the same
  output logic [55:0] fb_o,
  output logic        sample_o          // a sample packet (the hold's, matching nothing)
);
  // The descriptor as an AND-OR of the rows, at most two levels behind them: it matters only
  // when a packet is written (P1's valid bit), and then exactly one of r_hold_i and the packet rows
  // is set (r_hold_i excludes them), so no row needs a priority over another.  A written packet
  // that is not the hold's sample is a RUN when a run is open, else the winning row's.  The
  // sample's own bits come from registers; the wide fields take a copy of r_hold_i (r_hold_w_i).
  //   header:  sample bits 7..0 = 1, 0, m1, m0, rw, run, !skip_zero_i, 0 (m: the match, when one;
  //            P1 adds the op),
  //            RUN 01, SYNC 00, SECTION 02, OVERFLOW 03, MARKER 04, END 05;
  //   bound:   sample 1 + run + (skip ? 6 : 0) + (match ? 0 : 8), RUN 2, SECTION 14, SYNC 16,
  //            END 13, OVERFLOW and MARKER 6.
  localparam logic [4:0] BndRun = 5'd2, BndSection = 5'd14, BndSync = 5'd16, BndValue = 5'd6;
  localparam logic [4:0] BndEnd = 5'd13;
  logic [7:0] k_hs, k_hr;   // the sample's header; the packet rows' (an OR: one row is set)
  logic [4:0] k_bs, k_br;   // the same for the bound
  assign k_hs = mt_tu_pkg::HdrSample | {1'b0, (any_match_i ? {1'b0, midx_i} : 3'd0), rw_i, run_nz_i,
                                        !skip_zero_i, 1'b0};
  assign k_hr = ({8{r_sect_i}} & mt_tu_pkg::HdrSection) | ({8{r_sync_i}} & mt_tu_pkg::HdrSync) |
                ({8{r_ovf_i}} & mt_tu_pkg::HdrOverflow) | ({8{r_mark_i || r_murg_i}} & mt_tu_pkg::HdrMarker) |
                ({8{r_end_i}} & mt_tu_pkg::HdrEnd);
  assign k_bs = 5'd1 + (run_nz_i ? 5'd1 : 5'd0) + (skip_zero_i ? 5'd0 : 5'd6) +
                (any_match_i ? 5'd0 : 5'd8);
  assign k_br = ({5{r_sect_i}} & BndSection) | ({5{r_sync_i}} & BndSync) | ({5{r_end_i}} & BndEnd) |
                ({5{r_ovf_i || r_mark_i || r_murg_i}} & BndValue);
  // (per bit: r_hold_i ? the sample's : a run ? RUN's : the row's, as LSelRun where RUN's bit is
  // set, else LSelNr)
  for (genvar b = 0; b < 8; b++) begin : g_khdr
    mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::HdrRun[b] ? mt_tu_pkg::LSelRun :
                                                                    mt_tu_pkg::LSelNr))) u_l (
      .i({k_hr[b], run_nz_i, k_hs[b], r_hold_i}), .o(hdr_o[b]));
  end
  for (genvar b = 0; b < 5; b++) begin : g_kbound
    mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(BndRun[b] ? mt_tu_pkg::LSelRun : mt_tu_pkg::LSelNr))) u_l (
      .i({k_br[b], run_nz_i, k_bs[b], r_hold_i}), .o(bound_o[b]));
  end
  // field B: the sample's when it matches nothing; SECTION's, SYNC's and END's
  logic k_fb_row, nmatch;
  assign k_fb_row = r_sect_i || r_sync_i || r_end_i;
  assign nmatch   = !any_match_i;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LSelNr)))  u_l_kfb (.i({k_fb_row, run_nz_i, nmatch, r_hold_i}), .o(fb_en_o));
  // the run byte: a RUN's, or a sample's when a run is open (0 otherwise, as run_cnt is); else
  // SECTION's or SYNC's.  SECTION's span bit is P1's (sec_span_q then holds the choice's b_span,
  // which is behind the switch: q_b1)
  logic [7:0] k_b1_row;
  assign k_b1_row = ({8{r_sect_i}} & {1'b1, 4'd0, fmt_i, 1'b0}) | ({8{r_sync_i}} & sync_seq_i);
  assign b1_o = run_nz_i ? {1'b0, run_cnt_i} : k_b1_row;
  assign pre_len_o = s_sync_i ? 3'd7 : ((run_nz_i || s_sect_i) ? 3'd2 : 3'd1);
  assign fa_en_o = r_hold_i ? !skip_zero_i : !run_nz_i;
  // (SYNC's prev_bytes, SECTION's rate, OVERFLOW's count and END's sample count: P1 supplies
  // them; a MARKER's value otherwise)
  assign fa_o = r_hold_w_i ? {8'd0, skip_i} : {16'd0, marker_val_i};
  // (SECTION's start and END's drop count: P1 supplies them; SYNC's cycle otherwise; a sample's
  // value part for the history, which P1's field B does not take: its payload is stage C's)
  assign fb_o = (Compress && r_hold_w_i) ? a_i : {8'd0, t_i};
  assign sample_o = r_hold_i && !any_match_i;
endmodule
