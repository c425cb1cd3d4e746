// mt_tu_acc: a wide counter of the trace unit (the cycle counter, BYTES, SAMPLES, DROPPED and
// OVERFLOW's count): q <= load_val_i on load_i, else q <= q + add_i, one clock per cycle, reset to
// 0; with Saturate, q stays at all ones instead of wrapping.  For iCE40 synthesis (run_synth.sh
// defines MT_TU_ICE40) it is a chain of SB_MAC16 blocks used as 32-bit accumulators (the UP5K has
// 8, which the unit does not otherwise use), the carry passed from one to the next through CO/CI,
// instead of LUT and carry cells and flip-flops in the fabric (a 32-bit carry chain and its
// saturation select are longer than a 48 MHz clock); saturation is then a sticky flag set by the
// last block's carry out, which masks the accumulator.  Elsewhere (Verilator, lint), and on an
// iCE40 without SB_MAC16 (the HX devices: run_synth.sh defines MT_TU_NO_DSP too), the equivalent
// register.
module mt_tu_acc #(
  parameter int unsigned Width = 64,   // 33..64
  parameter int unsigned AddW = 8,     // 1..16
  parameter bit          Saturate = 1'b0  // (Width a multiple of 32: the carry out is the overflow)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             load_i,     // q <= load_val_i (instead of the addition)
  input  logic [AddW-1:0]  load_val_i,
  input  logic [AddW-1:0]  add_i,
  output logic [Width-1:0] q_o
);
`ifdef MT_TU_ICE40
`ifndef MT_TU_NO_DSP
`define MT_TU_ACC_MAC
`endif
`endif
`ifdef MT_TU_ACC_MAC
  localparam int unsigned N = (Width + 31) / 32;
  logic [N*32-1:0] q;
  logic [N:0]      carry;
  assign carry[0] = 1'b0;
  for (genvar i = 0; i < N; i++) begin : g_mac
    logic [15:0] b, d;
    assign b = (i == 0) ? 16'(add_i) : 16'd0;
    assign d = (i == 0) ? 16'(load_val_i) : 16'd0;
    // Q = {top, bottom} accumulator registers; bottom: Q[15:0] + B + carry in, top: Q[31:16] +
    // A + the bottom's carry; OLOAD takes {C, D} = {0, load_val_i} instead; O = the registers.
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
      .D         (d),
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
  if (Saturate) begin : g_sat
    // (the addition's carry out, from the accumulator and the addend in the fabric: yosys 0.23's
    // ice40_dsp pass drops an SB_MAC16 whose CO is used, and the counter with it)
    logic sat_q, wraps;
    logic unused_co;
    assign unused_co = carry[N];
    assign wraps = (&q[Width-1:AddW]) && ({1'b0, q[AddW-1:0]} + {1'b0, add_i} > {1'b0, {AddW{1'b1}}});
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) sat_q <= 1'b0;
      else if (load_i) sat_q <= 1'b0;
      else if (wraps) sat_q <= 1'b1;
    end
    assign q_o = sat_q ? '1 : q[Width-1:0];
  end else begin : g_wrap
    assign q_o = q[Width-1:0];
  end
`else
  logic [Width:0] sum;
  assign sum = {1'b0, q_o} + (Width+1)'(add_i);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) q_o <= '0;
    else if (load_i) q_o <= Width'(load_val_i);
    else q_o <= (Saturate && sum[Width]) ? '1 : sum[Width-1:0];
  end
`endif
endmodule
