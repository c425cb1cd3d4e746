// mt_tu_regs: the trace unit's MMIO register block (docs/trace-unit.md section 1, lib/mt_regs.h).
// Holds the configuration registers (written at the end of the cycle of the write; the control
// block latches them when a session starts) and the read mux, which returns the state at the
// start of the cycle of the read.  Reading a *_LO counter latches its HI half for a later read.
// 32-bit word accesses only: reg_addr_i is the word index (byte offset >> 2) in the 4 KiB window.
module mt_tu_regs (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [15:0] depth_i,   // FIFO capacity strap, low 16 bits (FIFO_INFO: 65536 reads as 0)
  input  logic [4:0]  drain_i,   // drain strap (FIFO_INFO)
  input  logic        reg_rd_i,
  input  logic        reg_wr_i,
  input  logic [9:0]  reg_addr_i,
  input  logic [31:0] reg_wdata_i,
  output logic [31:0] reg_rdata_o,
  // Configuration (to the control block)
  output logic [4:0]  kind_mask_o,
  output logic        tap_o,
  output logic [1:0]  fmt_h_o,
  output logic [1:0]  fmt_l_o,
  output logic [13:0] sync_period_o,
  output logic [31:0] rate_h_o,
  output logic [31:0] rate_l_o,
  output logic [39:0] len_h_o,
  output logic [39:0] len_l_o,
  // Commands (to the control block, this cycle)
  output logic        ctrl_wr_o,
  output logic        marker_wr_o,
  // State to read back (start of this cycle)
  input  logic [7:0]  status_i,
  input  logic [16:0] fifo_level_i,
  input  logic [31:0] dropped_i,
  input  logic [47:0] samples_i,
  input  logic [47:0] bytes_i,
  input  logic [63:0] cycle_i
);
  localparam logic [9:0] RegId = 10'h000, RegVersion = 10'h001, RegCtrl = 10'h002;
  localparam logic [9:0] RegStatus = 10'h003, RegFifoLevel = 10'h004, RegFifoInfo = 10'h005;
  localparam logic [9:0] RegKindMask = 10'h006, RegTap = 10'h007, RegFmt = 10'h008;
  localparam logic [9:0] RegSyncPeriod = 10'h009, RegRateH = 10'h00A, RegRateL = 10'h00B;
  localparam logic [9:0] RegLenHLo = 10'h00C, RegLenHHi = 10'h00D, RegLenLLo = 10'h00E;
  localparam logic [9:0] RegLenLHi = 10'h00F, RegMarker = 10'h010, RegDropped = 10'h011;
  localparam logic [9:0] RegSamplesLo = 10'h012, RegSamplesHi = 10'h013, RegBytesLo = 10'h014;
  localparam logic [9:0] RegBytesHi = 10'h015, RegCycleLo = 10'h016, RegCycleHi = 10'h017;


  logic [4:0]  kind_mask_q;
  logic        tap_q;
  logic [1:0]  fmt_h_q, fmt_l_q;
  logic [13:0] sync_period_q;
  logic [31:0] rate_h_q, rate_l_q;
  logic [39:0] len_h_q, len_l_q;
  logic [15:0] samples_hi_q, bytes_hi_q;
  logic [31:0] cycle_hi_q;

  logic wr;
  assign wr = reg_wr_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      kind_mask_q   <= 5'h1F;
      tap_q         <= 1'b0;
      fmt_h_q       <= 2'd0;
      fmt_l_q       <= 2'd1;
      sync_period_q <= 14'd4096;
      rate_h_q      <= 32'd24;
      rate_l_q      <= 32'd2048;
      len_h_q       <= 40'h00_3B9A_CA00;
      len_l_q       <= 40'h02_540B_E400;
      samples_hi_q  <= '0;
      bytes_hi_q    <= '0;
      cycle_hi_q    <= '0;
    end else begin
      if (wr) begin
        case (reg_addr_i)
          RegKindMask: kind_mask_q <= reg_wdata_i[4:0];
          RegTap:      tap_q <= reg_wdata_i[0];
          RegFmt: begin
            fmt_h_q <= reg_wdata_i[1:0];
            fmt_l_q <= reg_wdata_i[5:4];
          end
          RegSyncPeriod: begin
            // the model keeps bits 13:0, then clamps to 64..8192
            if (reg_wdata_i[13:0] < 14'd64) sync_period_q <= 14'd64;
            else if (reg_wdata_i[13:0] > 14'd8192) sync_period_q <= 14'd8192;
            else sync_period_q <= reg_wdata_i[13:0];
          end
          RegRateH:  rate_h_q <= (reg_wdata_i == '0) ? 32'd1 : reg_wdata_i;
          RegRateL:  rate_l_q <= (reg_wdata_i == '0) ? 32'd1 : reg_wdata_i;
          RegLenHLo: len_h_q[31:0] <= reg_wdata_i;
          RegLenHHi: len_h_q[39:32] <= reg_wdata_i[7:0];
          RegLenLLo: len_l_q[31:0] <= reg_wdata_i;
          RegLenLHi: len_l_q[39:32] <= reg_wdata_i[7:0];
          default: ;
        endcase
      end
      if (reg_rd_i) begin
        case (reg_addr_i)
          RegSamplesLo: samples_hi_q <= samples_i[47:32];
          RegBytesLo:   bytes_hi_q <= bytes_i[47:32];
          RegCycleLo:   cycle_hi_q <= cycle_i[63:32];
          default: ;
        endcase
      end
    end
  end

  assign ctrl_wr_o   = wr && (reg_addr_i == RegCtrl);
  assign marker_wr_o = wr && (reg_addr_i == RegMarker);

  always_comb begin
    case (reg_addr_i)
      RegId:         reg_rdata_o = 32'h4D54_5455;
      RegVersion:    reg_rdata_o = 32'h0001_0000;
      RegCtrl:       reg_rdata_o = {31'd0, status_i[0]};
      RegStatus:     reg_rdata_o = {24'd0, status_i};
      RegFifoLevel:  reg_rdata_o = {15'd0, fifo_level_i};
      RegFifoInfo:   reg_rdata_o = {8'd16, 3'd0, drain_i, depth_i};
      RegKindMask:   reg_rdata_o = {27'd0, kind_mask_q};
      RegTap:        reg_rdata_o = {31'd0, tap_q};
      RegFmt:        reg_rdata_o = {26'd0, fmt_l_q, 2'd0, fmt_h_q};
      RegSyncPeriod: reg_rdata_o = {18'd0, sync_period_q};
      RegRateH:      reg_rdata_o = rate_h_q;
      RegRateL:      reg_rdata_o = rate_l_q;
      RegLenHLo:     reg_rdata_o = len_h_q[31:0];
      RegLenHHi:     reg_rdata_o = {24'd0, len_h_q[39:32]};
      RegLenLLo:     reg_rdata_o = len_l_q[31:0];
      RegLenLHi:     reg_rdata_o = {24'd0, len_l_q[39:32]};
      RegDropped:    reg_rdata_o = dropped_i;
      RegSamplesLo:  reg_rdata_o = samples_i[31:0];
      RegSamplesHi:  reg_rdata_o = {16'd0, samples_hi_q};
      RegBytesLo:    reg_rdata_o = bytes_i[31:0];
      RegBytesHi:    reg_rdata_o = {16'd0, bytes_hi_q};
      RegCycleLo:    reg_rdata_o = cycle_i[31:0];
      RegCycleHi:    reg_rdata_o = cycle_hi_q;
      default:       reg_rdata_o = '0;
    endcase
  end

  assign kind_mask_o   = kind_mask_q;
  assign tap_o         = tap_q;
  assign fmt_h_o       = fmt_h_q;
  assign fmt_l_o       = fmt_l_q;
  assign sync_period_o = sync_period_q;
  assign rate_h_o      = rate_h_q;
  assign rate_l_o      = rate_l_q;
  assign len_h_o       = len_h_q;
  assign len_l_o       = len_l_q;
endmodule
