// mt_tu_ctrl: the trace unit's control path, one clock of docs/trace-unit.md section 4 per cycle:
// the session (enable/disable, latched configuration), the schedule (bursts and spans, sample
// points that never drift, interval indices), capture with the kind/tap filter, the one-cycle
// skid register (hold), arbitration of at most one packet per clock, the packet builders,
// the compressor state (through mt_tu_enc) and the counters behind the status registers.
//
// Time is counted down rather than compared: sec_left = sec_end - t and sp_left = next_sp - t,
// which replaces two 64-bit comparators with decrementers and zero tests.
module mt_tu_ctrl #(
  parameter int unsigned Depth = 4096,
  localparam int unsigned OccW = $clog2(Depth + 1)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // Access port
  input  logic            acc_valid_i,
  input  logic [55:0]     acc_addr_i,
  input  logic            acc_write_i,
  input  logic [2:0]      acc_kind_i,
  input  logic            acc_tap_i,
  // Configuration registers (as written) and commands
  input  logic [4:0]      kind_mask_i,
  input  logic            tap_i,
  input  logic [1:0]      fmt_h_i,
  input  logic [1:0]      fmt_l_i,
  input  logic [13:0]     sync_period_i,
  input  logic [31:0]     rate_h_i,
  input  logic [31:0]     rate_l_i,
  input  logic [39:0]     len_h_i,
  input  logic [39:0]     len_l_i,
  input  logic            ctrl_wr_i,
  input  logic            marker_wr_i,
  input  logic [31:0]     wdata_i,
  // FIFO
  input  logic [OccW-1:0] fifo_occ_i,
  input  logic [OccW-1:0] fifo_space_i,
  input  logic            fifo_half_i,    // OVERFLOW waits for a FIFO at most half full
  output logic            fifo_wr_o,
  output logic [4:0]      fifo_len_o,
  output logic [127:0]    fifo_data_o,
  // State for the registers
  output logic [7:0]      status_o,
  output logic [31:0]     dropped_o,
  output logic [47:0]     samples_o,
  output logic [47:0]     bytes_o,
  output logic [63:0]     cycle_o
);
  // ---------------------------------------------------------------------------------------------
  // State
  logic [63:0] t_q;
  logic        active_q, busy_q;
  // latched configuration
  logic [4:0]  c_kind_mask_q;
  logic        c_tap_q;
  logic [1:0]  c_fmt_h_q, c_fmt_l_q;
  logic [13:0] c_sync_period_q;
  logic [31:0] c_rate_h_q, c_rate_l_q;
  logic [39:0] c_len_h_q, c_len_l_q;
  // schedule
  logic        sec_span_q;
  logic [1:0]  sec_fmt_q;
  logic [31:0] sec_r_q;
  logic [47:0] sec_start_q;
  logic [39:0] sec_left_q;   // sec_end - t
  logic [31:0] sp_left_q;    // next_sp - t
  logic        int_open_q;
  logic [39:0] int_idx_q;
  logic [39:0] next_idx_q;   // index of the next interval to open
  logic [47:0] int_sp_q;
  // hold (skid register)
  logic        hold_valid_q, hold_after_q, hold_rw_q;
  logic [55:0] hold_a_q;
  logic [39:0] hold_idx_q;
  logic [47:0] hold_sp_q;
  // pending packets
  logic        sect_pending_q, sect_switch_q, sync_pending_q, marker_pending_q, end_pending_q;
  logic [31:0] drop_pending_q, marker_val_q;
  logic [39:0] rep_idx_q;
  logic [47:0] rep_cycle_q;
  // compressor
  logic [1:0]  enc_fmt_q;
  logic [167:0] hist_q;      // entry i at [i*56 +: 56], newest first
  logic [2:0]  hist_valid_q;
  logic [1:0]  prev_idx_q;
  logic        prev_rw_q, prev_valid_q;
  logic [6:0]  run_cnt_q;
  // SYNC bookkeeping
  logic [13:0] sync_bytes_q;
  logic [7:0]  sync_seq_q;
  // counters, sticky bits
  logic [31:0] dropped_q;
  logic [47:0] samples_q, bytes_q;
  logic        overflowed_q, marker_lost_q;

  // Next-state copies (the always_comb below walks section 4 in order, like the C model).
  logic        active_d, busy_d;
  logic [4:0]  c_kind_mask_d;
  logic        c_tap_d;
  logic [1:0]  c_fmt_h_d, c_fmt_l_d;
  logic [13:0] c_sync_period_d;
  logic [31:0] c_rate_h_d, c_rate_l_d;
  logic [39:0] c_len_h_d, c_len_l_d;
  logic        sec_span_d;
  logic [1:0]  sec_fmt_d;
  logic [31:0] sec_r_d;
  logic [47:0] sec_start_d;
  logic [39:0] sec_left_d;
  logic [31:0] sp_left_d;
  logic        int_open_d;
  logic [39:0] int_idx_d;
  logic [39:0] next_idx_d;
  logic [47:0] int_sp_d;
  logic        hold_valid_d, hold_after_d, hold_rw_d;
  logic [55:0] hold_a_d;
  logic [39:0] hold_idx_d;
  logic [47:0] hold_sp_d;
  logic        sect_pending_d, sect_switch_d, sync_pending_d, marker_pending_d, end_pending_d;
  logic [31:0] drop_pending_d, marker_val_d;
  logic [39:0] rep_idx_d;
  logic [47:0] rep_cycle_d;
  logic [1:0]  enc_fmt_d;
  logic [167:0] hist_d;
  logic [2:0]  hist_valid_d;
  logic [1:0]  prev_idx_d;
  logic        prev_rw_d, prev_valid_d;
  logic [6:0]  run_cnt_d;
  logic [13:0] sync_bytes_d;
  logic [7:0]  sync_seq_d;
  logic [31:0] dropped_d;
  logic [47:0] samples_d, bytes_d;
  logic        overflowed_d, marker_lost_d;

  // ---------------------------------------------------------------------------------------------
  // Section B: schedule (combinational part, used by capture and arbitration).
  logic        sw;            // section switch this cycle
  logic        sw_span;       // type of the new section
  logic [39:0] sw_len;
  logic        sp_hit;        // a new interval opens this cycle
  logic        b_int_open;
  logic [39:0] b_int_idx;
  logic [47:0] b_int_sp;
  logic [1:0]  b_fmt;
  logic [31:0] b_r;
  logic        b_span;
  logic        b_hold_valid;
  logic        b_sect_pending;

  // The section that follows a section of type `span`: the other type unless its length is 0.
  logic c_len_h_zero_q, c_len_l_zero_q;   // latched with the lengths
  always_comb begin
    if (sec_span_q) sw_span = c_len_h_zero_q;
    else sw_span = !c_len_l_zero_q;
    sw_len = sw_span ? c_len_l_q : c_len_h_q;
  end

  // "sec_left == 0" and "sp_left == 0" are registered one cycle ahead (from the _d values), so
  // the 40- and 32-bit zero tests are not at the head of the arbitration path.
  logic sec_zero_q, sp_zero_q;
  assign sw     = active_q && sec_zero_q;
  assign b_span = sw ? sw_span : sec_span_q;
  assign b_fmt  = sw ? (sw_span ? c_fmt_l_q : c_fmt_h_q) : sec_fmt_q;
  assign b_r    = sw ? (sw_span ? c_rate_l_q : c_rate_h_q) : sec_r_q;
  assign sp_hit = active_q && (sw || sp_zero_q);
  assign b_int_open = sp_hit ? 1'b1 : (sw ? 1'b0 : int_open_q);
  assign b_int_idx  = sp_hit ? (sw ? 40'd0 : next_idx_q) : int_idx_q;
  assign b_int_sp   = sp_hit ? t_q[47:0] : int_sp_q;
  assign b_hold_valid   = hold_valid_q && !(sw && hold_after_q);
  assign b_sect_pending = sect_pending_q || sw;

  // Section C: capture.
  logic        pass, cap;
  logic [55:0] cap_a;
  assign pass  = acc_valid_i && c_kind_mask_q[acc_kind_i] && (acc_tap_i == c_tap_q) &&
                 (acc_kind_i < 3'd5);
  assign cap   = active_q && b_int_open && pass;
  assign cap_a = mt_tu_pkg::fmt_part(b_fmt, acc_addr_i);

  // Section D: arbitration.
  logic barrier;
  assign barrier = b_sect_pending || sync_pending_q;

  typedef enum logic [2:0] {
    WNone, WHold, WSection, WSync, WOverflow, WMarker, WCapture, WEnd
  } winner_e;
  winner_e win;

  always_comb begin
    if (b_hold_valid && !(hold_after_q && barrier)) win = WHold;
    else if (b_sect_pending) win = WSection;
    else if (sync_pending_q) win = WSync;
    else if (drop_pending_q != '0 && fifo_half_i) win = WOverflow;
    else if (marker_pending_q) win = WMarker;
    else if (cap) win = WCapture;
    // END after everything else, including an OVERFLOW waiting for a half-empty FIFO
    else if (end_pending_q && drop_pending_q == '0 && !b_hold_valid) win = WEnd;
    else win = WNone;
  end

  logic is_sample_win, run_flush;
  assign is_sample_win = (win == WHold) || (win == WCapture);
  assign run_flush     = !is_sample_win && (win != WNone) && (run_cnt_q != '0);

  // The sample being written (hold or this cycle's capture) through the compressor.
  logic [55:0] s_a;
  logic        s_rw;
  logic [39:0] s_idx, s_skip;
  logic [47:0] s_sp;
  assign s_a    = (win == WHold) ? hold_a_q : cap_a;
  assign s_rw   = (win == WHold) ? hold_rw_q : acc_write_i;
  assign s_idx  = (win == WHold) ? hold_idx_q : b_int_idx;
  assign s_sp   = (win == WHold) ? hold_sp_q : b_int_sp;
  assign s_skip = s_idx - rep_idx_q;

  logic         e_absorbed, e_push, e_has_run, e_has_skip, e_pay_en;
  logic [1:0]   e_midx;
  logic [7:0]   e_hdr;
  logic [55:0]  e_pay;
  logic [3:0]   e_pay_len;

  mt_tu_enc u_enc (
    .fmt_i        (enc_fmt_q),
    .hist_i       (hist_q),
    .hist_valid_i (hist_valid_q),
    .prev_idx_i   (prev_idx_q),
    .prev_rw_i    (prev_rw_q),
    .prev_valid_i (prev_valid_q),
    .run_cnt_i    (run_cnt_q),
    .a_i          (s_a),
    .rw_i         (s_rw),
    .skip_i       (s_skip),
    .absorbed_o   (e_absorbed),
    .push_o       (e_push),
    .match_idx_o  (e_midx),
    .hdr_o        (e_hdr),
    .has_run_o    (e_has_run),
    .has_skip_o   (e_has_skip),
    .pay_en_o     (e_pay_en),
    .pay_o        (e_pay),
    .pay_len_o    (e_pay_len)
  );

  // The packet of the winner (or the RUN that flushes before it): select its prefix and fields,
  // then one assembler builds it.
  logic [47:0]  sect_cycle;
  assign sect_cycle = (sect_switch_q || sw) ? (sw ? t_q[47:0] : sec_start_q) : rep_cycle_q;

  logic [55:0]  k_pre;
  logic [2:0]   k_pre_len;
  logic         k_fa_en, k_fb_en;
  logic [47:0]  k_fa;
  logic [55:0]  k_fb;
  always_comb begin
    k_pre = '0;
    k_pre_len = 3'd1;
    k_fa_en = 1'b0;
    k_fa = '0;
    k_fb_en = 1'b0;
    k_fb = '0;
    if (run_flush) begin
      k_pre = {40'd0, 1'b0, run_cnt_q, mt_tu_pkg::HdrRun};
      k_pre_len = 3'd2;
    end else begin
      case (win)
        WHold, WCapture: begin
          k_pre = e_has_run ? {40'd0, 1'b0, run_cnt_q, e_hdr} : {48'd0, e_hdr};
          k_pre_len = e_has_run ? 3'd2 : 3'd1;
          k_fa_en = e_has_skip;
          k_fa = {8'd0, s_skip};
          k_fb_en = e_pay_en;
          k_fb = e_pay;
        end
        WSection: begin
          k_pre = {40'd0, 1'b1, 4'd0, b_fmt, b_span, mt_tu_pkg::HdrSection};
          k_pre_len = 3'd2;
          k_fa_en = 1'b1;
          k_fa = {16'd0, b_r};
          k_fb_en = 1'b1;
          k_fb = {8'd0, sect_cycle};
        end
        WSync: begin
          k_pre = {sync_seq_q, 8'h80, {5{mt_tu_pkg::HdrSync}}};
          k_pre_len = 3'd7;
          k_fa_en = 1'b1;
          k_fa = {34'd0, sync_bytes_q};
          k_fb_en = 1'b1;
          k_fb = {8'd0, t_q[47:0]};
        end
        WOverflow: begin
          k_pre = {48'd0, mt_tu_pkg::HdrOverflow};
          k_fa_en = 1'b1;
          k_fa = {16'd0, drop_pending_q};
        end
        WMarker: begin
          k_pre = {48'd0, mt_tu_pkg::HdrMarker};
          k_fa_en = 1'b1;
          k_fa = {16'd0, marker_val_q};
        end
        WEnd: begin
          k_pre = {48'd0, mt_tu_pkg::HdrEnd};
          k_fa_en = 1'b1;
          k_fa = samples_q;
          k_fb_en = 1'b1;
          k_fb = {24'd0, dropped_q};
        end
        default: ;
      endcase
    end
  end

  logic [127:0] w_bytes;
  logic [4:0]   w_len;
  mt_tu_pack u_pack (
    .pre_i     (k_pre),
    .pre_len_i (k_pre_len),
    .fa_en_i   (k_fa_en),
    .fa_i      (k_fa),
    .fb_en_i   (k_fb_en),
    .fb_i      (k_fb),
    .fb_len_en_i (is_sample_win && !run_flush),
    .fb_len_i  (e_pay_len),
    .bytes_o   (w_bytes),
    .len_o     (w_len)
  );

  logic fits, write;
  assign fits  = {{(OccW > 5 ? OccW - 5 : 0){1'b0}}, w_len} <= fifo_space_i;
  assign write = (win != WNone) && fits && !(is_sample_win && !run_flush && e_absorbed);

  assign fifo_wr_o   = write && (w_len != '0);
  assign fifo_len_o  = w_len;
  assign fifo_data_o = w_bytes;

  // ---------------------------------------------------------------------------------------------
  // Next state.
  always_comb begin
    logic s_reported, s_dropped, cap_dropped, hold_freed;
    logic [31:0] drops;

    active_d = active_q;           busy_d = busy_q;
    c_kind_mask_d = c_kind_mask_q; c_tap_d = c_tap_q;
    c_fmt_h_d = c_fmt_h_q;         c_fmt_l_d = c_fmt_l_q;
    c_sync_period_d = c_sync_period_q;
    c_rate_h_d = c_rate_h_q;       c_rate_l_d = c_rate_l_q;
    c_len_h_d = c_len_h_q;         c_len_l_d = c_len_l_q;
    sec_span_d = b_span;           sec_fmt_d = b_fmt;        sec_r_d = b_r;
    sec_start_d = sw ? t_q[47:0] : sec_start_q;
    sec_left_d = sw ? sw_len - 40'd1 : sec_left_q - 40'd1;
    sp_left_d  = sp_hit ? b_r - 32'd1 : sp_left_q - 32'd1;
    int_open_d = b_int_open;       int_idx_d = b_int_idx;    int_sp_d = b_int_sp;
    next_idx_d = sp_hit ? b_int_idx + 40'd1 : next_idx_q;
    hold_valid_d = b_hold_valid;   hold_after_d = hold_after_q; hold_rw_d = hold_rw_q;
    hold_a_d = hold_a_q;           hold_idx_d = hold_idx_q;  hold_sp_d = hold_sp_q;
    sect_pending_d = b_sect_pending;
    sect_switch_d = sect_switch_q || sw;
    sync_pending_d = sync_pending_q;
    marker_pending_d = marker_pending_q;
    end_pending_d = end_pending_q;
    drop_pending_d = drop_pending_q;
    marker_val_d = marker_val_q;
    rep_idx_d = rep_idx_q;         rep_cycle_d = rep_cycle_q;
    enc_fmt_d = enc_fmt_q;
    hist_d = hist_q;               hist_valid_d = hist_valid_q;
    prev_idx_d = prev_idx_q;       prev_rw_d = prev_rw_q;    prev_valid_d = prev_valid_q;
    run_cnt_d = run_cnt_q;
    sync_bytes_d = sync_bytes_q;   sync_seq_d = sync_seq_q;
    dropped_d = dropped_q;         samples_d = samples_q;    bytes_d = bytes_q;
    overflowed_d = overflowed_q;   marker_lost_d = marker_lost_q;

    drops = '0;
    s_reported = 1'b0;
    s_dropped = 1'b0;

    if (cap) int_open_d = 1'b0;

    // D: the winner.
    if (run_flush) begin
      if (write) run_cnt_d = '0;
    end else if (is_sample_win) begin
      if (e_absorbed) begin
        run_cnt_d = run_cnt_q + 7'd1;
        s_reported = 1'b1;
      end else if (fits) begin
        if (e_push) begin
          hist_d[112 +: 56] = hist_q[56 +: 56];
          hist_d[56 +: 56] = hist_q[0 +: 56];
          hist_d[0 +: 56] = s_a & mt_tu_pkg::fmt_mask(enc_fmt_q);
          hist_valid_d = {hist_valid_q[1:0], 1'b1};
          prev_idx_d = 2'd0;
        end else begin
          prev_idx_d = e_midx;
        end
        prev_rw_d = s_rw;
        prev_valid_d = 1'b1;
        run_cnt_d = '0;
        s_reported = 1'b1;
      end else begin
        s_dropped = 1'b1;
      end
      if (s_reported) begin
        rep_idx_d = s_idx + 40'd1;
        rep_cycle_d = s_sp + {16'd0, sec_r_d};
      end
    end else if (write) begin
      case (win)
        WSection: begin
          if (sect_switch_q || sw) begin
            rep_idx_d = '0;
            rep_cycle_d = sect_cycle;
          end
          enc_fmt_d = b_fmt;
          hist_valid_d = '0;
          prev_valid_d = 1'b0;
          sect_pending_d = 1'b0;
          sect_switch_d = 1'b0;
          hold_after_d = 1'b0;
        end
        WSync: begin
          sync_seq_d = sync_seq_q + 8'd1;
          sync_bytes_d = '0;
          hist_valid_d = '0;
          prev_valid_d = 1'b0;
          sync_pending_d = 1'b0;
          sect_pending_d = 1'b1;
        end
        WOverflow: drop_pending_d = '0;
        WMarker:   marker_pending_d = 1'b0;
        WEnd: begin
          end_pending_d = 1'b0;
          busy_d = 1'b0;
        end
        default: ;
      endcase
    end

    // The hold after this cycle's write; then this cycle's capture if it did not win.
    hold_freed = !b_hold_valid || (win == WHold && !run_flush);
    if (win == WHold && !run_flush) hold_valid_d = 1'b0;
    cap_dropped = 1'b0;
    if (cap && !(win == WCapture && !run_flush)) begin
      if (hold_freed) begin
        hold_valid_d = 1'b1;
        hold_after_d = sect_pending_d || sync_pending_d;
        hold_a_d = cap_a;
        hold_rw_d = acc_write_i;
        hold_idx_d = b_int_idx;
        hold_sp_d = b_int_sp;
      end else begin
        cap_dropped = 1'b1;
      end
    end

    drops = 32'(s_dropped) + 32'(cap_dropped) + 32'(sw && hold_valid_q && hold_after_q);
    if (drops != '0) begin
      drop_pending_d = (drop_pending_d > ~drops) ? '1 : drop_pending_d + drops;
      dropped_d = (dropped_q > ~drops) ? '1 : dropped_q + drops;
      overflowed_d = 1'b1;
    end
    if (s_reported) samples_d = samples_q + 48'd1;

    // E: end of cycle.
    if (fifo_wr_o) begin
      sync_bytes_d = (sync_bytes_d > 14'd16383 - 14'(w_len)) ? 14'd16383 : sync_bytes_d + 14'(w_len);
      bytes_d = bytes_q + 48'(w_len);
    end
    if (active_q && (sync_bytes_d >= c_sync_period_q)) sync_pending_d = 1'b1;

    // MMIO commands of this cycle.
    if (ctrl_wr_i && wdata_i[0] && !busy_d) begin
      active_d = 1'b1;
      busy_d = 1'b1;
      c_kind_mask_d = kind_mask_i;
      c_tap_d = tap_i;
      c_fmt_h_d = fmt_h_i;
      c_fmt_l_d = fmt_l_i;
      c_sync_period_d = sync_period_i;
      c_rate_h_d = rate_h_i;
      c_rate_l_d = rate_l_i;
      c_len_h_d = (len_h_i == '0 && len_l_i == '0) ? 40'hFF_FFFF_FFFF : len_h_i;
      c_len_l_d = len_l_i;
      dropped_d = '0;
      samples_d = '0;
      bytes_d = '0;
      overflowed_d = 1'b0;
      marker_lost_d = 1'b0;
      sync_pending_d = 1'b1;
      sync_seq_d = '0;
      sync_bytes_d = '0;
      drop_pending_d = '0;
      sect_pending_d = 1'b0;
      sect_switch_d = 1'b0;
      // first section: burst, or span when LEN_H = 0 (and LEN_L != 0)
      sec_span_d = (len_h_i == '0) && (len_l_i != '0);
      sec_fmt_d = sec_span_d ? fmt_l_i : fmt_h_i;
      sec_r_d = sec_span_d ? rate_l_i : rate_h_i;
      sec_start_d = t_q[47:0] + 48'd1;
      sec_left_d = sec_span_d ? len_l_i : ((len_h_i == '0) ? 40'hFF_FFFF_FFFF : len_h_i);
      sp_left_d = '0;
      int_open_d = 1'b0;
      int_idx_d = '0;
      next_idx_d = '0;
      enc_fmt_d = sec_fmt_d;
      rep_idx_d = '0;
      rep_cycle_d = t_q[47:0] + 48'd1;
      hold_valid_d = 1'b0;
      run_cnt_d = '0;
      hist_valid_d = '0;
      prev_valid_d = 1'b0;
    end else if (ctrl_wr_i && !wdata_i[0] && active_q) begin
      active_d = 1'b0;
      end_pending_d = 1'b1;
      int_open_d = 1'b0;
    end
    if (marker_wr_i && active_q) begin
      if (!marker_pending_d) begin
        marker_pending_d = 1'b1;
        marker_val_d = wdata_i;
      end else begin
        marker_lost_d = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      t_q <= '0;
      active_q <= 1'b0;           busy_q <= 1'b0;
      c_kind_mask_q <= 5'h1F;     c_tap_q <= 1'b0;
      c_fmt_h_q <= 2'd0;          c_fmt_l_q <= 2'd1;
      c_sync_period_q <= 14'd4096;
      c_rate_h_q <= 32'd24;       c_rate_l_q <= 32'd2048;
      c_len_h_q <= '0;            c_len_l_q <= '0;
      c_len_h_zero_q <= 1'b1;     c_len_l_zero_q <= 1'b1;
      sec_span_q <= 1'b0;         sec_fmt_q <= '0;          sec_r_q <= 32'd1;
      sec_start_q <= '0;          sec_left_q <= '0;         sp_left_q <= '0;
      sec_zero_q <= 1'b1;         sp_zero_q <= 1'b1;
      int_open_q <= 1'b0;         int_idx_q <= '0;          int_sp_q <= '0;
      next_idx_q <= '0;
      hold_valid_q <= 1'b0;       hold_after_q <= 1'b0;     hold_rw_q <= 1'b0;
      hold_a_q <= '0;             hold_idx_q <= '0;         hold_sp_q <= '0;
      sect_pending_q <= 1'b0;     sect_switch_q <= 1'b0;    sync_pending_q <= 1'b0;
      marker_pending_q <= 1'b0;   end_pending_q <= 1'b0;
      drop_pending_q <= '0;       marker_val_q <= '0;
      rep_idx_q <= '0;            rep_cycle_q <= '0;
      enc_fmt_q <= '0;
      hist_q <= '0;
      hist_valid_q <= '0;         prev_idx_q <= '0;         prev_rw_q <= 1'b0;
      prev_valid_q <= 1'b0;       run_cnt_q <= '0;
      sync_bytes_q <= '0;         sync_seq_q <= '0;
      dropped_q <= '0;            samples_q <= '0;          bytes_q <= '0;
      overflowed_q <= 1'b0;       marker_lost_q <= 1'b0;
    end else begin
      t_q <= t_q + 64'd1;
      active_q <= active_d;       busy_q <= busy_d;
      c_kind_mask_q <= c_kind_mask_d; c_tap_q <= c_tap_d;
      c_fmt_h_q <= c_fmt_h_d;     c_fmt_l_q <= c_fmt_l_d;
      c_sync_period_q <= c_sync_period_d;
      c_rate_h_q <= c_rate_h_d;   c_rate_l_q <= c_rate_l_d;
      c_len_h_q <= c_len_h_d;     c_len_l_q <= c_len_l_d;
      c_len_h_zero_q <= (c_len_h_d == '0);
      c_len_l_zero_q <= (c_len_l_d == '0);
      sec_span_q <= sec_span_d;   sec_fmt_q <= sec_fmt_d;   sec_r_q <= sec_r_d;
      sec_start_q <= sec_start_d; sec_left_q <= sec_left_d; sp_left_q <= sp_left_d;
      sec_zero_q <= (sec_left_d == '0);
      sp_zero_q <= (sp_left_d == '0);
      int_open_q <= int_open_d;   int_idx_q <= int_idx_d;   int_sp_q <= int_sp_d;
      next_idx_q <= next_idx_d;
      hold_valid_q <= hold_valid_d; hold_after_q <= hold_after_d; hold_rw_q <= hold_rw_d;
      hold_a_q <= hold_a_d;       hold_idx_q <= hold_idx_d; hold_sp_q <= hold_sp_d;
      sect_pending_q <= sect_pending_d; sect_switch_q <= sect_switch_d;
      sync_pending_q <= sync_pending_d;
      marker_pending_q <= marker_pending_d; end_pending_q <= end_pending_d;
      drop_pending_q <= drop_pending_d; marker_val_q <= marker_val_d;
      rep_idx_q <= rep_idx_d;     rep_cycle_q <= rep_cycle_d;
      enc_fmt_q <= enc_fmt_d;
      hist_q <= hist_d;           hist_valid_q <= hist_valid_d;
      prev_idx_q <= prev_idx_d;   prev_rw_q <= prev_rw_d;   prev_valid_q <= prev_valid_d;
      run_cnt_q <= run_cnt_d;
      sync_bytes_q <= sync_bytes_d; sync_seq_q <= sync_seq_d;
      dropped_q <= dropped_d;     samples_q <= samples_d;   bytes_q <= bytes_d;
      overflowed_q <= overflowed_d; marker_lost_q <= marker_lost_d;
    end
  end

  assign status_o  = {sec_span_q, 1'b0, marker_lost_q, marker_pending_q, overflowed_q,
                      (fifo_occ_i == '0), busy_q, active_q};
  assign dropped_o = dropped_q;
  assign samples_o = samples_q;
  assign bytes_o   = bytes_q;
  assign cycle_o   = t_q;
endmodule
