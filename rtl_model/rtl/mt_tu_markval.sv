// mt_tu_markval: MARKER's value register.  A write taken while no MARKER is pending is stored at
// once; one taken in the cycle its predecessor is chosen (which reads the register then) is kept
// in mark_wdata_q and stored a cycle later, a rest cycle of that choice, so the store does not
// wait for the choice.  (Whether the write is lost, and the pending flag, are mt_tu_ctrl's.)
module mt_tu_markval (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        active_i,         // a session is active
  input  logic        pending_i,        // a MARKER is pending
  input  logic        chosen_i,         // the pending MARKER is chosen (written) now
  input  logic        marker_wr_i,      // MARKER is written now ...
  input  logic [2:0]  mark_dec_i,       // ... as the address decode's first level has it (mt_tu_regs)
  input  logic [31:0] wdata_i,
  output logic [31:0] value_o
);
  logic [31:0] marker_val_q;
  logic        act_pend;
  assign act_pend = active_i && pending_i;
  logic [31:0] mark_wdata_q;
  logic        mark_take_now, mark_take_late_q;
  logic        act_nopend, mark_val_en, mark_val_en2;
  assign act_nopend = active_i && !pending_i;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b1111, 4'b1111))) u_l_mtake (
    .i({mark_dec_i, act_nopend}), .o(mark_take_now));
  // (the value's enable in two copies of 16 bits each, below the fan-out at which nextpnr puts
  // an enable on a global buffer)
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LOr2))) u_l_mven  (.i({2'b0, mark_take_now, mark_take_late_q}), .o(mark_val_en));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LOr2))) u_l_mven2 (.i({2'b0, mark_take_now, mark_take_late_q}), .o(mark_val_en2));
  logic mark_late;   // (one table after the choice: the write and act_pend join it there)
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b0111, 4'b0111))) u_l_mlate (
    .i({1'b0, chosen_i, act_pend, marker_wr_i}), .o(mark_late));
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
  assign value_o = marker_val_q;
endmodule
