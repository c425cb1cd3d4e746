// mt_tu_arb: the arbitration (docs/trace-unit.md 4.D): which packet, if any, is chosen in this
// cycle, whether the hold's sample is absorbed, written or dropped, and whether this cycle's
// capture goes to the hold.  Every output is a 4-input table (mt_tu_lut4) at most four levels
// behind flip-flops, so that the hold's load enable and the packet's write leave it at the fourth
// level (mt_tu_ctrl turns them into the next state; mt_tu_desc and mt_tu_pktpipe build the packet).
// It keeps the rest cycles that follow an act (the thermometer rest_sr_q) itself.
module mt_tu_arb (
  input  logic clk_i,
  input  logic rst_ni,
  // The pending rows and the schedule (flip-flops of mt_tu_ctrl)
  input  logic sw_i,                // a section switch in this cycle
  input  logic sect_pending_i,
  input  logic sync_pending_i,
  input  logic marker_pending_i,
  input  logic marker_urgent_i,     // the pending MARKER was passed by an act: it wins row 0
  input  logic end_pending_i,
  input  logic drops_nz_i,          // drops not yet reported: the last cycle's ...
  input  logic dp_old_nz_i,         // ... and those before
  input  logic fifo_half_i,         // OVERFLOW waits for a FIFO at most half full
  input  logic room_i,              // room in the FIFO for a packet
  input  logic run_nz_i,            // a run is open
  // The hold
  input  logic hold_valid_i,
  input  logic hold_after_i,        // its registered tag "after the barrier"
  input  logic hold_new_i,          // it was loaded in the last cycle
  input  logic hold_ready_i,        // its sample competes (the fifth cycle after its capture on)
  input  logic sync_due_i,          // (mt_tu_syncest)
  input  logic absorbed_i,          // its sample extends the run (mt_tu_precomp)
  // This cycle's access (mt_tu_capture)
  input  logic cap_open_i,
  input  logic pass_i,
  // The decision
  output logic hold_after_arb_o,    // the hold's tag as the arbitration takes it (no sync_due)
  output logic gate_o,              // a packet may be written now (no rest cycle, room)
  output logic spsw_o,              // a switch now or a SECTION pending
  output logic r_hold_o,            // the rows: the hold's sample ...
  output logic r_hold_w_o,          // ... (a copy for the descriptor's wide fields)
  output logic r_sect_o,
  output logic r_sync_o,
  output logic r_ovf_o,
  output logic r_mark_o,            // (the MARKER row is r_mark_o || r_murg_o)
  output logic r_murg_o,            // the urgent MARKER's row (urgent, no barrier; no other is set)
  output logic r_end_o,
  output logic r_pkt_o,             // one of the packet rows (not a sample)
  output logic hold_act_o,          // the hold's sample is decided: absorbed, written or dropped
  output logic hold_cnt_o,          // ... absorbed or written (SAMPLES counts it)
  output logic hold_load_o,         // this cycle's capture goes to the hold
  output logic hold_take_w_o,       // the hold's wide registers take the access (three copies:
  output logic hold_take_x_o,       // the address, the index, the sample point)
  output logic hold_take_y_o,
  output logic cap_o,               // this cycle's access is captured ...
  output logic cap_dropped_o,       // ... and dropped (the hold is not free)
  output logic s_sect_o,            // the rows unless a RUN flushes first
  output logic s_sync_o,
  output logic s_ovf_o,
  output logic s_mark_o,
  output logic s_end_o,
  output logic w_sect_o,            // the rows written now
  output logic w_sync_o,
  output logic w_ovf_o,
  output logic w_mark_o,
  output logic w_end_o,
  output logic write_o,             // a packet is written (P1 takes it)
  output logic act_o                // the arbitration acts: a packet written or a sample absorbed
);
  // Section D: arbitration.
  // The rows of the table in docs/trace-unit.md 4.D, one-hot: the first applicable one wins.
  // The hold wins even while it is not ready: nothing may pass the sample it keeps.  r_pkt: one
  // of the rows 2-5, 7 (a packet that is not a sample) wins.  (Not ready yet, the hold's sample
  // holds back SECTION and SYNC, which must not pass an older sample, but not OVERFLOW and
  // MARKER; END waits for an empty hold, and after everything else, including an OVERFLOW
  // waiting for a FIFO at most half full.)  Row 0: an urgent MARKER (one that an act passed)
  // wins whenever no barrier is pending: the hold is hidden from the rows (b_hold_valid_arb,
  // which keeps it, undecided) and OVERFLOW gives way (ovf_ready); urgent implies pending, so
  // END is not chosen either.  Row 0 is a row of its own (r_murg, urg_nobar: a first-level table),
  // OR-ed in where the MARKER row is used (s_mark, w_mark, the descriptor), so that the MARKER
  // row proper (r_mark) takes mark_only directly: an OR of the two in front of r_mark put a
  // table more on the path from the FIFO's half-full flag into the descriptor (v4.1).
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
  //   1: barrier, hold_after_arb, and the gates and pending-row flags below, row 0 (urg_nobar);
  //   2: b_hold_valid_arb, hold_free_sw (empty, or dropped by this cycle's switch);
  //   3: the rows, hold_act (its sample is decided now: absorbed, chosen, or dropped for want of
  //      room; a hold that acts is always emptied), hold_wr (and written), hold_cnt (absorbed or
  //      written: SAMPLES counts it), pkt_nobar, pkt_gate;
  //   4: r_pkt, pkt_wr, hold_load (this cycle's capture goes to the hold).

  logic [2:0] rest_sr_q;
  logic       rest, rest_nz_q;   // (rest as a flip-flop)
  assign rest = rest_nz_q;
  logic hold_after_arb, b_hold_valid_arb, cap;
  logic hold_new_due;
  assign hold_new_due = hold_new_i && sync_due_i;
  // level 1
  logic barrier, gate, hold_rr, hold_rw, hold_rc, ovf_ready, mark_only, mark_or_ovf, end_only;
  logic spsw, urg_nobar;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'b1000))) u_l_urg (
    .i({marker_urgent_i, sync_pending_i, sw_i, sect_pending_i}), .o(urg_nobar));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LOr3)))     u_l_barrier (.i({1'b0, sync_pending_i, sw_i, sect_pending_i}), .o(barrier));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LHaa)))     u_l_haa     (.i({hold_after_i, sync_pending_i, sect_pending_i, hold_new_i}), .o(hold_after_arb));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LAndN)))    u_l_gate    (.i({2'b0, rest, room_i}), .o(gate));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LAndN)))    u_l_rr      (.i({2'b0, rest, hold_ready_i}), .o(hold_rr));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LRw)))      u_l_rw      (.i({room_i, absorbed_i, rest, hold_ready_i}), .o(hold_rw));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LCnt)))     u_l_rc      (.i({room_i, absorbed_i, rest, hold_ready_i}), .o(hold_rc));
  // (drops not yet reported: dp_old_nz_q || drops_nz_q)
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LLoadN)))   u_l_ovf     (.i({marker_urgent_i, drops_nz_i, dp_old_nz_i, fifo_half_i}), .o(ovf_ready));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LMarkOnly))) u_l_mark   (.i({drops_nz_i, dp_old_nz_i, fifo_half_i, marker_pending_i}), .o(mark_only));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LMarkOvf))) u_l_mo      (.i({marker_pending_i, fifo_half_i, drops_nz_i, dp_old_nz_i}), .o(mark_or_ovf));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'b0001))) u_l_end (
    .i({marker_pending_i, drops_nz_i, dp_old_nz_i, end_pending_i}), .o(end_only));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LOr2)))     u_l_spsw    (.i({2'b0, sw_i, sect_pending_i}), .o(spsw));
  // level 2
  logic hold_free_sw;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LHvaN)))    u_l_hva     (.i({urg_nobar, hold_after_arb, sw_i, hold_valid_i}), .o(b_hold_valid_arb));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LFsw)))     u_l_fsw     (.i({hold_new_due, hold_after_arb, sw_i, hold_valid_i}), .o(hold_free_sw));
  // level 3
  logic r_hold, r_sect, r_sync, r_ovf, r_mark, r_end, pkt_nobar, pkt_gate;
  logic hold_act, hold_wr, hold_cnt;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LHold)))    u_l_rhold   (.i({hold_ready_i, hold_after_arb, b_hold_valid_arb, barrier}), .o(r_hold));
  logic r_hold_w;   // (a copy for the descriptor's wide fields)
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LHold)))    u_l_rholdw  (.i({hold_ready_i, hold_after_arb, b_hold_valid_arb, barrier}), .o(r_hold_w));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LAct)))     u_l_act     (.i({hold_after_arb, barrier, hold_rr, b_hold_valid_arb}), .o(hold_act));
  // (a copy for each of the hold's three take enables, which drive its wide registers: the
  // registers of each are placed apart, the address's, the index's and the sample point's, so
  // that one copy for all three put a long net behind at least one of them)
  logic hold_act_tw, hold_act_tx, hold_act_ty;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LAct)))     u_l_acttw   (.i({hold_after_arb, barrier, hold_rr, b_hold_valid_arb}), .o(hold_act_tw));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LAct)))     u_l_acttx   (.i({hold_after_arb, barrier, hold_rr, b_hold_valid_arb}), .o(hold_act_tx));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LAct)))     u_l_actty   (.i({hold_after_arb, barrier, hold_rr, b_hold_valid_arb}), .o(hold_act_ty));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LAct)))     u_l_hwr     (.i({hold_after_arb, barrier, hold_rw, b_hold_valid_arb}), .o(hold_wr));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LAct)))     u_l_hcnt    (.i({hold_after_arb, barrier, hold_rc, b_hold_valid_arb}), .o(hold_cnt));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LNobar)))   u_l_nobar   (.i({end_only, mark_or_ovf, hold_ready_i, b_hold_valid_arb}), .o(pkt_nobar));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LSect)))    u_l_rsect   (.i({1'b0, hold_after_arb, b_hold_valid_arb, spsw}), .o(r_sect));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LSync)))    u_l_rsync   (.i({hold_after_arb, b_hold_valid_arb, sync_pending_i, spsw}), .o(r_sync));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LRow)))     u_l_rovf    (.i({ovf_ready, hold_ready_i, b_hold_valid_arb, barrier}), .o(r_ovf));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LRow)))     u_l_rmark   (.i({mark_only, hold_ready_i, b_hold_valid_arb, barrier}), .o(r_mark));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LEndRow)))  u_l_rend    (.i({1'b0, end_only, b_hold_valid_arb, barrier}), .o(r_end));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LPktGate))) u_l_pgate   (.i({1'b0, hold_after_arb, b_hold_valid_arb, gate}), .o(pkt_gate));

  // level 4
  logic r_pkt, pkt_wr, hold_load, hold_take_w, hold_take_x, hold_take_y, cap_dropped_c;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LPkt)))     u_l_rpkt    (.i({pkt_nobar, hold_after_arb, b_hold_valid_arb, barrier}), .o(r_pkt));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LPktWr)))   u_l_pwr     (.i({pkt_nobar, gate, pkt_gate, barrier}), .o(pkt_wr));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LLoad2)))   u_l_load    (.i({hold_act, hold_free_sw, cap_open_i, pass_i}), .o(hold_load));
  // The hold's wide registers (address, index, sample point) take the cycle's access whenever
  // the hold is free after this cycle's act, captured or not: a hold that did not load keeps
  // its valid flag clear, so what they took is never read (the precompute's stages run on it,
  // and nothing chooses their results for an empty hold).  Their enables so wait for the
  // arbitration only, not for the access and its tap / kind filter, which then drives only the
  // narrow next-state tables.  Three copies (hold_take_w for the address, _x for the index, _y
  // for the sample point), each below the fan-out at which nextpnr puts an enable on a global
  // buffer, whose insertion delay would follow the arbitration.
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LOr2)))     u_l_take_w  (.i({2'b0, hold_act_tw, hold_free_sw}), .o(hold_take_w));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LOr2)))     u_l_take_x  (.i({2'b0, hold_act_tx, hold_free_sw}), .o(hold_take_x));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LOr2)))     u_l_take_y  (.i({2'b0, hold_act_ty, hold_free_sw}), .o(hold_take_y));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'b0011))) u_l_capdrop (
    .i({hold_act, hold_free_sw, cap_open_i, pass_i}), .o(cap_dropped_c));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LAnd2)))    u_l_cap     (.i({2'b0, cap_open_i, pass_i}), .o(cap));
  // the rows unless a RUN flushes first (s_*), and written now (w_*: the gate is open)
  logic s_sect, s_sync, s_ovf, s_mark, s_end;
  logic w_sect, w_sync, w_ovf, w_mark, w_end;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LAndN)))    u_l_ssect (.i({2'b0, run_nz_i, r_sect}), .o(s_sect));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LAndN)))    u_l_ssync (.i({2'b0, run_nz_i, r_sync}), .o(s_sync));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LAndN)))    u_l_sovf  (.i({2'b0, run_nz_i, r_ovf}), .o(s_ovf));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LOrAndN)))  u_l_smark (.i({1'b0, run_nz_i, urg_nobar, r_mark}), .o(s_mark));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LAndN)))    u_l_send  (.i({2'b0, run_nz_i, r_end}), .o(s_end));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LGate3)))   u_l_wsect (.i({1'b0, run_nz_i, gate, r_sect}), .o(w_sect));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LGate3)))   u_l_wsync (.i({1'b0, run_nz_i, gate, r_sync}), .o(w_sync));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LGate3)))   u_l_wovf  (.i({1'b0, run_nz_i, gate, r_ovf}), .o(w_ovf));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LGateOr)))  u_l_wmark (.i({run_nz_i, gate, urg_nobar, r_mark}), .o(w_mark));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LGate3)))   u_l_wend  (.i({1'b0, run_nz_i, gate, r_end}), .o(w_end));

  // (r_hold and r_pkt exclude each other; a packet row writes whenever the gate is open)
  (* keep *) logic write;
  assign write = hold_wr || pkt_wr;
  // The arbitration acted (a packet written, or the hold's sample absorbed: hold_cnt || pkt_wr):
  // four rest cycles follow, a thermometer that empties one step a cycle.
  // (111 after an act, then 011, 001, 000; rest_nz_q is set while any bit was)
  logic [2:0] rest_sr_d;
  logic       rest_nz_d;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LOr2))) u_l_rest2  (.i({2'b0, pkt_wr, hold_cnt}), .o(rest_sr_d[2]));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LOr3))) u_l_rest1  (.i({1'b0, rest_sr_q[2], pkt_wr, hold_cnt}), .o(rest_sr_d[1]));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LOr3))) u_l_rest0  (.i({1'b0, rest_sr_q[1], pkt_wr, hold_cnt}), .o(rest_sr_d[0]));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LOr3))) u_l_restnz (.i({1'b0, rest_sr_q[0], pkt_wr, hold_cnt}), .o(rest_nz_d));
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rest_sr_q <= '0;
      rest_nz_q <= 1'b0;
    end else begin
      rest_sr_q <= rest_sr_d;
      rest_nz_q <= rest_nz_d;
    end
  end

  assign hold_after_arb_o = hold_after_arb;
  assign gate_o        = gate;
  assign spsw_o        = spsw;
  assign r_hold_o      = r_hold;
  assign r_hold_w_o    = r_hold_w;
  assign r_sect_o      = r_sect;
  assign r_sync_o      = r_sync;
  assign r_ovf_o       = r_ovf;
  assign r_mark_o      = r_mark;
  assign r_murg_o      = urg_nobar;
  assign r_end_o       = r_end;
  assign r_pkt_o       = r_pkt;
  assign hold_act_o    = hold_act;
  assign hold_cnt_o    = hold_cnt;
  assign hold_load_o   = hold_load;
  assign hold_take_w_o = hold_take_w;
  assign hold_take_x_o = hold_take_x;
  assign hold_take_y_o = hold_take_y;
  assign cap_o         = cap;
  assign cap_dropped_o = cap_dropped_c;
  assign {s_sect_o, s_sync_o, s_ovf_o, s_mark_o, s_end_o} = {s_sect, s_sync, s_ovf, s_mark, s_end};
  assign {w_sect_o, w_sync_o, w_ovf_o, w_mark_o, w_end_o} = {w_sect, w_sync, w_ovf, w_mark, w_end};
  assign write_o       = write;
  assign act_o         = rest_sr_d[2];
endmodule
