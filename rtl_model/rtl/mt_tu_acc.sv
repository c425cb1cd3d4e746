// mt_tu_acc: a wide counter of the trace unit (the cycle counter, BYTES, SAMPLES): q <= 0 on load_i, else
// q <= q + add_i, one clock per cycle, reset to 0.  For iCE40 synthesis (run_synth.sh defines
// MT_TU_ICE40) it is a chain of SB_MAC16 blocks used as 32-bit accumulators (the UP5K has 8,
// which the unit does not otherwise use), the carry passed from one to the next through CO/CI,
// instead of LUT and carry cells and flip-flops in the fabric; elsewhere (Verilator, lint) the
// equivalent register.
module mt_tu_acc #(
  parameter int unsigned Width = 64,   // 33..64
  parameter int unsigned AddW = 8      // 1..16
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             load_i,     // q <= 0 (before the addition)
  input  logic [AddW-1:0]  add_i,
  output logic [Width-1:0] q_o
);
`ifdef MT_TU_ICE40
  localparam int unsigned N = (Width + 31) / 32;
  logic [N*32-1:0] q;
  logic [N:0]      carry;
  assign carry[0] = 1'b0;
  for (genvar i = 0; i < N; i++) begin : g_mac
    logic [15:0] b;
    assign b = (i == 0) ? 16'(add_i) : 16'd0;
    // Q = {top, bottom} accumulator registers; bottom: Q[15:0] + B + carry in, top: Q[31:16] +
    // A + the bottom's carry; OLOAD takes {C, D} = 0 instead; O = the registers.
    SB_MAC16 #(
      .TOPOUTPUT_SELECT      (2'b01),
      .TOPADDSUB_LOWERINPUT  (2'b00),
      .TOPADDSUB_UPPERINPUT  (1'b0),
      .TOPADDSUB_CARRYSELECT (2'b10),
      .BOTOUTPUT_SELECT      (2'b01),
      .BOTADDSUB_LOWERINPUT  (2'b00),
      .BOTADDSUB_UPPERINPUT  (1'b0),
      .BOTADDSUB_CARRYSELECT ((i == 0) ? 2'b00 : 2'b11)
    ) u_mac (
      .CLK       (clk_i),
      .CE        (1'b1),
      .C         (16'd0),
      .A         (16'd0),
      .B         (b),
      .D         (16'd0),
      .AHOLD     (1'b0),
      .BHOLD     (1'b0),
      .CHOLD     (1'b0),
      .DHOLD     (1'b0),
      .IRSTTOP   (1'b0),
      .IRSTBOT   (1'b0),
      .ORSTTOP   (!rst_ni),
      .ORSTBOT   (!rst_ni),
      .OLOADTOP  (load_i),
      .OLOADBOT  (load_i),
      .ADDSUBTOP (1'b0),
      .ADDSUBBOT (1'b0),
      .OHOLDTOP  (1'b0),
      .OHOLDBOT  (1'b0),
      .CI        (carry[i]),
      .ACCUMCI   (1'b0),
      .SIGNEXTIN (1'b0),
      .O         (q[i*32 +: 32]),
      .CO        (carry[i+1]),
      .ACCUMCO   (),
      .SIGNEXTOUT()
    );
  end
  assign q_o = q[Width-1:0];
`else
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) q_o <= '0;
    else if (load_i) q_o <= '0;
    else q_o <= q_o + Width'(add_i);
  end
`endif
endmodule
