// mt_tu_sg48: a package top for place-and-route of mt_tu on the iCE40 UP5K in the SG48 package
// (39 I/O pins).  It is a synthesis harness, not a product interface: wide ports are serialised
// so that every bit of the core stays live and timing is measured register to register.
//   - one 64-bit input register, 16 nibbles shifted in on acc_sd_i (acc_shift_i), LSB nibble
//     first, holds either an access ({tap, kind[2:0], write, addr[55:0]} = 61 bits), presented
//     for one clock by acc_fire_i, or an MMIO request ({wdata[31:0], word addr[9:0]} in its low
//     42 bits), presented for one clock by reg_rd_i or reg_wr_i; read data (valid the clock after
//     the request) is captured and shifted out on reg_so_o;
//   - output: each clock's drained bytes and their count are registered as they leave the unit
//     (the consumer's input register: the timing measured ends at the unit's port), then folded
//     (XOR of the valid bytes) onto 8 pins with the byte count, registered, so that no output bit
//     can be optimised away.
// In a real system the core sits next to the memory port and the output feeds a DMA engine
// (see docs/trace-unit-rtl.md section 6, "Synthesis").
module mt_tu_sg48 #(
  parameter bit FullFmt = 1'b1,  // the build: full (1) or minimal (0), mt_tu
  // the spatial front end (mt_tu Spatial): in the full build (run_synth.sh sets both; with it
  // the full build needs more logic cells than the UP5K has and is placed on the HX8K)
  parameter bit Spatial = 1'b1,
  // the reduce path (mt_tu Reduce, RdLgKMax; run_synth.sh's reduce build)
  parameter int unsigned Reduce = 0,
  parameter int unsigned RdLgKMax = 10
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic [3:0] acc_sd_i,
  input  logic       acc_shift_i,
  input  logic       acc_fire_i,
  input  logic       reg_rd_i,
  input  logic       reg_wr_i,
  output logic       reg_so_o,
  output logic [7:0] out_fold_o,
  output logic [4:0] out_cnt_o
);
  localparam int unsigned Drain = 4;   // a byte-wide consumer takes at most a few bytes a clock

  // Input registers (pins to flops) and the deserialisers.
  logic [3:0]  acc_sd_q;
  logic        acc_shift_q, acc_fire_q, reg_rd_q, reg_rd_q2, reg_wr_q;
  logic [63:0] acc_sr_q;
  logic [31:0] rdata_sr_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_sd_q <= '0;
      acc_shift_q <= 1'b0;
      acc_fire_q <= 1'b0;
      reg_rd_q <= 1'b0;
      reg_wr_q <= 1'b0;
      acc_sr_q <= '0;
    end else begin
      acc_sd_q <= acc_sd_i;
      acc_shift_q <= acc_shift_i;
      acc_fire_q <= acc_fire_i;
      reg_rd_q <= reg_rd_i;
      reg_wr_q <= reg_wr_i;
      if (acc_shift_q) acc_sr_q <= {acc_sd_q, acc_sr_q[63:4]};
    end
  end

  logic [31:0]        rdata;
  logic [4:0]         out_cnt;
  logic [Drain*8-1:0] out_data;
  logic [16:0]        fifo_level;

  mt_tu #(.Depth(4096), .Drain(Drain), .FullFmt(FullFmt), .Spatial(Spatial), .Reduce(Reduce),
          .RdLgKMax(RdLgKMax)) u_tu (
    .clk_i,
    .rst_ni,
    .depth_i      (17'd4096),
    .drain_i      (5'(Drain)),
    .acc_valid_i  (acc_fire_q),
    .acc_addr_i   (acc_sr_q[55:0]),
    .acc_write_i  (acc_sr_q[56]),
    .acc_kind_i   (acc_sr_q[59:57]),
    .acc_tap_i    (acc_sr_q[60]),
    .reg_rd_i     (reg_rd_q),
    .reg_wr_i     (reg_wr_q),
    .reg_addr_i   (acc_sr_q[9:0]),
    .reg_wdata_i  (acc_sr_q[41:10]),
    .reg_rdata_o  (rdata),
    .reg_rdata_now_o (),
    .out_cnt_o    (out_cnt),
    .out_data_o   (out_data),
    .fifo_level_o (fifo_level)
  );

  logic [4:0]         out_cnt_q;
  logic [Drain*8-1:0] out_data_q;
  logic [16:0]        fifo_level_q;
  logic [7:0]         fold;
  always_comb begin
    fold = fifo_level_q[7:0] ^ {fifo_level_q[16:10], 1'b0} ^ {7'd0, fifo_level_q[8] ^ fifo_level_q[9]};
    for (int j = 0; j < Drain; j++) begin
      if (5'(j) < out_cnt_q) fold = fold ^ out_data_q[j*8 +: 8];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rdata_sr_q <= '0;
      reg_rd_q2 <= 1'b0;
      out_cnt_q <= '0;
      out_data_q <= '0;
      fifo_level_q <= '0;
      out_fold_o <= '0;
      out_cnt_o <= '0;
    end else begin
      reg_rd_q2 <= reg_rd_q;
      rdata_sr_q <= reg_rd_q2 ? rdata : {1'b0, rdata_sr_q[31:1]};
      out_cnt_q <= out_cnt;
      out_data_q <= out_data;
      fifo_level_q <= fifo_level;
      out_fold_o <= fold;
      out_cnt_o <= out_cnt_q;
    end
  end
  assign reg_so_o = rdata_sr_q[0];

  // acc_sr_q[63:61] are shifted through but carry no field.
  logic unused;
  assign unused = ^acc_sr_q[63:61];
endmodule
