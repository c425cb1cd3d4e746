// mt_tu_ctrl: the trace unit's control path, one clock of docs/trace-unit.md section 4 per cycle.
// It keeps the session (enable/disable, the latched configuration), the schedule (bursts and
// spans, sample points that never drift, interval indices), the hold, the pending flags and the
// compressor's state, and forms their next state; the datapath pieces it steers are modules of
// their own:
//   mt_tu_capture   the capture's kind / tap filter and the access's address part (4.C)
//   mt_tu_arb       the arbitration: at most one packet per clock, the hold's fate (4.D)
//   mt_tu_precomp   the hold's precompute (stages A-C) against the compressor's state
//   mt_tu_desc      the winner's descriptor
//   mt_tu_pktpipe   the packet pipeline behind the choice, into the FIFO
//   mt_tu_syncest   the SYNC byte count and estimate (4.E)
//   mt_tu_counters  t, SAMPLES, BYTES, OVERFLOW's count, DROPPED
//   mt_tu_markval   MARKER's value
//   mt_tu_cfgram    the configuration latched at the start
//
// Contract v4: the arbitration acts at most once every MT_UNIT_PACE (5) cycles and a capture
// competes from capture + 5, so the hold's compare, skip and DELTA difference are precomputed in
// registered stages before the choice, the choice decides from flip-flops in four levels of
// 4-input tables (mt_tu_lut4), and the wide state it changes is written in the next cycle.  The
// packet is built in a pipeline behind the choice (P1: the payload, the fields taken after the
// choice, the LEB lengths as a select of lengths registered a cycle early; P2, PQ: assembly; PW:
// write into the FIFO's banks; P3: commit into the FIFO's occupancy), so it enters the FIFO at
// the end of the fifth cycle after the choice (MT_UNIT_LATENCY = 5 in lib/mt_unit.h).
//
// Time is counted down rather than compared: sec_left = sec_end - t and sp_left = next_sp - t,
// which replaces two 64-bit comparators with decrementers and zero tests.  A load takes the new
// length or rate as it is, with no subtraction after the select, and the cycle after it counts
// down by 2 (sec_dec1_q, sp_dec1_q are 0 then: the register holds the true value + 1 in that
// cycle; they are the decrement's carry-in, straight from a flip-flop).
module mt_tu_ctrl #(
  parameter int unsigned Depth = 4096,
  parameter bit          FullFmt = 1'b1,   // the full and line formats are built (mt_tu)
  parameter int unsigned Lanes = 8,         // the FIFO's write port in bytes (mt_tu_fifo)
  localparam int unsigned OccW = $clog2(Depth + 1)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // Access port
  input  logic            acc_valid_i,
  input  logic [55:0]     acc_addr_i,
  input  logic            acc_write_i,
  input  logic [2:0]      acc_kind_i,
  input  logic            acc_tap_i,
  // Configuration registers (as written) and commands
  input  logic [4:0]      kind_mask_i,
  input  logic            tap_i,
  input  logic [1:0]      fmt_h_i,
  input  logic [1:0]      fmt_l_i,
  // SYNC_PERIOD and a section's {RATE, LEN} as written two cycles ago (rates, SYNC_PERIOD: before
  // rate_norm, sync_norm), the section (1: span) chosen by the read address of the last cycle
  // (mt_tu_awram, two read ports)
  output logic            aw_raddr_a_o,
  output logic            aw_raddr_b_o,
  input  logic [13:0]     aw_sync_i,
  input  logic [71:0]     aw_word_a_i,
  input  logic [71:0]     aw_word_b_i,
  input  logic            len_h_zero_i,   // LEN_H == 0 as written now
  input  logic            first_l_i,      // LEN_H == 0 and LEN_L != 0 as written now
  input  logic [1:0]      fmt_first_i,    // the first section's format as written now
  input  logic            len_l_zero_i,
  input  logic            len_h_one_i,    // LEN_H == 1 as written now
  input  logic            len_l_one_i,
  input  logic            len_h_two_i,    // LEN_H == 2 as written now
  input  logic            len_l_two_i,
  input  logic            rate_h_one_i,   // RATE_H == 1 as written now
  input  logic            rate_l_one_i,
  input  logic            sync_lo_i,      // SYNC_PERIOD < 64 as written now
  input  logic            sync_hi_i,      // SYNC_PERIOD > 8192 as written now
  input  logic            ctrl_wr_i,
  input  logic [3:0]       ctrl_dec_i,   // its partial decode (mt_tu_regs: ctrl_dec_o)
  input  logic            marker_wr_i,
  input  logic [2:0]       mark_dec_i,   // its partial decode (mt_tu_regs: mark_dec_o)
  input  logic [31:0]     wdata_i,
  // FIFO
  input  logic [OccW-1:0] fifo_occ_i,
  input  logic            fifo_room_i,    // room for a packet (and the one in P3 next cycle)
  output logic            fifo_inflight_o,  // a packet is in P3 next cycle
  input  logic            fifo_half_i,    // OVERFLOW waits for a FIFO at most half full
  output logic            fifo_wr_o,
  output logic [3:0]      fifo_cnt_o,     // bytes of this write (0..8)
  output logic            fifo_wr_next_o, // fifo_wr_o and fifo_cnt_o of the next cycle
  output logic [3:0]      fifo_cnt_next_o,
  output logic [Lanes*8-1:0] fifo_data_o,
  output logic            fifo_commit_o,
  output logic [4:0]      fifo_commit_len_o,
  output logic            fifo_commit_next_o,     // fifo_commit_o and fifo_commit_len_o of the
  output logic [4:0]      fifo_commit_len_next_o, // next cycle
  // State for the registers
  output logic [7:0]      status_o,
  output logic [31:0]     dropped_o,
  output logic [31:0]     dropped_q_o,    // the count register (dropped_o of the last cycle)
  output logic [47:0]     samples_o,
  output logic [47:0]     bytes_o,
  output logic [63:0]     cycle_o,
  // For the reduce mode's record queue (mt_tu_rdpath): an interval open in an active session in
  // this clock (the capture's open without the access), and the hold's valid flag
  output logic            int_open_o,
  output logic            hold_valid_o
);
  // ---------------------------------------------------------------------------------------------
  // State
  // (registers of the pieces this module steers, read here under their own names: the counters,
  // mt_tu_counters; MARKER's value, mt_tu_markval; the SYNC byte count, mt_tu_syncest; the
  // precompute's index + 1 and sample point + r, mt_tu_precomp)
  logic [63:0] t_q;
  logic [47:0] samples_q, bytes_q;
  logic [31:0] drop_pending_q, dropped_q;
  logic [31:0] dr_eff;              // DROPPED now (dropped_q + drops_q), for dropped_o
  logic [31:0] marker_val_q;
  logic [13:0] sync_bytes_q;
  logic [39:0] pa_idx1_q;         // the hold's index + 1 (its report's rep_idx)
  logic [47:0] pa_nsp_q;          // and its sample point + r (its report's rep_cycle)
  // the session
  logic        active_q, busy_q;
  // latched configuration
  logic [4:0]  c_kind_mask_q;
  logic        c_tap_q;
  logic [1:0]  c_fmt_h_q, c_fmt_l_q;
  // (rates, lengths and SYNC period in block RAM, mt_tu_cfgram: valid from two cycles after the
  // start on, which is before their first use)
  logic [13:0] c_sync_period_q;
  // the latched rate and length of the section that follows the current one (sw_span), as
  // written (normalised where they are loaded: rate_norm, len_ld, c_both_zero_q)
  logic [31:0] c_rate_n;
  logic [39:0] c_len_n;
  logic        c_r1_h_q, c_r1_l_q;     // the latched rates are 1 (flip-flops, latched at the start)
  logic        c_one_h_q, c_one_l_q;   // the latched lengths are 1 (before they count as 2)
  logic        c_two_h_q, c_two_l_q;   // the latched lengths count as 2 (they are 1 or 2)
  logic        c_sync_lo_q, c_sync_hi_q;  // the latched SYNC_PERIOD is clamped (mt_tu_pkg)
  logic [13:0] aw_sync;                // SYNC_PERIOD as written, as the session uses it
  // schedule
  logic        sec_span_q;
  logic [31:0] sec_r_q;
  // sec_left = sec_end - t (+ 1 while !sec_dec1_q), in two halves with a registered borrow
  // (mt_tu_cntdown): its low half and whether its high half is zero
  logic [19:0] sec_left_lo;
  logic        sec_left_hi_zero;
  logic [31:0] sp_left_q;    // next_sp - t (+ 1 while !sp_dec1_q)
  logic        sec_dec1_q, sp_dec1_q;   // the register was not loaded in the last cycle
  logic        sec_r1_q;     // the section's rate is 1
  logic        int_open_q;
  logic [39:0] int_idx_q;
  logic [39:0] next_idx_q;   // index of the next interval to open
  // hold (skid register)
  logic        hold_valid_q, hold_after_q, hold_rw_q;
  logic [55:0] hold_a_q;
  logic [39:0] hold_idx_q;
  logic [47:0] hold_nsp_q;  // the hold's sample point + r (its report's rep_cycle)
  logic [23:0] hn_thi_q;    // its high half's operands and the low half's carry
  logic [7:0]  hn_xhi_q;
  logic        hn_c_q;
  logic [23:0] t_lo_q;      // t of the last cycle, low half
  // pending packets
  logic        sect_pending_q, sect_switch_q, sync_pending_q, marker_pending_q, end_pending_q;
  logic        marker_urgent_q;   // the pending MARKER was passed by an act (row 0 of 4.D)
  // The report index is kept complemented (rep_idx_nq = ~rep_idx): its one reader is the skip's
  // subtraction (mt_tu_precomp), whose carry chain takes the subtrahend inverted, and an inverted
  // flip-flop output costs a table a bit in front of a carry chain, where the next state's select
  // absorbs the inversion for free.
  logic [39:0] rep_idx_nq;
  logic [47:0] rep_cycle_q;
  // compressor
  logic [1:0]  enc_fmt_q;
  logic [167:0] hist_q;      // entry i at [i*56 +: 56], newest first
  localparam logic [55:0] HistMask = FullFmt ? {56{1'b1}} : {12'd0, {44{1'b1}}};
  // The minimal build (FullFmt = 0) is the seed's unit: no ETE-style compressor either (no
  // history, no DELTA, no run: every sample a FULL packet, as the C model with
  // mt_unit_params.plain; docs/trace-unit-rtl.md section 6).
  localparam bit Compress = FullFmt;
  logic [2:0]  hist_valid_q;
  logic [1:0]  prev_idx_q;
  logic        prev_rw_q, prev_valid_q;
  logic [6:0]  run_cnt_q;
  // SYNC bookkeeping
  logic [7:0]  sync_seq_q;
  // Drops are counted one cycle late: drops_q (0..3) of the last cycle is added to the counts
  // (mt_tu_counters: the counts of docs/trace-unit.md are those plus drops_q), so the late drop
  // decision of the arbitration ends in a 2-bit register, not in two 32-bit additions.
  logic [1:0]  drops_q, drops_d;
  // The decision of the last cycle, for the wide state updates (contract v4: applied one cycle
  // late): a RUN written, the hold's sample absorbed / written, SECTION (and whether it followed a
  // switch, its format), SYNC.
  logic        dec_run_q, dec_abs_q, dec_hw_q, dec_sect_q, dec_sect_sw_q, dec_sync_q;
  logic [1:0]  dec_fmt_q;
  logic        start_now;         // a session starts at the end of this cycle
  logic        start_cfg;         // the same (a copy for the configuration latches)
  logic        sp_zero_d;         // sp_left_d == 0, from the operands
  // Drops not yet reported (OVERFLOW's count != 0) as two flip-flops, so that this cycle's drops
  // end in a register: the count without the last cycle's drops is non-zero (dp_old_nz_q), the
  // last cycle's drops were (drops_nz_q).  OVERFLOWED is set from drops_nz_q too, one cycle late,
  // and read as overflowed_q || drops_nz_q.
  logic        dp_old_nz_q, dp_old_nz_d, drops_nz_q;
  logic        overflowed_q, marker_lost_q;

  // Next-state copies (the always_comb below walks section 4 in order, like the C model).
  logic        active_d, busy_d;
  logic [4:0]  c_kind_mask_d;
  logic        c_tap_d;
  logic [1:0]  c_fmt_h_d, c_fmt_l_d;
  logic        c_we;            // a session's first two cycles: the configuration RAM takes a word
  logic        sec_span_d;
  logic [31:0] sec_r_d;
  logic [31:0] sp_left_d;
  logic        int_open_d;
  logic [39:0] int_idx_d;
  logic [39:0] next_idx_d;
  logic        hold_valid_d, hold_after_d, hold_rw_d;
  logic [55:0] hold_a_d;
  logic [39:0] hold_idx_d;
  logic        sect_pending_d, sect_switch_d, sync_pending_d, marker_pending_d, end_pending_d;
  logic        marker_urgent_d;
  logic [39:0] rep_idx_d;
  logic [47:0] rep_cycle_d;
  logic [1:0]  enc_fmt_d;
  logic [167:0] hist_d;
  logic [2:0]  hist_valid_d;
  logic [1:0]  prev_idx_d;
  logic        prev_rw_d, prev_valid_d;
  logic [6:0]  run_cnt_d;
  logic [7:0]  sync_seq_d;
  logic        overflowed_d, marker_lost_d;

  // ---------------------------------------------------------------------------------------------
  // Section B: schedule (combinational part, used by capture and arbitration).
  logic        sw;            // section switch this cycle
  logic        sw_span;       // type of the new section
  logic [39:0] sw_len;        // the new section's length
  logic        sp_hit;        // a new interval opens this cycle
  logic        b_int_open;
  logic [39:0] b_int_idx;
  logic [1:0]  b_fmt;
  logic [31:0] b_r;
  logic        b_span;
  logic        b_hold_valid;

  // The section that follows a section of type `span`: the other type unless its length is 0.
  // A session's first cycle (first_q) loads its first section the same way (sw_ld): the rates and
  // lengths are then those of the configuration as written (aw_i, which equals the latched one in
  // the first two cycles of a session: the ENABLE was the last register write before them), since
  // the configuration RAM (mt_tu_cfgram) is written in the first cycle and read from the third.
  logic c_len_h_zero_q, c_len_l_zero_q;   // latched with the lengths
  logic first_q, young_q;                  // the session's first cycle; its first two cycles
  logic sw_ld, ld_span;
  logic c_both_zero_q;                     // LEN_H and LEN_L are 0: bursts of 2^40 - 1
  // Contract v4: a section length of 1 counts as 2, so that a switch is never due in the cycle
  // after a length is loaded, nor in the one after it (the zero test then needs only the running
  // count, and the count-down by 2 after a load needs no test).  The latched lengths are kept so
  // normalised in the configuration RAM; with no subtraction, a load is a select.
  // (1 -> 2 changes bits 1:0 only: the other bits are the register's, with no logic; whether the
  // length is 1 was flagged when it was written and latched at the start, c_one_*_q)
  function automatic logic [39:0] len_ld(input logic [39:0] len, input logic is1);
    len_ld = {len[39:2], len[1] || is1, len[0] && !is1};
  endfunction
  // The section loaded reads its rate and length by the block RAMs' read address, not by a
  // select after them: both RAMs (mt_tu_awram's port a, mt_tu_cfgram) are read every cycle at the
  // section that the next load takes, so their outputs hold that section's word (the load's type
  // can change only with a load, and loads are at least three cycles apart, the first two of a
  // session excepted, which port a serves).  Port a: at the ENABLE's cycle the first section
  // (first_l_i), then the section after the current (sw_span).  The configuration RAM is read at
  // sw_span too; it is written in the session's first two cycles from port b, which reads at the
  // ENABLE's cycle the section after the first and in the first cycle the first, so that the
  // section that a switch in the third cycle loads is readable from that cycle on.
  assign aw_sync     = mt_tu_pkg::sync_norm(aw_sync_i, c_sync_lo_q, c_sync_hi_q);
  logic one_ld;       // the loaded length is 1 (it counts as 2)
  logic [39:0] len_raw;
  always_comb begin
    if (sec_span_q) sw_span = c_len_h_zero_q;
    else sw_span = !c_len_l_zero_q;
    ld_span = first_q ? sec_span_q : sw_span;
    one_ld = ld_span ? c_one_l_q : c_one_h_q;
    len_raw = young_q ? aw_word_a_i[39:0] : c_len_n;
    sw_len = c_both_zero_q ? 40'hFF_FFFF_FFFF : len_ld(len_raw, one_ld);
  end
  assign aw_raddr_a_o = active_q ? sw_span : first_l_i;
  assign aw_raddr_b_o = first_q ? sec_span_q : (first_l_i || !len_l_zero_i);

  // "sec_left == 0" and "sp_left == 0" are registered one cycle ahead (from the _d values), so
  // the 40- and 32-bit zero tests are not at the head of the arbitration path.
  // The format of this cycle (after a switch) is registered one cycle ahead too (b_fmt_q, from
  // the same _d values): it selects the capture's address part at the head of the match path.
  logic sp_zero_q, sw_q;   // sw_q: active and sec_left == 0
  logic [1:0] b_fmt_q;
  assign sw     = sw_q;
  // (sw_ld = sw || first_q, and a copy sw_ld_w for the wide loads: tables, below)
  logic sw_ld_w;
  assign b_span = sw_ld ? ld_span : sec_span_q;
  // (without the full and line formats bit 1 of a format is 0 (mt_tu_regs), which the constant
  // says to synthesis: the address parts, the history and the DELTA path then narrow to 44 bits)
  assign b_fmt  = {FullFmt && b_fmt_q[1], b_fmt_q[0]};
  always_comb begin
    if (!sw_ld_w) b_r = sec_r_q;
    else b_r = mt_tu_pkg::rate_norm(young_q ? aw_word_a_i[71:40] : c_rate_n, r1_ld);
  end
  // (sp_hit = active_q && (sw_ld || sp_zero_q), one table over the flip-flops rather than one
  // after sw_ld, in three copies: the narrow loads, the interval's index, the schedule's counters;
  // tables below)
  logic sp_hit_x, sp_hit_w;
  assign b_int_open = sp_hit ? 1'b1 : (sw ? 1'b0 : int_open_q);
  assign b_int_idx  = sp_hit_x ? (sw_ld_w ? 40'd0 : next_idx_q) : int_idx_q;
  // (no register for the interval's sample point: what a report needs is its sample point + r,
  // which is the next sample point, t + sp_left, or t + r when the interval opens now)
  // Formed from registers, in halves, after the capture (a report is at least five cycles after
  // it): in the next cycle sp_left_q holds r or sp_left - 1, so the point is t_lo_q (the
  // capture's t) + sp_left_q + sp_dec1_q; that cycle adds the low 24 bits and keeps the carry and
  // the high operands with the hold, which adds the high half in the cycle after.
  logic [24:0] hn_lo;
  assign hn_lo = {1'b0, t_lo_q} + {1'b0, sp_left_q[23:0]} + 25'(sp_dec1_q);
  // The hold's tag "after the barrier": for a capture, the barrier at the end of its cycle, which
  // is the pending flags at the start of the next (hold_new_q: the hold was loaded in the last
  // cycle); later the registered tag, which a SECTION clears.  So the choice does not reach it.
  // The arbitration takes it without sync_due (hold_after_arb, b_hold_valid_arb): sync_due is
  // set only two cycles after a choice, in a rest cycle, where the arbitration's outcome does not
  // matter.
  // (hold_after_arb and b_hold_valid_arb are look-up tables of the arbitration below)
  logic hold_new_q, hold_after;
  logic hold_after_arb;
  assign hold_after       = hold_after_arb || (hold_new_q && sync_due);
  assign b_hold_valid     = hold_valid_q && !(sw && hold_after);
  // (the start of a session sets sp_left to 0; otherwise sp_left_d is b_r - 1 or sp_left - 1,
  // the true values)
  // sp_zero_d = start_now || (sp_hit ? b_r1 : sp_eq) in explicit tables (the mapper chained the
  // 32-bit compare seven levels deep, and put the switch behind sw_ld's fan-out): sp_eq
  // (sp_left == 1 after a count-down by 1, == 2 after one by 2) in three levels from the
  // registers, b_r1 (the rate of the interval that opens is 1) and sp_hit one table after the
  // switch's flip-flop, the start one table before the result.
  logic sp_eq, r1_ld, b_r1, sp_low_ok;
  logic [7:0] sp_hi_z;      // sp_left_q[31:2] == 0, in groups of four bits (the last of two)
  logic [1:0] sp_hi_zz;
  localparam logic [15:0] LZero4c = mt_tu_pkg::lut_match(4'b1111, 4'b0000);
  localparam logic [15:0] LAll4c  = mt_tu_pkg::lut_match(4'b1111, 4'b1111);
  for (genvar k = 0; k < 7; k++) begin : g_spz
    mt_tu_lut4 #(.Init(LZero4c)) u_l (.i(sp_left_q[4 * k + 2 +: 4]), .o(sp_hi_z[k]));
  end
  mt_tu_lut4 #(.Init(LZero4c)) u_l_spz7 (.i({2'b0, sp_left_q[31:30]}), .o(sp_hi_z[7]));
  mt_tu_lut4 #(.Init(LAll4c)) u_l_spzz0 (.i(sp_hi_z[3:0]), .o(sp_hi_zz[0]));
  mt_tu_lut4 #(.Init(LAll4c)) u_l_spzz1 (.i(sp_hi_z[7:4]), .o(sp_hi_zz[1]));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LSpLow))) u_l_splow (.i({1'b0, sp_dec1_q, sp_left_q[1:0]}), .o(sp_low_ok));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b0111, 4'b0111))) u_l_speq (
    .i({1'b0, sp_low_ok, sp_hi_zz}), .o(sp_eq));
  assign r1_ld = ld_span ? c_r1_l_q : c_r1_h_q;
  // (the table, u_l_spz, is with the others below)

  // Section C: capture.  Contract v4: a capture always goes to the hold (below), where the
  // precompute forms its history compare, DELTA difference and skip over the next two cycles; it
  // competes from the fifth cycle after its capture (MT_UNIT_PACE).
  // pass: the access's kind passes the filter (kinds 0..4), in two levels of tables; cap_open: it
  // is valid, its tap is traced and a capture is possible (active, an interval open), in two;
  // cap = pass && cap_open.
  logic        pass, cap_open, cap;
  logic [55:0] cap_a;

  // a section loads (sw_ld), in two copies: sw_ld_w for the wide loads, so that the narrow ones
  // are not behind its fan-out
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LOr2))) u_l_swld  (.i({2'b0, first_q, sw}), .o(sw_ld));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LOr2))) u_l_swldw (.i({2'b0, first_q, sw}), .o(sw_ld_w));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LSpHit))) u_l_sph  (.i({sp_zero_q, first_q, sw, active_q}), .o(sp_hit));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LSpHit))) u_l_sphx (.i({sp_zero_q, first_q, sw, active_q}), .o(sp_hit_x));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LSpHit))) u_l_sphw (.i({sp_zero_q, first_q, sw, active_q}), .o(sp_hit_w));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LBr1))) u_l_br1 (.i({sec_r1_q, r1_ld, first_q, sw}), .o(b_r1));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LStartOr))) u_l_spz (.i({sp_eq, b_r1, sp_hit, start_now}), .o(sp_zero_d));

  // Section D: the arbitration (mt_tu_arb), four levels of tables over flip-flops; contract v4:
  // after a cycle in which it acted come four rest cycles, and the hold's sample is ready in the
  // fifth cycle after its capture (hold_age_q counts 0..4), so every recurrence through the
  // compressor's state has five clocks: the choice, the wide state's update (dec_*), and the
  // precompute's three stages.
  logic [2:0] hold_age_q, hold_age_d;
  logic       hold_ready, ready_q;   // (hold_ready as a flip-flop)
  assign hold_ready = ready_q;
  logic gate, spsw;
  logic r_hold, r_hold_w, r_sect, r_sync, r_ovf, r_mark, r_murg, r_end, r_pkt;
  logic hold_act, hold_cnt, hold_load, hold_take_w, hold_take_x, hold_take_y, cap_dropped_c;
  logic s_sect, s_sync, s_ovf, s_mark, s_end;
  logic w_sect, w_sync, w_ovf, w_mark, w_end;
  logic write, arb_act;
  mt_tu_capture u_capture (
    .acc_valid_i,
    .acc_addr_i,
    .acc_kind_i,
    .acc_tap_i,
    .kind_mask_i (c_kind_mask_q),
    .tap_i       (c_tap_q),
    .active_i    (active_q),
    .fmt_i       (b_fmt),
    .sp_zero_i   (sp_zero_q),
    .int_open_i  (int_open_q),
    .first_i     (first_q),
    .sw_i        (sw),
    .pass_o      (pass),
    .open_o      (cap_open),
    .a_o         (cap_a)
  );
  mt_tu_arb u_arb (
    .clk_i,
    .rst_ni,
    .sw_i             (sw),
    .sect_pending_i   (sect_pending_q),
    .sync_pending_i   (sync_pending_q),
    .marker_pending_i (marker_pending_q),
    .marker_urgent_i  (marker_urgent_q),
    .end_pending_i    (end_pending_q),
    .drops_nz_i       (drops_nz_q),
    .dp_old_nz_i      (dp_old_nz_q),
    .fifo_half_i,
    .room_i           (room),
    .run_nz_i         (run_nz_q),
    .hold_valid_i     (hold_valid_q),
    .hold_after_i     (hold_after_q),
    .hold_new_i       (hold_new_q),
    .hold_ready_i     (hold_ready),
    .sync_due_i       (sync_due),
    .absorbed_i       (e_absorbed),
    .cap_open_i       (cap_open),
    .pass_i           (pass),
    .hold_after_arb_o (hold_after_arb),
    .gate_o           (gate),
    .spsw_o           (spsw),
    .r_hold_o         (r_hold),
    .r_hold_w_o       (r_hold_w),
    .r_sect_o         (r_sect),
    .r_sync_o         (r_sync),
    .r_ovf_o          (r_ovf),
    .r_mark_o         (r_mark),
    .r_murg_o         (r_murg),
    .r_end_o          (r_end),
    .r_pkt_o          (r_pkt),
    .hold_act_o       (hold_act),
    .hold_cnt_o       (hold_cnt),
    .hold_load_o      (hold_load),
    .hold_take_w_o    (hold_take_w),
    .hold_take_x_o    (hold_take_x),
    .hold_take_y_o    (hold_take_y),
    .cap_o            (cap),
    .cap_dropped_o    (cap_dropped_c),
    .s_sect_o         (s_sect),
    .s_sync_o         (s_sync),
    .s_ovf_o          (s_ovf),
    .s_mark_o         (s_mark),
    .s_end_o          (s_end),
    .w_sect_o         (w_sect),
    .w_sync_o         (w_sync),
    .w_ovf_o          (w_ovf),
    .w_mark_o         (w_mark),
    .w_end_o          (w_end),
    .write_o          (write),
    .act_o            (arb_act)
  );
  logic is_sample_win, run_flush, run_nz_q;   // run_nz_q: run_cnt_q != 0, as a flip-flop
  assign is_sample_win = hold_act;
  assign run_flush     = r_pkt && run_nz_q;

  // The precompute (mt_tu_precomp): the hold against the compressor's state in three registered
  // stages, so that the choice below decides from flip-flops; the sample being written is the
  // hold's, with its results.
  // (the address part is already w bits wide: the hold was taken in the encoder's format, since
  // a sample of a new section is written only after its SECTION)
  logic [55:0] s_a;
  logic        s_rw;
  logic [39:0] s_skip;
  logic        any_match, e_absorbed, skip_zero;
  logic [1:0]  e_midx;
  logic        pc_delta;
  logic [55:0] pc_pay;
  logic [3:0]  pc_pay_len;
  assign s_a  = hold_a_q;
  assign s_rw = hold_rw_q;
  mt_tu_precomp #(.Compress(Compress)) u_pre (
    .clk_i,
    .rst_ni,
    .hold_a_i     (hold_a_q),
    .hold_rw_i    (hold_rw_q),
    .hold_idx_i   (hold_idx_q),
    .hold_nsp_i   (hold_nsp_q),
    .enc_fmt_i    ({FullFmt && enc_fmt_q[1], enc_fmt_q[0]}),
    .hist_i       (hist_q),
    .hist_valid_i (hist_valid_q),
    .rep_idx_n_i  (rep_idx_nq),
    .prev_idx_i   (prev_idx_q),
    .prev_rw_i    (prev_rw_q),
    .prev_valid_i (prev_valid_q),
    .run_cnt_i    (run_cnt_q),
    .idx1_o       (pa_idx1_q),
    .nsp_o        (pa_nsp_q),
    .skip_zero_o  (skip_zero),
    .skip_o       (s_skip),
    .any_match_o  (any_match),
    .midx_o       (e_midx),
    .absorbed_o   (e_absorbed),
    .delta_o      (pc_delta),
    .pay_o        (pc_pay),
    .pay_len_o    (pc_pay_len)
  );

  // The packet pipeline's stages (mt_tu_pktpipe), for the state that follows them.
  logic        p1_v_q, p1_sync_q, p1_ovf_q, p1_active_q, p1_rw_q;
  logic [4:0]  p1_bound_q;
  logic [55:0] p1_fb_q;
  logic [4:0]  pw_len_q;
  logic        pw_v_q, pw_end_q;
  logic        p3_v_q, p3_sync_q, p3_end_q;
  logic [4:0]  p3_len_q;
  // Room: the space after this cycle's drain holds a maximal packet for this one and for each
  // packet in flight.  It matters only where a packet can be chosen (not a rest cycle), and there
  // the only packet that can be in flight (contract v4) is the one in P3, chosen three cycles ago.
  logic room;
  assign room = fifo_room_i;

  // The descriptor of the winner (or of the RUN that flushes before it), which P1 registers.
  logic [7:0]  k_hdr, k_b1;
  logic [2:0]  k_pre_len;
  logic [4:0]  k_bound;
  logic        k_fa_en, k_fb_en, k_sample;
  logic [47:0] k_fa;
  logic [55:0] k_fb;
  mt_tu_desc #(.Compress(Compress)) u_desc (
    .r_hold_i     (r_hold),
    .r_hold_w_i   (r_hold_w),
    .r_sect_i     (r_sect),
    .r_sync_i     (r_sync),
    .r_ovf_i      (r_ovf),
    .r_mark_i     (r_mark),
    .r_murg_i     (r_murg),
    .r_end_i      (r_end),
    .s_sect_i     (s_sect),
    .s_sync_i     (s_sync),
    .run_nz_i     (run_nz_q),
    .run_cnt_i    (run_cnt_q),
    .sync_seq_i   (sync_seq_q),
    .a_i          (s_a),
    .rw_i         (s_rw),
    .any_match_i  (any_match),
    .midx_i       (e_midx),
    .skip_zero_i  (skip_zero),
    .skip_i       (s_skip),
    .fmt_i        (b_fmt),
    .marker_val_i (marker_val_q),
    .t_i          (t_q[47:0]),
    .hdr_o        (k_hdr),
    .b1_o         (k_b1),
    .pre_len_o    (k_pre_len),
    .bound_o      (k_bound),
    .fa_en_o      (k_fa_en),
    .fa_o         (k_fa),
    .fb_en_o      (k_fb_en),
    .fb_o         (k_fb),
    .sample_o     (k_sample)
  );



  // The SYNC estimate (mt_tu_syncest): the SYNC byte count, and sync_due two cycles after a
  // choice whose packet brings the count to the period.
  logic sync_due;
  mt_tu_syncest u_syncest (
    .clk_i,
    .rst_ni,
    .first_i       (first_q),
    .sync_period_i (c_sync_period_q),
    .p1_v_i        (p1_v_q),
    .p1_sync_i     (p1_sync_q),
    .p1_active_i   (p1_active_q),
    .p1_bound_i    (p1_bound_q),
    .pw_len_i      (pw_len_q),
    .p3_v_i        (p3_v_q),
    .p3_sync_i     (p3_sync_q),
    .p3_len_i      (p3_len_q),
    .sync_bytes_o  (sync_bytes_q),
    .sync_due_o    (sync_due)
  );

  // The packet pipeline behind the choice (mt_tu_pktpipe): P1, P2, PQ, PW, P3 into the FIFO.
  mt_tu_pktpipe #(.Lanes(Lanes), .Compress(Compress)) u_pipe (
    .clk_i,
    .rst_ni,
    .write_i           (write),
    .sample_i          (is_sample_win && k_sample),
    .sync_i            (s_sync),
    .sect_i            (s_sect),
    .ovf_i             (s_ovf),
    .mark_i            (s_mark),
    .end_i             (s_end),
    .sw_i              (sw),
    .swld_i            (sw_ld),
    .active_i          (active_q),
    .hdr_i             (k_hdr),
    .b1_i              (k_b1),
    .pre_len_i         (k_pre_len),
    .bound_i           (k_bound),
    .fa_en_i           (k_fa_en),
    .fa_i              (k_fa),
    .fb_en_i           (k_fb_en),
    .fb_i              (k_fb),
    .delta_i           (pc_delta),
    .pay_i             (pc_pay),
    .pay_len_i         (pc_pay_len),
    .skip_i            (s_skip),
    .t_i               (t_q[47:0]),
    .rep_cycle_i       (rep_cycle_q),
    .sec_span_i        (sec_span_q),
    .sec_r_i           (sec_r_q),
    .rate_n_i          (c_rate_n),
    .drop_pending_i    (drop_pending_q),
    .samples_i         (samples_q),
    .dropped_i         (dropped_q),
    .marker_val_i      (marker_val_q),
    .sync_bytes_i      (sync_bytes_q),
    .fifo_inflight_o,
    .fifo_wr_o,
    .fifo_cnt_o,
    .fifo_wr_next_o,
    .fifo_cnt_next_o,
    .fifo_data_o,
    .fifo_commit_o,
    .fifo_commit_len_o,
    .fifo_commit_next_o,
    .fifo_commit_len_next_o,
    .p1_v_o            (p1_v_q),
    .p1_sync_o         (p1_sync_q),
    .p1_ovf_o          (p1_ovf_q),
    .p1_active_o       (p1_active_q),
    .p1_bound_o        (p1_bound_q),
    .p1_fb_o           (p1_fb_q),
    .p1_rw_o           (p1_rw_q),
    .pw_len_o          (pw_len_q),
    .pw_v_o            (pw_v_q),
    .pw_end_o          (pw_end_q),
    .p3_v_o            (p3_v_q),
    .p3_sync_o         (p3_sync_q),
    .p3_end_o          (p3_end_q),
    .p3_len_o          (p3_len_q)
  );
  // The counters (mt_tu_counters, in DSP blocks on the iCE40): t, SAMPLES, BYTES, OVERFLOW's
  // count and DROPPED.  A start clears SAMPLES and BYTES; the session's first cycle clears the
  // drop counts (see the next state); an OVERFLOW clears the count it carries in its P1.
  mt_tu_counters u_cnt (
    .clk_i,
    .rst_ni,
    .start_i        (start_cfg),
    .first_i        (first_q),
    .sample_i       (hold_cnt),   // (hold_act && (e_absorbed || room))
    .entry_i        (p3_v_q),
    .entry_len_i    (p3_len_q),
    .ovf_p1_i       (p1_v_q && p1_ovf_q),
    .drops_i        (drops_q),
    .t_o            (t_q),
    .samples_o      (samples_q),
    .bytes_o        (bytes_q),
    .drop_pending_o (drop_pending_q),
    .dropped_q_o    (dropped_q),
    .dropped_o      (dr_eff)
  );
  // The section's count-down: a load is the value itself, the cycle after it counts down by 2.
  mt_tu_cntdown #(.W(40), .Lo(20)) u_sec_left (
    .clk_i,
    .rst_ni,
    .ld_i      (sw_ld_w),
    .val_i     (sw_len),
    .dec1_i    (sec_dec1_q),
    .lo_o      (sec_left_lo),
    .hi_zero_o (sec_left_hi_zero)
  );
  // ---------------------------------------------------------------------------------------------
  // Next state.
  always_comb begin
    active_d = active_q;           busy_d = busy_q;
    c_kind_mask_d = c_kind_mask_q; c_tap_d = c_tap_q;
    c_fmt_h_d = c_fmt_h_q;         c_fmt_l_d = c_fmt_l_q;
    sec_span_d = b_span;           sec_r_d = b_r;
    // (a load is the value itself; the cycle after it counts down by 2)
    sp_left_d  = sp_hit_w ? b_r : sp_left_q + {31'h7FFF_FFFF, sp_dec1_q};
    int_idx_d = b_int_idx;
    next_idx_d = !sp_hit_w ? next_idx_q : (sw_ld_w ? 40'd1 : next_idx_q + 40'd1);
    hold_rw_d = hold_rw_q;
    hold_a_d = hold_a_q;           hold_idx_d = hold_idx_q;
    end_pending_d = end_pending_q;
    rep_idx_d = ~rep_idx_nq;       rep_cycle_d = (sw || first_q) ? t_q[47:0] : rep_cycle_q;
    enc_fmt_d = enc_fmt_q;
    hist_d = hist_q;               hist_valid_d = hist_valid_q;
    prev_idx_d = prev_idx_q;       prev_rw_d = prev_rw_q;    prev_valid_d = prev_valid_q;
    run_cnt_d = run_cnt_q;
    sync_seq_d = sync_seq_q;
    overflowed_d = overflowed_q || drops_nz_q;

    // D: the winner.  The wide compressor state (history, previous sample, run, report index,
    // format, SYNC seq) is updated in the next cycle from the registered decision (dec_*, below).
    // (a sample absorbed or written counts: hold_cnt, u_samples)
    // (a SECTION clears sect_pending, sect_switch and the hold's tag, a SYNC sets sect_pending, a
    // MARKER clears marker_pending: the tables below; rep_cycle already holds the section's start
    // after a switch)
    if (w_end) end_pending_d = 1'b0;   // busy clears as the END enters the FIFO

    // The last cycle's decision applied to the wide state (dec_*): the precompute's registers and
    // P1 still hold what it needs (the pushed value, its match, index + 1), and under contract v4
    // (PACE 5) the next cycle in which any of it is read by a choice is four cycles away.
    if (dec_run_q) run_cnt_d = '0;
    if (dec_abs_q) run_cnt_d = run_cnt_q + 7'd1;
    if (dec_hw_q) begin
      if (!any_match) begin
        hist_d[112 +: 56] = hist_q[56 +: 56];
        hist_d[56 +: 56] = hist_q[0 +: 56];
        hist_d[0 +: 56] = p1_fb_q & HistMask;   // (the value part: 44 bits at most without full/line)
        hist_valid_d = {hist_valid_q[1:0], 1'b1};
        prev_idx_d = 2'd0;
      end else begin
        prev_idx_d = e_midx;
      end
      prev_rw_d = p1_rw_q;
      prev_valid_d = 1'b1;
      run_cnt_d = '0;
    end
    if (dec_abs_q || dec_hw_q) begin
      rep_idx_d = pa_idx1_q;
      // (after a switch rep_cycle keeps the section's start until its SECTION, which resets it)
      if (!(sw || sect_switch_q)) rep_cycle_d = pa_nsp_q;
    end
    if (dec_sect_q) begin
      if (dec_sect_sw_q) rep_idx_d = '0;
      enc_fmt_d = dec_fmt_q;
      hist_valid_d = '0;
      prev_valid_d = 1'b0;
    end
    if (dec_sync_q) begin
      sync_seq_d = sync_seq_q + 8'd1;
      hist_valid_d = '0;
      prev_valid_d = 1'b0;
    end

    // A SYNC became due with the choice two cycles ago (sync_due, above).

    // The hold after this cycle's act (a hold that acts is always emptied: absorbed, chosen or
    // dropped); then this cycle's capture.
    // (hold_valid, hold_age, hold_after: the tables below)
    if (hold_take_w) begin
      hold_a_d = cap_a;
      hold_rw_d = acc_write_i;
    end
    if (hold_take_x) hold_idx_d = b_int_idx;


    // E: end of cycle.
    // The packet in P3 enters the FIFO (BYTES and the SYNC byte count follow it: mt_tu_counters,
    // mt_tu_syncest).
    if (p3_v_q && p3_end_q) busy_d = 1'b0;

    // The compressor state, the SYNC byte count and the drop counts of a new session, reset in its
    // first cycle (first_q) rather than with the start, which fans out to enough already: nothing
    // reads them before (the first packet is the SYNC chosen in that cycle, the first sample
    // competes PACE cycles after its capture, the SYNC's prev_bytes is read in its P1, no packet
    // is chosen in the cycle of a start and no drop happens in it; a read of DROPPED in the first
    // cycle is answered from dropped_q of the next, and the simulation's immediate answer,
    // dropped_o, is masked).
    if (first_q) begin
      enc_fmt_d = b_fmt;
      rep_idx_d = '0;
      run_cnt_d = '0;
      hist_valid_d = '0;
      prev_valid_d = 1'b0;
    end

    // MMIO commands of this cycle.
    if (start_now) begin
      overflowed_d = 1'b0;
      sync_seq_d = '0;
      // first section: burst, or span when LEN_H = 0 (and LEN_L != 0)
      sec_span_d = first_l_i;
      // (the rate and the length follow in the first cycle, sw_ld, which also opens the first
      // interval with index 0 whatever sp_left, int_open and the indices hold; a start also
      // clears the hold, marker_lost, sect_pending and sect_switch: the tables below)
    end else if (stop_now) begin
      end_pending_d = 1'b1;
    end
    // (active and busy from their own copy of the start, start_st, the same value: placed with
    // them and may_start, not behind the start's fan-out; busy_d is busy after this cycle's END
    // entry)
    if (start_st) begin
      active_d = 1'b1;
      busy_d = 1'b1;
    end else if (stop_now) begin
      active_d = 1'b0;
    end
    // (the latched configuration: from a copy of the start, which the state above does not
    // share)
    if (start_cfg) begin
      c_kind_mask_d = kind_mask_i;
      c_tap_d = tap_i;
      c_fmt_h_d = fmt_h_i;
      c_fmt_l_d = fmt_l_i;
    end
  end

  // The next-state bits that follow the choice, each one table after its latest input (the rows'
  // w_*, hold_act, hold_load and the capture are the late ones), so that none is two levels
  // behind the choice.  A start and a MARKER write exclude each other (one register write a
  // clock); a MARKER written while one is pending is lost unless the pending one is chosen now.
  logic mark_wr_act, drop_na_nr, drop_sw, stop_now;
  logic [2:0] hold_age_inc;
  // (the MARKER write's tests one table after the decode's first level, mark_dec_i, with the
  // registers they need: the write is late, it comes through the address decode)
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'b1111))) u_l_mwa (
    .i({mark_dec_i, active_q}), .o(mark_wr_act));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'b1111))) u_l_stop (
    .i({ctrl_dec_i[3], ctrl_dec_i[2], ctrl_dec_i[0], active_q}), .o(stop_now));
  assign drop_na_nr   = !e_absorbed && !room;           // the hold's sample, if it acts, is dropped
  assign drop_sw      = sw && hold_valid_q && hold_after;  // a switch drops a hold after the barrier
  assign hold_age_inc = hold_ready ? hold_age_q : hold_age_q + 3'd1;
  logic lost_pend, act_pend;
  assign act_pend  = active_q && marker_pending_q;   // (registers only: the write joins last)
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'b1111))) u_l_lpend (
    .i({mark_dec_i, act_pend}), .o(lost_pend));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LSetClr))) u_l_nmp  (.i({1'b0, mark_wr_act, w_mark, marker_pending_q}), .o(marker_pending_d));
  // (a pending MARKER becomes urgent when the arbitration acts without choosing it; a MARKER
  // written now is not pending yet, and none is pending at a start: END waits for it)
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LUrg)))    u_l_nmu  (.i({w_mark, arb_act, marker_pending_q, marker_urgent_q}), .o(marker_urgent_d));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LLost)))   u_l_nml  (.i({start_now, w_mark, lost_pend, marker_lost_q}), .o(marker_lost_d));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LSetClr))) u_l_nsp  (.i({start_now, w_sync, w_sect, spsw}), .o(sect_pending_d));
  // (a SYNC chosen clears sync_pending, one due or a start sets it)
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LSet2)))   u_l_nsy  (.i({start_now, sync_due, w_sync, sync_pending_q}), .o(sync_pending_d));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LSwitch))) u_l_nss  (.i({start_now, w_sect, sw, sect_switch_q}), .o(sect_switch_d));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LSetClr))) u_l_nhv  (.i({start_now, hold_load, hold_act, b_hold_valid}), .o(hold_valid_d));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b0111, 4'b0001))) u_l_nha (
    .i({1'b0, hold_load, w_sect, hold_after}), .o(hold_after_d));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b0111, 4'b0001))) u_l_nio (
    .i({1'b0, stop_now, cap, b_int_open}), .o(int_open_d));
  for (genvar b = 0; b < 3; b++) begin : g_age
    mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LAndN))) u_l (.i({2'b0, hold_load, hold_age_inc[b]}), .o(hold_age_d[b]));
  end
  logic ready_d;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LAndN))) u_l_nrdy (.i({2'b0, hold_load, hold_age_inc == 3'd4}), .o(ready_d));
  // (no drop happens in the cycle of a start: the session before has ended, its hold is empty
  // and no capture or switch is open, so a start needs no term here)
  logic drops_nz_d;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LDrop0)))  u_l_nd0  (.i({drop_sw, cap_dropped_c, drop_na_nr, hold_act}), .o(drops_d[0]));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LDrop1)))  u_l_nd1  (.i({drop_sw, cap_dropped_c, drop_na_nr, hold_act}), .o(drops_d[1]));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LDropNz))) u_l_ndnz (.i({drop_sw, cap_dropped_c, drop_na_nr, hold_act}), .o(drops_nz_d));
  // OVERFLOW's count != 0 next cycle: it stays non-zero until an OVERFLOW carries it (or a
  // session starts), and this cycle's drops add to it (it saturates, never wraps)
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LOldNz)))  u_l_nold (.i({start_now, w_ovf, drops_nz_q, dp_old_nz_q}), .o(dp_old_nz_d));

  // The configuration latched at the start, written in the session's first two cycles from the
  // configuration as written (then equal: the ENABLE was the last write before them), the two
  // section words from port b at the section it read (cw_span_q), SYNC_PERIOD in the first
  // cycle; read from the third cycle on: before that the section loads take port a (young_q),
  // and the SYNC estimate is not used before the first SYNC, which is pending from the start, has
  // left P2 (no earlier than the fourth cycle).
  logic cw_span_q;
  assign c_we = young_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cw_span_q <= 1'b0;
    else cw_span_q <= aw_raddr_b_o;
  end
  mt_tu_cfgram u_cfg (
    .clk_i,
    .we_i      (c_we),
    .waddr_i   (cw_span_q),
    .wdata_i   (aw_word_b_i),
    .we_sync_i (first_q),
    .wsync_i   (aw_sync),
    .raddr_i   (sw_span),
    .rdata_o   ({c_rate_n, c_len_n}),
    .rsync_o   (c_sync_period_q)
  );
  // The flags of rates and lengths of 1 and of a clamped SYNC_PERIOD, latched at the start (used
  // from the first cycle on).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      c_r1_h_q <= 1'b0;           c_r1_l_q <= 1'b0;
      c_one_h_q <= 1'b0;          c_one_l_q <= 1'b0;
      c_two_h_q <= 1'b0;          c_two_l_q <= 1'b0;
      c_sync_lo_q <= 1'b0;        c_sync_hi_q <= 1'b0;
    end else if (start_cfg) begin
      c_r1_h_q <= rate_h_one_i;   c_r1_l_q <= rate_l_one_i;
      c_one_h_q <= len_h_one_i;   c_one_l_q <= len_l_one_i;
      c_two_h_q <= len_h_one_i || len_h_two_i;
      c_two_l_q <= len_l_one_i || len_l_two_i;
      c_sync_lo_q <= sync_lo_i;   c_sync_hi_q <= sync_hi_i;
    end
  end

  // The latched lengths' zero flags, from the registers' values in parallel with the start
  // decision (both 0: bursts of 2^40 - 1, so LEN_H counts as non-zero).
  logic c_len_h_zero_d, c_len_l_zero_d;
  // (busy as the session block sees it: after this cycle's END entry, before a start)
  // (tables, in one level after the command: it fans out to most of the unit)
  // may_start = !busy_q || (p3_v_q && p3_end_q), as a flip-flop formed a cycle ahead: P3 takes
  // PW's valid and END bits every cycle, and busy_q takes busy_d, so its next value is
  // !busy_d || (pw_v_q && pw_end_q), where !busy_d = !start_now && may_start (busy_d: busy_q
  // cleared by the END in P3, set by a start; start_st is start_now's copy).  At reset busy_q
  // and p3_v_q are 0: 1.  (It was a table after P3's flags, a level before the start decision.)
  logic may_start, may_start_q;
  assign may_start = may_start_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) may_start_q <= 1'b1;
    else         may_start_q <= (may_start_q && !start_st) || (pw_v_q && pw_end_q);
  end
  // (start_now and stop_now from the decode's first level: ctrl_dec_i)
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'b1111))) u_l_start (
    .i({ctrl_dec_i[3], ctrl_dec_i[2], ctrl_dec_i[1], may_start}), .o(start_now));
  // (a copy for active, busy and may_start: next state above)
  logic start_st;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'b1111))) u_l_start_st (
    .i({ctrl_dec_i[3], ctrl_dec_i[2], ctrl_dec_i[1], may_start}), .o(start_st));
  // (a copy for the configuration latched at the start and the counters it clears: the start's
  // fan-out otherwise puts a long net behind the state that follows it)
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'b1111))) u_l_start_cfg (
    .i({ctrl_dec_i[3], ctrl_dec_i[2], ctrl_dec_i[1], may_start}), .o(start_cfg));
  logic c_both_zero_d;
  assign c_len_h_zero_d = start_cfg ? first_l_i : c_len_h_zero_q;
  assign c_len_l_zero_d = start_cfg ? len_l_zero_i : c_len_l_zero_q;
  assign c_both_zero_d  = start_cfg ? (len_h_zero_i && len_l_zero_i) : c_both_zero_q;

  // sec_left_d == 0 from registered values (sec_left_d's own LUTs then drive only its register):
  // a new section of length 1, or one cycle left; never at a start (the first length is not 0).
  // A switch next cycle (sw_q) unless the session stops now (sw_ns; a start cannot happen while
  // a session is active), and next cycle's b_fmt: the format after that switch, else sec_fmt; at
  // a start, the first section's.  The control-register write is the late input (it comes
  // through the address decode): one table after it, whose other inputs are from registers.
  // sec_last_q: sec_left_q is at its last count (== 1, or == 2 in the cycle after a load), a
  // flip-flop from the count and the load of the last cycle: a loaded length counts as 2 exactly
  // when it is 1 or 2 (c_two_*_q); a count of x becomes 1 when x is 1 + its step.  Then one table
  // with the flags, not behind sw_ld's fan-out.
  logic sec_last_q, sec_last_d;
  assign sec_last_d = sw_ld ? (ld_span ? c_two_l_q : c_two_h_q)
                            : (sec_left_hi_zero && sec_left_lo == (sec_dec1_q ? 20'd2 : 20'd3));
  logic sw_ns, sw_d;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'b1001))) u_l_swns (
    .i({active_q, first_q, sw, sec_last_q}), .o(sw_ns));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LNoStop))) u_l_nsw (
    .i({ctrl_dec_i[3], ctrl_dec_i[2], ctrl_dec_i[0], sw_ns}), .o(sw_d));
  // (ctrl_act: a CTRL write that starts or stops, an ENABLE while busy is ignored; it starts
  // with the first section's format, a stop keeps the format, and otherwise a switch takes the
  // next section's)
  logic [1:0] nxt_b_fmt, fmt_sw, fmt_wr_or_keep;
  logic       ctrl_act;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LUnless))) u_l_cact (.i({1'b0, may_start, wdata_i[0], ctrl_wr_i}), .o(ctrl_act));
  always_comb begin
    logic nxt_sw_span;
    nxt_sw_span = b_span ? c_len_h_zero_q : !c_len_l_zero_q;
    fmt_sw = nxt_sw_span ? c_fmt_l_q : c_fmt_h_q;
  end
  // (a CTRL write that acts: with ENABLE the first section's format, else the format kept)
  for (genvar i = 0; i < 2; i++) begin : g_nfmt
    mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LWrFmt))) u_l_w (.i({b_fmt[i], fmt_first_i[i], wdata_i[0], ctrl_act}), .o(fmt_wr_or_keep[i]));
    mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LSwFmt))) u_l (.i({fmt_wr_or_keep[i], fmt_sw[i], ctrl_act, sw_ns}), .o(nxt_b_fmt[i]));
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      first_q <= 1'b0;            young_q <= 1'b0;            c_both_zero_q <= 1'b0;
      active_q <= 1'b0;           busy_q <= 1'b0;
      c_kind_mask_q <= 5'h1F;     c_tap_q <= 1'b0;
      c_fmt_h_q <= 2'd0;          c_fmt_l_q <= 2'd1;
      c_len_h_zero_q <= 1'b1;     c_len_l_zero_q <= 1'b1;
      sec_span_q <= 1'b0;                   sec_r_q <= 32'd1;
      sp_left_q <= '0;
      sec_dec1_q <= 1'b1;         sp_dec1_q <= 1'b1;          sec_r1_q <= 1'b1;
      sec_last_q <= 1'b0;
      t_lo_q <= '0;
      sp_zero_q <= 1'b1;          b_fmt_q <= '0;
      sw_q <= 1'b0;
      int_open_q <= 1'b0;         int_idx_q <= '0;          
      next_idx_q <= '0;
      hold_valid_q <= 1'b0;       hold_after_q <= 1'b0;     hold_rw_q <= 1'b0;
      hold_new_q <= 1'b0;
      hold_a_q <= '0;             hold_idx_q <= '0;         hold_nsp_q <= '0;
      hn_thi_q <= '0;             hn_xhi_q <= '0;           hn_c_q <= 1'b0;
      hold_age_q <= '0;
      ready_q <= 1'b0;            run_nz_q <= 1'b0;
      dec_run_q <= 1'b0;          dec_abs_q <= 1'b0;          dec_hw_q <= 1'b0;
      dec_sect_q <= 1'b0;         dec_sect_sw_q <= 1'b0;      dec_sync_q <= 1'b0;
      dec_fmt_q <= '0;
      sect_pending_q <= 1'b0;     sect_switch_q <= 1'b0;    sync_pending_q <= 1'b0;
      marker_pending_q <= 1'b0;   end_pending_q <= 1'b0;
      marker_urgent_q <= 1'b0;
      drops_q <= '0;
      dp_old_nz_q <= 1'b0;        drops_nz_q <= 1'b0;
      rep_idx_nq <= '1;           rep_cycle_q <= '0;
      enc_fmt_q <= '0;
      hist_q <= '0;
      hist_valid_q <= '0;         prev_idx_q <= '0;         prev_rw_q <= 1'b0;
      prev_valid_q <= 1'b0;       run_cnt_q <= '0;
      sync_seq_q <= '0;
      overflowed_q <= 1'b0;       marker_lost_q <= 1'b0;
    end else begin
      first_q <= start_now;       young_q <= start_now || first_q;
      c_both_zero_q <= c_both_zero_d;
      active_q <= active_d;       busy_q <= busy_d;
      c_kind_mask_q <= c_kind_mask_d; c_tap_q <= c_tap_d;
      c_fmt_h_q <= c_fmt_h_d;     c_fmt_l_q <= c_fmt_l_d;
      c_len_h_zero_q <= c_len_h_zero_d;
      c_len_l_zero_q <= c_len_l_zero_d;
      sec_span_q <= sec_span_d;      sec_r_q <= sec_r_d;
      sp_left_q <= sp_left_d;
      sec_dec1_q <= !sw_ld;       sp_dec1_q <= !sp_hit;
      sec_last_q <= sec_last_d;
      if (sw_ld) sec_r1_q <= r1_ld;
      t_lo_q <= t_q[23:0];
      sw_q <= sw_d;
      b_fmt_q <= nxt_b_fmt;
      sp_zero_q <= sp_zero_d;
      int_open_q <= int_open_d;   int_idx_q <= int_idx_d;   
      next_idx_q <= next_idx_d;
      hold_valid_q <= hold_valid_d; hold_after_q <= hold_after_d; hold_rw_q <= hold_rw_d;
      hold_new_q <= hold_load;     // (no capture in the cycle of a start: no session is open)
      hold_a_q <= hold_a_d;       hold_idx_q <= hold_idx_d;
      hold_nsp_q[47:24] <= hn_thi_q + {16'd0, hn_xhi_q} + 24'(hn_c_q);
      if (hold_take_y) hn_thi_q <= t_q[47:24];
      if (hold_new_q) begin
        hold_nsp_q[23:0] <= hn_lo[23:0];
        hn_xhi_q <= sp_left_q[31:24];
        hn_c_q   <= hn_lo[24];
      end
      hold_age_q <= hold_age_d;
      ready_q <= ready_d;         run_nz_q <= Compress && run_cnt_d != '0;
      // (a session's start clears the state these would update: no decision survives it)
      dec_run_q     <= run_flush && gate && !start_now;
      dec_abs_q     <= hold_act && e_absorbed && !start_now;
      dec_hw_q      <= hold_act && !e_absorbed && room && !start_now;
      dec_sect_q    <= w_sect && !start_now;
      dec_sect_sw_q <= sect_switch_q || sw;
      dec_sync_q    <= w_sync && !start_now;
      dec_fmt_q     <= b_fmt;
      sect_pending_q <= sect_pending_d; sect_switch_q <= sect_switch_d;
      sync_pending_q <= sync_pending_d;
      marker_pending_q <= marker_pending_d; end_pending_q <= end_pending_d;
      marker_urgent_q <= marker_urgent_d;
      drops_q <= drops_d;         dp_old_nz_q <= dp_old_nz_d;
      drops_nz_q <= drops_nz_d;
      rep_idx_nq <= ~rep_idx_d;   rep_cycle_q <= rep_cycle_d;
      enc_fmt_q <= enc_fmt_d;
      // (without the compressor no history is kept and no run opens: constants, which synthesis
      // removes with everything they feed)
      hist_q <= Compress ? hist_d : '0;
      hist_valid_q <= Compress ? hist_valid_d : '0;
      prev_idx_q <= Compress ? prev_idx_d : '0;
      prev_rw_q <= Compress && prev_rw_d;
      prev_valid_q <= Compress && prev_valid_d;
      run_cnt_q <= Compress ? run_cnt_d : '0;
      sync_seq_q <= sync_seq_d;
      overflowed_q <= overflowed_d; marker_lost_q <= marker_lost_d;
    end
  end

  // MARKER's value (mt_tu_markval): stored at the write, or a cycle later when the write comes
  // in the cycle its predecessor is chosen.
  mt_tu_markval u_markval (
    .clk_i,
    .rst_ni,
    .active_i    (active_q),
    .pending_i   (marker_pending_q),
    .chosen_i    (w_mark),
    .marker_wr_i,
    .mark_dec_i,
    .wdata_i,
    .value_o     (marker_val_q)
  );

  assign status_o  = {sec_span_q, 1'b0, marker_lost_q, marker_pending_q, overflowed_q || drops_nz_q,
                      (fifo_occ_i == '0), busy_q, active_q};
  assign dropped_o = first_q ? '0 : dr_eff;
  assign dropped_q_o = dropped_q;
  assign samples_o = samples_q;
  assign bytes_o   = bytes_q;
  assign cycle_o   = t_q;
  assign int_open_o   = active_q && (sp_zero_q || int_open_q || first_q || sw);
  assign hold_valid_o = hold_valid_q;
endmodule
