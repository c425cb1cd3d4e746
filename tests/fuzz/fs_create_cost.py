#!/usr/bin/env python3
"""The system time a file system charges for creating small files, as libFuzzer creates the
inputs it keeps (one file each, about 400 bytes): creates N files in DIR, deletes them, three
rounds, and prints each round's system seconds.  On an ext4 without a journal a creation costs
more the more files were lately deleted (docs/robustness.md, eleventh session); compare a
directory there with one in /dev/shm."""
import os
import sys


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: fs_create_cost.py DIR [N]")
    d, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else 1000
    os.makedirs(d, exist_ok=True)
    data = b"x" * 400
    for rnd in range(3):
        names = [os.path.join(d, "fs_create_cost-%d-%06d" % (rnd, i)) for i in range(n)]
        t0 = os.times()
        for name in names:
            with open(name, "wb") as f:
                f.write(data)
        t1 = os.times()
        for name in names:
            os.unlink(name)
        t2 = os.times()
        print("round %d: %d files created in %.3f system s, deleted in %.3f" %
              (rnd, n, t1.system - t0.system, t2.system - t1.system))


if __name__ == "__main__":
    main()
