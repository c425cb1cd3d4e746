// mt_tu_modereg: the register of one of the unit's modes (SPATIAL, REDUCE: docs/trace-unit.md
// section 1), shared by the spatial front end (mt_tu_spatial) and the reduce path (mt_tu_rdpath):
// bit 0 EN and [12:8] a log2 size (a larger value is stored as LgMax), written at the end of the
// cycle of the write, read back as {19'd0, log2, 7'd0, EN} (reg_rdata_o a clock after the
// request, as mt_tu_regs; mt_tu ORs the read data, every other address reads 0 here).  While no
// session runs the register, KIND_MASK and TAP (as written) are latched every clock, so that a
// session keeps the values of its start's clock, as the configuration registers (mt_tu_ctrl).
module mt_tu_modereg #(
  parameter logic [9:0]  Addr  = 10'h000,  // the register's word index
  parameter int unsigned LgMax = 16        // the largest log2 stored
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        active_i,         // a session is active (STATUS.ACTIVE)
  input  logic [4:0]  kind_mask_i,      // KIND_MASK and TAP as written
  input  logic        tap_i,
  input  logic        reg_wr_i,
  input  logic [9:0]  reg_addr_i,
  input  logic [31:0] reg_wdata_i,
  output logic [31:0] reg_rdata_o,      // the read of the last clock
  output logic [31:0] reg_rdata_now_o,  // the same in the request's clock (simulation only)
  // The latched values: the session's
  output logic        en_o,
  output logic [4:0]  lg_o,
  output logic [4:0]  kind_mask_o,
  output logic        tap_o
);
  logic        en_q, en_l_q, tap_l_q;
  logic [4:0]  lg_q, lg_l_q, km_l_q;
  logic        sel;
  logic [31:0] rdata_q;
  assign sel = reg_addr_i == Addr;
  assign reg_rdata_now_o = sel ? {19'd0, lg_q, 7'd0, en_q} : '0;
  assign reg_rdata_o = rdata_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      en_q <= 1'b0;  lg_q <= '0;  en_l_q <= 1'b0;  lg_l_q <= '0;  km_l_q <= 5'h1F;  tap_l_q <= 1'b0;
      rdata_q <= '0;
    end else begin
      if (reg_wr_i && sel) begin
        en_q <= reg_wdata_i[0];
        lg_q <= (reg_wdata_i[12:8] > 5'(LgMax)) ? 5'(LgMax) : reg_wdata_i[12:8];
      end
      rdata_q <= reg_rdata_now_o;
      if (!active_i) begin   // a session latches the values of its start's clock
        en_l_q <= en_q;  lg_l_q <= lg_q;  km_l_q <= kind_mask_i;  tap_l_q <= tap_i;
      end
    end
  end
  assign en_o = en_l_q;
  assign lg_o = lg_l_q;
  assign kind_mask_o = km_l_q;
  assign tap_o = tap_l_q;
  // (the register's other bits are not implemented)
  logic unused_bits;
  assign unused_bits = ^{reg_wdata_i[31:13], reg_wdata_i[7:1]};
endmodule
