#!/usr/bin/env python3
"""Writes the golden access vectors (tests/golden/*.vec). Deterministic: a fixed PRNG.
Format: tests/golden/README.md. Run via `make golden`, which also regenerates *.exp/*.dec."""
import os
import sys

CTRL, KIND_MASK, TAP, FMT, SYNC_PERIOD = 0x08, 0x18, 0x1C, 0x20, 0x24
RATE_H, RATE_L, LEN_H_LO, LEN_H_HI, LEN_L_LO, LEN_L_HI, MARKER = 0x28, 0x2C, 0x30, 0x34, 0x38, 0x3C, 0x40
SPATIAL = 0x60
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


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for v in [worked_example(), every_packet(), formats(), overflow(), overflow_at_end(), dense_r1(), filters(), no_spans(),
              spatial_unit()]:
        v.save(d)


if __name__ == "__main__":
    main()
