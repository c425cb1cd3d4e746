// mt_tu_fifo: the trace unit's output FIFO (docs/trace-unit.md sections 1 and 4.A/E).
//
// Packets go in from the end of the control block's pipeline through a write port of Lanes
// bytes (8, or 4 when the output port is at most 4 bytes wide): a packet of up to 16 bytes in
// 16 / Lanes clocks at most, its first bytes first (contract v4 chooses at most one packet every
// 5 clocks, so the port is free again before the next).  A packet is committed into the
// occupancy one cycle after its first write, so a committed byte is in block RAM by the time its
// row is read: no write-to-read bypass.  With 8 lanes the second half is written as the packet is
// committed and lies at least 8 bytes past the head (the drain takes at most 8); with 4 lanes
// chunk k (bytes 4k..4k+3) is written k - 1 cycles after the commit and read no earlier than
// k + 1 cycles after it (the drain takes at most 4 a clock).  Bytes come out at the head,
// min(occupancy, Drain) of them every clock.  The flags the
// arbitration uses (room for a packet with k packets in flight; at most half full after the
// drain) are compares of the registered occupancy against constants of the straps, so they sit
// at the head of the control path.
//
// Occupancy is counted in bytes against the build parameter Depth; the storage is Lanes byte-
// wide banks (byte i of the stream lives in bank i mod Lanes), so a write of up to Lanes bytes at
// any alignment writes each bank at most once and a drain of up to Lanes bytes reads each bank at
// most once.  Four lanes halve the write port's and the drain's rotators and the banks' address
// selects (the area of the minimal build, docs/trace-unit-rtl.md section 6).  Each bank keeps
// the rows of its next byte to write and to read (g_bank); bank reads are registered (block
// RAM), so the read row for cycle t is given in cycle t-1, after that cycle's drain.
//
// depth_i and drain_i are strap inputs (constants in a real top, which synthesis folds): the
// capacity counted against (<= Depth, the storage built) and the bytes drained per clock
// (<= Drain, the width of the output port).  The simulation library builds the largest unit and
// straps it at run time, so one Verilated model serves every (depth, drain) the C model accepts.
module mt_tu_fifo #(
  parameter int unsigned Depth = 4096,  // storage in bytes, 32..65536
  parameter int unsigned Drain = 8,     // output port width in bytes, 1..8
  localparam int unsigned Lanes = (Drain <= 4) ? 4 : 8,   // banks, and the write port's bytes
  localparam int unsigned LW = $clog2(Lanes),
  localparam int unsigned PhysBytes = (Depth <= 32) ? 32 : (1 << $clog2(Depth)),
  localparam int unsigned Rows = PhysBytes / Lanes,
  localparam int unsigned RW = $clog2(Rows),
  localparam int unsigned OccW = $clog2(Depth + 1)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [OccW-1:0]     depth_i,   // capacity, 32..Depth
  input  logic [4:0]          drain_i,   // bytes per clock, 1..Drain
  // Write port: wr_cnt_i (0..Lanes) bytes of a packet, byte 0 first, into the banks (the caller
  // has reserved room); commit port: a packet whose first bytes were written in the previous
  // cycle enters the occupancy.
  input  logic                wr_i,
  input  logic [3:0]          wr_cnt_i,
  input  logic [Lanes*8-1:0]  wr_data_i,
  input  logic                wr_next_i,      // wr_i and wr_cnt_i of the next cycle (the banks'
  input  logic [3:0]          wr_cnt_next_i,  // write enables are registered from them)
  input  logic                commit_i,
  input  logic [4:0]          commit_len_i,
  input  logic                commit_next_i,      // commit_i and commit_len_i of the next cycle
  input  logic [4:0]          commit_len_next_i,  // (the flags' addends are registered from them)
  // Occupancy at the start of this cycle; room_o: the space after this cycle's drain holds
  // 16 * (k + 1) bytes, a packet chosen now and the k packets in flight, where k is 1 if a packet
  // is committed in this cycle (inflight_i one cycle before: under contract v4 that is the only
  // packet that can be in flight in a cycle in which a packet can be chosen), else 0.
  input  logic                inflight_i,
  output logic [OccW-1:0]     occ_o,
  output logic                room_o,
  output logic                half_o,    // after this cycle's drain the FIFO is at most half full
  // This cycle's output: out_cnt_o bytes, byte 0 in out_data_o[7:0].
  output logic [4:0]          out_cnt_o,
  output logic [Drain*8-1:0]  out_data_o
);
  logic [OccW-1:0] occ_q, occ_d;
  // The pointers are kept only as far as the banks need them: the head's and the write
  // pointer's lanes (rp_lo_q, wp_lo_q: the pointers mod Lanes) and, per bank, the row of its next
  // byte to read and to write (rrow_q, wrow_q; below).
  logic [LW-1:0]   rp_lo_q, rp_lo_d, wp_lo_q, wp_lo_d;
  logic [4:0]      out_cnt;

  assign occ_o     = occ_q;
  assign out_cnt_o = out_cnt;

  // The flags are registered from the next occupancy, so that the arbitration starts from flip-
  // flops.  occ - min(occ, N) <= X  <=>  occ <= X + N  (for X >= 0).  (Reset: 0, which matters
  // in no cycle: nothing is chosen before a session starts, and the reset clocks them once.)
  logic room_q, half_q;
  logic [1:0] room_k;
  logic [OccW-1:0] occ_mn_q, occ_mn_d;   // occ - N (used when occ >= N), a register: a + c - N
  logic [OccW-1:0] a;
  logic [4:0]      c, c_next;
  logic [5:0]      c_mn;              // c - N, from 5-bit values (N is a strap)
  logic            ge_n_q, ge_n_d;  // occ >= N, a flip-flop (from the next occupancy)
  assign a      = ge_n_q ? occ_mn_q : '0;
  assign c      = commit_i ? commit_len_i : 5'd0;
  assign c_next = commit_next_i ? commit_len_next_i : 5'd0;
  assign c_mn   = {1'b0, c} - {1'b0, drain_i};
  assign occ_mn_d = a + {{(OccW - 6){c_mn[5]}}, c_mn};
  // A. Drain: min(occ, Drain) bytes leave.
  assign out_cnt = ge_n_q ? drain_i : 5'(occ_q);
  assign occ_d   = a + OccW'(c);
  // Each flag is "a + c <= x" for a constant x of the straps.  With W = OccW + 1 bits and
  // k = (2^W - 1 - x) + c, that is "a + k < 2^W" (a < 2^OccW and c < 32, so a + c < 2^W and
  // nothing wraps): the carry out of one adder.  k is a register, formed a cycle ahead from the
  // next commit (the pipeline's P3 takes PW's valid bit and length every cycle), and a is 0 or
  // occ - N, so each flag is one carry chain from flip-flops (occ_mn_q + k) and a select by
  // ge_n_q after it; a constant plus a 5-bit value, k has few distinct bits, which synthesis
  // shares between the flags.  (Until 2026-12-06 each flag kept its own x - (occ - N) as a
  // register and formed it with two more carry chains: about 60 flip-flops and 110 tables more;
  // docs/trace-unit-rtl.md section 6, "Area, 2026-12-06, third session".)
  localparam int unsigned NX = 4;   // room for one packet, for two, half full, occ < N
  localparam int unsigned W  = OccW + 1;
  logic [NX*W-1:0]     xk;          // x, W bits each (all >= 0: depth >= 32, N >= 1)
  logic [NX*(W+1)-1:0] kx_q, kx_d;  // (2^W - 1 - x) + c, W + 1 bits each
  logic [NX-1:0]       fit;         // a + c <= x
  assign xk[0*W +: W] = W'(depth_i) + W'(drain_i) - W'(16);
  assign xk[1*W +: W] = W'(depth_i) + W'(drain_i) - W'(32);
  assign xk[2*W +: W] = (W'(depth_i) >> 1) + W'(drain_i);
  assign xk[3*W +: W] = W'(drain_i) - W'(1);
  for (genvar k = 0; k < NX; k++) begin : g_fit
    logic [W:0] s;   // a + k, when a = occ - N
    assign kx_d[k*(W+1) +: W+1] = {1'b0, ~xk[k*W +: W]} + (W+1)'(c_next);
    assign s      = (W+1)'(occ_mn_q) + kx_q[k*(W+1) +: W+1];
    assign fit[k] = ge_n_q ? !s[W] : !kx_q[k*(W+1) + W];
  end
  for (genvar k = 0; k < 2; k++) begin : g_room
    assign room_k[k] = mt_tu_pkg::le17(17'(16 * (k + 1)), 17'(depth_i)) && fit[k];
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      room_q <= 1'b0;
      half_q <= 1'b0;
      ge_n_q <= 1'b0;
      kx_q   <= '0;   // (in the first cycle after a reset a = c = 0, and fit is 1 either way)
    end else begin
      half_q <= fit[2];
      ge_n_q <= ge_n_d;
      room_q <= inflight_i ? room_k[1] : room_k[0];
      kx_q   <= kx_d;
    end
  end
  assign ge_n_d = !fit[3];   // a + c > N - 1
  assign room_o = room_q;
  assign half_o = half_q;
  // The head moves by this cycle's drain, the write pointer by this cycle's write (both at most
  // Lanes bytes, so their lanes are all that a pointer's own adder needs: LW bits).
  assign rp_lo_d = rp_lo_q + LW'(out_cnt);
  assign wp_lo_d = wp_lo_q + (wr_i ? LW'(wr_cnt_i) : '0);
  logic unused_wcnt;   // (the count's bits above the lane: a write of Lanes bytes keeps the lane)
  assign unused_wcnt = ^wr_cnt_i[3:LW];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      occ_q <= '0;
      occ_mn_q <= '0;
      rp_lo_q <= '0;
      wp_lo_q <= '0;
    end else begin
      occ_q <= occ_d;
      occ_mn_q <= occ_mn_d;
      rp_lo_q <= rp_lo_d;
      wp_lo_q <= wp_lo_d;
    end
  end

  // Banks.
  logic [LW-1:0] wp_lo, rp_lo;
  assign wp_lo  = wp_lo_q;
  assign rp_lo  = rp_lo_q;

  // Lane b of a write at wp is byte (b - wp) mod Lanes of the write: rotate the bytes and their
  // mask left by wp_lo (explicit byte stages).  The mask is a register, formed a cycle ahead from
  // the next write (wr_next_i, wr_cnt_next_i) and the next pointer, so that the banks' write
  // enables come from flip-flops (the count's compare and the rotation are otherwise in front of
  // them).
  logic [Lanes*8-1:0] wrot;
  logic [Lanes-1:0]   wmask, wmask_q, wmask_d;
  always_comb begin
    logic [Lanes*8-1:0] d;
    logic [Lanes-1:0]   m;
    logic [LW-1:0]      nlo;
    d = wr_data_i;
    for (int s = 0; s < LW; s++)
      if (wp_lo[s]) d = (d << (8 << s)) | (d >> (Lanes * 8 - (8 << s)));
    wrot = d;
    nlo = wp_lo_d;
    for (int k = 0; k < Lanes; k++) m[k] = wr_next_i && (4'(k) < wr_cnt_next_i);
    for (int s = 0; s < LW; s++)
      if (nlo[s]) m = (m << (1 << s)) | (m >> (Lanes - (1 << s)));
    wmask_d = m;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) wmask_q <= '0;
    else wmask_q <= wmask_d;
  end
  assign wmask = wmask_q;

  logic [Lanes*8-1:0] lanes;   // bank outputs for this cycle's head rows, lane b = bank b

  // Each bank's rows as counters of its own (docs/trace-unit-rtl.md section 3, "The FIFO's rows
  // per bank"): byte p of the stream is in bank p mod Lanes at row p / Lanes, so the bytes of
  // bank b are read and written in the order of their rows, one row on per byte.  wrow_q[b] is
  // the row of bank b's first byte at or after the write pointer, rrow_q[b] the same at or after
  // the head (the read row applied in the last cycle: the block RAMs register their read
  // address).  A write or a drain takes at most Lanes consecutive bytes, at most one of each
  // bank, so a bank's row moves by one exactly when one of its bytes is written (wmask) or
  // drained (rd).  Until 2026-12-07 the rows were the pointer's row or the next, selected per
  // bank by its lane against the pointer's, from full-width write, head, head + N and commit
  // pointers and their next rows.
  logic [Lanes-1:0] rd;   // bank b gives a byte to this cycle's drain
  // (out_cnt is N when occ >= N, else occ, which is then below N <= Lanes: its lane bits.  So
  // rd is a table of ge_n_q, the head's lane and occ's lane bits, not a compare on a carry
  // chain in front of the row's adder: that compare, out_cnt's select and the adder were the
  // minimal build's worst path on two of three seeds at 43-44 MHz.)
  for (genvar b = 0; b < Lanes; b++) begin : g_rd
    logic [LW-1:0] pos;   // bank b's byte's place in the drain, (b - head) mod Lanes
    assign pos   = LW'(b) - rp_lo_q;
    assign rd[b] = ge_n_q ? (5'(pos) < drain_i) : (pos < occ_q[LW-1:0]);
  end
  for (genvar b = 0; b < Lanes; b++) begin : g_bank
    logic          we;
    logic [RW-1:0] waddr, raddr, wrow_q, rrow_q;
    logic [7:0]    wdata;

    assign we    = wmask[b];
    assign waddr = wrow_q;
    assign wdata = wrot[b*8 +: 8];
    assign raddr = rrow_q + RW'(rd[b]);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        wrow_q <= '0;
        rrow_q <= '0;
      end else begin
        wrow_q <= wrow_q + RW'(we);
        rrow_q <= raddr;
      end
    end

    mt_tu_ram #(.Depth(Rows), .Width(8)) u_ram (
      .clk_i,
      .we_i    (we),
      .waddr_i (waddr),
      .wdata_i (wdata),
      .raddr_i (raddr),
      .rdata_o (lanes[b*8 +: 8])
    );
  end

  // Output byte j is lane (rp_lo + j) mod Lanes: rotate the lanes right by rp_lo, the largest
  // step first, so that each later stage only forms the bytes the narrower output still needs.
  always_comb begin
    logic [Lanes*8-1:0] d;
    d = lanes;
    for (int s = LW - 1; s >= 0; s--)
      if (rp_lo[s]) d = (d >> (8 << s)) | (d << (Lanes * 8 - (8 << s)));
    out_data_o = d[Drain*8-1:0];
  end
endmodule
