#!/usr/bin/env python3
"""Writes the golden access vectors (tests/golden/*.vec). Deterministic: a fixed PRNG.
Format: tests/golden/README.md. Run via `make golden`, which also regenerates *.exp/*.dec."""
import os
import sys

CTRL, KIND_MASK, TAP, FMT, SYNC_PERIOD = 0x08, 0x18, 0x1C, 0x20, 0x24
RATE_H, RATE_L, LEN_H_LO, LEN_H_HI, LEN_L_LO, LEN_L_HI, MARKER = 0x28, 0x2C, 0x30, 0x34, 0x38, 0x3C, 0x40
SPATIAL = 0x60
REDUCE = 0x64
FETCH, LOAD, STORE, AMO, PTW = range(5)


class Rng:
    def __init__(self, seed):
        self.s = seed & (2**64 - 1)

    def next(self):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) & (2**64 - 1)
        return self.s >> 33


class Vec:
    def __init__(self, name, comment, depth=256, drain=4):
        self.name, self.head = name, [f"# {name}: {comment}", f"param depth {depth}", f"param drain {drain}"]
        self.lines = []

    def w(self, cyc, off, val, why=""):
        self.lines.append((cyc, len(self.lines), f"w {cyc} {off:x} {val:x}" + (f"  # {why}" if why else "")))

    def a(self, cyc, addr, write=0, kind=LOAD, tap=0):
        self.lines.append((cyc, len(self.lines), f"a {cyc} {addr:x} {int(write)} {kind} {tap}"))

    def config(self, cyc, rate_h, len_h, rate_l, len_l, fmt=0x10, sync=64, mask=0x1F, tap=0, fresh=False):
        """One register write per cycle from cyc (the RTL has one MMIO port); with fresh=True the
        writes of reset values are left out. Returns the first cycle after the last write."""
        regs = [(RATE_H, rate_h, 24), (RATE_L, rate_l, 2048), (LEN_H_LO, len_h & 0xFFFFFFFF, 0x3B9ACA00),
                (LEN_H_HI, len_h >> 32, 0), (LEN_L_LO, len_l & 0xFFFFFFFF, 0x540BE400), (LEN_L_HI, len_l >> 32, 2),
                (FMT, fmt, 0x10), (SYNC_PERIOD, sync, 4096), (KIND_MASK, mask, 0x1F), (TAP, tap, 0)]
        for off, val, reset in regs:
            if fresh and val == reset:
                continue
            self.w(cyc, off, val)
            cyc += 1
        return cyc

    def stop(self, cyc):
        self.lines.append((cyc, len(self.lines), f"stop {cyc}"))

    def save(self, d):
        with open(os.path.join(d, self.name + ".vec"), "w") as f:
            body = [t for _, _, t in sorted(self.lines)]  # cycle order, stable
            f.write("\n".join(self.head + body) + "\n")


def worked_example():
    """The example decoded byte by byte in docs/trace-format.md section 5."""
    v = Vec("worked_example", "the trace-format.md worked example: SYNC, SECTION, FULL, RUN, MATCH, DELTA, skip, MARKER, END")
    assert v.config(0, rate_h=10, len_h=1000, rate_l=100, len_l=1000, fresh=True) <= 9
    v.w(9, CTRL, 1, "enable: the session starts at cycle 10")
    v.a(12, 0x80001234, 0, LOAD)      # interval 0 [10,20): page 0x80001
    v.a(23, 0x80001ff8, 0, LOAD)      # interval 1: same page -> run
    v.a(30, 0x80001000, 0, FETCH)     # interval 2: same page -> run
    v.a(44, 0x80001008, 1, STORE)     # interval 3: same page, a write
    v.a(52, 0x80003000, 0, LOAD)      # interval 4: +2 pages -> DELTA
    v.a(60, 0x80001010, 0, LOAD)      # interval 5: history entry 1 -> MATCH1
    v.w(75, MARKER, 0x2A, "marker")
    v.a(91, 0x80003abc, 1, STORE)     # interval 8 (6, 7 idle): entry 0 -> MATCH0 with skip 2
    v.stop(100)
    return v


def every_packet():
    v = Vec("sections", "bursts and spans with all four formats, idle intervals, runs, history hits/misses, SYNCs")
    r = Rng(1)
    c = v.config(0, rate_h=6, len_h=900, rate_l=60, len_l=1500, fmt=0x32, sync=64)
    v.w(c, CTRL, 1)
    pages = [0x80000000 + 0x1000 * i for i in range(8)]
    c += 2
    while c < 9000:
        x = r.next()
        if x % 23 == 0:
            c += 400 + x % 700           # idle stretch
        else:
            c += 1 + x % 5
        addr = pages[(x >> 4) % (3 if x % 4 else 8)] + ((x >> 8) % 512) * 8
        if x % 97 == 0:
            addr = (x << 20) & 0xFFFFFFFFFFFFF8   # far away: FULL
        v.a(c, addr, (x >> 12) & 1, [FETCH, LOAD, STORE, AMO, PTW][(x >> 13) % 5])
    v.stop(c + 5)
    return v


def formats():
    v = Vec("formats", "one session per burst/span format pair (48/32, full/line, line/full, 32/48)")
    c = 0
    for i, fmt in enumerate([0x10, 0x32, 0x23, 0x01]):
        cc = v.config(c, rate_h=3, len_h=300, rate_l=30, len_l=300, fmt=fmt, sync=128)
        v.w(cc, CTRL, 1)
        r = Rng(10 + i)
        base = 0x40000000 * (i + 1)
        cc += 1
        for k in range(400):
            x = r.next()
            cc += 1 + x % 3
            v.a(cc, base + ((x >> 5) % 64) * 4096 + (x % 4096), x & 1, LOAD)
        v.stop(cc + 1)
        c = cc + 400
    return v


def overflow():
    v = Vec("overflow", "tiny FIFO drained 1 byte/cycle, full addresses: drops, OVERFLOW, exact counts", depth=32, drain=1)
    c0 = v.config(0, rate_h=2, len_h=4000, rate_l=50, len_l=1000, fmt=0x22, sync=64)
    v.w(c0, CTRL, 1)
    r = Rng(3)
    for c in range(c0 + 2, 3000):
        x = r.next()
        v.a(c, ((x << 16) ^ x) & 0xFFFFFFFFFFFFF8, x & 1, LOAD)
    v.w(3000, MARKER, 7, "marker after the flood")
    v.stop(3100)
    return v


def overflow_at_end():
    v = Vec("overflow_at_end", "disabled in the middle of a flood: the OVERFLOW (waiting for half-full) comes before END", depth=48, drain=1)
    c0 = v.config(0, rate_h=1, len_h=0, rate_l=1, len_l=0, fmt=0x22, sync=64)
    v.w(c0, CTRL, 1)
    r = Rng(6)
    for c in range(c0 + 1, 400):
        x = r.next()
        v.a(c, ((x << 12) ^ x) & 0xFFFFFFFFFFFFF8, 0, LOAD)
    v.stop(399)
    return v


def dense_r1():
    v = Vec("dense_r1", "r = 1, an access every cycle: hold register, SYNC+SECTION cost, RUN before SYNC", depth=1024, drain=8)
    c0 = v.config(0, rate_h=1, len_h=0, rate_l=1, len_l=0, fmt=0x22, sync=64)
    v.w(c0, CTRL, 1)
    r = Rng(4)
    for c in range(c0 + 1, 2500):
        x = r.next()
        addr = 0x80001000 if x % 3 else 0x80001000 + (x % 7) * 64
        v.a(c, addr, (x >> 3) % 5 == 0, FETCH)
    v.w(1200, MARKER, 0x1234, "passed by one act, then urgent: written while the accesses come (v4.1)")
    v.stop(2500)
    return v


def filters():
    v = Vec("filters", "kind mask (loads+stores only), dram tap, config latched at enable, two markers, two sessions")
    c = v.config(0, rate_h=4, len_h=500, rate_l=40, len_l=500, fmt=0x10, sync=64, mask=(1 << LOAD) | (1 << STORE), tap=1)
    v.w(c, CTRL, 1)
    r = Rng(5)
    for k in range(600):
        x = r.next()
        c += 1 + x % 4
        v.a(c, 0x80000000 + (x % 32) * 4096, (x >> 7) & 1, [FETCH, LOAD, STORE, AMO, PTW][x % 5], (x >> 9) & 1)
        if k == 100:
            v.w(c, RATE_H, 2, "written while active: applies at the next enable")
        if k == 200:
            v.w(c, MARKER, 1)
            v.w(c + 1, MARKER, 2, "a second marker one cycle later (MARKER_LOST is covered in test_lib_unit)")
    v.stop(c + 1)
    c += 200
    v.w(c, CTRL, 1, "second session, RATE_H = 2 now")
    for k in range(300):
        x = r.next()
        c += 1 + x % 4
        v.a(c, 0x90000000 + (x % 8) * 64, 0, LOAD, 1)
    v.stop(c + 1)
    return v


def no_spans():
    v = Vec("no_spans", "LEN_L = 0: bursts back to back; then LEN_H = 0: spans only")
    c0 = v.config(0, rate_h=5, len_h=200, rate_l=50, len_l=0)
    v.w(c0, CTRL, 1)
    for c in range(c0 + 3, 1000, 3):
        v.a(c, 0x80000000 + (c // 100) * 4096, 0, LOAD)
    v.stop(1000)
    c0 = v.config(1500, rate_h=5, len_h=0, rate_l=20, len_l=300)
    v.w(c0, CTRL, 1)
    for c in range(1512, 2500, 7):
        v.a(c, 0x80000000 + (c // 150) * 4096, 1, STORE)
    v.stop(2500)
    return v


def spatial_unit():
    """The unit's spatial mode (lib/mt_unit_spatial.h): one burst at r = 1 in the full format, the
    front end's records as SAMPLEs at the clock after their pass (an access at t: its record at
    t + 11)."""
    v = Vec("spatial_unit", "spatial mode: passes, repeats per size, a settled alternation and its replay, lost accesses, N = 4 then N = 1", depth=512, drain=4)
    c = v.config(0, rate_h=1, len_h=0, rate_l=1, len_l=0, fmt=0x22, sync=256)
    v.w(c, SPATIAL, 0x201, "EN, log2 N = 2: size i keeps one metapage in max(1, 4 >> i)")
    v.w(c + 1, CTRL, 1)
    x, y, z = 0x80000000, 0x80001000, 0x80040000
    t = 20
    for k in range(8):  # x y x y x y x y: steps 3.. of the alternation are skipped (x, y share 16K)
        v.a(t, x if k % 2 == 0 else y, k == 5, LOAD)
        v.a(t + 3, x if k % 2 == 0 else y, 0, LOAD)   # a repeat of the last page: nothing
        t += 12
    v.a(t, z, 0, STORE)        # a new page ends the alternation: the last step replayed, then z
    v.a(t + 4, z + 8, 0, LOAD)  # during the pass: a repeat, not lost
    v.a(t + 6, y, 0, LOAD)      # during the pass, another page: lost
    t += 24
    for k in range(24):  # a walk over neighbouring pages and back: repeats at the larger sizes
        v.a(t, 0x80000000 + ((k * 5) % 11) * 4096, k % 4 == 0, LOAD)
        t += 12
    v.a(t, 0x80000000 | 1 << 43, 0, LOAD)  # page bit 31 set: size 0 keeps only bits 30:0 of its metapage
    t += 12
    v.w(t, SPATIAL, 0x1, "log2 N = 0 from the next session on")
    for k in range(40):  # an access every clock: most are lost
        v.a(t + k, 0x80000000 + (k % 3) * 0x3000, 0, FETCH)
    t += 60
    v.stop(t)
    c = t + 100
    v.w(c, CTRL, 1, "second session: N = 1, every size at rate 1")
    t = c + 10
    for k in range(8):  # x y x y ...: size 4K tells x and y apart, no step is skipped
        v.a(t, x if k % 2 == 0 else y, 0, LOAD)
        t += 12
    v.a(t, z, 1, STORE)
    v.stop(t + 30)
    return v


def reduce_unit():
    """The unit's reduce mode (lib/mt_unit_rd.c, lib/mt_unit_reduce.h): one burst at r = 1 in the
    full format, the reduce path's records as SAMPLEs at the clock the capture takes them from the
    record queue; the stop held until the path has flushed.  B = 16K (REDUCE.LGK = 2: k = 4, 2, 1,
    1, ...; 28 buckets cleared in the session's clocks 1..28), then B = 4K (20 buckets)."""
    v = Vec("reduce_unit", "reduce mode: the bucket clear, hits and misses per size, a settled alternation and its replay, a full queue, the stop's flush, B = 16K then 4K", depth=512, drain=4)
    v.head.append("# needs reduce (the RTL's reduce path: not in the gate netlist, rtl_variant.sh)")
    c = v.config(0, rate_h=1, len_h=0, rate_l=1, len_l=0, fmt=0x22, sync=256)
    v.w(c, REDUCE, 0x201, "EN, log2 k_0 = 2: B = 16K")
    v.w(c + 1, CTRL, 1, "the session starts at the next cycle; its buckets are cleared in the 28 after")
    s0 = c + 2
    v.a(s0 + 5, 0x80000000, 0, LOAD)   # during the clear: lost
    v.a(s0 + 28, 0x80009000, 0, LOAD)  # the clear's last clock: lost
    t = s0 + 29                        # the first access taken
    x, y, z = 0x80000000, 0x80001000, 0x80040000
    for k in range(8):  # x y x y ...: a settled alternation from its third step (skipped, then replayed)
        v.a(t, x if k % 2 == 0 else y, k == 5, LOAD)
        v.a(t + 3, (x if k % 2 == 0 else y) + 8, 0, LOAD)  # a repeat of the last page: nothing
        t += 40
    v.a(t, z, 1, STORE)  # a new page ends the alternation: its last step replayed, then z
    t += 80
    for k in range(30):  # a walk over 12 pages and back: hits at 4K (k = 4) decided later, misses kept now
        v.a(t, 0x80000000 + ((k * 5) % 12) * 4096, k % 4 == 0, LOAD)
        t += 60
    for k in range(40):  # an access every clock to new pages: the queue of 8 fills, accesses are lost
        v.a(t + k, 0x80100000 + k * 0x3000, 0, FETCH)
    t += 400
    v.a(t, x, 0, LOAD)   # x again: a hit at 4K, pending at the stop (the flush keeps it)
    v.stop(t + 2)
    c = t + 600
    v.w(c, REDUCE, 0x1, "log2 k_0 = 0: B = 4K, one entry per size")
    v.w(c + 1, CTRL, 1, "second session: 20 buckets to clear")
    t = c + 40
    for k in range(10):
        v.a(t, y if k % 3 else z, k % 2, LOAD)
        t += 50
    v.stop(t)
    return v


# ---- spatial mode: an independent model of the filter's rule (docs/trace-format.md 4.1) --------
# Written from the normative text, not from lib/mt_spatial.c, so that the vector below checks the
# C filter against the specification (the .svec holds the expected records; no C model makes them).

def splitmix64_h3():
    """H3[0..31]: the low 48 bits of SplitMix64's first 32 outputs from seed 0."""
    out, x = [], 0
    for _ in range(32):
        x = (x + 0x9E3779B97F4A7C15) & (2**64 - 1)
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
        out.append((z ^ (z >> 31)) & (2**48 - 1))
    return out


H3 = splitmix64_h3()
assert H3[0] == 0xA8397B1DCDAF and H3[31] == 0x35DEA8E40225  # the table in docs/trace-format.md 4.1
SPATIAL_SIZES = 10


def h3(p):
    return sum((bin(p & H3[b]).count("1") & 1) << b for b in range(32))


class SpatialSize:
    """One size's rate and bitmap: "Rates change", steps 1-3."""

    def __init__(self, rate, k, t):
        self.r, self.k, self.t, self.bits, self.doublings = rate.bit_length() - 1, k, t, set(), 0

    def keeps(self, p):
        return h3(p) & ((1 << self.r) - 1) == 0

    def index(self, p):
        h = h3(p)
        return sum(((h >> (self.r + (m - self.r) % self.k)) & 1) << m for m in range(self.k))

    def record(self, p):
        self.bits.add(self.index(p))
        while len(self.bits) > self.t and self.r < 16:
            self.bits = {j for j in self.bits if not (j >> (self.r % self.k)) & 1}
            self.r += 1
            self.doublings += 1


class SpatialModel:
    """Size-masked records of a spatial trace: repeats per size collapsed, settled alternations
    skipped and their last step replayed (docs/trace-format.md 4.1, the last paragraphs)."""

    def __init__(self, rate, k, t):
        self.size = [SpatialSize(max(1, rate >> i), k, t) for i in range(SPATIAL_SIZES)]
        self.last_mp = [None] * SPATIAL_SIZES
        self.last = self.prev = None
        self.steps, self.alt_ok, self.skipped = 0, False, None
        self.records, self.accesses, self.alt_skipped = [], 0, 0

    def emit(self, cycle, page, w):
        mask = 0
        for i, sz in enumerate(self.size):
            mp = page >> i
            if sz.keeps(mp) and self.last_mp[i] != mp:
                mask |= 1 << i
                self.last_mp[i] = mp
                sz.record(mp)
        if mask:
            self.records.append((cycle, page, w, mask))

    def access(self, cycle, addr, w):
        page = (addr & (2**56 - 1)) >> 12
        self.accesses += 1
        if page == self.last:
            return
        if page == self.prev:  # x y x: a step of an alternation
            self.prev, self.last = self.last, page
            self.steps += 1
            if self.steps == 1:  # skip only if no size of rate 1 tells x and y apart
                self.alt_ok = all(sz.r > 0 or (page >> i) == (self.prev >> i) for i, sz in enumerate(self.size))
            if self.alt_ok and self.steps > 2:
                self.skipped = (cycle, page, w)
                self.alt_skipped += 1
                return
        else:
            self.prev, self.last, self.steps = self.last, page, 0
        self.finish()
        self.emit(cycle, page, w)

    def finish(self):
        if self.skipped:
            skipped, self.skipped = self.skipped, None
            self.emit(*skipped)

    def rates(self):
        return [1 << sz.r for sz in self.size]


def spatial_doubling(d):
    """tests/golden/spatial_doubling.svec: the spatial rule with doublings (a 16-bit bitmap, T = 3,
    so that a few metapages double a rate), records derived by SpatialModel."""
    rate, k, t = 1, 4, 3
    m = SpatialModel(rate, k, t)
    acc, notes = [], []
    cyc = 10

    def a(page, w=0, why=""):
        nonlocal cyc
        before = (len(m.records), m.rates(), m.alt_skipped)
        m.access(cyc, 0x80000000 + page * 4096 + 8 * (cyc % 7), w)
        acc.append(f"a {cyc} {0x80000000 + page * 4096 + 8 * (cyc % 7):x} {int(w)}")
        new = m.records[before[0]:]
        what = ", ".join((f"the replay of @{r[0]}: " if r[0] != cyc else "") + f"record mask 0x{r[3]:03x}" for r in new) or ("skipped" if m.alt_skipped > before[2] else "no record")
        dbl = [f"{4 << i}K {before[1][i]}->{m.rates()[i]}" for i in range(SPATIAL_SIZES) if m.rates()[i] != before[1][i]]
        notes.append(f"# @{cyc} page +{page:#x}{' W' if w else ''}: {what}" + (f"; doubles {', '.join(dbl)}" if dbl else "") + (f"  ({why})" if why else ""))
        cyc += 1
    # 1. pairs of neighbouring 4 KiB pages far apart: 4K sees twice the distinct metapages of
    #    8K and doubles first; larger sizes follow as the pairs' metapages add up
    for n in range(6):
        a(n * 0x91, 0, "pair, first page")
        a(n * 0x91 + 1, n % 3 == 2, "pair, second page: a repeat from 8K on")
    # 2. back to the first pages: some are no longer kept at 4K's new rate
    for n in range(3):
        a(n * 0x91 + 1, 0, "revisit")
    # 3. an alternation x y x y ... of two pages of one 16K metapage, both kept at 4K's rate now:
    #    4K records its steps 1 and 2 (no size of rate 1 tells x and y apart: the skip is
    #    allowed), steps 3.. are skipped and the last one is replayed (a 4K record) when it ends
    base = 0x80000  # the first 4 KiB page of RAM; pages below are relative to it
    x, y = next((x, x ^ 3) for x in range(0x1000, 0x2000, 4)
                if m.size[0].keeps(base + x) and m.size[0].keeps(base + (x ^ 3)))
    for n in range(7):
        a(y if n & 1 else x, n == 4, "alternation step" if n >= 2 else "alternation")
    a(0x2345, 0, "a new page ends it: the last step replayed first")
    # 4. a walk over neighbouring pages: repeats at the large sizes, more doublings at the small
    for n in range(24):
        a(0x3000 + (n * 5) % 13, n % 4 == 0, "walk")
    m.finish()
    assert any(sz.doublings for sz in m.size[:1]) and sum(sz.doublings for sz in m.size[1:]) > 0
    assert m.alt_skipped > 0 and any(r[0] == 31 for r in m.records)  # the replayed step
    with open(os.path.join(d, "spatial_doubling.svec"), "w") as f:
        f.write("""# Spatial mode golden vector with doublings (docs/trace-format.md 4.1 "Rates change"): written by
# tests/golden/make_vectors.py, whose SpatialModel derives the records from the specification's
# text (not from lib/mt_spatial.c); tests/unit/test_lib_spatial.c checks the C filter
# (mt_spatial_init_rule) and the reader's replay of the rule (mt_spatial_counter_record) against it.
#   rate N / rule K T / a CYCLE ADDR W / r CYCLE VALUE W / t KEY=VALUE: as in spatial_example.svec
#   (rule: a bitmap of 2^K bits and threshold T instead of mtemu's K = 14, T = 8192)
# Pages below are 4 KiB page numbers relative to 0x80000.
""")
        f.write(f"rate {rate}\nrule {k} {t}\n")
        for line, note in zip(acc, notes):
            f.write(note + "\n" + line + "\n")
        f.write(f"# end: {m.alt_skipped} alternation steps skipped; doublings per size "
                f"{','.join(str(sz.doublings) for sz in m.size)}\n")
        for c, page, w, mask in m.records:
            f.write(f"r {c} {(page << 12) | mask:x} {int(w)}\n")
        f.write(f"t trace.accesses={m.accesses}\n")
        f.write(f"t trace.spatial_final_rates={','.join(str(r) for r in m.rates())}\n")


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for v in [worked_example(), every_packet(), formats(), overflow(), overflow_at_end(), dense_r1(), filters(), no_spans(),
              spatial_unit(), reduce_unit()]:
        v.save(d)
    spatial_doubling(d)


if __name__ == "__main__":
    main()
