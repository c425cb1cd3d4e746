// mt_tu_rdpath: the unit's reduce mode (docs/trace-unit.md "Reduce mode", docs/trace-unit-rtl.md
// "The reduce path"; the C model is lib/mt_unit_rd.c, clock for clock).  With REDUCE.EN latched
// at a session's start (and SPATIAL.EN not), the session's accesses that pass the kind and tap
// filter go to the reduce filter (mt_tu_reduce) instead of the capture, and the capture takes the
// head of a queue of the filter's records: docs/trace-format.md 4.1's size-masked value
// ({page, 2'b0, mask}) with the reference's R/W, the kind the latched kind mask's lowest one and
// the latched tap (so that the capture's filter passes it).
//
// - The session's first clock restarts the filter (start_i): its buckets are cleared in the next
//   2 (k_0 + ... + k_9) clocks, during which accesses are lost.
// - A record leaves the filter (rec_valid) into the queue (RQ entries).  The head goes to the
//   capture when an interval is open and the hold was free at the clock's start (the hold then
//   takes it); when a record arrives at a full queue the head goes to the capture all the same,
//   so that the capture's usual drop counts it (DROPPED, OVERFLOW) and the records stay in order.
// - A CTRL write that stops the session is held back from mt_tu_ctrl (stop_hold_o): the filter
//   flushes (flush_i from the next clock), and in the first clock without a register write in
//   which the filter is idle and the queue empty, stop_o gives mt_tu_ctrl the stop, so that the
//   END follows the session's last record.
module mt_tu_rdpath #(
  parameter int unsigned LgKMax = 10,  // budgets 4 KiB .. 4 KiB << LgKMax
  parameter int unsigned LgW    = 6,   // the filter's window (lib/mt_unit.h MT_UNIT_REDUCE_W)
  parameter int unsigned LgQ    = 3,   // its queue of references (MT_UNIT_REDUCE_Q)
  parameter int unsigned LgR    = 6    // the record queue (MT_UNIT_RDQ)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // Access port
  input  logic        acc_valid_i,
  input  logic [55:0] acc_addr_i,
  input  logic        acc_write_i,
  input  logic [2:0]  acc_kind_i,
  input  logic        acc_tap_i,
  input  logic [47:0] cycle_i,          // this clock's cycle (the filter keeps it per reference)
  // The session (STATUS.ACTIVE), the spatial front end (it wins), the filter as written
  input  logic        active_i,
  input  logic        sp_on_i,
  input  logic [4:0]  kind_mask_i,
  input  logic        tap_i,
  // MMIO: the REDUCE register (mt_tu_regs answers 0 at its address; mt_tu ORs the read data)
  input  logic        reg_wr_i,
  input  logic [9:0]  reg_addr_i,
  input  logic [31:0] reg_wdata_i,
  output logic [31:0] reg_rdata_o,      // the read of the last clock
  output logic [31:0] reg_rdata_now_o,  // the same in the request's clock (simulation only)
  input  logic        ctrl_stop_wr_i,   // a CTRL write with ENABLE = 0 in this clock
  // The capture (mt_tu_ctrl): an interval open in an active session; the hold's valid flag
  input  logic        cap_open_i,
  input  logic        hold_valid_i,
  output logic        on_o,             // a session in reduce mode: the capture takes rec_*
  output logic        stop_hold_o,      // a CTRL stop write is held back from mt_tu_ctrl
  output logic        stop_o,           // the flushed session stops now
  output logic        rec_valid_o,
  output logic [55:0] rec_addr_o,
  output logic        rec_write_o,
  output logic [2:0]  rec_kind_o,
  output logic        rec_tap_o
);
  localparam logic [9:0] RegReduce = 10'h019;   // byte offset 0x064
  localparam int unsigned RQ = 1 << LgR;

  // ---- the register, and its value latched while no session runs (mt_tu_modereg) -------------
  logic       en_l_q, tap_l_q;
  logic [4:0] lgk_l_q, km_l_q;
  mt_tu_modereg #(.Addr(RegReduce), .LgMax(LgKMax)) u_reg (
    .clk_i,
    .rst_ni,
    .active_i,
    .kind_mask_i,
    .tap_i,
    .reg_wr_i,
    .reg_addr_i,
    .reg_wdata_i,
    .reg_rdata_o,
    .reg_rdata_now_o,
    .en_o        (en_l_q),
    .lg_o        (lgk_l_q),
    .kind_mask_o (km_l_q),
    .tap_o       (tap_l_q)
  );

  // ---- the session -----------------------------------------------------------------------------
  logic on, on_q, flush_q, pass_f, idle, f_rec_v, f_rec_w;
  logic [43:0] f_rec_page;
  logic [9:0]  f_rec_mask;
  // (the filter's co-simulation outputs: its access taken, ready, the record's cycle, counts)
  logic        f_taken, f_ready;
  logic [47:0] f_rec_cycle;
  logic [31:0] f_clocks, f_forced;
  assign on = en_l_q && active_i && !sp_on_i;
  logic [7:0] km8;
  assign km8 = {3'b000, km_l_q};   // kinds 5..7 never pass
  assign pass_f = acc_valid_i && km8[acc_kind_i] && (acc_tap_i == tap_l_q);

  mt_tu_reduce #(.LgKMax(LgKMax), .LgW(LgW), .LgQ(LgQ)) u_filter (
    .clk_i,
    .rst_ni,
    .start_i     (on && !on_q),
    .lgk_i       (lgk_l_q),
    .acc_valid_i (on && pass_f && !flush_q),
    .acc_cycle_i (cycle_i),
    .acc_addr_i,
    .acc_write_i,
    .acc_taken_o (f_taken),
    .flush_i     (flush_q),
    .ready_o     (f_ready),
    .idle_o      (idle),
    .rec_valid_o (f_rec_v),
    .rec_cycle_o (f_rec_cycle),
    .rec_page_o  (f_rec_page),
    .rec_write_o (f_rec_w),
    .rec_mask_o  (f_rec_mask),
    .clocks_o    (f_clocks),
    .forced_o    (f_forced)
  );

  // ---- the record queue --------------------------------------------------------------------------
  // RQ entries in block RAM (mt_tu_ram, a registered read port), with the head read a clock ahead
  // as the FIFO's banks are: in each clock the RAM is read at the next clock's head index, so the
  // head is a register (the RAM's output) and no 64-way select of flip-flops is behind it.  When
  // the entry pushed in a clock is the next clock's head (the queue empty, or one entry popped as
  // one is pushed) the RAM, read-first, gives the old row: the pushed entry is then taken from a
  // register beside it (hd_byp_q, hd_push_q).  (Until 2026-12-06 the queue was 64 x 55
  // flip-flops read combinationally at rq_q[rqh_q]: 3 520 flip-flops and a 64-way select.)
  logic [LgR:0]   rqn_q;
  logic [LgR-1:0] rqh_q, rqh_d, rqt;
  logic           pop, push, full, hd_byp_q;
  logic [54:0]    head, wdata, ram_head, hd_push_q;
  assign full  = rqn_q == (LgR+1)'(RQ);
  assign pop   = on && rqn_q != '0 && cap_open_i && (!hold_valid_i || (f_rec_v && full));
  assign push  = on && f_rec_v && (!full || pop);
  assign rqt   = rqh_q + rqn_q[LgR-1:0];   // the tail: where a push writes
  assign rqh_d = !on ? '0 : rqh_q + {{(LgR-1){1'b0}}, pop};
  assign wdata = {f_rec_page, f_rec_w, f_rec_mask};
  mt_tu_ram #(.Depth(RQ), .Width(55)) u_rq (
    .clk_i,
    .we_i    (push),
    .waddr_i (rqt),
    .wdata_i (wdata),
    .raddr_i (rqh_d),
    .rdata_o (ram_head)
  );
  assign head = hd_byp_q ? hd_push_q : ram_head;
  assign rec_valid_o = pop;
  assign rec_addr_o  = {head[54:11], 2'b00, head[9:0]};
  assign rec_write_o = head[10];
  always_comb begin   // the lowest kind the latched mask passes (5: none, no record then)
    rec_kind_o = 3'd5;
    for (int k = 4; k >= 0; k--)
      if (km_l_q[k]) rec_kind_o = 3'(k);
  end
  assign rec_tap_o = tap_l_q;

  assign on_o = on;
  assign stop_hold_o = on;
  assign stop_o = on && flush_q && idle && rqn_q == '0 && !reg_wr_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      on_q <= 1'b0;  flush_q <= 1'b0;
      rqn_q <= '0;  rqh_q <= '0;  hd_byp_q <= 1'b0;  hd_push_q <= '0;
    end else begin
      on_q <= on;
      if (!on || stop_o) flush_q <= 1'b0;
      else if (ctrl_stop_wr_i) flush_q <= 1'b1;
      rqh_q <= rqh_d;
      rqn_q <= !on ? '0 : rqn_q - {{LgR{1'b0}}, pop} + {{LgR{1'b0}}, push};
      hd_byp_q  <= push && rqt == rqh_d;
      hd_push_q <= wdata;
    end
  end

  // (the filter's co-simulation outputs: not used here)
  logic unused_bits;
  assign unused_bits = ^{f_taken, f_ready, f_rec_cycle,
                         f_clocks, f_forced};
endmodule
