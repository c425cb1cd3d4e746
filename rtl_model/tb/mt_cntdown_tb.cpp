// mt_cntdown_tb: mt_tu_cntdown (the section count-down as two 20-bit halves with a registered
// borrow) clock for clock against a plain 40-bit count-down, Verilated with this file as its main.
// After every clock its outputs must equal the reference value's low half and "high half zero":
// the theorem in mt_tu_cntdown.sv, tested where it can break: loads just around multiples of
// 2^20 counted down through the borrow and to zero and past it (the high half wraps), loads in
// the cycle after the low half wrapped (a borrow pending, which the load must drop), steps of 1
// and 2 in any order, and the value near 2^40 - 1.  Fixed seed: the same run every time.
//   mt_cntdown_tb [TRIALS]   exit 0 when identical, 1 at the first difference (printed)
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include "Vmt_tu_cntdown.h"
#include "verilated.h"

namespace {
constexpr uint64_t kMask = (UINT64_C(1) << 40) - 1;
constexpr unsigned kLo = 20;

uint64_t rng_state = 0x9E3779B97F4A7C15u;
uint64_t rnd() { // xorshift64*
  rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
  return rng_state * UINT64_C(2685821657736338717);
}

struct Bench {
  Vmt_tu_cntdown m;
  uint64_t ref = 0;   // the value the count-down must hold
  uint64_t clocks = 0;
  bool bad = false;

  // One clock with the given inputs, then the comparison.
  void clock(bool ld, uint64_t val, bool dec1) {
    m.ld_i = ld; m.val_i = val; m.dec1_i = dec1;
    m.clk_i = 0; m.eval();
    m.clk_i = 1; m.eval();
    ref = ld ? val : (ref - (dec1 ? 1 : 2)) & kMask;
    clocks++;
    check(ld ? "after a load" : "after a step");
  }
  void check(const char *when) {
    uint64_t lo = ref & ((UINT64_C(1) << kLo) - 1);
    bool hi_zero = (ref >> kLo) == 0;
    if (!bad && (m.lo_o != lo || (bool)m.hi_zero_o != hi_zero)) {
      std::printf("mt_cntdown_tb: clock %" PRIu64 " (%s): value 0x%010" PRIx64 ": lo 0x%05x hi_zero %d,"
                  " expected lo 0x%05" PRIx64 " hi_zero %d\n", clocks, when, ref, (unsigned)m.lo_o,
                  (int)m.hi_zero_o, lo, (int)hi_zero);
      bad = true;
    }
  }
};
}  // namespace

int main(int argc, char **argv) {
  unsigned trials = argc > 1 ? (unsigned)std::strtoul(argv[1], nullptr, 0) : 24;
  Bench b;
  b.m.clk_i = 0; b.m.rst_ni = 0; b.m.ld_i = 0; b.m.val_i = 0; b.m.dec1_i = 1; b.m.eval();
  b.m.rst_ni = 1; b.m.eval();
  b.check("at reset");
  // From reset, through zero: the high half wraps from 0 to all ones by the borrow.
  for (int i = 0; i < 8 && !b.bad; i++) b.clock(false, 0, rnd() & 1);
  uint64_t loads = 0, pending_loads = 0, zero_crossings = 0;
  for (unsigned k = 0; k < trials && !b.bad; k++) {
    // A value just around a multiple of 2^20 (k * 2^20 - 3 .. + 3, k 0..2), counted down to zero
    // and a few clocks past it, with steps of 1 and 2 (mostly 1, as the unit does after a load).
    uint64_t mult = rnd() % 3, d = rnd() % 7;
    uint64_t v = ((mult << kLo) + d - 3) & kMask;
    if (v > (UINT64_C(3) << kLo)) v = d;   // (0 * 2^20 - 3: wrapped; take a small value)
    b.clock(true, v, true); loads++;
    while (!b.bad) {
      uint64_t before = b.ref;
      b.clock(false, 0, (rnd() & 7) != 0);
      if (before < b.ref) { zero_crossings++; break; }   // through zero
    }
    for (int i = 0; i < 5 && !b.bad; i++) b.clock(false, 0, rnd() & 1);
    // A load in the clock right after the low half wrapped (its borrow pending): from a value
    // whose low half is 0..2, step until the low half wraps, then load a random value at once.
    for (int j = 0; j < 64 && !b.bad; j++) {
      uint64_t hi = rnd() & ((UINT64_C(1) << (40 - kLo)) - 1);
      b.clock(true, hi << kLo | (rnd() % 3), true);
      for (int i = 0; i < 3 && !b.bad; i++) {
        uint64_t lo_before = b.ref & ((UINT64_C(1) << kLo) - 1);
        b.clock(false, 0, (rnd() & 1) != 0);
        if ((b.ref & ((UINT64_C(1) << kLo) - 1)) > lo_before) break;   // wrapped: borrow pending
      }
      if (b.bad) break;
      // (mostly a high half of 0 or 1 and a small low half: a borrow kept by mistake then shows
      // at once, in the high half's zero test and through zero a few clocks later)
      uint64_t nv = (rnd() & 3) ? ((rnd() & 1) << kLo | (rnd() & 7)) : (rnd() & kMask);
      b.clock(true, nv, (rnd() & 1) != 0); loads++; pending_loads++;
      for (int i = 0; i < 12 && !b.bad; i++) b.clock(false, 0, rnd() & 1);
    }
    // Near 2^40 - 1 and near 2^20: a short count with random steps.
    uint64_t top = (kMask - (rnd() & 0xFF)) ;
    b.clock(true, (rnd() & 1) ? top : ((UINT64_C(1) << kLo) + (rnd() & 3)), true); loads++;
    for (int i = 0; i < 600 && !b.bad; i++) b.clock(false, 0, rnd() & 1);
  }
  std::printf("mt_cntdown_tb: %" PRIu64 " clocks, %" PRIu64 " loads (%" PRIu64 " with a borrow pending),"
              " %" PRIu64 " counts through zero from past 2^20 or below: %s\n", b.clocks, loads,
              pending_loads, zero_crossings, b.bad ? "DIFFER" : "identical");
  return b.bad ? 1 : 0;
}
