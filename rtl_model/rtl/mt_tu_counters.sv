// mt_tu_counters: the unit's counters, each in an iCE40 DSP block (mt_tu_acc, SB_MAC16): the
// cycle counter t, SAMPLES, BYTES, OVERFLOW's count of drops not yet reported and DROPPED.
// Drops are counted one cycle late: drops_i (0..3) is the last cycle's drops, added at the clock
// (the counts of docs/trace-unit.md are the registers plus drops_i; dropped_o is DROPPED so), so
// the arbitration's late drop decision ends in a 2-bit register, not in two 32-bit additions.
module mt_tu_counters (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,          // a session starts at the end of this cycle
  input  logic        first_i,          // a session's first cycle
  input  logic        sample_i,         // a sample absorbed or written (mt_tu_ctrl: hold_cnt)
  input  logic        entry_i,          // a packet enters the FIFO (P3) ...
  input  logic [4:0]  entry_len_i,      // ... of this many bytes
  input  logic        ovf_p1_i,         // an OVERFLOW in P1, which carries the count
  input  logic [1:0]  drops_i,          // the last cycle's drops
  output logic [63:0] t_o,              // the cycle counter
  output logic [47:0] samples_o,
  output logic [47:0] bytes_o,
  output logic [31:0] drop_pending_o,   // OVERFLOW's count without drops_i
  output logic [31:0] dropped_q_o,      // DROPPED without drops_i
  output logic [31:0] dropped_o         // DROPPED now (dropped_q_o + drops_i, saturating)
);
  // The cycle counter and BYTES are counters in the iCE40's DSP blocks (mt_tu_acc), so there is
  // no t + 1 in the fabric: the report cycle of a new session, t + 1 at its start, is taken from
  // the counter in the session's first cycle instead (first_i; nothing is reported in that cycle,
  // since the SYNC pending from the start has priority over every sample).
  mt_tu_acc #(.Width(64), .AddW(1)) u_t (
    .clk_i,
    .rst_ni,
    .load_i (1'b0),
    .load_val_i ('0),
    .add_i  (1'b1),
    .q_o    (t_o)
  );
  // SAMPLES too: a start clears it (no sample is reported in the cycle of a start: the session
  // before has ended), a sample absorbed or written counts.
  mt_tu_acc #(.Width(48), .AddW(1)) u_samples (
    .clk_i,
    .rst_ni,
    .load_i (start_i),
    .load_val_i ('0),
    .add_i  (sample_i),   // (hold_act && (e_absorbed || room))
    .q_o    (samples_o)
  );
  mt_tu_acc #(.Width(48), .AddW(5)) u_bytes (
    .clk_i,
    .rst_ni,
    .load_i (start_i),
    .load_val_i ('0),
    .add_i  (entry_i ? entry_len_i : 5'd0),
    .q_o    (bytes_o)
  );
  // OVERFLOW's count and DROPPED, saturating, in the last two: the drops of the last cycle
  // (drops_i) are added at the clock; an OVERFLOW clears the count it carries in its P1, leaving
  // those drops, and the session's first cycle (first_i) clears both (mt_tu_ctrl's next state
  // says why there and not at the start).
  mt_tu_acc #(.Width(32), .AddW(2), .Saturate(1'b1)) u_drop_pending (
    .clk_i,
    .rst_ni,
    .load_i     (first_i || ovf_p1_i),
    .load_val_i (first_i ? 2'd0 : drops_i),
    .add_i      (drops_i),
    .q_o        (drop_pending_o)
  );
  mt_tu_acc #(.Width(32), .AddW(2), .Saturate(1'b1)) u_dropped (
    .clk_i,
    .rst_ni,
    .load_i     (first_i),
    .load_val_i (2'd0),
    .add_i      (drops_i),
    .q_o        (dropped_q_o)
  );

  always_comb begin
    logic [32:0] dr_sum;
    dr_sum = {1'b0, dropped_q_o} + 33'(drops_i);
    dropped_o = dr_sum[32] ? '1 : dr_sum[31:0];
  end
endmodule
