// mt_tu_capture: the capture's filter (docs/trace-unit.md 4.C), two levels of tables from the
// access: the kind filter as three partial tests (kinds 0-1, 2-3, 4) and their select by kind[2];
// valid and the tap filter go with the session's state into cap_open (active, and the tap is the
// one traced; an interval open, a switch, or the first cycle), so that the hold's load enable
// (mt_tu_ctrl: hold_load) is the third level.  And the access's address part in this cycle's
// format, which is what the hold takes.
module mt_tu_capture (
  // Access port
  input  logic        acc_valid_i,
  input  logic [55:0] acc_addr_i,
  input  logic [2:0]  acc_kind_i,
  input  logic        acc_tap_i,
  // The session's latched filter and state
  input  logic [4:0]  kind_mask_i,
  input  logic        tap_i,
  input  logic        active_i,
  input  logic [1:0]  fmt_i,            // this cycle's format (after a switch)
  // an interval is open in this cycle: one opens (its point, a switch, the first cycle) or is open
  input  logic        sp_zero_i,
  input  logic        int_open_i,
  input  logic        first_i,
  input  logic        sw_i,
  output logic        pass_o,           // the access's kind passes the filter (kinds 0..4)
  output logic        open_o,           // valid, its tap traced, and a capture is possible
  output logic [55:0] a_o               // the address part
);
  logic k_lo, k_hi, k_is4, tap_act, open_any;
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LKindLo))) u_l_klo (
    .i({kind_mask_i[1], kind_mask_i[0], acc_kind_i[1], acc_kind_i[0]}), .o(k_lo));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LKindHi))) u_l_khi (
    .i({kind_mask_i[3], kind_mask_i[2], acc_kind_i[1], acc_kind_i[0]}), .o(k_hi));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_match(4'b0111, 4'b0100))) u_l_k4 (
    .i({1'b0, kind_mask_i[4], acc_kind_i[1], acc_kind_i[0]}), .o(k_is4));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LTapAct))) u_l_tapa (.i({tap_i, acc_tap_i, acc_valid_i, active_i}), .o(tap_act));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LOr4)))    u_l_open (.i({sp_zero_i, int_open_i, first_i, sw_i}), .o(open_any));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LKind)))   u_l_pass (.i({k_hi, k_lo, k_is4, acc_kind_i[2]}), .o(pass_o));
  mt_tu_lut4 #(.Init(mt_tu_pkg::lut_init(mt_tu_pkg::LAnd2)))   u_l_copen (.i({2'b0, open_any, tap_act}), .o(open_o));
  assign a_o = mt_tu_pkg::fmt_part(fmt_i, acc_addr_i);
endmodule
