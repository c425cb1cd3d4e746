// mt_tu_pkg: constants and small pure functions shared by the trace unit's modules:
// packet headers, sample-format widths and shifts, LEB128 and zigzag (docs/trace-format.md).
// Referenced as mt_tu_pkg::name (yosys 0.23 does not take `import pkg::*`).
package mt_tu_pkg;
  localparam logic [7:0] HdrSync     = 8'h00;
  localparam logic [7:0] HdrRun      = 8'h01;
  localparam logic [7:0] HdrSection  = 8'h02;
  localparam logic [7:0] HdrOverflow = 8'h03;
  localparam logic [7:0] HdrMarker   = 8'h04;
  localparam logic [7:0] HdrEnd      = 8'h05;
  localparam logic [7:0] HdrSample   = 8'h80;

  localparam logic [2:0] OpDelta = 3'd3;
  localparam logic [2:0] OpFull  = 3'd4;

  localparam logic [6:0]  RunMax    = 7'd127;

  // Address-part width w and the shift that takes it out of the 56-bit address, per format
  // (0 = 48-bit: addr[55:12]; 1 = 32-bit: addr[55:30]; 2 = full: addr[55:0]; 3 = line: addr[55:6]).
  function automatic logic [5:0] fmt_width(input logic [1:0] fmt);
    case (fmt)
      2'd0:    fmt_width = 6'd44;
      2'd1:    fmt_width = 6'd26;
      2'd2:    fmt_width = 6'd56;
      default: fmt_width = 6'd50;
    endcase
  endfunction

  function automatic logic [55:0] fmt_part(input logic [1:0] fmt, input logic [55:0] addr);
    case (fmt)
      2'd0:    fmt_part = {12'd0, addr[55:12]};
      2'd1:    fmt_part = {30'd0, addr[55:30]};
      2'd2:    fmt_part = addr;
      default: fmt_part = {6'd0, addr[55:6]};
    endcase
  endfunction

  // Mask of the low w bits of a 56-bit value.
  function automatic logic [55:0] fmt_mask(input logic [1:0] fmt);
    case (fmt)
      2'd0:    fmt_mask = {12'd0, {44{1'b1}}};
      2'd1:    fmt_mask = {30'd0, {26{1'b1}}};
      2'd2:    fmt_mask = {56{1'b1}};
      default: fmt_mask = {6'd0, {50{1'b1}}};
    endcase
  endfunction

  // a <= b as plain logic (MSB first), not as an adder: yosys maps a comparison operator to a
  // carry chain, which against a constant (the FIFO's thresholds, once the straps are folded)
  // costs a logic cell per bit; this form folds into a few LUTs.
  function automatic logic le17(input logic [16:0] a, input logic [16:0] b);
    logic lt, eq;
    lt = 1'b0;
    eq = 1'b1;
    for (int i = 16; i >= 0; i--) begin
      lt = lt | (eq & ~a[i] & b[i]);
      eq = eq & ~(a[i] ^ b[i]);
    end
    le17 = lt | eq;
  endfunction

  // Minimal LEB128 length (1..10) of a 64-bit value: one more than the index of the highest
  // non-zero 7-bit group, as a flat encoder of the group flags (a chain of compares against
  // shifted values maps to a long LUT chain).
  function automatic logic [3:0] leb_len(input logic [63:0] v);
    logic [9:0] nz, top;   // top[g]: group g is the highest non-zero one
    for (int g = 0; g < 9; g++) nz[g] = |v[g*7 +: 7];
    nz[9] = v[63];
    for (int g = 0; g < 10; g++) top[g] = nz[g] && (g == 9 ? 1'b1 : !(|(nz >> (g + 1))));
    leb_len = 4'd0;
    for (int g = 0; g < 10; g++) leb_len = leb_len | (top[g] ? 4'(g + 1) : 4'd0);
    if (nz == '0) leb_len = 4'd1;
  endfunction

  // LEB128 bytes of v (byte 0 in [7:0]) for a known length n; bytes at and past n are 0.
  function automatic logic [79:0] leb_bytes(input logic [63:0] v, input logic [3:0] n);
    logic [69:0] g;
    g = {6'd0, v};
    leb_bytes = '0;
    for (int i = 0; i < 10; i++) begin
      if (4'(i) < n) leb_bytes[i*8 +: 8] = {(4'(i + 1) < n), g[i*7 +: 7]};
    end
  endfunction
  // The same bytes without the mask of the groups (8 bytes): right when v < 2^(7 * n), i.e. n
  // is at least v's minimal LEB length, and n >= 1 (mt_tu_pack; for n = 0 its caller zeroes them)
  function automatic logic [63:0] leb_groups(input logic [55:0] v, input logic [3:0] n);
    for (int i = 0; i < 8; i++) leb_groups[i*8 +: 8] = {(4'(i + 1) < n), v[i*7 +: 7]};
  endfunction
  // The configuration registers' values as the unit uses them (docs/trace-unit.md section 1), from
  // the value written and flags set at the write, so that neither the write into block RAM nor
  // the RAM's word read back has a test in its path: a rate of 0 is 1 (r1: the value written was
  // 0 or 1); SYNC_PERIOD is clamped to 64..8192 (lo: below 64, hi: above 8192).
  function automatic logic [31:0] rate_norm(input logic [31:0] r, input logic r1);
    rate_norm = {r[31:1], r[0] || r1};
  endfunction
  function automatic logic [13:0] sync_norm(input logic [13:0] p, input logic lo, input logic hi);
    sync_norm = lo ? 14'd64 : (hi ? 14'd8192 : p);
  endfunction

  // The table of a 2:1 select (mt_tu_lut4): i[0] ? i[2] : i[1].
  function automatic logic [15:0] lut_sel();
    for (int k = 0; k < 16; k++) lut_sel[k] = k[0] ? k[2] : k[1];
  endfunction
  // The table of "LEN_H is 0 and LEN_L is not" over i = {LEN_L's high and low halves are 0,
  // LEN_H's high and low halves are 0}.
  function automatic logic [15:0] lut_first_l();
    for (int k = 0; k < 16; k++) lut_first_l[k] = k[0] && k[1] && !(k[2] && k[3]);
  endfunction
  // The tables of mt_tu_leblen, by index: 0: G2 | !G1 from G1's chunks x0, x1 and G2's x2, x3;
  // 1: x0 | x1; otherwise x0 | (!x1 & x2).
  function automatic logic [15:0] lut_leb(input int unsigned f);
    logic [3:0] x;
    for (int k = 0; k < 16; k++) begin
      x = 4'(k);
      case (f)
        0:       lut_leb[k] = x[2] || x[3] || !(x[0] || x[1]);
        1:       lut_leb[k] = x[0] || x[1];
        default: lut_leb[k] = x[0] || (!x[1] && x[2]);
      endcase
    end
  endfunction
  // The table of a 4-input AND of literals (mt_tu_lut4): 1 when the inputs in `care` equal `val`.
  function automatic logic [15:0] lut_match(input logic [3:0] care, input logic [3:0] val);
    for (int k = 0; k < 16; k++) lut_match[k] = ((4'(k) & care) == (val & care));
  endfunction
  // The control tables (mt_tu_lut4 instances of mt_tu_ctrl and the pieces it steers), each a
  // function of up to four inputs x[3:0], named here and spelt once in lut_fn: lut_init(LName)
  // is the 16-bit table of LName, for mt_tu_lut4's Init.  Where a table is used says what its
  // inputs are.
  localparam int unsigned LOr3 = 0, LMux = 1, LAndN = 2, LAnd2 = 3, LRw = 4, LCnt = 5, LMarkOvf = 6,
                          LMarkOnly = 7, LOr2 = 8, LHva = 9, LFsw = 10, LHold = 11, LAct = 12,
                          LNobar = 14, LSect = 15, LSync = 16, LRow = 17, LEndRow = 18,
                          LPktGate = 19, LPkt = 20, LPktWr = 21, LLoad = 22,
                          LKindLo = 24, LKindHi = 25, LLoad2 = 26, LGate3 = 27,
                          LHaa = 28, LSetClr = 29, LSwitch = 30, LDrop0 = 31, LDrop1 = 32,
                          LDropNz = 33, LLost = 34, LOldNz = 35, LSet2 = 36, LSelNr = 37,
                          LSelRun = 38, LUnless = 39,
                          LSwFmt = 40, LKind = 41, LTapAct = 42, LOr4 = 43, LLoadN = 52, LHvaN = 53, LUrg = 54,
                          LOrAndN = 55, LGateOr = 56,
                          LNoStop = 44, LStartOr = 45, LLen1 = 46, LLen0 = 47, LSpHit = 48, LWrFmt = 49, LSpLow = 50, LBr1 = 51;
  function automatic logic lut_fn(input int unsigned f, input logic [3:0] x);
    case (f)
      LOr3:     lut_fn = x[0] || x[1] || x[2];
      LMux:     lut_fn = x[0] ? x[1] : x[2];
      LAndN:    lut_fn = x[0] && !x[1];
      LAnd2:    lut_fn = x[0] && x[1];
      LRw:      lut_fn = x[0] && !x[1] && !x[2] && x[3];
      LCnt:     lut_fn = x[0] && !x[1] && (x[2] || x[3]);
      LOr2:     lut_fn = x[0] || x[1];
      LHva:     lut_fn = x[0] && !(x[1] && x[2]);
      LFsw:     lut_fn = !x[0] || (x[1] && (x[2] || x[3]));
      LHold:    lut_fn = x[0] ? (x[1] && !x[2]) : (x[1] && x[3]);
      LAct:     lut_fn = x[0] && x[1] && !(x[2] && x[3]);
      LNobar:   lut_fn = !(x[0] && x[1]) && (x[2] || (x[3] && !x[0]));
      LSect:    lut_fn = x[0] && !(x[1] && !x[2]);
      LSync:    lut_fn = !x[0] && x[1] && !(x[2] && !x[3]);
      LRow:     lut_fn = !x[0] && !(x[1] && x[2]) && x[3];
      LEndRow:  lut_fn = !x[0] && !x[1] && x[2];
      LPktGate: lut_fn = x[0] && !(x[1] && !x[2]);
      LPkt:     lut_fn = x[0] ? !(x[1] && !x[2]) : x[3];
      LPktWr:   lut_fn = x[0] ? x[1] : (x[2] && x[3]);
      LLoad:    lut_fn = x[0] && (x[1] || x[2]);
      LLoadN:   lut_fn = x[0] && (x[1] || x[2]) && !x[3];     // LLoad unless x3
      LHvaN:    lut_fn = x[0] && !(x[1] && x[2]) && !x[3];    // LHva unless x3
      // (MARKER urgent: x0 urgent, x1 pending, x2 the arbitration acts, x3 the MARKER is chosen)
      LUrg:     lut_fn = !x[3] && (x[0] || (x[1] && x[2]));
      // (the capture's filter: x[0] kind[0], x[1] kind[1], x[2..3] the pair's mask bits)
      LKindLo:  lut_fn = !x[1] && (x[0] ? x[3] : x[2]);
      LKindHi:  lut_fn = x[1] && (x[0] ? x[3] : x[2]);
      LKind:    lut_fn = x[0] ? x[1] : (x[2] || x[3]);     // x0 kind[2], x1 the kind-4 test
      LTapAct:  lut_fn = x[0] && x[1] && (x[2] == x[3]);   // active, valid, tap == the traced
      LOr4:     lut_fn = x[0] || x[1] || x[2] || x[3];
      LNoStop:  lut_fn = x[0] && !(x[1] && x[2] && x[3]);  // x0 unless a CTRL write clears ENABLE
      LStartOr: lut_fn = x[0] || (x[1] ? x[2] : x[3]);     // a start, else by x1 one of two
      LSpHit:   lut_fn = x[0] && (x[1] || x[2] || x[3]);     // active, and a load or the point
      LWrFmt:   lut_fn = (x[0] && x[1]) ? x[2] : x[3];        // x0 acts, x1 ENABLE: x2, else x3
      LSpLow:   lut_fn = x[2] ? (x[0] && !x[1]) : (!x[0] && x[1]);   // sp_left[1:0] == 1 or 2
      LBr1:     lut_fn = (x[0] || x[1]) ? x[2] : x[3];        // a load's rate-1 flag, else kept
      // (OVERFLOW's LEB length from x0 P, x1 Q, x2 R, x3 bits 31:28 non-zero: ovf_len)
      LLen1:    lut_fn = !x[0] && (x[1] || x[2]);
      LLen0:    lut_fn = !(x[0] || x[1] || x[2]) || (x[1] && !x[0]) || x[3];
      LLoad2:   lut_fn = x[0] && x[1] && (x[2] || x[3]);
      LGate3:   lut_fn = x[0] && x[1] && !x[2];
      // (the MARKER row and row 0, x0 || x1: unless x2 (LOrAndN); gated by x2, unless x3 (LGateOr))
      LOrAndN:  lut_fn = (x[0] || x[1]) && !x[2];
      LGateOr:  lut_fn = (x[0] || x[1]) && x[2] && !x[3];
      LHaa:     lut_fn = x[0] ? (x[1] || x[2]) : x[3];
      // (the late next-state bits: x[0] the bit's value otherwise)
      LSetClr:  lut_fn = !x[3] && (x[2] || (x[0] && !x[1]));      // x1 clears, x2 sets, x3 resets
      LSwitch:  lut_fn = !x[3] && !x[2] && (x[0] || x[1]);
      LSet2:    lut_fn = x[3] || x[2] || (x[0] && !x[1]);             // x1 clears, x2, x3 set
      // (the descriptor's bits: x[0] r_hold, x[1] the sample's bit, x[2] the run)
      LSelNr:   lut_fn = (x[0] && x[1]) || (!x[2] && x[3]);   // x3: the rows' bit, no run
      LSelRun:  lut_fn = (x[0] && x[1]) || (!x[0] && x[2]) || x[3];   // a run's bit set
      LUnless:  lut_fn = x[0] && !(x[1] && !x[2]);   // x0 unless x1 without x2
      LSwFmt:   lut_fn = (x[0] && !x[1]) ? x[2] : x[3];
      LLost:    lut_fn = (x[0] && !x[3]) || (x[1] && !x[2]);
      LOldNz:   lut_fn = (x[0] || x[1]) && !x[2] && !x[3];
      // (drops: x[0] && x[1] the hold's, x[2] the capture's, x[3] the switch's)
      LDrop0:   lut_fn = (x[0] && x[1]) ^ x[2] ^ x[3];
      LDrop1:   lut_fn = ((x[0] && x[1]) && (x[2] || x[3])) || (x[2] && x[3]);
      LDropNz:  lut_fn = (x[0] && x[1]) || x[2] || x[3];
      LMarkOnly: lut_fn = x[0] && !(x[1] && (x[2] || x[3]));
      LMarkOvf: lut_fn = ((x[0] || x[1]) && x[2]) || x[3];
      default:  lut_fn = 1'b0;
    endcase
  endfunction
  function automatic logic [15:0] lut_init(input int unsigned f);
    for (int k = 0; k < 16; k++) lut_init[k] = lut_fn(f, 4'(k));
  endfunction
endpackage
