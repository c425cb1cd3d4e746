// mt_tu_rd_harness: a package top for place-and-route of the reduce path alone (mt_tu_rdpath:
// the REDUCE register, the filter mt_tu_reduce and its record queue), so that the path's own
// area and fmax are measured on a device (run_synth.sh's `rdpath` build).  The unit with the
// path fits no iCE40 (docs/trace-unit-rtl.md "The reduce path", Area), so this is the part of
// it that can be placed.  As mt_tu_sg48, a synthesis harness, not a product interface: wide
// ports are serialised so that every bit stays live and timing is register to register (21 pins:
// it fits the SG48 package as well as the CT256).
//   - one 64-bit input register, 16 nibbles shifted in on sd_i (shift_i), LSB nibble first,
//     holds an access ({tap, kind[2:0], write, addr[55:0]}), presented for one clock by
//     acc_fire_i, or an MMIO write ({wdata[31:0], word addr[9:0]}), presented by reg_wr_i;
//     ctl_i loads the session's inputs from it ({tap, kind_mask[4:0], sp_on, active} in bits
//     7..0), which the unit's control block holds between its changes;
//   - stop_wr_i (a CTRL stop write) and the capture's two per-clock inputs, its interval open
//     (open_i) and its hold busy (hold_i), come on pins, registered;
//   - the cycle is a free-running 48-bit counter, as the unit's own;
//   - every output of the path is registered and XOR-folded onto 8 pins, so that none can be
//     optimised away.
module mt_tu_rd_harness #(
  parameter int unsigned LgKMax = 6   // run_synth.sh's default: see the `rdpath` build there
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic [3:0] sd_i,
  input  logic       shift_i,
  input  logic       acc_fire_i,
  input  logic       reg_wr_i,
  input  logic       ctl_i,
  input  logic       stop_wr_i,
  input  logic       open_i,
  input  logic       hold_i,
  output logic [7:0] fold_o
);
  logic [3:0]  sd_q;
  logic        shift_q, fire_q, reg_wr_q, ctl_q, stop_wr_q, open_q, hold_q;
  logic [63:0] sr_q;
  logic [7:0]  ctl_l_q;
  logic [47:0] cycle_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sd_q <= '0;  shift_q <= 1'b0;  fire_q <= 1'b0;  reg_wr_q <= 1'b0;  ctl_q <= 1'b0;
      stop_wr_q <= 1'b0;  open_q <= 1'b0;  hold_q <= 1'b0;
      sr_q <= '0;  ctl_l_q <= '0;  cycle_q <= '0;
    end else begin
      sd_q <= sd_i;  shift_q <= shift_i;  fire_q <= acc_fire_i;  reg_wr_q <= reg_wr_i;
      ctl_q <= ctl_i;  stop_wr_q <= stop_wr_i;  open_q <= open_i;  hold_q <= hold_i;
      if (shift_q) sr_q <= {sd_q, sr_q[63:4]};
      if (ctl_q) ctl_l_q <= sr_q[7:0];
      cycle_q <= cycle_q + 48'd1;
    end
  end

  logic [31:0] rdata, rdata_now;
  logic        on, stop_hold, stop, rec_valid, rec_write, rec_tap;
  logic [55:0] rec_addr;
  logic [2:0]  rec_kind;
  mt_tu_rdpath #(.LgKMax(LgKMax)) u_rd (
    .clk_i,
    .rst_ni,
    .acc_valid_i     (fire_q),
    .acc_addr_i      (sr_q[55:0]),
    .acc_write_i     (sr_q[56]),
    .acc_kind_i      (sr_q[59:57]),
    .acc_tap_i       (sr_q[60]),
    .cycle_i         (cycle_q),
    .active_i        (ctl_l_q[0]),
    .sp_on_i         (ctl_l_q[1]),
    .kind_mask_i     (ctl_l_q[6:2]),
    .tap_i           (ctl_l_q[7]),
    .reg_wr_i        (reg_wr_q),
    .reg_addr_i      (sr_q[9:0]),
    .reg_wdata_i     (sr_q[41:10]),
    .reg_rdata_o     (rdata),
    .reg_rdata_now_o (rdata_now),
    .ctrl_stop_wr_i  (stop_wr_q),
    .cap_open_i      (open_q),
    .hold_valid_i    (hold_q),
    .on_o            (on),
    .stop_hold_o     (stop_hold),
    .stop_o          (stop),
    .rec_valid_o     (rec_valid),
    .rec_addr_o      (rec_addr),
    .rec_write_o     (rec_write),
    .rec_kind_o      (rec_kind),
    .rec_tap_o       (rec_tap)
  );

  // the outputs as a consumer's input register takes them, then folded onto the pins
  logic [103:0] outs_q;   // 97 bits of outputs, padded to 13 bytes
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      outs_q <= '0;  fold_o <= '0;
    end else begin
      outs_q <= {7'd0, rdata, rec_addr, rec_kind, rec_write, rec_tap, rec_valid, on, stop_hold, stop};
      fold_o <= outs_q[7:0] ^ outs_q[15:8] ^ outs_q[23:16] ^ outs_q[31:24] ^ outs_q[39:32] ^
                outs_q[47:40] ^ outs_q[55:48] ^ outs_q[63:56] ^ outs_q[71:64] ^ outs_q[79:72] ^
                outs_q[87:80] ^ outs_q[95:88] ^ outs_q[103:96];
    end
  end

  // (the read data in the request's clock is the simulation's; sr bits 61..63 carry no field)
  logic unused;
  assign unused = ^{rdata_now, sr_q[63:61]};
endmodule
