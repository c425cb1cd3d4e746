// mt_tu_fifo: the trace unit's output FIFO (docs/trace-unit.md sections 1 and 4.A/E).
//
// Packets go in whole, up to 16 bytes and one packet per clock, from the end of the control
// block's pipeline, in two steps: the bytes are written into the banks (write port) one cycle
// before the packet is committed into the occupancy (commit port), so every committed byte is
// in block RAM by the time its row is read: no write-to-read bypass.  Bytes come out at the head,
// min(occupancy, Drain) of them every clock.  The flags the arbitration uses (room for a packet
// with k packets in flight; at most half full after the drain) are compares of the registered
// occupancy against constants of the straps, so they sit at the head of the control path.
//
// Occupancy is counted in bytes against the build parameter Depth; the storage is 16 byte-wide
// banks (byte i of the stream lives in bank i mod 16), so a packet of any alignment writes each
// bank at most once and a drain of up to 16 bytes reads each bank at most once.  Bank reads are
// registered (block RAM), so the read row for cycle t is computed in cycle t-1 from the next head
// pointer.
//
// depth_i and drain_i are strap inputs (constants in a real top, which synthesis folds): the
// capacity counted against (<= Depth, the storage built) and the bytes drained per clock
// (<= Drain, the width of the output port).  The simulation library builds the largest unit and
// straps it at run time, so one Verilated model serves every (depth, drain) the C model accepts.
module mt_tu_fifo #(
  parameter int unsigned Depth = 4096,  // storage in bytes, 32..65536
  parameter int unsigned Drain = 8,     // output port width in bytes, 1..16
  localparam int unsigned PhysBytes = (Depth <= 32) ? 32 : (1 << $clog2(Depth)),
  localparam int unsigned Rows = PhysBytes / 16,
  localparam int unsigned RW = $clog2(Rows),
  localparam int unsigned PW = $clog2(PhysBytes),
  localparam int unsigned OccW = $clog2(Depth + 1)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [OccW-1:0]     depth_i,   // capacity, 32..Depth
  input  logic [4:0]          drain_i,   // bytes per clock, 1..Drain
  // Write port: a whole packet, byte 0 first, into the banks (the caller has reserved room);
  // commit port: the packet written in the previous cycle enters the occupancy.
  input  logic                wr_i,
  input  logic [4:0]          wr_len_i,
  input  logic [16*8-1:0]     wr_data_i,
  input  logic                commit_i,
  input  logic [4:0]          commit_len_i,
  // Occupancy at the start of this cycle; room_o[k]: the space after this cycle's drain holds
  // 16 * (k + 1) bytes (a packet chosen now and k packets in flight).
  output logic [OccW-1:0]     occ_o,
  output logic [3:0]          room_o,
  output logic                half_o,    // after this cycle's drain the FIFO is at most half full
  // This cycle's output: out_cnt_o bytes, byte 0 in out_data_o[7:0].
  output logic [4:0]          out_cnt_o,
  output logic [Drain*8-1:0]  out_data_o
);
  logic [OccW-1:0] occ_q, occ_d;
  logic [PW-1:0]   rp_q, rp_d, wp_q, wp_d;
  logic [4:0]      out_cnt;

  // A. Drain: min(occ, Drain) bytes leave.
  always_comb begin
    if (occ_q >= OccW'(drain_i)) out_cnt = drain_i;
    else out_cnt = 5'(occ_q);
  end
  assign occ_o     = occ_q;
  assign out_cnt_o = out_cnt;
  // occ - min(occ, N) <= X  <=>  occ <= X + N  (for X >= 0)
  assign half_o    = {1'b0, occ_q} <= {1'b0, depth_i >> 1} + (OccW+1)'(drain_i);
  for (genvar k = 0; k < 4; k++) begin : g_room
    localparam int unsigned Need = 16 * (k + 1);
    assign room_o[k] = ({1'b0, depth_i} >= (OccW+1)'(Need)) &&
                       ({1'b0, occ_q} <= {1'b0, depth_i} + (OccW+1)'(drain_i) - (OccW+1)'(Need));
  end

  assign occ_d = occ_q - OccW'(out_cnt) + (commit_i ? OccW'(commit_len_i) : '0);
  assign rp_d  = rp_q + PW'(out_cnt);
  assign wp_d  = wp_q + (wr_i ? PW'(wr_len_i) : '0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      occ_q <= '0;
      rp_q  <= '0;
      wp_q  <= '0;
    end else begin
      occ_q <= occ_d;
      rp_q  <= rp_d;
      wp_q  <= wp_d;
    end
  end

  // Banks.
  logic [3:0]    wp_lo, rp_lo, rn_lo;
  logic [RW-1:0] wp_row, rn_row;
  assign wp_lo  = wp_q[3:0];
  assign wp_row = wp_q[PW-1:4];
  assign rp_lo  = rp_q[3:0];
  assign rn_lo  = rp_d[3:0];
  assign rn_row = rp_d[PW-1:4];

  // Lane b of a packet written at wp is byte (b - wp) mod 16 of the packet: rotate the packet and
  // its byte mask left by wp_lo once (explicit byte stages), rather than select per bank.
  logic [127:0]  wrot;
  logic [15:0]   wmask;
  logic [RW-1:0] wp_row1, rn_row1;
  always_comb begin
    logic [127:0] d;
    logic [15:0]  m;
    d = wr_data_i;
    for (int k = 0; k < 16; k++) m[k] = wr_i && (5'(k) < wr_len_i);
    if (wp_lo[0]) begin d = {d[119:0], d[127:120]}; m = {m[14:0], m[15]};     end
    if (wp_lo[1]) begin d = {d[111:0], d[127:112]}; m = {m[13:0], m[15:14]};  end
    if (wp_lo[2]) begin d = {d[95:0], d[127:96]};   m = {m[11:0], m[15:12]};  end
    if (wp_lo[3]) begin d = {d[63:0], d[127:64]};   m = {m[7:0], m[15:8]};    end
    wrot = d;
    wmask = m;
  end
  assign wp_row1 = wp_row + RW'(1);
  assign rn_row1 = rn_row + RW'(1);

  logic [127:0] lanes;   // bank outputs for this cycle's head rows, lane b = bank b

  for (genvar b = 0; b < 16; b++) begin : g_bank
    logic          we;
    logic [RW-1:0] waddr, raddr;
    logic [7:0]    wdata;

    assign we    = wmask[b];
    assign waddr = (5'(b) < {1'b0, wp_lo}) ? wp_row1 : wp_row;
    assign wdata = wrot[b*8 +: 8];
    assign raddr = (5'(b) < {1'b0, rn_lo}) ? rn_row1 : rn_row;

    mt_tu_ram #(.Depth(Rows), .Width(8)) u_ram (
      .clk_i,
      .we_i    (we),
      .waddr_i (waddr),
      .wdata_i (wdata),
      .raddr_i (raddr),
      .rdata_o (lanes[b*8 +: 8])
    );
  end

  // Output byte j is lane (rp_lo + j) mod 16: rotate the lanes right by rp_lo, the largest step
  // first, so that each later stage only forms the bytes the narrower output still needs
  // (Drain = 4: 11, 7, 5, 4 bytes instead of 16, 16, 8, 4).
  always_comb begin
    logic [127:0] d;
    d = lanes;
    if (rp_lo[3]) d = {d[63:0], d[127:64]};
    if (rp_lo[2]) d = {d[31:0], d[127:32]};
    if (rp_lo[1]) d = {d[15:0], d[127:16]};
    if (rp_lo[0]) d = {d[7:0], d[127:8]};
    out_data_o = d[Drain*8-1:0];
  end
endmodule
