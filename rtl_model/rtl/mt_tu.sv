// mt_tu: the metatrace trace unit (docs/trace-unit.md), top level.
//
// One bus access per clock in (physical address, R/W, kind, tap); a byte stream out, up to
// Drain bytes per clock from a Depth-byte FIFO; a 32-bit MMIO register port (one access per
// clock) for firmware.  The output is a plain byte count + bytes each clock: in a system it
// feeds a DMA engine or a debug port that is always ready, as the contract's drain rate assumes.
//
//   mt_tu_regs  MMIO registers and read port (answers a clock after the request)
//   mt_tu_awram the wide configuration registers as written (block RAM, inside mt_tu_regs)
//   mt_tu_rdcopy the read port's copy of the registers a write alone changes (block RAM, inside
//               mt_tu_regs), read at the request's address
//   mt_tu_ctrl  session, schedule, hold, pending flags, compressor state and their next state;
//               inside it the pieces it steers (docs/trace-unit-rtl.md section 1):
//     mt_tu_capture, mt_tu_arb       the capture's filter; the arbitration
//     mt_tu_precomp (mt_tu_enc)      the hold's precompute, stages A-C
//     mt_tu_desc                     the winner's descriptor
//     mt_tu_pktpipe (mt_tu_pack, mt_tu_leblen)  the packet pipeline P1, P2, PQ, PW, P3
//     mt_tu_syncest                  the SYNC byte count and estimate
//     mt_tu_counters (mt_tu_acc)     t, SAMPLES, BYTES, OVERFLOW's count, DROPPED (SB_MAC16 on iCE40)
//     mt_tu_markval                  MARKER's value
//     mt_tu_cfgram                   the latched rates, lengths and SYNC period (block RAM)
//   mt_tu_lut4  one 4-input table (SB_LUT4 on iCE40) for the few control levels that set the clock
//   mt_tu_spatial the spatial front end: in spatial mode the capture takes its records instead of
//               the accesses (the per-size memory mt_tu_spkept in block RAM)
//   mt_tu_modereg the SPATIAL and REDUCE registers (inside mt_tu_spatial and mt_tu_rdpath)
//   mt_tu_rdpath the reduce mode: the exact filter mt_tu_reduce and a queue of its records, which
//               the capture takes instead of the accesses; it holds a session's stop back until
//               the filter has flushed
//   mt_tu_fifo  packet-in (8- or 4-byte write port), bytes-out FIFO over 8 or 4 byte-wide block-RAM banks
//               (mt_tu_ram)
module mt_tu #(
  parameter int unsigned Depth = 4096,  // FIFO storage in bytes, 32..65536
  parameter int unsigned Drain = 8,     // output port width in bytes, 1..8
  // The formats built: 1 (the full build) all four; 0 (the minimal build) the seed's 48-bit and
  // 32-bit only.  FMT's bit 1 of each field is then not implemented: it reads 0, so a write
  // asking for full (2) or line (3) is accepted as 48-bit (0) or 32-bit (1), and the address
  // parts, the history and the DELTA path are 44 bits wide instead of 56.
  parameter bit          FullFmt = 1'b1,
  // The spatial front end (mt_tu_spatial; the full build only; without it SPATIAL reads 0).  The
  // UP5K cannot hold it beside the rest of the full build (docs/trace-unit-rtl.md "The spatial
  // front end": 118 % of its logic cells), so `make synth` places the full build on the HX8K.
  parameter bit          Spatial = 1'b1,
  // The reduce mode (mt_tu_rdpath, mt_tu_reduce; the full build only; without it REDUCE reads 0).
  // Off by default: at LgKMax = 10 its filter alone is larger than the UP5K (docs/trace-unit-rtl.md
  // "The reduce path"); the simulation library turns it on (rtl_model/module.mk).
  parameter int unsigned Reduce = 0,  // (an int: `-GReduce=1` on the command line)
  // The reduce filter's largest budget, 4 KiB << RdLgKMax (mt_tu_rdpath LgKMax; REDUCE's log2 k_0
  // is clamped to it).  10 is the C model's (lib/mt_unit.h); a synthesis build may take less.
  parameter int unsigned RdLgKMax = 10
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // Straps (constants in a real top): FIFO capacity 32..Depth and drain 1..Drain (<= 8) bytes/clock,
  // the build parameters D and N of docs/trace-unit.md.
  input  logic [16:0]        depth_i,
  input  logic [4:0]         drain_i,
  // Access port
  input  logic               acc_valid_i,
  input  logic [55:0]        acc_addr_i,
  input  logic               acc_write_i,
  input  logic [2:0]         acc_kind_i,
  input  logic               acc_tap_i,
  // MMIO port: word index within the 4 KiB window
  input  logic               reg_rd_i,
  input  logic               reg_wr_i,
  input  logic [9:0]         reg_addr_i,
  input  logic [31:0]        reg_wdata_i,
  output logic [31:0]        reg_rdata_o,      // the data of the read request of the last cycle
  // The same value in the cycle of the request, for the simulation library's register reads only
  // (its C API answers at once; mt_rtl.cpp checks reg_rdata_o against it a clock later).  Not
  // part of the hardware interface: a top leaves it open, and under MT_TU_ICE40 it reads 0.
  output logic [31:0]        reg_rdata_now_o,
  // Output bytes of this clock
  output logic [4:0]         out_cnt_o,
  output logic [Drain*8-1:0] out_data_o,
  // FIFO occupancy at the start of this clock (for a consumer's flow control and for
  // co-simulation, which compares it with the C model every cycle)
  output logic [16:0]        fifo_level_o
);
  localparam int unsigned OccW = $clog2(Depth + 1);
  // The FIFO's banks and write port: 4 bytes when the output port is at most 4 bytes wide (half
  // the rotators and address selects of 8), else 8 (mt_tu_fifo).
  localparam int unsigned Lanes = (Drain <= 4) ? 4 : 8;

  logic [4:0]  kind_mask;
  logic        tap;
  logic [1:0]  fmt_h, fmt_l, fmt_first;
  logic        first_l;
  logic [13:0]  aw_sync;
  logic [71:0]  aw_word_a, aw_word_b;
  logic         aw_raddr_a, aw_raddr_b;
  logic         len_h_zero, len_l_zero, len_h_one, len_l_one, rate_h_one, rate_l_one;
  logic         sync_lo, sync_hi, len_h_two, len_l_two;
  logic        ctrl_wr, marker_wr;
  logic [3:0]  ctrl_dec;
  logic [2:0]  mark_dec;
  logic [7:0]  status;
  logic [31:0] dropped, dropped_next;
  logic [47:0] samples, bytes;
  logic [63:0] cycle;

  logic [OccW-1:0] occ;
  logic            room, inflight;
  logic            half;
  logic            fifo_wr, fifo_commit;
  logic [3:0]      fifo_cnt;
  logic            fifo_wr_next;
  logic [3:0]      fifo_cnt_next;
  logic [4:0]      fifo_commit_len;
  logic            fifo_commit_next;
  logic [4:0]      fifo_commit_len_next;
  logic [Lanes*8-1:0] fifo_data;

  // The spatial front end (the full build): in a session with SPATIAL.EN the capture takes its
  // records, otherwise the access port.  Its register is read beside mt_tu_regs' (which answers
  // 0 at that address), so the two read data are ORed.
  logic        sp_on, rec_valid, rec_write, rec_tap;
  logic [55:0] rec_addr;
  logic [2:0]  rec_kind;
  logic [31:0] sp_rdata, sp_rdata_now, regs_rdata, regs_rdata_now;
  logic        c_valid, c_write, c_tap;
  logic [55:0] c_addr;
  logic [2:0]  c_kind;
  if (FullFmt && Spatial) begin : g_spatial
    mt_tu_spatial u_spatial (
      .clk_i,
      .rst_ni,
      .acc_valid_i,
      .acc_addr_i,
      .acc_write_i,
      .acc_kind_i,
      .acc_tap_i,
      .active_i        (status[0]),
      .kind_mask_i     (kind_mask),
      .tap_i           (tap),
      .reg_wr_i,
      .reg_addr_i,
      .reg_wdata_i,
      .reg_rdata_o     (sp_rdata),
      .reg_rdata_now_o (sp_rdata_now),
      .on_o            (sp_on),
      .rec_valid_o     (rec_valid),
      .rec_addr_o      (rec_addr),
      .rec_write_o     (rec_write),
      .rec_kind_o      (rec_kind),
      .rec_tap_o       (rec_tap)
    );
  end else begin : g_no_spatial
    assign sp_on = 1'b0;
    assign {rec_valid, rec_addr, rec_write, rec_kind, rec_tap} = '0;
    assign sp_rdata = '0;
    assign sp_rdata_now = '0;
  end
  // The reduce mode (the full build with Reduce): in a session with REDUCE.EN (and not
  // SPATIAL.EN) the capture takes the head of its record queue; a CTRL stop write is held back
  // from mt_tu_ctrl until the filter has flushed, and then given to it (rd_stop: a clock without
  // a register write, so the write data are free).
  logic        rd_on, rd_hold, rd_stop, rd_valid, rd_write, rd_tap, int_open, hold_valid;
  logic [55:0] rd_addr;
  logic [2:0]  rd_kind;
  logic [31:0] rd_rdata, rd_rdata_now;
  logic        stop_wr;
  assign stop_wr = ctrl_wr && ctrl_dec[0];
  if (FullFmt && Reduce != 0) begin : g_reduce
    mt_tu_rdpath #(.LgKMax(RdLgKMax)) u_rdpath (
      .clk_i,
      .rst_ni,
      .acc_valid_i,
      .acc_addr_i,
      .acc_write_i,
      .acc_kind_i,
      .acc_tap_i,
      .cycle_i         (cycle[47:0]),
      .active_i        (status[0]),
      .sp_on_i         (sp_on),
      .kind_mask_i     (kind_mask),
      .tap_i           (tap),
      .reg_wr_i,
      .reg_addr_i,
      .reg_wdata_i,
      .reg_rdata_o     (rd_rdata),
      .reg_rdata_now_o (rd_rdata_now),
      .ctrl_stop_wr_i  (stop_wr),
      .cap_open_i      (int_open),
      .hold_valid_i    (hold_valid),
      .on_o            (rd_on),
      .stop_hold_o     (rd_hold),
      .stop_o          (rd_stop),
      .rec_valid_o     (rd_valid),
      .rec_addr_o      (rd_addr),
      .rec_write_o     (rd_write),
      .rec_kind_o      (rd_kind),
      .rec_tap_o       (rd_tap)
    );
  end else begin : g_no_reduce
    assign {rd_on, rd_hold, rd_stop, rd_valid, rd_addr, rd_write, rd_kind, rd_tap} = '0;
    assign rd_rdata = '0;
    assign rd_rdata_now = '0;
    logic unused_rd;
    assign unused_rd = ^{int_open, hold_valid, stop_wr, cycle[47:0]};
  end
  assign c_valid = sp_on ? rec_valid : rd_on ? rd_valid : acc_valid_i;
  assign c_addr  = sp_on ? rec_addr  : rd_on ? rd_addr  : acc_addr_i;
  assign c_write = sp_on ? rec_write : rd_on ? rd_write : acc_write_i;
  assign c_kind  = sp_on ? rec_kind  : rd_on ? rd_kind  : acc_kind_i;
  assign c_tap   = sp_on ? rec_tap   : rd_on ? rd_tap   : acc_tap_i;
  assign reg_rdata_o     = regs_rdata | sp_rdata | rd_rdata;
  assign reg_rdata_now_o = regs_rdata_now | sp_rdata_now | rd_rdata_now;
  // the CTRL write as mt_tu_ctrl sees it: a held-back stop removed, the path's stop added
  logic        c_ctrl_wr;
  logic [3:0]  c_ctrl_dec;
  logic [31:0] c_wdata;
  assign c_ctrl_wr  = rd_stop || (ctrl_wr && !(rd_hold && stop_wr));
  assign c_ctrl_dec = rd_stop ? 4'b1101 : (rd_hold && stop_wr) ? 4'b0000 : ctrl_dec;
  assign c_wdata    = rd_stop ? 32'd0 : reg_wdata_i;

  mt_tu_regs #(.FullFmt(FullFmt)) u_regs (
    .clk_i,
    .rst_ni,
    .depth_i       (depth_i[15:0]),
    .drain_i,
    .reg_rd_i,
    .reg_wr_i,
    .reg_addr_i,
    .reg_wdata_i,
    .reg_rdata_o   (regs_rdata),
    .reg_rdata_now_o (regs_rdata_now),
    .kind_mask_o   (kind_mask),
    .tap_o         (tap),
    .fmt_h_o       (fmt_h),
    .fmt_l_o       (fmt_l),
    .aw_raddr_a_i  (aw_raddr_a),
    .aw_raddr_b_i  (aw_raddr_b),
    .aw_sync_o     (aw_sync),
    .aw_word_a_o   (aw_word_a),
    .aw_word_b_o   (aw_word_b),
    .len_h_zero_o  (len_h_zero),
    .first_l_o     (first_l),
    .fmt_first_o   (fmt_first),
    .len_l_zero_o  (len_l_zero),
    .len_h_one_o   (len_h_one),
    .len_l_one_o   (len_l_one),
    .len_h_two_o   (len_h_two),
    .len_l_two_o   (len_l_two),
    .rate_h_one_o  (rate_h_one),
    .rate_l_one_o  (rate_l_one),
    .sync_lo_o     (sync_lo),
    .sync_hi_o     (sync_hi),
    .ctrl_wr_o     (ctrl_wr),
    .ctrl_dec_o    (ctrl_dec),
    .mark_dec_o    (mark_dec),
    .marker_wr_o   (marker_wr),
    .status_i      (status),
    .fifo_level_i  (17'(occ)),
    .dropped_i     (dropped),
    .dropped_next_i (dropped_next),
    .samples_i     (samples),
    .bytes_i       (bytes),
    .cycle_i       (cycle)
  );

  mt_tu_ctrl #(.Depth(Depth), .FullFmt(FullFmt), .Lanes(Lanes)) u_ctrl (
    .clk_i,
    .rst_ni,
    .acc_valid_i   (c_valid),
    .acc_addr_i    (c_addr),
    .acc_write_i   (c_write),
    .acc_kind_i    (c_kind),
    .acc_tap_i     (c_tap),
    .kind_mask_i   (kind_mask),
    .tap_i         (tap),
    .fmt_h_i       (fmt_h),
    .fmt_l_i       (fmt_l),
    .aw_raddr_a_o  (aw_raddr_a),
    .aw_raddr_b_o  (aw_raddr_b),
    .aw_sync_i     (aw_sync),
    .aw_word_a_i   (aw_word_a),
    .aw_word_b_i   (aw_word_b),
    .len_h_zero_i  (len_h_zero),
    .first_l_i     (first_l),
    .fmt_first_i   (fmt_first),
    .len_l_zero_i  (len_l_zero),
    .len_h_one_i   (len_h_one),
    .len_l_one_i   (len_l_one),
    .len_h_two_i   (len_h_two),
    .len_l_two_i   (len_l_two),
    .rate_h_one_i  (rate_h_one),
    .rate_l_one_i  (rate_l_one),
    .sync_lo_i     (sync_lo),
    .sync_hi_i     (sync_hi),
    .ctrl_wr_i     (c_ctrl_wr),
    .ctrl_dec_i    (c_ctrl_dec),
    .mark_dec_i    (mark_dec),
    .marker_wr_i   (marker_wr),
    .wdata_i       (c_wdata),
    .fifo_occ_i    (occ),
    .fifo_room_i   (room),
    .fifo_inflight_o (inflight),
    .fifo_half_i   (half),
    .fifo_wr_o     (fifo_wr),
    .fifo_cnt_o    (fifo_cnt),
    .fifo_wr_next_o  (fifo_wr_next),
    .fifo_cnt_next_o (fifo_cnt_next),
    .fifo_data_o   (fifo_data),
    .fifo_commit_o (fifo_commit),
    .fifo_commit_len_o (fifo_commit_len),
    .fifo_commit_next_o (fifo_commit_next),
    .fifo_commit_len_next_o (fifo_commit_len_next),
    .status_o      (status),
    .dropped_o     (dropped),
    .dropped_q_o   (dropped_next),
    .samples_o     (samples),
    .bytes_o       (bytes),
    .cycle_o       (cycle),
    .int_open_o    (int_open),
    .hold_valid_o  (hold_valid)
  );

  assign fifo_level_o = 17'(occ);

  // depth_i[16] only matters (through OccW'(depth_i)) when Depth = 65536.
  logic unused_depth_msb;
  assign unused_depth_msb = depth_i[16];

  mt_tu_fifo #(.Depth(Depth), .Drain(Drain)) u_fifo (
    .clk_i,
    .rst_ni,
    .depth_i    (OccW'(depth_i)),
    .drain_i,
    .wr_i       (fifo_wr),
    .wr_cnt_i   (fifo_cnt),
    .wr_next_i  (fifo_wr_next),
    .wr_cnt_next_i (fifo_cnt_next),
    .wr_data_i  (fifo_data),
    .commit_i   (fifo_commit),
    .commit_len_i (fifo_commit_len),
    .commit_next_i (fifo_commit_next),
    .commit_len_next_i (fifo_commit_len_next),
    .occ_o      (occ),
    .inflight_i (inflight),
    .room_o     (room),
    .half_o     (half),
    .out_cnt_o,
    .out_data_o
  );
endmodule
