# Busy inputs for fuzz_unit_modes (docs/robustness.md, fifth session, "The act at a stalled
# stretch's end"): python3 tests/fuzz/busy_inputs.py DIR writes 312 of them into DIR.
# LEN_H 2, LEN_L 3, SYNC_PERIOD 1, then accesses a cycle apart but for a long gap every
# third or fifth item, up to the 20,000-cycle bound; FIFO 32 or 1,052 bytes, drain 1 or 8.
import os, sys
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
def w(idx, x2, x3):
    return bytes([0x00, 0xE0 + idx, x2, x3])
CTRL, SYNC, RATE_H, RATE_L, LEN_H_LO, LEN_L_LO, LEN_L_HI, MARKER = 0, 4, 5, 6, 7, 9, 10, 11
n = 0
for depth_b, drain_b in ((0, 0), (255, 7), (0, 7), (255, 0)):
    for every in (3, 5):
        for gapk in (20, 60, 127):
            for copy in range(13):
                d = bytearray([depth_b, drain_b])
                d += w(LEN_H_LO, 0, 2) + w(LEN_L_LO, 0, 3) + w(LEN_L_HI, 0, 0)
                d += w(SYNC, 0, 1) + w(RATE_H, 1, 0) + w(RATE_L, 2, 0) + w(CTRL, 0, 1)
                c = 1
                i = 0
                while len(d) + 4 <= 1024 and c < 20500:
                    if i % every == every - 1:
                        x0 = 0x80 | ((gapk + copy) % 128 or 1)
                        c += (x0 & 0x7f) * 97
                    else:
                        x0 = 0x01
                        c += 1
                    page = (i * 7 + copy) % 11
                    d += bytes([x0, (i % 2) | (((i // 3) % 3) << 1), page & 0xff, (i * 13 + copy) & 0xff])
                    i += 1
                open(os.path.join(out, 'busy-%03d' % n), 'wb').write(bytes(d))
                n += 1
print(n, 'inputs')
