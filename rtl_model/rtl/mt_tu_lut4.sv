// mt_tu_lut4: one 4-input look-up table, for the few control signals whose depth in logic levels
// sets the unit's clock (the arbitration and the hold's load enable, mt_tu_arb).  For iCE40
// synthesis (MT_TU_ICE40) it is an SB_LUT4 instance, which the mapper leaves as it is: left to
// itself it shares these functions with the wide enables behind them and puts them two or three
// levels deeper, since it does not see the routing delay a level costs.  Elsewhere the table is
// read directly.  The table comes from mt_tu_pkg::lut_init, from the same expression both ways.
module mt_tu_lut4 #(
  parameter logic [15:0] Init = 16'h0000   // o = Init[i]
) (
  input  logic [3:0] i,
  output logic       o
);
`ifdef MT_TU_ICE40
  SB_LUT4 #(.LUT_INIT(Init)) u_lut (.O(o), .I0(i[0]), .I1(i[1]), .I2(i[2]), .I3(i[3]));
`else
  assign o = Init[i];
`endif
endmodule
