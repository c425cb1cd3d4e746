// mt_tu_ctrl: the trace unit's control path, one clock of docs/trace-unit.md section 4 per cycle:
// the session (enable/disable, latched configuration), the schedule (bursts and spans, sample
// points that never drift, interval indices), capture with the kind/tap filter, the hold and its
// precompute, arbitration of at most one packet per clock, the compressor state and the counters
// behind the status registers.
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
  input  logic [159:0]    aw_i,           // SYNC_PERIOD, RATE_*, LEN_* as written two cycles ago
                                          // (rates, SYNC_PERIOD: before rate_norm, sync_norm)
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
  output logic [63:0]     fifo_data_o,
  output logic            fifo_commit_o,
  output logic [4:0]      fifo_commit_len_o,
  // State for the registers
  output logic [7:0]      status_o,
  output logic [31:0]     dropped_o,
  output logic [31:0]     dropped_q_o,    // the count register (dropped_o of the last cycle)
  output logic [47:0]     samples_o,
  output logic [47:0]     bytes_o,
  output logic [63:0]     cycle_o
);
  // ---------------------------------------------------------------------------------------------
  // State
  logic [63:0] t_q;
  logic        active_q, busy_q;
  // latched configuration
  logic [4:0]  c_kind_mask_q;
  logic        c_tap_q;
  logic [1:0]  c_fmt_h_q, c_fmt_l_q;
  // (rates, lengths and SYNC period in block RAM, mt_tu_cfgram: valid from two cycles after the
  // start on, which is before their first use)
  logic [13:0] c_sync_period_q;
  logic [31:0] c_rate_h_q, c_rate_l_q;
  logic [39:0] c_len_h_q, c_len_l_q;   // the latched lengths (a length of 1 counts as 2)
  logic        c_r1_h_q, c_r1_l_q;     // the latched rates are 1 (flip-flops, latched at the start)
  logic        c_one_h_q, c_one_l_q;   // the latched lengths are 1 (before they count as 2)
  logic        c_two_h_q, c_two_l_q;   // the latched lengths count as 2 (they are 1 or 2)
  logic        c_sync_lo_q, c_sync_hi_q;  // the latched SYNC_PERIOD is clamped (mt_tu_pkg)
  logic [31:0] aw_rate_h, aw_rate_l;   // the rates as written (aw_i), as the session uses them
  logic [13:0] aw_sync;                // and SYNC_PERIOD
  // schedule
  logic        sec_span_q;
  logic [31:0] sec_r_q;
  logic [39:0] sec_left_q;   // sec_end - t (+ 1 while !sec_dec1_q)
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
  logic [31:0] drop_pending_q, marker_val_q;
  logic [39:0] rep_idx_q;
  logic [47:0] rep_cycle_q;
  // compressor
  logic [1:0]  enc_fmt_q;
  logic [167:0] hist_q;      // entry i at [i*56 +: 56], newest first
  logic [2:0]  hist_valid_q;
  logic [1:0]  prev_idx_q;
  logic        prev_rw_q, prev_valid_q;
  logic [6:0]  run_cnt_q;
  // SYNC bookkeeping
  logic [13:0] sync_bytes_q;
  logic [7:0]  sync_seq_q;
  // counters, sticky bits
  logic [31:0] dropped_q;
  // Drops are counted one cycle late: drops_q (0..3) of the last cycle is added to the counts
  // (u_drop_pending, u_dropped: the counts of docs/trace-unit.md are those plus drops_q), so the
  // late drop decision of the arbitration ends in a 2-bit register, not in two 32-bit additions.
  logic [1:0]  drops_q, drops_d;
  // The decision of the last cycle, for the wide state updates (contract v4: applied one cycle
  // late): a RUN written, the hold's sample absorbed / written, SECTION (and whether it followed a
  // switch, its format), SYNC.
  logic        dec_run_q, dec_abs_q, dec_hw_q, dec_sect_q, dec_sect_sw_q, dec_sync_q;
  logic [1:0]  dec_fmt_q;
  logic [39:0] pa_idx1_q;         // precompute: the hold's index + 1 (its report's rep_idx)
  logic [47:0] pa_nsp_q;          // and its sample point + r (its report's rep_cycle)
  logic        start_now;         // a session starts at the end of this cycle
  logic        start_cfg;         // the same (a copy for the configuration latches)
  logic        sp_zero_d;         // sp_left_d == 0, from the operands
  // Drops not yet reported (OVERFLOW's count != 0) as two flip-flops, so that this cycle's drops
  // end in a register: the count without the last cycle's drops is non-zero (dp_old_nz_q), the
  // last cycle's drops were (drops_nz_q).  OVERFLOWED is set from drops_nz_q too, one cycle late,
  // and read as overflowed_q || drops_nz_q.
  logic        dp_old_nz_q, dp_old_nz_d, drops_nz_q;
  logic [31:0] dr_eff;              // DROPPED now (dropped_q + drops_q), for dropped_o
  logic [47:0] samples_q, bytes_q;
  logic        overflowed_q, marker_lost_q;

  // Next-state copies (the always_comb below walks section 4 in order, like the C model).
  logic        active_d, busy_d;
  logic [4:0]  c_kind_mask_d;
  logic        c_tap_d;
  logic [1:0]  c_fmt_h_d, c_fmt_l_d;
  logic        c_we;            // a session's first cycle: the configuration RAM takes the word
  logic        sec_span_d;
  logic [31:0] sec_r_d;
  logic [39:0] sec_left_d;
  logic [31:0] sp_left_d;
  logic        int_open_d;
  logic [39:0] int_idx_d;
  logic [39:0] next_idx_d;
  logic        hold_valid_d, hold_after_d, hold_rw_d;
  logic [55:0] hold_a_d;
  logic [39:0] hold_idx_d;
  logic        sect_pending_d, sect_switch_d, sync_pending_d, marker_pending_d, end_pending_d;
  logic [39:0] rep_idx_d;
  logic [47:0] rep_cycle_d;
  logic [1:0]  enc_fmt_d;
  logic [167:0] hist_d;
  logic [2:0]  hist_valid_d;
  logic [1:0]  prev_idx_d;
  logic        prev_rw_d, prev_valid_d;
  logic [6:0]  run_cnt_d;
  logic [13:0] sync_bytes_d;
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
  logic [39:0] aw_len_h;                   // LEN_H as the session uses it (both 0: 2^40 - 1)
  logic c_both_zero_q;
  assign aw_len_h = c_both_zero_q ? 40'hFF_FFFF_FFFF : aw_i[79:40];
  // Contract v4: a section length of 1 counts as 2, so that a switch is never due in the cycle
  // after a length is loaded, nor in the one after it (the zero test then needs only the running
  // count, and the count-down by 2 after a load needs no test).  The latched lengths are kept so
  // normalised in the configuration RAM; with no subtraction, a load is a select.
  // (1 -> 2 changes bits 1:0 only: the other bits are the register's, with no logic; whether the
  // length is 1 was flagged when it was written and latched at the start, c_one_*_q)
  function automatic logic [39:0] len_ld(input logic [39:0] len, input logic is1);
    len_ld = {len[39:2], len[1] || is1, len[0] && !is1};
  endfunction
  logic [39:0] aw_len_h_ld, aw_len_l_ld;
  assign aw_len_h_ld = len_ld(aw_len_h, c_one_h_q);
  assign aw_len_l_ld = len_ld(aw_i[39:0], c_one_l_q);
  assign aw_rate_h   = mt_tu_pkg::rate_norm(aw_i[143:112], c_r1_h_q);
  assign aw_rate_l   = mt_tu_pkg::rate_norm(aw_i[111:80], c_r1_l_q);
  assign aw_sync     = mt_tu_pkg::sync_norm(aw_i[157:144], c_sync_lo_q, c_sync_hi_q);
  always_comb begin
    if (sec_span_q) sw_span = c_len_h_zero_q;
    else sw_span = !c_len_l_zero_q;
    ld_span = first_q ? sec_span_q : sw_span;
    if (young_q) sw_len = ld_span ? aw_len_l_ld : aw_len_h_ld;
    else sw_len = ld_span ? c_len_l_q : c_len_h_q;
  end

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
  assign b_fmt  = b_fmt_q;
  always_comb begin
    if (!sw_ld_w) b_r = sec_r_q;
    else if (young_q) b_r = ld_span ? aw_rate_l : aw_rate_h;
    else b_r = ld_span ? c_rate_l_q : c_rate_h_q;
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
  logic hold_after_arb, b_hold_valid_arb;
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
  mt_tu_lut4 #(.Init(lut_init(LSpLow))) u_l_splow (.i({1'b0, sp_dec1_q, sp_left_q[1:0]}), .o(sp_low_ok));
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
  assign cap_a = mt_tu_pkg::fmt_part(b_fmt, acc_addr_i);

  // Section D: arbitration.
  // The rows of the table in docs/trace-unit.md 4.D, one-hot: the first applicable one wins.
  // The hold wins even while it is not ready: nothing may pass the sample it keeps.  r_pkt: one
  // of the rows 2-5, 7 (a packet that is not a sample) wins.  (Not ready yet, the hold's sample
  // holds back SECTION and SYNC, which must not pass an older sample, but not OVERFLOW and
  // MARKER; END waits for an empty hold, and after everything else, including an OVERFLOW
  // waiting for a FIFO at most half full.)
  //
  // Contract v4: after a cycle in which the arbitration acted (chose a packet or absorbed a
  // sample) come four rest cycles (rest_sr_q, below); the hold's sample is ready in the
  // fifth cycle after its capture (hold_age_q counts 0..4).  So every recurrence through the
  // compressor's state has five clocks: the choice, the wide state's update (dec_*), and the
  // precompute's three stages.
  //
  // The decision is four levels of 4-input tables over flip-flops (mt_tu_lut4, one instance per
  // signal; lut_fn spells each table), so that the hold's load enable and the packet's write
  // leave the arbitration at the fourth and fifth level:
  //   1: barrier, hold_after_arb, and the gates and pending-row flags below;
  //   2: b_hold_valid_arb, hold_free_sw (empty, or dropped by this cycle's switch);
  //   3: the rows, hold_act (its sample is decided now: absorbed, chosen, or dropped for want of
  //      room; a hold that acts is always emptied), hold_wr (and written), hold_cnt (absorbed or
  //      written: SAMPLES counts it), pkt_nobar, pkt_gate;
  //   4: r_pkt, pkt_wr, hold_load (this cycle's capture goes to the hold).
  localparam int unsigned LOr3 = 0, LMux = 1, LAndN = 2, LAnd2 = 3, LRw = 4, LCnt = 5, LMarkOvf = 6,
                          LMarkOnly = 7, LOr2 = 8, LHva = 9, LFsw = 10, LHold = 11, LAct = 12,
                          LNobar = 14, LSect = 15, LSync = 16, LRow = 17, LEndRow = 18,
                          LPktGate = 19, LPkt = 20, LPktWr = 21, LLoad = 22,
                          LMayStart = 23, LKindLo = 24, LKindHi = 25, LLoad2 = 26, LGate3 = 27,
                          LHaa = 28, LSetClr = 29, LSwitch = 30, LDrop0 = 31, LDrop1 = 32,
                          LDropNz = 33, LLost = 34, LOldNz = 35, LSet2 = 36, LSelNr = 37,
                          LSelRun = 38, LUnless = 39,
                          LSwFmt = 40, LKind = 41, LTapAct = 42, LOr4 = 43,
                          LNoStop = 44, LStartOr = 45, LLen1 = 46, LLen0 = 47, LSpHit = 48, LWrFmt = 49, LSpLow = 50, LBr1 = 51;
  function automatic logic lut_fn(input int unsigned f, input logic [3:0] x);
    case (f)
      LOr3:     lut_fn = x[0] || x[1] || x[2];
      LMux:     lut_fn = x[0] ? x[1] : x[2];
      LAndN:    lut_fn = x[0] && !x[1];
      LAnd2:    lut_fn = x[0] && x[1];
      LRw:      lut_fn = x[0] && !x[1] && !x[2] && x[3];
      LCnt:     lut_fn = x[0] && !x[1] && (x[2] || x[3]);
      LOr2:     lut_fn = x[0] || x[1];
      LHva:     lut_fn = x[0] && !(x[1] && x[2]);
      LFsw:     lut_fn = !x[0] || (x[1] && (x[2] || x[3]));
      LHold:    lut_fn = x[0] ? (x[1] && !x[2]) : (x[1] && x[3]);
      LAct:     lut_fn = x[0] && x[1] && !(x[2] && x[3]);
      LNobar:   lut_fn = !(x[0] && x[1]) && (x[2] || (x[3] && !x[0]));
      LSect:    lut_fn = x[0] && !(x[1] && !x[2]);
      LSync:    lut_fn = !x[0] && x[1] && !(x[2] && !x[3]);
      LRow:     lut_fn = !x[0] && !(x[1] && x[2]) && x[3];
      LEndRow:  lut_fn = !x[0] && !x[1] && x[2];
      LPktGate: lut_fn = x[0] && !(x[1] && !x[2]);
      LPkt:     lut_fn = x[0] ? !(x[1] && !x[2]) : x[3];
      LPktWr:   lut_fn = x[0] ? x[1] : (x[2] && x[3]);
      LLoad:    lut_fn = x[0] && (x[1] || x[2]);
      LMayStart: lut_fn = !(x[0] && !(x[1] && x[2]));
      // (the capture's filter: x[0] kind[0], x[1] kind[1], x[2..3] the pair's mask bits)
      LKindLo:  lut_fn = !x[1] && (x[0] ? x[3] : x[2]);
      LKindHi:  lut_fn = x[1] && (x[0] ? x[3] : x[2]);
      LKind:    lut_fn = x[0] ? x[1] : (x[2] || x[3]);     // x0 kind[2], x1 the kind-4 test
      LTapAct:  lut_fn = x[0] && x[1] && (x[2] == x[3]);   // active, valid, tap == the traced
      LOr4:     lut_fn = x[0] || x[1] || x[2] || x[3];
      LNoStop:  lut_fn = x[0] && !(x[1] && x[2] && x[3]);  // x0 unless a CTRL write clears ENABLE
      LStartOr: lut_fn = x[0] || (x[1] ? x[2] : x[3]);     // a start, else by x1 one of two
      LSpHit:   lut_fn = x[0] && (x[1] || x[2] || x[3]);     // active, and a load or the point
      LWrFmt:   lut_fn = (x[0] && x[1]) ? x[2] : x[3];        // x0 acts, x1 ENABLE: x2, else x3
      LSpLow:   lut_fn = x[2] ? (x[0] && !x[1]) : (!x[0] && x[1]);   // sp_left[1:0] == 1 or 2
      LBr1:     lut_fn = (x[0] || x[1]) ? x[2] : x[3];        // a load's rate-1 flag, else kept
      // (OVERFLOW's LEB length from x0 P, x1 Q, x2 R, x3 bits 31:28 non-zero: ovf_len)
      LLen1:    lut_fn = !x[0] && (x[1] || x[2]);
      LLen0:    lut_fn = !(x[0] || x[1] || x[2]) || (x[1] && !x[0]) || x[3];
      LLoad2:   lut_fn = x[0] && x[1] && (x[2] || x[3]);
      LGate3:   lut_fn = x[0] && x[1] && !x[2];
      LHaa:     lut_fn = x[0] ? (x[1] || x[2]) : x[3];
      // (the late next-state bits: x[0] the bit's value otherwise)
      LSetClr:  lut_fn = !x[3] && (x[2] || (x[0] && !x[1]));      // x1 clears, x2 sets, x3 resets
      LSwitch:  lut_fn = !x[3] && !x[2] && (x[0] || x[1]);
      LSet2:    lut_fn = x[3] || x[2] || (x[0] && !x[1]);             // x1 clears, x2, x3 set
      // (the descriptor's bits: x[0] r_hold, x[1] the sample's bit, x[2] the run)
      LSelNr:   lut_fn = (x[0] && x[1]) || (!x[2] && x[3]);   // x3: the rows' bit, no run
      LSelRun:  lut_fn = (x[0] && x[1]) || (!x[0] && x[2]) || x[3];   // a run's bit set
      LUnless:  lut_fn = x[0] && !(x[1] && !x[2]);   // x0 unless x1 without x2
      LSwFmt:   lut_fn = (x[0] && !x[1]) ? x[2] : x[3];
      LLost:    lut_fn = (x[0] && !x[3]) || (x[1] && !x[2]);
      LOldNz:   lut_fn = (x[0] || x[1]) && !x[2] && !x[3];
      // (drops: x[0] && x[1] the hold's, x[2] the capture's, x[3] the switch's)
      LDrop0:   lut_fn = (x[0] && x[1]) ^ x[2] ^ x[3];
      LDrop1:   lut_fn = ((x[0] && x[1]) && (x[2] || x[3])) || (x[2] && x[3]);
      LDropNz:  lut_fn = (x[0] && x[1]) || x[2] || x[3];
      LMarkOnly: lut_fn = x[0] && !(x[1] && (x[2] || x[3]));
      LMarkOvf: lut_fn = ((x[0] || x[1]) && x[2]) || x[3];
      default:  lut_fn = 1'b0;
    endcase
  endfunction
  function automatic logic [15:0] lut_init(input int unsigned f);
    for (int k = 0; k < 16; k++) lut_init[k] = lut_fn(f, 4'(k));
  endfunction

  // a section loads (sw_ld), in two copies: sw_ld_w for the wide loads, so that the narrow ones
  // are not behind its fan-out
  mt_tu_lut4 #(.Init(lut_init(LOr2))) u_l_swld  (.i({2'b0, first_q, sw}), .o(sw_ld));
  mt_tu_lut4 #(.Init(lut_init(LOr2))) u_l_swldw (.i({2'b0, first_q, sw}), .o(sw_ld_w));
  mt_tu_lut4 #(.Init(lut_init(LSpHit))) u_l_sph  (.i({sp_zero_q, first_q, sw, active_q}), .o(sp_hit));
  mt_tu_lut4 #(.Init(lut_init(LSpHit))) u_l_sphx (.i({sp_zero_q, first_q, sw, active_q}), .o(sp_hit_x));
  mt_tu_lut4 #(.Init(lut_init(LSpHit))) u_l_sphw (.i({sp_zero_q, first_q, sw, active_q}), .o(sp_hit_w));
  mt_tu_lut4 #(.Init(lut_init(LBr1))) u_l_br1 (.i({sec_r1_q, r1_ld, first_q, sw}), .o(b_r1));
  mt_tu_lut4 #(.Init(lut_init(LStartOr))) u_l_spz (.i({sp_eq, b_r1, sp_hit, start_now}), .o(sp_zero_d));

  logic [2:0] rest_sr_q;
  logic [2:0] hold_age_q, hold_age_d;
  logic       rest, hold_ready, rest_nz_q, ready_q;   // the flags as flip-flops
  assign rest       = rest_nz_q;
  assign hold_ready = ready_q;
  logic hold_new_due;
  assign hold_new_due = hold_new_q && sync_due;
  // level 1
  logic barrier, gate, hold_rr, hold_rw, hold_rc, ovf_ready, mark_only, mark_or_ovf, end_only;
  logic spsw;
  mt_tu_lut4 #(.Init(lut_init(LOr3)))     u_l_barrier (.i({1'b0, sync_pending_q, sw, sect_pending_q}), .o(barrier));
  mt_tu_lut4 #(.Init(lut_init(LHaa)))     u_l_haa     (.i({hold_after_q, sync_pending_q, sect_pending_q, hold_new_q}), .o(hold_after_arb));
  mt_tu_lut4 #(.Init(lut_init(LAndN)))    u_l_gate    (.i({2'b0, rest, room}), .o(gate));
  mt_tu_lut4 #(.Init(lut_init(LAndN)))    u_l_rr      (.i({2'b0, rest, hold_ready}), .o(hold_rr));
  mt_tu_lut4 #(.Init(lut_init(LRw)))      u_l_rw      (.i({room, e_absorbed, rest, hold_ready}), .o(hold_rw));
  mt_tu_lut4 #(.Init(lut_init(LCnt)))     u_l_rc      (.i({room, e_absorbed, rest, hold_ready}), .o(hold_rc));
  // (drops not yet reported: dp_old_nz_q || drops_nz_q)
  mt_tu_lut4 #(.Init(lut_init(LLoad)))    u_l_ovf     (.i({1'b0, drops_nz_q, dp_old_nz_q, fifo_half_i}), .o(ovf_ready));
  mt_tu_lut4 #(.Init(lut_init(LMarkOnly))) u_l_mark   (.i({drops_nz_q, dp_old_nz_q, fifo_half_i, marker_pending_q}), .o(mark_only));
  mt_tu_lut4 #(.Init(lut_init(LMarkOvf))) u_l_mo      (.i({marker_pending_q, fifo_half_i, drops_nz_q, dp_old_nz_q}), .o(mark_or_ovf));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'b0001))) u_l_end (
    .i({marker_pending_q, drops_nz_q, dp_old_nz_q, end_pending_q}), .o(end_only));
  mt_tu_lut4 #(.Init(lut_init(LOr2)))     u_l_spsw    (.i({2'b0, sw, sect_pending_q}), .o(spsw));
  // level 2
  logic hold_free_sw;
  mt_tu_lut4 #(.Init(lut_init(LHva)))     u_l_hva     (.i({1'b0, hold_after_arb, sw, hold_valid_q}), .o(b_hold_valid_arb));
  mt_tu_lut4 #(.Init(lut_init(LFsw)))     u_l_fsw     (.i({hold_new_due, hold_after_arb, sw, hold_valid_q}), .o(hold_free_sw));
  // level 3
  logic r_hold, r_sect, r_sync, r_ovf, r_mark, r_end, pkt_nobar, pkt_gate;
  logic hold_act, hold_wr, hold_cnt;
  mt_tu_lut4 #(.Init(lut_init(LHold)))    u_l_rhold   (.i({hold_ready, hold_after_arb, b_hold_valid_arb, barrier}), .o(r_hold));
  logic r_hold_w;   // (a copy for the descriptor's wide fields)
  mt_tu_lut4 #(.Init(lut_init(LHold)))    u_l_rholdw  (.i({hold_ready, hold_after_arb, b_hold_valid_arb, barrier}), .o(r_hold_w));
  mt_tu_lut4 #(.Init(lut_init(LAct)))     u_l_act     (.i({hold_after_arb, barrier, hold_rr, b_hold_valid_arb}), .o(hold_act));
  // (a copy for the hold's three take enables, which drive its wide registers)
  logic hold_act_t;
  mt_tu_lut4 #(.Init(lut_init(LAct)))     u_l_actt    (.i({hold_after_arb, barrier, hold_rr, b_hold_valid_arb}), .o(hold_act_t));
  mt_tu_lut4 #(.Init(lut_init(LAct)))     u_l_hwr     (.i({hold_after_arb, barrier, hold_rw, b_hold_valid_arb}), .o(hold_wr));
  mt_tu_lut4 #(.Init(lut_init(LAct)))     u_l_hcnt    (.i({hold_after_arb, barrier, hold_rc, b_hold_valid_arb}), .o(hold_cnt));
  mt_tu_lut4 #(.Init(lut_init(LNobar)))   u_l_nobar   (.i({end_only, mark_or_ovf, hold_ready, b_hold_valid_arb}), .o(pkt_nobar));
  mt_tu_lut4 #(.Init(lut_init(LSect)))    u_l_rsect   (.i({1'b0, hold_after_arb, b_hold_valid_arb, spsw}), .o(r_sect));
  mt_tu_lut4 #(.Init(lut_init(LSync)))    u_l_rsync   (.i({hold_after_arb, b_hold_valid_arb, sync_pending_q, spsw}), .o(r_sync));
  mt_tu_lut4 #(.Init(lut_init(LRow)))     u_l_rovf    (.i({ovf_ready, hold_ready, b_hold_valid_arb, barrier}), .o(r_ovf));
  mt_tu_lut4 #(.Init(lut_init(LRow)))     u_l_rmark   (.i({mark_only, hold_ready, b_hold_valid_arb, barrier}), .o(r_mark));
  mt_tu_lut4 #(.Init(lut_init(LEndRow)))  u_l_rend    (.i({1'b0, end_only, b_hold_valid_arb, barrier}), .o(r_end));
  mt_tu_lut4 #(.Init(lut_init(LPktGate))) u_l_pgate   (.i({1'b0, hold_after_arb, b_hold_valid_arb, gate}), .o(pkt_gate));
  // the capture (section C), two levels of tables from the access: the kind filter as three
  // partial tests (kinds 0-1, 2-3, 4) and their select by kind[2]; valid and the tap filter go
  // with the session's state into cap_open (active, and the tap is the one traced; an interval
  // open, a switch, or the first cycle), so that hold_load is the third level
  logic k_lo, k_hi, k_is4, tap_act, open_any;
  mt_tu_lut4 #(.Init(lut_init(LKindLo))) u_l_klo (
    .i({c_kind_mask_q[1], c_kind_mask_q[0], acc_kind_i[1], acc_kind_i[0]}), .o(k_lo));
  mt_tu_lut4 #(.Init(lut_init(LKindHi))) u_l_khi (
    .i({c_kind_mask_q[3], c_kind_mask_q[2], acc_kind_i[1], acc_kind_i[0]}), .o(k_hi));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b0111, 4'b0100))) u_l_k4 (
    .i({1'b0, c_kind_mask_q[4], acc_kind_i[1], acc_kind_i[0]}), .o(k_is4));
  mt_tu_lut4 #(.Init(lut_init(LTapAct))) u_l_tapa (.i({c_tap_q, acc_tap_i, acc_valid_i, active_q}), .o(tap_act));
  mt_tu_lut4 #(.Init(lut_init(LOr4)))    u_l_open (.i({sp_zero_q, int_open_q, first_q, sw}), .o(open_any));
  mt_tu_lut4 #(.Init(lut_init(LKind)))   u_l_pass (.i({k_hi, k_lo, k_is4, acc_kind_i[2]}), .o(pass));
  mt_tu_lut4 #(.Init(lut_init(LAnd2)))   u_l_copen (.i({2'b0, open_any, tap_act}), .o(cap_open));
  // level 4
  logic r_pkt, pkt_wr, hold_load, hold_take_w, hold_take_x, hold_take_y, cap_dropped_c;
  mt_tu_lut4 #(.Init(lut_init(LPkt)))     u_l_rpkt    (.i({pkt_nobar, hold_after_arb, b_hold_valid_arb, barrier}), .o(r_pkt));
  mt_tu_lut4 #(.Init(lut_init(LPktWr)))   u_l_pwr     (.i({pkt_nobar, gate, pkt_gate, barrier}), .o(pkt_wr));
  mt_tu_lut4 #(.Init(lut_init(LLoad2)))   u_l_load    (.i({hold_act, hold_free_sw, cap_open, pass}), .o(hold_load));
  // The hold's wide registers (address, index, sample point) take the cycle's access whenever
  // the hold is free after this cycle's act, captured or not: a hold that did not load keeps
  // its valid flag clear, so what they took is never read (the precompute's stages run on it,
  // and nothing chooses their results for an empty hold).  Their enables so wait for the
  // arbitration only, not for the access and its tap / kind filter, which then drives only the
  // narrow next-state tables.  Three copies (hold_take_w for the address, _x for the index, _y
  // for the sample point), each below the fan-out at which nextpnr puts an enable on a global
  // buffer, whose insertion delay would follow the arbitration.
  mt_tu_lut4 #(.Init(lut_init(LOr2)))     u_l_take_w  (.i({2'b0, hold_act_t, hold_free_sw}), .o(hold_take_w));
  mt_tu_lut4 #(.Init(lut_init(LOr2)))     u_l_take_x  (.i({2'b0, hold_act_t, hold_free_sw}), .o(hold_take_x));
  mt_tu_lut4 #(.Init(lut_init(LOr2)))     u_l_take_y  (.i({2'b0, hold_act_t, hold_free_sw}), .o(hold_take_y));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'b0011))) u_l_capdrop (
    .i({hold_act, hold_free_sw, cap_open, pass}), .o(cap_dropped_c));
  mt_tu_lut4 #(.Init(lut_init(LAnd2)))    u_l_cap     (.i({2'b0, cap_open, pass}), .o(cap));
  // the rows unless a RUN flushes first (s_*), and written now (w_*: the gate is open)
  logic s_hdr, s_sect, s_sync, s_ovf, s_mark, s_end;
  logic w_sect, w_sync, w_ovf, w_mark, w_end;
  assign s_hdr = r_hold;
  mt_tu_lut4 #(.Init(lut_init(LAndN)))    u_l_ssect (.i({2'b0, run_nz_q, r_sect}), .o(s_sect));
  mt_tu_lut4 #(.Init(lut_init(LAndN)))    u_l_ssync (.i({2'b0, run_nz_q, r_sync}), .o(s_sync));
  mt_tu_lut4 #(.Init(lut_init(LAndN)))    u_l_sovf  (.i({2'b0, run_nz_q, r_ovf}), .o(s_ovf));
  mt_tu_lut4 #(.Init(lut_init(LAndN)))    u_l_smark (.i({2'b0, run_nz_q, r_mark}), .o(s_mark));
  mt_tu_lut4 #(.Init(lut_init(LAndN)))    u_l_send  (.i({2'b0, run_nz_q, r_end}), .o(s_end));
  mt_tu_lut4 #(.Init(lut_init(LGate3)))   u_l_wsect (.i({1'b0, run_nz_q, gate, r_sect}), .o(w_sect));
  mt_tu_lut4 #(.Init(lut_init(LGate3)))   u_l_wsync (.i({1'b0, run_nz_q, gate, r_sync}), .o(w_sync));
  mt_tu_lut4 #(.Init(lut_init(LGate3)))   u_l_wovf  (.i({1'b0, run_nz_q, gate, r_ovf}), .o(w_ovf));
  mt_tu_lut4 #(.Init(lut_init(LGate3)))   u_l_wmark (.i({1'b0, run_nz_q, gate, r_mark}), .o(w_mark));
  mt_tu_lut4 #(.Init(lut_init(LGate3)))   u_l_wend  (.i({1'b0, run_nz_q, gate, r_end}), .o(w_end));

  logic is_sample_win, run_flush, run_nz_q;   // run_nz_q: run_cnt_q != 0, as a flip-flop
  assign is_sample_win = hold_act;
  assign run_flush     = r_pkt && run_nz_q;

  // Precompute: the hold against the compressor's state, in three registered stages that run
  // every cycle (pa_*, pb_*, and stage C in mt_tu_enc, each from the one before).  Neither the hold
  // nor the history, the report index, the run or the previous sample changes in the three cycles
  // before a cycle in which the hold acts (it was captured at least five cycles ago, and every act
  // is followed by four rest cycles, its wide update in the first), so there they are the state's
  // values at the choice.  Stage A: the 56-bit compares as 16-bit group results, the skip's zero
  // test, the low halves of the skip (hold index - report index) and of the DELTA difference (hold
  // - newest entry), index + 1 and the sample point for the report; stage B: the matches, the run
  // test and the high halves with stage A's borrows.
  logic [11:0] pa_sup_eq_q;
  logic        pa_skip_zero_q;
  logic [20:0] pa_skip_lo_q;    // [20]: borrow
  logic [28:0] pa_diff_lo_q;    // [28]: borrow
  logic [19:0] pb_skip_hi_q;
  logic [27:0] pb_diff_hi_q;
  logic        pb_any_q, pb_absorbed_q;
  logic [1:0]  pb_midx_q;
  logic [11:0] pa_sup_eq_d;
  for (genvar i = 0; i < 3; i++) begin : g_eq
    // a two-level tree of kept 4-bit group results: left to itself the mapper chains the 56-bit
    // compare through LUTs
    (* keep *) logic [13:0] grp_eq;
    for (genvar g = 0; g < 14; g++) begin : g_grp
      assign grp_eq[g] = (hist_q[i*56 + g*4 +: 4] == hold_a_q[g*4 +: 4]);
    end
    assign pa_sup_eq_d[i*4 +: 4] = {&grp_eq[13:12], &grp_eq[11:8], &grp_eq[7:4], &grp_eq[3:0]};
  end
  logic [2:0] pb_eq;
  logic       pb_any, pb_absorbed;
  logic [1:0] pb_midx;
  always_comb begin
    for (int i = 0; i < 3; i++) pb_eq[i] = hist_valid_q[i] && (&pa_sup_eq_q[i*4 +: 4]);
    pb_any = |pb_eq;
    pb_midx = pb_eq[0] ? 2'd0 : (pb_eq[1] ? 2'd1 : 2'd2);
    // the sample extends the run (no bytes, no room needed)
    pb_absorbed = prev_valid_q && pb_any && (pb_midx == prev_idx_q) && (hold_rw_q == prev_rw_q) &&
                  pa_skip_zero_q && (run_cnt_q != mt_tu_pkg::RunMax);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pa_sup_eq_q <= '0;   pa_skip_zero_q <= 1'b0; pa_idx1_q <= '0; pa_nsp_q <= '0; pa_skip_lo_q <= '0; pa_diff_lo_q <= '0;
      pb_skip_hi_q <= '0;  pb_diff_hi_q <= '0;
      pb_any_q <= 1'b0;    pb_absorbed_q <= 1'b0;  pb_midx_q <= '0;
    end else begin
      pa_sup_eq_q    <= pa_sup_eq_d;
      pa_skip_zero_q <= (hold_idx_q == rep_idx_q);
      pa_idx1_q      <= hold_idx_q + 40'd1;
      pa_nsp_q       <= hold_nsp_q;
      pa_skip_lo_q   <= {1'b0, hold_idx_q[19:0]} - {1'b0, rep_idx_q[19:0]};
      pa_diff_lo_q   <= {1'b0, hold_a_q[27:0]} - {1'b0, hist_q[27:0]};
      pb_skip_hi_q   <= hold_idx_q[39:20] - rep_idx_q[39:20] - 20'(pa_skip_lo_q[20]);
      pb_diff_hi_q   <= hold_a_q[55:28] - hist_q[55:28] - 28'(pa_diff_lo_q[28]);
      pb_any_q       <= pb_any;
      pb_absorbed_q  <= pb_absorbed;
      pb_midx_q      <= pb_midx;
    end
  end

  // The sample being written: the hold's, with the precompute's results.
  logic [55:0] s_a;
  logic        s_rw;
  logic [39:0] s_skip;
  // (the address part is already w bits wide: the hold was taken in the encoder's format, since
  // a sample of a new section is written only after its SECTION)
  assign s_a    = hold_a_q;
  assign s_rw   = hold_rw_q;
  assign s_skip = {pb_skip_hi_q, pa_skip_lo_q[19:0]};
  logic       any_match, e_absorbed, skip_zero;
  logic [1:0] e_midx;
  assign any_match  = pb_any_q;
  assign e_midx     = pb_midx_q;
  assign e_absorbed = pb_absorbed_q;
  assign skip_zero  = pa_skip_zero_q;

  // The packet in flight in stage P1 / P2 (registered below).
  logic        p1_v_q, p1_sample_q, p1_sync_q, p1_end_q, p1_fa_en_q, p1_fb_en_q;
  logic        p1_sect_q, p1_ovf_q, p1_mark_q;
  logic        p1_sw_q, p1_swld_q, p1_ldspan_q;   // the schedule in the choice's cycle
  logic [4:0]  p1_bound_q;     // the SYNC estimate's length bound of the packet in P1
  logic [7:0]  p1_hdr_q, p1_b1_q;
  logic [2:0]  p1_pre_len_q;
  logic [47:0] p1_fa_q;
  logic [55:0] p1_fb_q;
  logic        p2_v_q, p2_sync_q, p2_end_q;
  logic [7:0]  p2_hdr_q, p2_b1_q;
  logic [2:0]  p2_pre_len_q;
  logic [47:0] p2_fa_q;
  logic [3:0]  p2_la_q, p2_lb_q;
  logic [55:0] p2_fb_q;
  logic [4:0]  p2_len;      // formed in P2 from the prefix's and the fields' lengths
  logic [4:0]  p2_pb_q;     // the prefix's length + field B's
  logic        pq_v_q, pq_sync_q, pq_end_q, pq_w_q;
  logic [4:0]  pq_len_q;
  logic [3:0]  pq_cnt_q;
  logic        pw_v_q, pw_sync_q, pw_end_q;
  logic [4:0]  pw_len_q;
  logic        w_q;
  logic [3:0]  w_cnt_q;
  logic [63:0] w_data_q, w_bytes;
  logic        p3_v_q, p3_sync_q, p3_end_q;
  logic [4:0]  p3_len_q;
  // Contract v3: the FIFO's write port takes 8 bytes a clock; a packet longer than 8 bytes takes
  // it for two (its second half in the cycle after P2, which is a rest cycle of its choice, v4).
  // p2h_q: P2's packet is longer than 8 bytes and its second half is written now.
  logic        p2h_q;

  // Room: the space after this cycle's drain holds a maximal packet for this one and for each
  // packet in flight.  It matters only where a packet can be chosen (not a rest cycle), and there
  // the only packet that can be in flight (contract v4) is the one in P3, chosen three cycles ago.
  logic room;
  assign room = fifo_room_i;
  assign fifo_inflight_o = pw_v_q || pq_v_q;

  // The descriptor of the winner (or of the RUN that flushes before it): prefix, fields.
  // (the section start after a switch: rep_cycle holds it from the switch to its SECTION, which
  // resets the report state anyway, so no separate section-start register; P1 reads it)

  logic [7:0]   k_hdr, k_b1;
  logic [2:0]   k_pre_len;
  logic [4:0]   k_bound;      // length bound for the SYNC estimate (lib/mt_unit.c BOUND_*)
  logic         k_fa_en, k_fb_en, k_sample;
  logic [47:0]  k_fa;
  logic [55:0]  k_fb;
  // The descriptor as an AND-OR of the rows, at most two levels behind them: it matters only
  // when a packet is written (P1's valid bit), and then exactly one of r_hold and the packet rows
  // is set (r_hold excludes them), so no row needs a priority over another.  A written packet
  // that is not the hold's sample is a RUN when a run is open, else the winning row's.  The
  // sample's own bits come from registers; the wide fields take a copy of r_hold (r_hold_w).
  //   header:  sample bits 7..0 = 1, 0, m1, m0, rw, run, !skip_zero, 0 (m: the match, when one;
  //            P1 adds the op),
  //            RUN 01, SYNC 00, SECTION 02, OVERFLOW 03, MARKER 04, END 05;
  //   bound:   sample 1 + run + (skip ? 6 : 0) + (match ? 0 : 8), RUN 2, SECTION 14, SYNC 16,
  //            END 13, OVERFLOW and MARKER 6.
  localparam logic [4:0] BndRun = 5'd2, BndSection = 5'd14, BndSync = 5'd16, BndValue = 5'd6;
  localparam logic [4:0] BndEnd = 5'd13;
  logic [7:0] k_hs, k_hr;   // the sample's header; the packet rows' (an OR: one row is set)
  logic [4:0] k_bs, k_br;   // the same for the bound
  assign k_hs = mt_tu_pkg::HdrSample | {1'b0, (any_match ? {1'b0, e_midx} : 3'd0), s_rw, run_nz_q,
                                        !skip_zero, 1'b0};
  assign k_hr = ({8{r_sect}} & mt_tu_pkg::HdrSection) | ({8{r_sync}} & mt_tu_pkg::HdrSync) |
                ({8{r_ovf}} & mt_tu_pkg::HdrOverflow) | ({8{r_mark}} & mt_tu_pkg::HdrMarker) |
                ({8{r_end}} & mt_tu_pkg::HdrEnd);
  assign k_bs = 5'd1 + (run_nz_q ? 5'd1 : 5'd0) + (skip_zero ? 5'd0 : 5'd6) +
                (any_match ? 5'd0 : 5'd8);
  assign k_br = ({5{r_sect}} & BndSection) | ({5{r_sync}} & BndSync) | ({5{r_end}} & BndEnd) |
                ({5{r_ovf || r_mark}} & BndValue);
  // (per bit: r_hold ? the sample's : a run ? RUN's : the row's, as LSelRun where RUN's bit is
  // set, else LSelNr)
  for (genvar b = 0; b < 8; b++) begin : g_khdr
    mt_tu_lut4 #(.Init(lut_init(mt_tu_pkg::HdrRun[b] ? LSelRun : LSelNr))) u_l (
      .i({k_hr[b], run_nz_q, k_hs[b], r_hold}), .o(k_hdr[b]));
  end
  for (genvar b = 0; b < 5; b++) begin : g_kbound
    mt_tu_lut4 #(.Init(lut_init(BndRun[b] ? LSelRun : LSelNr))) u_l (
      .i({k_br[b], run_nz_q, k_bs[b], r_hold}), .o(k_bound[b]));
  end
  // field B: the sample's when it matches nothing; SECTION's, SYNC's and END's
  logic k_fb_row, nmatch;
  assign k_fb_row = r_sect || r_sync || r_end;
  assign nmatch   = !any_match;
  mt_tu_lut4 #(.Init(lut_init(LSelNr)))  u_l_kfb (.i({k_fb_row, run_nz_q, nmatch, r_hold}), .o(k_fb_en));
  // the run byte: a RUN's, or a sample's when a run is open (0 otherwise, as run_cnt is); else
  // SECTION's or SYNC's.  SECTION's span bit is P1's (sec_span_q then holds the choice's b_span,
  // which is behind the switch: q_b1)
  logic [7:0] k_b1_row;
  assign k_b1_row = ({8{r_sect}} & {1'b1, 4'd0, b_fmt, 1'b0}) | ({8{r_sync}} & sync_seq_q);
  assign k_b1 = run_nz_q ? {1'b0, run_cnt_q} : k_b1_row;
  assign k_pre_len = s_sync ? 3'd7 : ((run_nz_q || s_sect) ? 3'd2 : 3'd1);
  assign k_fa_en = r_hold ? !skip_zero : !run_nz_q;
  // (SYNC's prev_bytes, SECTION's rate, OVERFLOW's count and END's sample count: P1 supplies
  // them; a MARKER's value otherwise)
  assign k_fa = r_hold_w ? {8'd0, s_skip} : {16'd0, marker_val_q};
  // (SECTION's start and END's drop count: P1 supplies them; SYNC's cycle otherwise)
  assign k_fb = r_hold_w ? s_a : {8'd0, t_q[47:0]};
  assign k_sample = s_hdr && !any_match;

  // (r_hold and r_pkt exclude each other; a packet row writes whenever the gate is open)
  (* keep *) logic write;
  assign write = hold_wr || pkt_wr;
  // The arbitration acted (a packet written, or the hold's sample absorbed: hold_cnt || pkt_wr):
  // four rest cycles follow, a thermometer that empties one step a cycle.
  // (111 after an act, then 011, 001, 000; rest_nz_q is set while any bit was)
  logic [2:0] rest_sr_d;
  logic       rest_nz_d;
  mt_tu_lut4 #(.Init(lut_init(LOr2))) u_l_rest2  (.i({2'b0, pkt_wr, hold_cnt}), .o(rest_sr_d[2]));
  mt_tu_lut4 #(.Init(lut_init(LOr3))) u_l_rest1  (.i({1'b0, rest_sr_q[2], pkt_wr, hold_cnt}), .o(rest_sr_d[1]));
  mt_tu_lut4 #(.Init(lut_init(LOr3))) u_l_rest0  (.i({1'b0, rest_sr_q[1], pkt_wr, hold_cnt}), .o(rest_sr_d[0]));
  mt_tu_lut4 #(.Init(lut_init(LOr3))) u_l_restnz (.i({1'b0, rest_sr_q[0], pkt_wr, hold_cnt}), .o(rest_nz_d));


  // The SYNC estimate (docs/trace-unit.md 4.E), in the cycle after a choice, registered (sync_due
  // in the cycle after that).  Under contract v4 it can only cross the period in a cycle with a
  // choice (it grows only then), where it is the SYNC byte count after that cycle's entry (the
  // packet chosen PACE cycles before enters then) and the chosen packet's bound: in the next
  // cycle, sync_need_q and P1's bound (the P3 term below covers a pipeline longer than the pace).
  // A packet in flight that is a SYNC need not be tested: after its entry the count is its 16
  // bytes, below any period.  In the rest cycles before, a late sync_pending matters only to the
  // barrier tag of a capture in the choice's next cycle, which takes it from sync_due
  // (hold_after).
  logic        p1_active_q;   // the session was active in the choice's cycle
  logic [13:0] sync_in_fifo;  // sync_bytes after this cycle's P3 entry
  logic        sync_due;
  // sync_need_q = SYNC_PERIOD - sync_bytes_q, kept beside the count and held at 0 once the count
  // reaches the period (a bound is at least 1, so every value <= 0 tests alike), so the test is a
  // short compare.  It is set to the maximum in a session's first cycle (nothing tests it before:
  // no packet is chosen in the cycle of a start); the session's first packet is its SYNC, and the
  // value is exact from that SYNC's entry on, before the next choice is tested.
  // The entry's arithmetic (the count after it, the need after it) is formed a cycle ahead, from
  // PW's length and the registers as they are then: under contract v4 packets enter at least
  // PACE cycles apart, and a session's first cycle has nothing in PW, so in the cycle before an
  // entry neither sync_bytes_q nor sync_need_q changes (and the latched SYNC_PERIOD is read
  // from t + 2 of the start, before the first SYNC is in PW).  So no carry chain is between P3's
  // flags and these registers.
  logic [13:0] sync_need_q, sync_need_d;
  logic [13:0] sb_pre_q, need_pre_q, reset_pre_q;   // for the packet in PW, were it to enter now
  logic        sb_sat_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    logic [14:0] sum, rst_v;
    if (!rst_ni) begin
      sb_pre_q <= '0;  sb_sat_q <= 1'b0;  need_pre_q <= '0;  reset_pre_q <= '0;
    end else begin
      sum = {1'b0, sync_bytes_q} + 15'(pw_len_q);
      rst_v = {1'b0, c_sync_period_q} - 15'(pw_len_q);
      sb_pre_q    <= sum[13:0];
      sb_sat_q    <= sum[14];
      need_pre_q  <= (sync_need_q <= 14'(pw_len_q)) ? '0 : sync_need_q - 14'(pw_len_q);
      reset_pre_q <= rst_v[14] ? '0 : rst_v[13:0];
    end
  end
  always_comb begin
    if (first_q) sync_need_d = 14'h3FFF;
    else if (!p3_v_q) sync_need_d = sync_need_q;
    else if (p3_sync_q) sync_need_d = reset_pre_q;
    else sync_need_d = need_pre_q;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sync_need_q <= 14'h3FFF;
    else sync_need_q <= sync_need_d;
  end
  // (sync_due is that test registered from P1: "need after P3's entry <= bound" is "need <= bound +
  // the entering length", and a SYNC entering leaves a count below any period)
  logic sync_due_q;
  assign sync_due = sync_due_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sync_due_q <= 1'b0;
    else sync_due_q <= p1_v_q && !p1_sync_q && p1_active_q && !(p3_v_q && p3_sync_q) &&
                       (sync_need_q <= 14'(p1_bound_q) + (p3_v_q ? 14'(p3_len_q) : 14'd0));
    // (the model's test: est >= period, est = count after the entries + the bound)
  end

  // Stage C of the precompute: DELTA or FULL for the hold's sample, were it to match nothing
  // (against the newest entry at the choice), its payload and LEB length, registered every cycle.
  // In the cycle after a choice (the chosen packet's P1) these registers hold the values of the
  // choice's cycle, whose state stage B still reflected.
  logic        pc_delta_q, e_delta;
  logic [55:0] pc_pay_q, e_pay;
  logic [3:0]  pc_pay_len_q, e_pay_len;
  mt_tu_enc u_enc (
    .clk_i,
    .rst_ni,
    .fmt_i       (enc_fmt_q),
    .a_i         (hold_a_q),
    .diff_i      ({pb_diff_hi_q, pa_diff_lo_q[27:0]}),
    .ref_valid_i (hist_valid_q[0]),
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

  // P1: the sample's payload from stage C, SYNC's prev_bytes, the LEB lengths.  SYNC's
  // prev_bytes is the bytes since the last SYNC's first byte, the packets in flight at its choice
  // included; under contract v4 the last of them was chosen at least PACE cycles before the SYNC,
  // so it enters the FIFO by the end of the SYNC's cycle and prev_bytes is the SYNC byte count in
  // its P1 (which stays until the SYNC's own entry).
  logic [47:0] q_fa, q_fa2;   // q_fa2: with SYNC's prev_bytes
  // The LEB lengths of the fields' sources, registered every cycle: in a packet's P1 each holds
  // the length of its register's value in the choice's cycle, which is the field's value: the
  // SYNC's or a SECTION's cycle (t_q, or rep_cycle_q when the section did not start in that
  // cycle), END's counts (no sample is counted and no drop is pending in its cycle), MARKER's
  // value, the sample's skip (the precompute's registers hold it then), the rate of the section
  // (sec_r_q, or the latched rate of the section that starts in that cycle).
  logic [3:0] len_t_q, len_rep_q, len_drop_q, len_samples_q, len_mv_q, len_skip_q;
  logic [3:0] len_sec_r_q, len_rh_q, len_rl_q;
  // (the two counters in SB_MAC16 blocks as explicit tables: mt_tu_leblen)
  logic [3:0] len_t_d, len_samples_d;
  mt_tu_leblen u_len_t       (.v_i(t_q[47:0]), .len_o(len_t_d));
  mt_tu_leblen u_len_samples (.v_i(samples_q), .len_o(len_samples_d));
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      len_t_q <= 4'd1;      len_rep_q <= 4'd1;    len_drop_q <= 4'd1;  len_samples_q <= 4'd1;
      len_mv_q <= 4'd1;     len_skip_q <= 4'd1;   len_sec_r_q <= 4'd1; len_rh_q <= 4'd1;
      len_rl_q <= 4'd1;
    end else begin
      len_t_q       <= len_t_d;
      len_rep_q     <= mt_tu_pkg::leb_len({16'd0, rep_cycle_q});
      len_drop_q    <= mt_tu_pkg::leb_len({32'd0, dropped_q});
      len_samples_q <= len_samples_d;
      len_mv_q      <= mt_tu_pkg::leb_len({32'd0, marker_val_q});
      len_skip_q    <= mt_tu_pkg::leb_len({24'd0, s_skip});
      len_sec_r_q   <= mt_tu_pkg::leb_len({32'd0, sec_r_q});
      len_rh_q      <= mt_tu_pkg::leb_len({32'd0, c_rate_h_q});
      len_rl_q      <= mt_tu_pkg::leb_len({32'd0, c_rate_l_q});
    end
  end
  // OVERFLOW's LEB length, of the count itself (drop_pending_q, an SB_MAC16's output), in three
  // levels of tables (left to itself the mapper chained it through q_la's select, seven deep):
  // ORs of the bits in 4- and 3-bit groups cut at the LEB group bounds (bits 28, 21, 14, 7); then
  // P = bits 31:21 (the length is at least 4), Q = bits 20:14, R = bits 13:7; then the length,
  // 1 + the number of LEB groups above the first: [2] = P, [1] = !P && (Q || R),
  // [0] = !(P || Q || R) || (Q && !P) || bits 31:28 (lengths 1, 3 and 5).
  logic [6:0] ovf_g;   // |v[31:28], |v[27:24], |v[23:21], |v[20:17], |v[16:14], |v[13:10], |v[9:7]
  logic       ovf_p, ovf_q, ovf_r;
  logic [3:0] ovf_len;
  localparam logic [15:0] LNz4 = ~mt_tu_pkg::lut_match(4'b1111, 4'b0000);
  mt_tu_lut4 #(.Init(LNz4)) u_l_og6 (.i(drop_pending_q[31:28]), .o(ovf_g[6]));
  mt_tu_lut4 #(.Init(LNz4)) u_l_og5 (.i(drop_pending_q[27:24]), .o(ovf_g[5]));
  mt_tu_lut4 #(.Init(LNz4)) u_l_og4 (.i({1'b0, drop_pending_q[23:21]}), .o(ovf_g[4]));
  mt_tu_lut4 #(.Init(LNz4)) u_l_og3 (.i(drop_pending_q[20:17]), .o(ovf_g[3]));
  mt_tu_lut4 #(.Init(LNz4)) u_l_og2 (.i({1'b0, drop_pending_q[16:14]}), .o(ovf_g[2]));
  mt_tu_lut4 #(.Init(LNz4)) u_l_og1 (.i(drop_pending_q[13:10]), .o(ovf_g[1]));
  mt_tu_lut4 #(.Init(LNz4)) u_l_og0 (.i({1'b0, drop_pending_q[9:7]}), .o(ovf_g[0]));
  mt_tu_lut4 #(.Init(LNz4)) u_l_op (.i({1'b0, ovf_g[6:4]}), .o(ovf_p));
  mt_tu_lut4 #(.Init(LNz4)) u_l_oq (.i({2'b0, ovf_g[3:2]}), .o(ovf_q));
  mt_tu_lut4 #(.Init(LNz4)) u_l_or (.i({2'b0, ovf_g[1:0]}), .o(ovf_r));
  assign ovf_len[2] = ovf_p;
  mt_tu_lut4 #(.Init(lut_init(LLen1))) u_l_ol1 (.i({ovf_g[6], ovf_r, ovf_q, ovf_p}), .o(ovf_len[1]));
  mt_tu_lut4 #(.Init(lut_init(LLen0))) u_l_ol0 (.i({ovf_g[6], ovf_r, ovf_q, ovf_p}), .o(ovf_len[0]));
  assign ovf_len[3] = 1'b0;
  logic [55:0] q_fb;
  logic [3:0]  q_la, q_lb, q_la_reg;
  logic        q_la_ovf;   // field A is OVERFLOW's count (the packets' flags are one-hot)
  logic [7:0]  q_hdr;
  assign q_la_ovf = p1_fa_en_q && !p1_sync_q && p1_ovf_q;
  for (genvar i = 0; i < 4; i++) begin : g_qla
    mt_tu_lut4 #(.Init(lut_init(LMux))) u_l (.i({1'b0, q_la_reg[i], ovf_len[i], q_la_ovf}), .o(q_la[i]));
  end
  always_comb begin
    // (read only in a cycle of an entry: sb_pre_q, above)
    sync_in_fifo = p3_sync_q ? 14'(p3_len_q) : (sb_sat_q ? 14'd16383 : sb_pre_q);
    // The fields that P1 takes from the state after the choice's cycle rather than from the
    // choice (so that no carry chain or select of them is behind the choice): SECTION's rate
    // (sec_r_q, the rate of the choice's cycle) and start (rep_cycle_q, which holds it from the
    // switch on), OVERFLOW's count (drop_pending_q: the count of the choice's cycle, which
    // the OVERFLOW clears only in P1) and END's counts (samples_q, unchanged in its cycle since
    // END waits for an empty hold; dropped_q: DROPPED of its cycle).
    if (p1_ovf_q) q_fa = {16'd0, drop_pending_q};
    else if (p1_sect_q) q_fa = {16'd0, sec_r_q};
    else if (p1_end_q) q_fa = samples_q;
    else q_fa = p1_fa_q;
    q_fa2 = p1_sync_q ? {34'd0, sync_bytes_q} : q_fa;
    // The LEB lengths: of registers whose lengths are registered every cycle (len_*_q, below),
    // so that a length in P1 is a select of flip-flops; OVERFLOW's, of drop_pending_q itself.
    // (OVERFLOW's length, the late one, is taken last: q_la_ovf and the tables g_qla below)
    if (!p1_fa_en_q) q_la_reg = 4'd0;
    else if (p1_sync_q) q_la_reg = (sync_bytes_q[13:7] != '0) ? 4'd2 : 4'd1;
    else if (p1_sect_q) q_la_reg = p1_swld_q ? (p1_ldspan_q ? len_rl_q : len_rh_q) : len_sec_r_q;
    else if (p1_end_q) q_la_reg = len_samples_q;
    else if (p1_mark_q) q_la_reg = len_mv_q;
    else q_la_reg = len_skip_q;
    if (p1_sample_q) q_fb = pc_pay_q;
    else if (p1_end_q) q_fb = {24'd0, dropped_q};
    else if (p1_sect_q) q_fb = {8'd0, rep_cycle_q};
    else q_fb = p1_fb_q;
    if (!p1_fb_en_q) q_lb = 4'd0;
    else if (p1_sample_q) q_lb = pc_pay_len_q;
    else if (p1_end_q) q_lb = len_drop_q;
    else if (p1_sect_q) q_lb = p1_sw_q ? len_t_q : len_rep_q;
    else q_lb = len_t_q;   // SYNC's cycle
    q_hdr = p1_hdr_q | (p1_sample_q ? {1'b0, (pc_delta_q ? mt_tu_pkg::OpDelta : mt_tu_pkg::OpFull),
                                       4'd0} : 8'd0);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p1_v_q <= 1'b0;       p1_sample_q <= 1'b0;  p1_sync_q <= 1'b0;   p1_end_q <= 1'b0;
      p1_sect_q <= 1'b0;    p1_ovf_q <= 1'b0;     p1_mark_q <= 1'b0;
      p1_sw_q <= 1'b0;      p1_swld_q <= 1'b0;    p1_ldspan_q <= 1'b0;
      p1_fa_en_q <= 1'b0;   p1_fb_en_q <= 1'b0;    p1_bound_q <= '0;    p1_active_q <= 1'b0;
      p1_hdr_q <= '0;       p1_b1_q <= '0;        p1_pre_len_q <= '0;
      p1_fa_q <= '0;        p1_fb_q <= '0;
      p2_v_q <= 1'b0;       p2_sync_q <= 1'b0;    p2_end_q <= 1'b0;
      p2_hdr_q <= '0;       p2_b1_q <= '0;        p2_pre_len_q <= '0;
      p2_fa_q <= '0;        p2_la_q <= '0;        p2_lb_q <= '0;       p2_pb_q <= '0;
      p2_fb_q <= '0;
      p3_v_q <= 1'b0;       p3_sync_q <= 1'b0;    p3_end_q <= 1'b0;    p3_len_q <= '0;
      pw_v_q <= 1'b0;       pw_sync_q <= 1'b0;    pw_end_q <= 1'b0;    pw_len_q <= '0;
      pq_v_q <= 1'b0;       pq_sync_q <= 1'b0;    pq_end_q <= 1'b0;    pq_len_q <= '0;
      pq_w_q <= 1'b0;       pq_cnt_q <= '0;
      w_q <= 1'b0;          w_cnt_q <= '0;        w_data_q <= '0;
      p2h_q <= 1'b0;
    end else begin
      p2h_q  <= p2_v_q && (p2_len > 5'd8);
      // The stages' data registers load every cycle (meaningful only with their valid bit), so
      // the late write decision drives only p1_v_q.
      p1_v_q <= write;
      begin
        p1_sample_q  <= is_sample_win && k_sample;
        p1_sync_q    <= s_sync;
        p1_end_q     <= s_end;
        p1_sect_q    <= s_sect;
        p1_ovf_q     <= s_ovf;
        p1_mark_q    <= s_mark;
        p1_sw_q      <= sw;
        p1_swld_q    <= sw_ld;
        p1_ldspan_q  <= ld_span;
        p1_fa_en_q   <= k_fa_en;
        p1_bound_q   <= k_bound;
        p1_active_q  <= active_q;
        p1_fb_en_q   <= k_fb_en;
        p1_hdr_q     <= k_hdr;
        p1_b1_q      <= k_b1;
        p1_pre_len_q <= k_pre_len;
        p1_fa_q      <= k_fa;
        p1_fb_q      <= k_fb;
      end
      p2_v_q <= p1_v_q;
      // (P2's data stays while P1 is empty: a long packet's second half is formed from it in the
      // cycle after its first; the next packet is chosen no earlier than that cycle, so P1 is
      // empty in the first)
      if (p1_v_q) begin
        p2_sync_q    <= p1_sync_q;
        p2_end_q     <= p1_end_q;
        p2_hdr_q     <= q_hdr;
        p2_b1_q      <= {p1_b1_q[7:1], p1_b1_q[0] || (p1_sect_q && sec_span_q)};
        p2_pre_len_q <= p1_pre_len_q;
        p2_fa_q      <= q_fa2;
        p2_la_q      <= q_la;
        p2_fb_q      <= q_fb;
        p2_lb_q      <= q_lb;
        p2_pb_q      <= 5'(p1_pre_len_q) + 5'(q_lb);
      end
      // PQ: the packer's second step; PW: the packet's bytes on their way to the FIFO's banks
      // (written from PW); P3 commits the packet one clock after its first write
      pq_v_q    <= p2_v_q;
      pq_sync_q <= p2_sync_q;
      pq_end_q  <= p2_end_q;
      pq_len_q  <= p2_len;
      pq_w_q    <= p2_v_q || p2h_q;
      pq_cnt_q  <= p2h_q ? 4'(p2_len - 5'd8) : ((p2_len > 5'd8) ? 4'd8 : 4'(p2_len));
      pw_v_q    <= pq_v_q;
      pw_sync_q <= pq_sync_q;
      pw_end_q  <= pq_end_q;
      pw_len_q  <= pq_len_q;
      w_q       <= pq_w_q;
      w_cnt_q   <= pq_cnt_q;
      w_data_q  <= w_bytes;
      p3_v_q <= pw_v_q;
      begin
        p3_sync_q <= pw_sync_q;
        p3_end_q  <= pw_end_q;
        p3_len_q  <= pw_len_q;
      end
    end
  end

  // (the prefix's and field B's lengths are added in P1, where neither is late, so that P2's
  // length, behind which are the FIFO counts and the second half, is one adder from registers)
  assign p2_len = p2_pb_q + 5'(p2_la_q);

  // P2: the packet's bytes, into the FIFO's banks at the end of this cycle; P3 commits it.
  logic [55:0]  p2_pre;
  always_comb begin
    if (p2_sync_q) p2_pre = {p2_b1_q, 8'h80, 40'd0};
    else if (p2_pre_len_q == 3'd2) p2_pre = {40'd0, p2_b1_q, p2_hdr_q};
    else p2_pre = {48'd0, p2_hdr_q};
  end

  mt_tu_pack u_pack (
    .clk_i,
    .rst_ni,
    .pre_i     (p2_pre),
    .pre_len_i (p2_pre_len_q),
    .fa_i      (p2_fa_q),
    .la_i      (p2_la_q),
    .fb_i      (p2_fb_q),
    .lb_i      (p2_lb_q),
    .half_i    (p2h_q),
    .bytes_o   (w_bytes)
  );

  // the first 8 bytes assembled in P2 and written from PW, the rest one cycle later each
  assign fifo_wr_o         = w_q;
  assign fifo_cnt_o        = w_cnt_q;
  assign fifo_wr_next_o    = pq_w_q;      // (w_q and w_cnt_q take them every cycle)
  assign fifo_cnt_next_o   = pq_cnt_q;
  assign fifo_data_o       = w_data_q;
  assign fifo_commit_o     = p3_v_q;
  assign fifo_commit_len_o = p3_len_q;

  // The cycle counter and BYTES are counters in the iCE40's DSP blocks (mt_tu_acc), so there is
  // no t + 1 in the fabric: the report cycle of a new session, t + 1 at its start, is taken from
  // the counter in the session's first cycle instead (first_q; nothing is reported in that cycle,
  // since the SYNC pending from the start has priority over every sample).
  mt_tu_acc #(.Width(64), .AddW(1)) u_t (
    .clk_i,
    .rst_ni,
    .load_i (1'b0),
    .load_val_i ('0),
    .add_i  (1'b1),
    .q_o    (t_q)
  );
  // SAMPLES too: a start clears it (no sample is reported in the cycle of a start: the session
  // before has ended), a sample absorbed or written counts.
  mt_tu_acc #(.Width(48), .AddW(1)) u_samples (
    .clk_i,
    .rst_ni,
    .load_i (start_cfg),
    .load_val_i ('0),
    .add_i  (hold_cnt),   // (hold_act && (e_absorbed || room))
    .q_o    (samples_q)
  );
  mt_tu_acc #(.Width(48), .AddW(5)) u_bytes (
    .clk_i,
    .rst_ni,
    .load_i (start_cfg),
    .load_val_i ('0),
    .add_i  (p3_v_q ? p3_len_q : 5'd0),
    .q_o    (bytes_q)
  );
  // OVERFLOW's count and DROPPED, saturating, in the last two: the drops of the last cycle
  // (drops_q) are added at the clock; an OVERFLOW clears the count it carries in its P1, leaving
  // those drops, and the session's first cycle (first_q) clears both (see below).
  mt_tu_acc #(.Width(32), .AddW(2), .Saturate(1'b1)) u_drop_pending (
    .clk_i,
    .rst_ni,
    .load_i     (first_q || (p1_v_q && p1_ovf_q)),
    .load_val_i (first_q ? 2'd0 : drops_q),
    .add_i      (drops_q),
    .q_o        (drop_pending_q)
  );
  mt_tu_acc #(.Width(32), .AddW(2), .Saturate(1'b1)) u_dropped (
    .clk_i,
    .rst_ni,
    .load_i     (first_q),
    .load_val_i (2'd0),
    .add_i      (drops_q),
    .q_o        (dropped_q)
  );

  // ---------------------------------------------------------------------------------------------
  // Next state.
  always_comb begin
    active_d = active_q;           busy_d = busy_q;
    c_kind_mask_d = c_kind_mask_q; c_tap_d = c_tap_q;
    c_fmt_h_d = c_fmt_h_q;         c_fmt_l_d = c_fmt_l_q;
    sec_span_d = b_span;           sec_r_d = b_r;
    // (a load is the value itself; the cycle after it counts down by 2)
    sec_left_d = sw_ld_w ? sw_len : sec_left_q + {39'h7F_FFFF_FFFF, sec_dec1_q};
    sp_left_d  = sp_hit_w ? b_r : sp_left_q + {31'h7FFF_FFFF, sp_dec1_q};
    int_idx_d = b_int_idx;
    next_idx_d = !sp_hit_w ? next_idx_q : (sw_ld_w ? 40'd1 : next_idx_q + 40'd1);
    hold_rw_d = hold_rw_q;
    hold_a_d = hold_a_q;           hold_idx_d = hold_idx_q;
    end_pending_d = end_pending_q;
    rep_idx_d = rep_idx_q;         rep_cycle_d = (sw || first_q) ? t_q[47:0] : rep_cycle_q;
    enc_fmt_d = enc_fmt_q;
    hist_d = hist_q;               hist_valid_d = hist_valid_q;
    prev_idx_d = prev_idx_q;       prev_rw_d = prev_rw_q;    prev_valid_d = prev_valid_q;
    run_cnt_d = run_cnt_q;
    sync_bytes_d = sync_bytes_q;   sync_seq_d = sync_seq_q;
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
      if (!pb_any_q) begin
        hist_d[112 +: 56] = hist_q[56 +: 56];
        hist_d[56 +: 56] = hist_q[0 +: 56];
        hist_d[0 +: 56] = p1_fb_q;
        hist_valid_d = {hist_valid_q[1:0], 1'b1};
        prev_idx_d = 2'd0;
      end else begin
        prev_idx_d = pb_midx_q;
      end
      prev_rw_d = p1_hdr_q[3];
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
    // The packet in P3 enters the FIFO: BYTES and the SYNC byte count follow the FIFO.
    if (p3_v_q) begin
      sync_bytes_d = sync_in_fifo;
      if (p3_end_q) busy_d = 1'b0;
    end

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
      sync_bytes_d = '0;
    end

    // MMIO commands of this cycle.
    if (start_now) begin   // (busy_d is busy after this cycle's END entry)
      active_d = 1'b1;
      busy_d = 1'b1;
      overflowed_d = 1'b0;
      sync_seq_d = '0;
      // first section: burst, or span when LEN_H = 0 (and LEN_L != 0)
      sec_span_d = first_l_i;
      // (the rate and the length follow in the first cycle, sw_ld, which also opens the first
      // interval with index 0 whatever sp_left, int_open and the indices hold; a start also
      // clears the hold, marker_lost, sect_pending and sect_switch: the tables below)
    end else if (stop_now) begin
      active_d = 1'b0;
      end_pending_d = 1'b1;
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
  mt_tu_lut4 #(.Init(lut_init(LSetClr))) u_l_nmp  (.i({1'b0, mark_wr_act, w_mark, marker_pending_q}), .o(marker_pending_d));
  mt_tu_lut4 #(.Init(lut_init(LLost)))   u_l_nml  (.i({start_now, w_mark, lost_pend, marker_lost_q}), .o(marker_lost_d));
  mt_tu_lut4 #(.Init(lut_init(LSetClr))) u_l_nsp  (.i({start_now, w_sync, w_sect, spsw}), .o(sect_pending_d));
  // (a SYNC chosen clears sync_pending, one due or a start sets it)
  mt_tu_lut4 #(.Init(lut_init(LSet2)))   u_l_nsy  (.i({start_now, sync_due, w_sync, sync_pending_q}), .o(sync_pending_d));
  mt_tu_lut4 #(.Init(lut_init(LSwitch))) u_l_nss  (.i({start_now, w_sect, sw, sect_switch_q}), .o(sect_switch_d));
  mt_tu_lut4 #(.Init(lut_init(LSetClr))) u_l_nhv  (.i({start_now, hold_load, hold_act, b_hold_valid}), .o(hold_valid_d));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b0111, 4'b0001))) u_l_nha (
    .i({1'b0, hold_load, w_sect, hold_after}), .o(hold_after_d));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b0111, 4'b0001))) u_l_nio (
    .i({1'b0, stop_now, cap, b_int_open}), .o(int_open_d));
  for (genvar b = 0; b < 3; b++) begin : g_age
    mt_tu_lut4 #(.Init(lut_init(LAndN))) u_l (.i({2'b0, hold_load, hold_age_inc[b]}), .o(hold_age_d[b]));
  end
  logic ready_d;
  mt_tu_lut4 #(.Init(lut_init(LAndN))) u_l_nrdy (.i({2'b0, hold_load, hold_age_inc == 3'd4}), .o(ready_d));
  // (no drop happens in the cycle of a start: the session before has ended, its hold is empty
  // and no capture or switch is open, so a start needs no term here)
  logic drops_nz_d;
  mt_tu_lut4 #(.Init(lut_init(LDrop0)))  u_l_nd0  (.i({drop_sw, cap_dropped_c, drop_na_nr, hold_act}), .o(drops_d[0]));
  mt_tu_lut4 #(.Init(lut_init(LDrop1)))  u_l_nd1  (.i({drop_sw, cap_dropped_c, drop_na_nr, hold_act}), .o(drops_d[1]));
  mt_tu_lut4 #(.Init(lut_init(LDropNz))) u_l_ndnz (.i({drop_sw, cap_dropped_c, drop_na_nr, hold_act}), .o(drops_nz_d));
  // OVERFLOW's count != 0 next cycle: it stays non-zero until an OVERFLOW carries it (or a
  // session starts), and this cycle's drops add to it (it saturates, never wraps)
  mt_tu_lut4 #(.Init(lut_init(LOldNz)))  u_l_nold (.i({start_now, w_ovf, drops_nz_q, dp_old_nz_q}), .o(dp_old_nz_d));

  // The configuration latched at the start, written in the session's first cycle from the
  // configuration as written (then equal), read from its third cycle on: before that the section
  // loads take aw_i (young_q), and the SYNC estimate is not used before the first SYNC, which is
  // pending from the start, has left P2 (no earlier than the fourth cycle).
  logic [159:0] c_wdata, c_rdata;
  assign c_we    = first_q;
  assign c_wdata = {2'd0, aw_sync, aw_rate_h, aw_rate_l, aw_len_h_ld, aw_len_l_ld};
  logic [1:0] aw_unused, c_unused;
  assign aw_unused = aw_i[159:158];   // (always 0: SYNC_PERIOD is 14 bits)
  mt_tu_cfgram #(.Width(160)) u_cfg (
    .clk_i,
    .we_i    (c_we),
    .wdata_i (c_wdata),
    .rdata_o (c_rdata)
  );
  assign {c_unused, c_sync_period_q, c_rate_h_q, c_rate_l_q, c_len_h_q, c_len_l_q} = c_rdata;
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
  logic may_start;
  mt_tu_lut4 #(.Init(lut_init(LMayStart))) u_l_may (.i({1'b0, p3_end_q, p3_v_q, busy_q}), .o(may_start));
  // (start_now and stop_now from the decode's first level: ctrl_dec_i)
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'b1111))) u_l_start (
    .i({ctrl_dec_i[3], ctrl_dec_i[2], ctrl_dec_i[1], may_start}), .o(start_now));
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
                            : (sec_left_q == (sec_dec1_q ? 40'd2 : 40'd3));
  logic sw_ns, sw_d;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'b1001))) u_l_swns (
    .i({active_q, first_q, sw, sec_last_q}), .o(sw_ns));
  mt_tu_lut4 #(.Init(lut_init(LNoStop))) u_l_nsw (
    .i({ctrl_dec_i[3], ctrl_dec_i[2], ctrl_dec_i[0], sw_ns}), .o(sw_d));
  // (ctrl_act: a CTRL write that starts or stops, an ENABLE while busy is ignored; it starts
  // with the first section's format, a stop keeps the format, and otherwise a switch takes the
  // next section's)
  logic [1:0] nxt_b_fmt, fmt_sw, fmt_wr_or_keep;
  logic       ctrl_act;
  mt_tu_lut4 #(.Init(lut_init(LUnless))) u_l_cact (.i({1'b0, may_start, wdata_i[0], ctrl_wr_i}), .o(ctrl_act));
  always_comb begin
    logic nxt_sw_span;
    nxt_sw_span = b_span ? c_len_h_zero_q : !c_len_l_zero_q;
    fmt_sw = nxt_sw_span ? c_fmt_l_q : c_fmt_h_q;
  end
  // (a CTRL write that acts: with ENABLE the first section's format, else the format kept)
  for (genvar i = 0; i < 2; i++) begin : g_nfmt
    mt_tu_lut4 #(.Init(lut_init(LWrFmt))) u_l_w (.i({b_fmt[i], fmt_first_i[i], wdata_i[0], ctrl_act}), .o(fmt_wr_or_keep[i]));
    mt_tu_lut4 #(.Init(lut_init(LSwFmt))) u_l (.i({fmt_wr_or_keep[i], fmt_sw[i], ctrl_act, sw_ns}), .o(nxt_b_fmt[i]));
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      first_q <= 1'b0;            young_q <= 1'b0;            c_both_zero_q <= 1'b0;
      active_q <= 1'b0;           busy_q <= 1'b0;
      c_kind_mask_q <= 5'h1F;     c_tap_q <= 1'b0;
      c_fmt_h_q <= 2'd0;          c_fmt_l_q <= 2'd1;
      c_len_h_zero_q <= 1'b1;     c_len_l_zero_q <= 1'b1;
      sec_span_q <= 1'b0;                   sec_r_q <= 32'd1;
      sec_left_q <= '0;         sp_left_q <= '0;
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
      rest_sr_q <= '0;            hold_age_q <= '0;
      rest_nz_q <= 1'b0;          ready_q <= 1'b0;            run_nz_q <= 1'b0;
      dec_run_q <= 1'b0;          dec_abs_q <= 1'b0;          dec_hw_q <= 1'b0;
      dec_sect_q <= 1'b0;         dec_sect_sw_q <= 1'b0;      dec_sync_q <= 1'b0;
      dec_fmt_q <= '0;
      sect_pending_q <= 1'b0;     sect_switch_q <= 1'b0;    sync_pending_q <= 1'b0;
      marker_pending_q <= 1'b0;   end_pending_q <= 1'b0;
      drops_q <= '0;
      dp_old_nz_q <= 1'b0;        drops_nz_q <= 1'b0;
      rep_idx_q <= '0;            rep_cycle_q <= '0;
      enc_fmt_q <= '0;
      hist_q <= '0;
      hist_valid_q <= '0;         prev_idx_q <= '0;         prev_rw_q <= 1'b0;
      prev_valid_q <= 1'b0;       run_cnt_q <= '0;
      sync_bytes_q <= '0;         sync_seq_q <= '0;
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
      sec_left_q <= sec_left_d; sp_left_q <= sp_left_d;
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
      rest_sr_q <= rest_sr_d;     hold_age_q <= hold_age_d;
      rest_nz_q <= rest_nz_d;     ready_q <= ready_d;         run_nz_q <= run_cnt_d != '0;
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
      drops_q <= drops_d;         dp_old_nz_q <= dp_old_nz_d;
      drops_nz_q <= drops_nz_d;
      rep_idx_q <= rep_idx_d;     rep_cycle_q <= rep_cycle_d;
      enc_fmt_q <= enc_fmt_d;
      hist_q <= hist_d;           hist_valid_q <= hist_valid_d;
      prev_idx_q <= prev_idx_d;   prev_rw_q <= prev_rw_d;   prev_valid_q <= prev_valid_d;
      run_cnt_q <= run_cnt_d;
      sync_bytes_q <= sync_bytes_d; sync_seq_q <= sync_seq_d;
      overflowed_q <= overflowed_d; marker_lost_q <= marker_lost_d;
    end
  end

  // MARKER's value.  A write taken while no MARKER is pending is stored at once; one taken in the
  // cycle its predecessor is chosen (which reads the register then) is kept in mark_wdata_q and
  // stored a cycle later, a rest cycle of that choice, so the store does not wait for the choice.
  logic [31:0] mark_wdata_q;
  logic        mark_take_now, mark_take_late_q;
  logic        act_nopend, mark_val_en, mark_val_en2;
  assign act_nopend = active_q && !marker_pending_q;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'b1111))) u_l_mtake (
    .i({mark_dec_i, act_nopend}), .o(mark_take_now));
  // (the value's enable in two copies of 16 bits each, below the fan-out at which nextpnr puts
  // an enable on a global buffer)
  mt_tu_lut4 #(.Init(lut_init(LOr2))) u_l_mven  (.i({2'b0, mark_take_now, mark_take_late_q}), .o(mark_val_en));
  mt_tu_lut4 #(.Init(lut_init(LOr2))) u_l_mven2 (.i({2'b0, mark_take_now, mark_take_late_q}), .o(mark_val_en2));
  logic mark_late;   // (one table after the choice: the write and act_pend join it there)
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b0111, 4'b0111))) u_l_mlate (
    .i({1'b0, w_mark, act_pend, marker_wr_i}), .o(mark_late));
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      marker_val_q <= '0;  mark_wdata_q <= '0;  mark_take_late_q <= 1'b0;
    end else begin
      if (marker_wr_i) mark_wdata_q <= wdata_i;
      mark_take_late_q <= mark_late;
      if (mark_val_en)  marker_val_q[15:0]  <= mark_take_now ? wdata_i[15:0] : mark_wdata_q[15:0];
      if (mark_val_en2) marker_val_q[31:16] <= mark_take_now ? wdata_i[31:16] : mark_wdata_q[31:16];
    end
  end

  assign status_o  = {sec_span_q, 1'b0, marker_lost_q, marker_pending_q, overflowed_q || drops_nz_q,
                      (fifo_occ_i == '0), busy_q, active_q};
  assign dropped_o = first_q ? '0 : dr_eff;
  assign dropped_q_o = dropped_q;

  always_comb begin
    logic [32:0] dr_sum;
    dr_sum = {1'b0, dropped_q} + 33'(drops_q);
    dr_eff = dr_sum[32] ? '1 : dr_sum[31:0];
  end
  assign samples_o = samples_q;
  assign bytes_o   = bytes_q;
  assign cycle_o   = t_q;
endmodule
