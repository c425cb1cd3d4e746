// mt_tu_reduce: the reduce path's exact filter in hardware (docs/trace-unit-rtl.md "The reduce
// path"; the C model is lib/mt_unit_reduce.c, whose header gives the rule, the window and the
// clocks of every operation: this module takes those clocks, one RAM operation a clock).
//
// Accesses (one a clock) pass a front in flip-flops: a repeat of the last 4 KiB page does
// nothing, a settled alternation's step is remembered for a replay; the rest become references
// in a queue of Q.  The filter engine takes a reference when idle and, per size whose metapage
// it changes, walks the size's hash chain and recency list in block RAM (entries, links, chain
// links and buckets are separate memories addressed by global entry numbers; size i's entries
// are base_e[i] .. base_e[i] + k_i - 1, its buckets base_b[i] + h).  Every reference gets a slot
// of the W-slot window (data: cycle, page, R/W; A: mask and pend, read-modify-written by
// decisions; B: a copy of the mask for the release engine; `open`: a flip-flop per slot, some
// size undecided).  The release engine reads the oldest slot once it is decided, one a clock,
// and a slot with a mask leaves as a record.
//
// After reset, and after start_i (a session's start in the unit: every register as after reset,
// in the next clock), the bucket memory is cleared (one bucket a clock; ready_o low, accesses
// ignored).
// flush_i ends the session: once the queue is empty and the engine idle, a skipped step is
// replayed and every pending reference still in the window is kept; idle_o then rises.
module mt_tu_reduce #(
  parameter int unsigned LgKMax = 10,  // k_0 up to 2^LgKMax: budgets 4 KiB .. 4 KiB << LgKMax
  parameter int unsigned LgW    = 6,   // window slots W = 2^LgW
  parameter int unsigned LgQ    = 3,   // queue of references Q = 2^LgQ (LgQ >= 2: two banks)
  localparam int unsigned EW = LgKMax + 2,  // entry numbers (sum of k_i <= 2^(LgKMax+1) + 9)
  localparam int unsigned BW = LgKMax + 3,  // bucket numbers (2 per entry)
  localparam int unsigned SW = 48           // sequence numbers and cycles
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          start_i,        // start again (the unit's session start): as a reset
  input  logic [4:0]    lgk_i,          // log2 k_0 (budget 4 KiB << lgk_i), held from reset / start
  // Access port
  input  logic          acc_valid_i,
  input  logic [SW-1:0] acc_cycle_i,
  input  logic [55:0]   acc_addr_i,
  input  logic          acc_write_i,
  output logic          acc_taken_o,    // this clock's access was taken (else lost)
  input  logic          flush_i,
  output logic          ready_o,
  output logic          idle_o,
  // Records, in reference order
  output logic          rec_valid_o,
  output logic [SW-1:0] rec_cycle_o,
  output logic [43:0]   rec_page_o,
  output logic          rec_write_o,
  output logic [9:0]    rec_mask_o,
  // Counts (co-simulation): engine clocks of references, slots forced
  output logic [31:0]   clocks_o,
  output logic [31:0]   forced_o
);
  localparam int unsigned Sizes = 10;
  localparam int unsigned W = 1 << LgW;
  localparam int unsigned Q = 1 << LgQ;
  localparam logic [EW-1:0] Nil = '1;

  // ---- per-size constants of the session's budget --------------------------------------------
  // k_c, base_e, hmask_c and nbuckets are registers loaded in the clock lgk_q is loaded, with
  // the constants of the value it takes (lgk_n), and reset with it to those of 0: so at every
  // clock they are the function of lgk_q they name.  (Until 2026-12-06 they were that function
  // combinationally: a chain of ten adders from lgk_q into every bucket address, the path's
  // critical path on the HX8K, about 36 ns.)
  logic [4:0]    lgk_q, lgk_n;
  logic [EW-1:0] k_c     [Sizes], k_d [Sizes];
  logic [EW-1:0] base_e  [Sizes], base_e_d [Sizes];
  logic [BW-1:0] base_b  [Sizes];
  logic [17:0]   hmask_c [Sizes], hmask_d [Sizes];
  logic [BW-1:0] nbuckets, nbuckets_d;
  assign lgk_n = lgk_i > 5'(LgKMax) ? 5'(LgKMax) : lgk_i;
  always_comb begin
    logic [EW-1:0] acc;
    acc = '0;
    for (int i = 0; i < Sizes; i++) begin
      logic [4:0] kl;
      kl = (lgk_n > 5'(i)) ? lgk_n - 5'(i) : 5'd0;
      k_d[i] = EW'(1) << kl;
      hmask_d[i] = 18'((19'd2 << kl) - 19'd1);
      base_e_d[i] = acc;
      acc = acc + k_d[i];
    end
    nbuckets_d = {acc, 1'b0};
  end
  for (genvar i = 0; i < Sizes; i++) begin : g_base_b
    assign base_b[i] = {base_e[i], 1'b0};
  end

  function automatic logic [17:0] fold(input logic [43:0] p);
    fold = p[17:0] ^ p[35:18] ^ {10'd0, p[43:36]};
  endfunction

  // ---- memories (registered read; Verilator arrays, block RAM in synthesis) -------------------
  // entries: metapage, last, t1, pend; recency links; chain links; buckets
  logic            ent_we, ent_re;
  logic [EW-1:0]   ent_wa, ent_ra;
  logic [43:0]     ent_wpage, ent_rpage;
  logic [SW-1:0]   ent_wlast, ent_rlast, ent_wt1, ent_rt1;
  logic            ent_wpend, ent_rpend;
  logic            prv_we, nxt_we, hnx_we, bkt_we;
  logic [EW-1:0]   prv_wa, nxt_wa, hnx_wa, hnx_ra, prv_wd, nxt_wd, hnx_wd, prv_rd, nxt_rd, hnx_rd;
  logic [BW-1:0]   bkt_wa, bkt_ra;
  logic [EW-1:0]   bkt_wd, bkt_rd;
  // window: data (cycle, page, rw), A (mask, pend), B (mask)
  logic            sd_we, sa_we;
  logic [LgW-1:0]  sd_wa, sd_ra, sa_wa, sa_ra;
  logic [SW+44:0]  sd_wd, sd_rd;
  logic [19:0]     sa_wd, sa_rd;
  logic [9:0]      sb_rd;

  // The entries' {pend, metapage} and the buckets are single-port RAMs with the UP5K SPRAM's
  // behaviour (mt_tu_spram; three SB_SPRAM256KA and one in synthesis): the engine makes one entry
  // access and one bucket access a clock, never a read and a write of the same memory in one
  // clock, and uses a read's data only in the next clock (the states after a read: StCmp, StTd,
  // StFlD for the entry, StLook, StDel1, StRed for the bucket), so a read port shared with the
  // write port, and an output undefined after a write, change no clock (docs/trace-unit-rtl.md
  // "The reduce path", *SPRAM*).  The rest stay block RAM: last and t1 (96 bits, more than the
  // fourth SPRAM's 16), the links (a write and a read of different rows in one clock).
  logic [SW-1:0] m_last [2**EW];
  logic [SW-1:0] m_t1   [2**EW];
  logic [EW-1:0] m_prv  [2**EW];
  logic [EW-1:0] m_nxt  [2**EW];
  logic [EW-1:0] m_hnx  [2**EW];
  logic [SW+44:0] m_sd  [W];
  logic [19:0]   m_sa   [W];
  logic [9:0]    m_sb   [W];
  mt_tu_spram #(.Depth(2**EW), .Width(45)) u_ent_sp (
    .clk_i,
    .re_i    (ent_re),
    .we_i    (ent_we),
    .addr_i  (ent_we ? ent_wa : ent_ra),
    .wdata_i ({ent_wpend, ent_wpage}),
    .rdata_o ({ent_rpend, ent_rpage})
  );
  mt_tu_spram #(.Depth(2**BW), .Width(EW)) u_bkt_sp (
    .clk_i,
    .re_i    (1'b1),   // (read every clock, as before: bkt_ra is 0 when nothing is looked up)
    .we_i    (bkt_we),
    .addr_i  (bkt_we ? bkt_wa : bkt_ra),
    .wdata_i (bkt_wd),
    .rdata_o (bkt_rd)
  );
  always_ff @(posedge clk_i) begin
    if (ent_we) begin
      m_last[ent_wa] <= ent_wlast;
      m_t1[ent_wa]   <= ent_wt1;
    end
    if (ent_re) begin  // held otherwise: the entry read stays on the outputs
      ent_rlast <= m_last[ent_ra];
      ent_rt1   <= m_t1[ent_ra];
      prv_rd    <= m_prv[ent_ra];
      nxt_rd    <= m_nxt[ent_ra];
    end
    if (prv_we) m_prv[prv_wa] <= prv_wd;
    if (nxt_we) m_nxt[nxt_wa] <= nxt_wd;
    if (hnx_we) m_hnx[hnx_wa] <= hnx_wd;
    hnx_rd <= m_hnx[hnx_ra];
    if (sd_we) m_sd[sd_wa] <= sd_wd;
    sd_rd <= m_sd[sd_ra];
    if (sa_we) begin
      m_sa[sa_wa] <= sa_wd;
      m_sb[sa_wa] <= sa_wd[19:10];
    end
    sa_rd <= m_sa[sa_ra];
    sb_rd <= m_sb[sd_ra];
  end

  // ---- state -----------------------------------------------------------------------------------
  typedef enum logic [4:0] {
    StClr, StIdle, StFwr, StBegin, StLook, StCmp, StHdec, StHl, StHnp, StHpush, StHprev,
    StTd, StTdec, StDel0, StDel1, StDel2, StUnl, StRe, StRed, StPush, StFlRd, StFlD, StFlW, StDone
  } st_e;
  st_e st_q, st_d;

  // per size: entries in use, list ends, E
  logic [EW-1:0] n_q [Sizes];
  logic [EW-1:0] head_q [Sizes];
  logic [EW-1:0] tail_q [Sizes];
  logic [SW-1:0] evl_q [Sizes];
  // the reference in progress (latched at its pop)
  logic [SW-1:0] seq_q, rcyc_q;
  logic [43:0]   rpage_q;
  logic          rrw_q;
  logic [3:0]    nsz_q, size_q, bsize_q;
  logic [9:0]    cmask_q, cpend_q;
  logic [EW-1:0] e_q, bkt0_q, j_q;
  logic [SW-1:0] t1k_q;
  // the entry in hand (latched from the entry read)
  logic [43:0]   x_page_q;
  logic [SW-1:0] x_last_q, x_t1_q;
  logic          x_pend_q;
  logic [EW-1:0] x_prv_q, x_nxt_q, x_hnx_q;
  logic [W-1:0]  open_q;
  logic [BW-1:0] clr_q;
  logic [EW-1:0] fl_j_q;
  logic          flushing_q;
  logic [LgW:0]  rel_q;   // the release engine's slot: seq - rel <= W, so LgW + 1 bits tell them apart
  logic          out_v_q;
  logic [31:0]   clocks_q, forced_q;

  // ---- the front and the queue ---------------------------------------------------------------
  logic           last_v_q, prev_v_q, skip_v_q, skip_rw_q, alt_ok_q;
  logic [43:0]    last_q, prev_q, skip_page_q;
  logic [SW-1:0]  skip_cyc_q;
  logic [1:0]     alt_q;
  logic [LgQ:0]   qn_q;
  logic [LgQ-1:0] qh_q;

  logic          pop;
  logic [43:0]   apage;
  logic          rep, step, ok, skip, taken, take;
  logic [1:0]    need;
  logic [LgQ:0]  room;
  assign ready_o = st_q != StClr;
  assign apage = acc_addr_i[55:12];
  assign pop   = st_q == StIdle && qn_q != '0;
  assign room  = (LgQ+1)'(Q) - qn_q + {{LgQ{1'b0}}, pop};
  always_comb begin
    rep  = last_v_q && apage == last_q;
    step = prev_v_q && apage == prev_q;
    // a size with one entry (i >= lgk) that tells the pages apart forbids the skip
    ok   = step && ((alt_q == 2'd0) ? (lgk_q >= 5'd10 || ((apage ^ last_q) >> lgk_q) == 44'd0)
                                    : alt_ok_q);
    skip = step && ok && alt_q >= 2'd2;
    need = skip ? 2'd0 : 2'd1 + {1'b0, skip_v_q};
    taken = rep || (LgQ+1)'(need) <= room;
  end
  assign acc_taken_o = taken;
  assign take = acc_valid_i && ready_o && !flushing_q && !rep && taken;

  // ---- the reference's views: the queue's head in its pop clock, the latches after ------------
  logic [SW+44:0] qhead;
  logic [43:0]    lref_q, rp, qdiff;
  logic           lref_v_q, rrw;
  logic [SW-1:0]  rcyc;
  logic [3:0]     qn_sizes, nsz;
  logic [9:0]     cmask, cpend;
  // The queue's entries {cycle, page, rw} are in block RAM, two banks by the index's low bit (a
  // clock pushes at most two entries, at consecutive indices: one in each bank), with the head
  // read a clock ahead as the unit's record queue's (mt_tu_rdpath): each clock both banks are
  // read at the next clock's head row (qh_d), so the head is a RAM output register; when the
  // entry pushed in a clock is the next clock's head (the queue empty after this clock's pop) the
  // RAM gives the old row and the head comes from a register of the pushed entry (qbyp_q).
  // (Until 2026-12-06 Q entries of flip-flops with a Q-way select at the head and two write
  // ports: about 800 SB_LUT4 of the path's 5 805 at Q = 8, docs/trace-unit-rtl.md "The reduce
  // path", Area.)
  localparam int unsigned QE = SW + 45;
  logic [LgQ-1:0] qh_d, qw0, qw1;
  logic           qwe0, qwe1, qsel_q, qbyp_q, qbyp_d;
  logic [QE-1:0]  qwd0, qwd1, qbank [2], qbyp_data_q;
  logic [LgQ:0]   qn_d;
  assign qhead = qbyp_q ? qbyp_data_q : qbank[qsel_q];
  assign qdiff = lref_v_q ? qhead[44:1] ^ lref_q : '1;
  always_comb begin
    qn_sizes = 4'd0;
    for (int b = 0; b < Sizes; b++)
      if (qdiff[b]) qn_sizes = 4'(b + 1);
    if (qdiff[43:Sizes] != '0) qn_sizes = 4'(Sizes);
  end
  assign rp    = st_q == StIdle ? qhead[44:1] : rpage_q;
  assign rcyc  = st_q == StIdle ? qhead[SW+44:45] : rcyc_q;
  assign rrw   = st_q == StIdle ? qhead[0] : rrw_q;
  assign nsz   = st_q == StIdle ? qn_sizes : nsz_q;
  assign cmask = st_q == StIdle ? 10'd0 : cmask_q;
  assign cpend = st_q == StIdle ? 10'd0 : cpend_q;

  // the entry in hand: the RAM's outputs in the clock after its read, else the latches
  logic          fresh;
  logic [43:0]   xs_page;
  logic [SW-1:0] xs_last, xs_t1;
  logic          xs_pend;
  logic [EW-1:0] xs_prv, xs_nxt, xs_hnx;
  assign fresh   = st_q == StCmp || st_q == StTd || st_q == StFlD;
  assign xs_page = fresh ? ent_rpage : x_page_q;
  assign xs_last = fresh ? ent_rlast : x_last_q;
  assign xs_t1   = fresh ? ent_rt1 : x_t1_q;
  assign xs_pend = fresh ? ent_rpend : x_pend_q;
  assign xs_prv  = fresh ? prv_rd : x_prv_q;
  assign xs_nxt  = fresh ? nxt_rd : x_nxt_q;
  assign xs_hnx  = fresh ? hnx_rd : x_hnx_q;

  // the size being worked on, and the one a begin starts
  logic [3:0]    si, bs;
  logic [43:0]   sp, bp;
  logic [9:0]    sbit;
  logic [BW-1:0] sbkt, bbkt, xbkt;
  logic          xforced;   // the entry's pending reference left the window (forced: kept)
  assign si   = size_q;
  assign sp   = rpage_q >> si;
  assign sbit = 10'd1 << si;
  assign sbkt = base_b[si] + BW'(fold(sp) & hmask_c[si]);
  assign xbkt = base_b[si] + BW'(fold(x_page_q) & hmask_c[si]);
  assign xforced = seq_q - xs_last >= SW'(W);

  // ---- the engine's clock: one RAM operation ---------------------------------------------------
  logic          go_begin, go_hitl, go_miss, go_del, go_re, go_hpush;
  logic          keep_now, t1_set, ref_done, x_latch, fl_next;
  logic [EW-1:0] e_set, bkt0;
  logic          e_load, n_inc, head_set, tail_set, both_nil, evl_up;
  logic [EW-1:0] head_val, tail_val;
  logic [SW-1:0] t1_val;
  assign bkt0 = st_q == StLook ? bkt_rd : bkt0_q;
  assign bs   = st_q == StIdle ? 4'd0 : bsize_q;  // the begins: a pop's, StBegin's
  assign bp   = rp >> bs;
  assign bbkt = base_b[bs] + BW'(fold(bp) & hmask_c[bs]);

  always_comb begin
    st_d = st_q;
    ent_we = 1'b0; ent_re = 1'b0; ent_wa = '0; ent_ra = '0;
    ent_wpage = '0; ent_wlast = '0; ent_wt1 = '0; ent_wpend = 1'b0;
    prv_we = 1'b0; prv_wa = '0; prv_wd = '0;
    nxt_we = 1'b0; nxt_wa = '0; nxt_wd = '0;
    hnx_we = 1'b0; hnx_wa = '0; hnx_wd = '0; hnx_ra = '0;
    bkt_we = 1'b0; bkt_wa = '0; bkt_wd = '0; bkt_ra = '0;
    sd_we = 1'b0; sd_wa = '0; sd_wd = '0;
    sa_we = 1'b0; sa_wa = '0; sa_wd = '0; sa_ra = '0;
    go_begin = 1'b0; go_hitl = 1'b0; go_miss = 1'b0; go_del = 1'b0; go_re = 1'b0;
    go_hpush = 1'b0; keep_now = 1'b0; t1_set = 1'b0; t1_val = xs_t1; ref_done = 1'b0;
    x_latch = fresh; fl_next = 1'b0;
    e_load = 1'b0; e_set = e_q; n_inc = 1'b0; evl_up = 1'b0;
    head_set = 1'b0; head_val = e_q; tail_set = 1'b0; tail_val = e_q;
    both_nil = 1'b0;
    unique case (st_q)
      StClr: begin
        bkt_we = 1'b1; bkt_wa = clr_q; bkt_wd = Nil;
        if (clr_q + 1'b1 == nbuckets) st_d = StIdle;
      end
      StIdle: begin
        if (pop) begin
          if (open_q[seq_q[LgW-1:0]]) begin  // the window is full: its oldest slot is forced
            sa_ra = seq_q[LgW-1:0];
            st_d = StFwr;
          end else begin
            go_begin = 1'b1;
          end
        end else if (flushing_q && !skip_v_q) begin
          st_d = StFlRd;
        end
      end
      StFwr: begin
        sa_we = 1'b1; sa_wa = seq_q[LgW-1:0]; sa_wd = {sa_rd[19:10] | sa_rd[9:0], 10'd0};
        st_d = StBegin;
      end
      StBegin: go_begin = 1'b1;
      StLook: begin  // the bucket's data
        if (bkt_rd == Nil) go_miss = 1'b1;
        else begin
          ent_re = 1'b1; ent_ra = bkt_rd; hnx_ra = bkt_rd; e_load = 1'b1; e_set = bkt_rd;
          st_d = StCmp;
        end
      end
      StCmp: begin  // the entry's data
        if (ent_rpage == sp) begin  // a hit
          if (ent_rpend && !xforced) begin
            sa_ra = ent_rlast[LgW-1:0];
            st_d = StHdec;
          end else begin
            go_hitl = 1'b1;
            if (ent_rpend) begin t1_set = 1'b1; t1_val = ent_rlast; end  // forced out: kept
          end
        end else if (hnx_rd == Nil) go_miss = 1'b1;
        else begin
          ent_re = 1'b1; ent_ra = hnx_rd; hnx_ra = hnx_rd; e_load = 1'b1; e_set = hnx_rd;
        end
      end
      StHdec: begin  // slot A of the pending reference: kept iff k distinct others since t1
        keep_now = evl_q[si] > x_t1_q;
        sa_we = 1'b1; sa_wa = x_last_q[LgW-1:0];
        sa_wd = {sa_rd[19:10] | (keep_now ? sbit : 10'd0), sa_rd[9:0] & ~sbit};
        if (keep_now) begin t1_set = 1'b1; t1_val = x_last_q; end
        st_d = StHl;
      end
      StHl: go_hitl = 1'b1;
      StHnp: begin
        if (x_nxt_q != Nil) begin
          prv_we = 1'b1; prv_wa = x_nxt_q; prv_wd = x_prv_q;
          st_d = StHpush;
        end else begin
          tail_set = 1'b1; tail_val = x_prv_q;
          go_hpush = 1'b1;
        end
      end
      StHpush: go_hpush = 1'b1;
      StHprev: begin
        prv_we = 1'b1; prv_wa = head_q[si]; prv_wd = e_q;
        head_set = 1'b1; head_val = e_q;
        st_d = StBegin;
      end
      StTd: begin  // the tail's data: E, and its pending reference kept
        evl_up = 1'b1;
        if (ent_rpend && !xforced) begin
          sa_ra = ent_rlast[LgW-1:0];
          st_d = StTdec;
        end else go_del = 1'b1;
      end
      StTdec: begin
        sa_we = 1'b1; sa_wa = x_last_q[LgW-1:0];
        sa_wd = {sa_rd[19:10] | sbit, sa_rd[9:0] & ~sbit};
        st_d = StDel0;
      end
      StDel0: go_del = 1'b1;
      StDel1: begin  // the bucket of the tail's metapage
        if (bkt_rd == e_q) begin
          bkt_we = 1'b1; bkt_wa = xbkt; bkt_wd = x_hnx_q;
          st_d = StUnl;
        end else begin
          hnx_ra = bkt_rd;
          st_d = StDel2;
        end
      end
      StDel2: begin  // the chain link of j_q
        if (hnx_rd == e_q) begin
          hnx_we = 1'b1; hnx_wa = j_q; hnx_wd = x_hnx_q;
          st_d = StUnl;
        end else hnx_ra = hnx_rd;
      end
      StUnl: begin
        if (x_prv_q != Nil) begin
          nxt_we = 1'b1; nxt_wa = x_prv_q; nxt_wd = Nil;
          tail_set = 1'b1; tail_val = x_prv_q;
          st_d = StRe;
        end else begin
          both_nil = 1'b1;
          go_re = 1'b1;
        end
      end
      StRe: go_re = 1'b1;
      StRed: begin  // the bucket again: the new entry heads its chain
        bkt_we = 1'b1; bkt_wa = sbkt; bkt_wd = e_q;
        hnx_we = 1'b1; hnx_wa = e_q; hnx_wd = bkt_rd;
        st_d = StPush;
      end
      StPush: begin
        ent_we = 1'b1; ent_wa = e_q;
        ent_wpage = sp; ent_wlast = seq_q; ent_wt1 = seq_q; ent_wpend = 1'b0;
        prv_we = 1'b1; prv_wa = e_q; prv_wd = Nil;
        nxt_we = 1'b1; nxt_wa = e_q; nxt_wd = head_q[si];
        if (head_q[si] != Nil) st_d = StHprev;
        else begin
          head_set = 1'b1; tail_set = 1'b1;
          st_d = StBegin;
        end
      end
      StFlRd: begin
        if (fl_j_q == n_q[si]) begin
          fl_next = 1'b1;
          if (si == 4'(Sizes - 1)) st_d = StDone;
        end else begin
          ent_re = 1'b1; ent_ra = base_e[si] + fl_j_q;
          st_d = StFlD;
        end
      end
      StFlD: begin  // between references a slot was forced iff seq - last > W
        if (ent_rpend && seq_q - ent_rlast <= SW'(W)) begin
          sa_ra = ent_rlast[LgW-1:0];
          st_d = StFlW;
        end else st_d = StFlRd;
      end
      StFlW: begin
        sa_we = 1'b1; sa_wa = x_last_q[LgW-1:0];
        sa_wd = {sa_rd[19:10] | sbit, sa_rd[9:0] & ~sbit};
        st_d = StFlRd;
      end
      StDone: ;
      default: st_d = StIdle;
    endcase

    // a size's work starts: its bucket, or (after the last size) the slot's write
    if (go_begin) begin
      if (bs < nsz) begin
        bkt_ra = bbkt;
        st_d = StLook;
      end else begin
        sd_we = 1'b1; sd_wa = seq_q[LgW-1:0]; sd_wd = {rcyc, rp, rrw};
        sa_we = 1'b1; sa_wa = seq_q[LgW-1:0]; sa_wd = {cmask, cpend};
        ref_done = 1'b1;
        st_d = StIdle;
      end
    end
    // a hit's list move: its own write when it is the head, else the unlink's first write
    if (go_hitl) begin
      if (head_q[si] == e_q) begin
        ent_we = 1'b1; ent_wa = e_q;
        ent_wpage = sp; ent_wlast = seq_q; ent_wt1 = st_q == StCmp ? (t1_set ? t1_val : ent_rt1) : t1k_q;
        ent_wpend = 1'b1;
        st_d = StBegin;
      end else begin
        nxt_we = 1'b1; nxt_wa = xs_prv; nxt_wd = xs_nxt;
        st_d = StHnp;
      end
    end
    if (go_hpush) begin
      ent_we = 1'b1; ent_wa = e_q;
      ent_wpage = sp; ent_wlast = seq_q; ent_wt1 = t1k_q; ent_wpend = 1'b1;
      prv_we = 1'b1; prv_wa = e_q; prv_wd = Nil;
      nxt_we = 1'b1; nxt_wa = e_q; nxt_wd = head_q[si];
      st_d = StHprev;
    end
    // a miss: the tail's read when the filter is full, else a new entry heads its chain
    if (go_miss) begin
      if (n_q[si] == k_c[si]) begin
        ent_re = 1'b1; ent_ra = tail_q[si]; hnx_ra = tail_q[si];
        e_load = 1'b1; e_set = tail_q[si];
        st_d = StTd;
      end else begin
        e_load = 1'b1; e_set = base_e[si] + n_q[si];
        n_inc = 1'b1;
        bkt_we = 1'b1; bkt_wa = sbkt; bkt_wd = e_set;
        hnx_we = 1'b1; hnx_wa = e_set; hnx_wd = bkt0;
        st_d = StPush;
      end
    end
    if (go_del) begin
      bkt_ra = base_b[si] + BW'(fold(xs_page) & hmask_c[si]);
      st_d = StDel1;
    end
    if (go_re) begin
      bkt_ra = sbkt;
      st_d = StRed;
    end
  end

  // the t1 a hit's entry gets (latched for the push)
  logic [SW-1:0] t1k_d;
  assign t1k_d = t1_set ? t1_val : xs_t1;  // (in StCmp and StHdec, where a hit's t1 is known)

  // ---- the release engine: the oldest decided slot, one a clock -------------------------------
  logic rel_go;
  // rel <= seq <= rel + W (a reference takes slot seq mod W only once slot seq - W has left,
  // forced if need be; the model's seq - whead <= W): so rel != seq iff they differ mod 2W.
  assign rel_go = rel_q != seq_q[LgW:0] && !open_q[rel_q[LgW-1:0]];
  assign sd_ra = rel_q[LgW-1:0];
  assign rec_valid_o = out_v_q && sb_rd != 10'd0;
  assign rec_cycle_o = sd_rd[SW+44:45];
  assign rec_page_o  = sd_rd[44:1];
  assign rec_write_o = sd_rd[0];
  assign rec_mask_o  = sb_rd;
  assign idle_o = st_q == StDone && !rel_go && !out_v_q;
  assign clocks_o = clocks_q;
  assign forced_o = forced_q;

  // ---- the queue's pushes: behind the entries of the last clock (a pop frees the head only) ----
  always_comb begin
    qw0 = qh_q + qn_q[LgQ-1:0];
    qw1 = qw0 + 1'b1;
    qwe0 = 1'b0; qwe1 = 1'b0;
    qwd0 = {acc_cycle_i, apage, acc_write_i};
    qwd1 = {acc_cycle_i, apage, acc_write_i};
    qn_d = qn_q - {{LgQ{1'b0}}, pop};
    if (start_i || (take && skip)) begin
      // (a session's start pushes nothing; a skipped step waits in skip_*)
    end else if (take) begin
      qwe0 = 1'b1;
      if (skip_v_q) begin  // the replayed step, then the access
        qwd0 = {skip_cyc_q, skip_page_q, skip_rw_q};
        qwe1 = 1'b1;
        qn_d = qn_d + (LgQ+1)'(2);
      end else qn_d = qn_d + 1'b1;
    end else if (flushing_q && skip_v_q && st_q == StIdle && !pop) begin
      qwe0 = 1'b1;
      qwd0 = {skip_cyc_q, skip_page_q, skip_rw_q};
      qn_d = qn_d + 1'b1;
    end
  end
  assign qh_d   = start_i ? '0 : qh_q + {{(LgQ-1){1'b0}}, pop};
  assign qbyp_d = (qwe0 && qw0 == qh_d) || (qwe1 && qw1 == qh_d);
  for (genvar b = 0; b < 2; b++) begin : g_qbank
    logic           we;
    logic [LgQ-2:0] wa;
    logic [QE-1:0]  wd;
    assign we = (qwe0 && qw0[0] == 1'(b)) || (qwe1 && qw1[0] == 1'(b));
    assign wa = qwe0 && qw0[0] == 1'(b) ? qw0[LgQ-1:1] : qw1[LgQ-1:1];
    assign wd = qwe0 && qw0[0] == 1'(b) ? qwd0 : qwd1;
    // block RAM though it is small (yosys would make Q/2 rows flip-flops and a select); a read of
    // the row being written is never used (the bypass takes it)
    (* ram_style = "block", no_rw_check *) logic [QE-1:0] mem [Q / 2];
    always_ff @(posedge clk_i) begin
      if (we) mem[wa] <= wd;
      qbank[b] <= mem[qh_d[LgQ-1:1]];
    end
  end

  // ---- registers -------------------------------------------------------------------------------
  logic ref_clock;
  assign ref_clock = pop || !(st_q == StClr || st_q == StIdle || st_q == StFlRd || st_q == StFlD ||
                              st_q == StFlW || st_q == StDone);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= StClr;
      lgk_q <= '0;
      for (int i = 0; i < Sizes; i++) begin   // the constants of lgk_q = 0
        k_c[i] <= EW'(1); base_e[i] <= EW'(i); hmask_c[i] <= 18'd1;
      end
      nbuckets <= BW'(2 * Sizes);
      clr_q <= '0;
      for (int i = 0; i < Sizes; i++) begin
        n_q[i] <= '0; head_q[i] <= Nil; tail_q[i] <= Nil; evl_q[i] <= '0;
      end
      seq_q <= SW'(1); rel_q <= (LgW+1)'(1); out_v_q <= 1'b0;
      rcyc_q <= '0; rpage_q <= '0; rrw_q <= 1'b0; nsz_q <= '0; size_q <= '0; bsize_q <= '0;
      cmask_q <= '0; cpend_q <= '0; e_q <= '0; bkt0_q <= '0; j_q <= '0; t1k_q <= '0;
      x_page_q <= '0; x_last_q <= '0; x_t1_q <= '0; x_pend_q <= 1'b0;
      x_prv_q <= '0; x_nxt_q <= '0; x_hnx_q <= '0;
      open_q <= '0; fl_j_q <= '0; flushing_q <= 1'b0;
      clocks_q <= '0; forced_q <= '0;
      last_v_q <= 1'b0; prev_v_q <= 1'b0; skip_v_q <= 1'b0; skip_rw_q <= 1'b0; alt_ok_q <= 1'b0;
      last_q <= '0; prev_q <= '0; skip_page_q <= '0; skip_cyc_q <= '0; alt_q <= '0;
      qn_q <= '0; qh_q <= '0; qsel_q <= 1'b0; qbyp_q <= 1'b0; qbyp_data_q <= '0;
      lref_q <= '0; lref_v_q <= 1'b0;
    end else if (start_i) begin  // a session's start: as the reset (the memories are not cleared
      // but the buckets, in StClr)
      st_q <= StClr;
      lgk_q <= '0;
      for (int i = 0; i < Sizes; i++) begin   // the constants of lgk_q = 0
        k_c[i] <= EW'(1); base_e[i] <= EW'(i); hmask_c[i] <= 18'd1;
      end
      nbuckets <= BW'(2 * Sizes);
      clr_q <= '0;
      for (int i = 0; i < Sizes; i++) begin
        n_q[i] <= '0; head_q[i] <= Nil; tail_q[i] <= Nil; evl_q[i] <= '0;
      end
      seq_q <= SW'(1); rel_q <= (LgW+1)'(1); out_v_q <= 1'b0;
      rcyc_q <= '0; rpage_q <= '0; rrw_q <= 1'b0; nsz_q <= '0; size_q <= '0; bsize_q <= '0;
      cmask_q <= '0; cpend_q <= '0; e_q <= '0; bkt0_q <= '0; j_q <= '0; t1k_q <= '0;
      x_page_q <= '0; x_last_q <= '0; x_t1_q <= '0; x_pend_q <= 1'b0;
      x_prv_q <= '0; x_nxt_q <= '0; x_hnx_q <= '0;
      open_q <= '0; fl_j_q <= '0; flushing_q <= 1'b0;
      clocks_q <= '0; forced_q <= '0;
      last_v_q <= 1'b0; prev_v_q <= 1'b0; skip_v_q <= 1'b0; skip_rw_q <= 1'b0; alt_ok_q <= 1'b0;
      last_q <= '0; prev_q <= '0; skip_page_q <= '0; skip_cyc_q <= '0; alt_q <= '0;
      qn_q <= '0; qh_q <= '0; qsel_q <= 1'b0; qbyp_q <= 1'b0; qbyp_data_q <= '0;
      lref_q <= '0; lref_v_q <= 1'b0;
    end else begin
      st_q <= st_d;
      if (st_q == StClr) begin
        lgk_q <= lgk_n;
        for (int i = 0; i < Sizes; i++) begin
          k_c[i] <= k_d[i]; base_e[i] <= base_e_d[i]; hmask_c[i] <= hmask_d[i];
        end
        nbuckets <= nbuckets_d;
        clr_q <= clr_q + 1'b1;
      end
      if (ref_clock) clocks_q <= clocks_q + 1;
      // the reference popped
      qh_q <= qh_d;
      qsel_q <= qh_d[0];
      qbyp_q <= qbyp_d;
      qbyp_data_q <= qwe0 && qw0 == qh_d ? qwd0 : qwd1;
      if (pop) begin
        rcyc_q <= qhead[SW+44:45]; rpage_q <= qhead[44:1]; rrw_q <= qhead[0];
        nsz_q <= qn_sizes; cmask_q <= '0; cpend_q <= '0;
        lref_q <= qhead[44:1]; lref_v_q <= 1'b1;
        if (open_q[seq_q[LgW-1:0]]) forced_q <= forced_q + 1;
      end
      if (st_q == StIdle && pop && open_q[seq_q[LgW-1:0]]) bsize_q <= 4'd0;
      if (go_begin && bs < nsz) size_q <= bs;
      if (st_d == StBegin && st_q != StIdle && st_q != StFwr) bsize_q <= size_q + 4'd1;
      if (ref_done) seq_q <= seq_q + 1'b1;
      if (sa_we) open_q[sa_wa] <= sa_wd[9:0] != 10'd0;
      if (st_q == StLook) bkt0_q <= bkt_rd;
      if (e_load) e_q <= e_set;
      if (st_q == StDel1 && bkt_rd != e_q) j_q <= bkt_rd;
      if (st_q == StDel2 && hnx_rd != e_q) j_q <= hnx_rd;
      if (x_latch || st_q == StFlD) begin
        x_page_q <= ent_rpage; x_last_q <= ent_rlast; x_t1_q <= ent_rt1; x_pend_q <= ent_rpend;
        x_prv_q <= prv_rd; x_nxt_q <= nxt_rd; x_hnx_q <= hnx_rd;
      end
      if (st_q == StCmp || st_q == StHdec) t1k_q <= t1k_d;
      if (go_hitl && st_q == StCmp) cpend_q <= cpend_q | sbit;
      if (go_hitl && st_q == StHl) cpend_q <= cpend_q | sbit;
      if (go_miss) cmask_q <= cmask_q | sbit;
      if (n_inc) n_q[si] <= n_q[si] + 1'b1;
      if (evl_up && ent_rlast > evl_q[si]) evl_q[si] <= ent_rlast;
      if (head_set) head_q[si] <= head_val;
      if (tail_set) tail_q[si] <= tail_val;
      if (both_nil) begin head_q[si] <= Nil; tail_q[si] <= Nil; end
      // the flush walk
      if (st_q == StIdle && !pop && flushing_q && !skip_v_q) begin size_q <= '0; fl_j_q <= '0; end
      if (st_q == StFlRd && fl_j_q != n_q[si]) fl_j_q <= fl_j_q + 1'b1;
      if (fl_next) begin size_q <= size_q + 4'd1; fl_j_q <= '0; end
      // the release engine
      out_v_q <= rel_go;
      if (rel_go) rel_q <= rel_q + 1'b1;
      // the front: a taken access, the queue's pushes; the flush's replay
      if (flush_i && st_q == StIdle && !pop && !flushing_q) flushing_q <= 1'b1;
      if (take) begin
        alt_q <= step ? (alt_q == 2'd3 ? 2'd3 : alt_q + 2'd1) : 2'd0;
        if (step) alt_ok_q <= ok;
        prev_v_q <= last_v_q; prev_q <= last_q;
        last_v_q <= 1'b1; last_q <= apage;
      end
      if (take && skip) begin
        skip_v_q <= 1'b1; skip_cyc_q <= acc_cycle_i; skip_page_q <= apage;
        skip_rw_q <= acc_write_i;
      end else if (take || (flushing_q && skip_v_q && st_q == StIdle && !pop)) begin
        skip_v_q <= 1'b0;
      end
      qn_q <= qn_d;
    end
  end

  // (the kept counts and the access counter are the model's; the shape's spare bits)
  logic unused_bits;
  assign unused_bits = ^{acc_addr_i[11:0], xs_pend, xs_hnx, xs_last};
endmodule
