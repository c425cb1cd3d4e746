// mt_tu_syncest: the SYNC estimate (docs/trace-unit.md 4.E): the SYNC byte count (the bytes in
// the FIFO since the last SYNC's first byte, which a SYNC reports as prev_bytes) and whether a
// SYNC is due, registered in the cycle after a choice (sync_due in the cycle after that).  Under
// contract v4 the estimate can only cross the period in a cycle with a choice (it grows only
// then), where it is the SYNC byte count after that cycle's entry (the packet chosen PACE cycles
// before enters then) and the chosen packet's bound: in the next cycle, sync_need_q and P1's
// bound (the P3 term below covers a pipeline longer than the pace).  A packet in flight that is a
// SYNC need not be tested: after its entry the count is its 16 bytes, below any period.  In the
// rest cycles before, a late sync_pending matters only to the barrier tag of a capture in the
// choice's next cycle, which takes it from sync_due (mt_tu_ctrl: hold_after).
module mt_tu_syncest (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        first_i,          // a session's first cycle: the count and the need restart
  input  logic [13:0] sync_period_i,    // the latched SYNC_PERIOD (read from t + 2 of the start)
  // The packet pipeline (mt_tu_pktpipe)
  input  logic        p1_v_i,           // a packet in P1 (chosen in the last cycle) ...
  input  logic        p1_sync_i,        // ... is a SYNC
  input  logic        p1_active_i,      // ... the session was active at its choice
  input  logic [4:0]  p1_bound_i,       // ... its length bound (lib/mt_unit.c BOUND_*)
  input  logic [4:0]  pw_len_i,         // the length of the packet in PW
  input  logic        p3_v_i,           // a packet in P3 enters the FIFO at the end of this cycle
  input  logic        p3_sync_i,
  input  logic [4:0]  p3_len_i,
  output logic [13:0] sync_bytes_o,     // the SYNC byte count (saturating)
  output logic        sync_due_o        // a SYNC became due with the choice two cycles ago
);
  logic [13:0] sync_bytes_q, sync_bytes_d;
  logic [13:0] sync_in_fifo;  // sync_bytes after this cycle's P3 entry
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
    logic [14:0] sum, rst_v, need_v;
    if (!rst_ni) begin
      sb_pre_q <= '0;  sb_sat_q <= 1'b0;  need_pre_q <= '0;  reset_pre_q <= '0;
    end else begin
      sum = {1'b0, sync_bytes_q} + 15'(pw_len_i);
      rst_v = {1'b0, sync_period_i} - 15'(pw_len_i);
      sb_pre_q    <= sum[13:0];
      sb_sat_q    <= sum[14];
      // max(need - len, 0) from one subtraction: its borrow (bit 14) is need < len, and
      // need == len gives 0 either way (a compare beside it was a second carry chain)
      need_v = {1'b0, sync_need_q} - 15'(pw_len_i);
      need_pre_q  <= need_v[14] ? '0 : need_v[13:0];
      reset_pre_q <= rst_v[14] ? '0 : rst_v[13:0];
    end
  end
  always_comb begin
    if (first_i) sync_need_d = 14'h3FFF;
    else if (!p3_v_i) sync_need_d = sync_need_q;
    else if (p3_sync_i) sync_need_d = reset_pre_q;
    else sync_need_d = need_pre_q;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sync_need_q <= 14'h3FFF;
    else sync_need_q <= sync_need_d;
  end
  // (sync_due is that test registered from P1: "need after P3's entry <= bound", where the need
  // after P3's entry is need_pre_q, formed a cycle ahead from PW's length (sync_need_q does not
  // change in the cycle before an entry), so no adder is between P3 and the compare; a SYNC
  // entering leaves a count below any period)
  logic sync_due_q;
  assign sync_due_o = sync_due_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sync_due_q <= 1'b0;
    else sync_due_q <= p1_v_i && !p1_sync_i && p1_active_i && !(p3_v_i && p3_sync_i) &&
                       ((p3_v_i ? need_pre_q : sync_need_q) <= 14'(p1_bound_i));
    // (the model's test: est >= period, est = count after the entries + the bound)
  end

  // The packet in P3 enters the FIFO: the count follows the FIFO.  A session's first cycle resets
  // it rather than the start, which fans out to enough already: nothing reads it before (the
  // SYNC's prev_bytes is read in its P1).
  always_comb begin
    // (read only in a cycle of an entry: sb_pre_q, above)
    sync_in_fifo = p3_sync_i ? 14'(p3_len_i) : (sb_sat_q ? 14'd16383 : sb_pre_q);
    sync_bytes_d = sync_bytes_q;
    if (p3_v_i) sync_bytes_d = sync_in_fifo;
    if (first_i) sync_bytes_d = '0;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sync_bytes_q <= '0;
    else sync_bytes_q <= sync_bytes_d;
  end
  assign sync_bytes_o = sync_bytes_q;
endmodule
