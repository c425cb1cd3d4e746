#!/usr/bin/env python3
"""Draws the miss-ratio curve of a trace with matplotlib: the fraction of accesses that miss a
fully associative LRU memory of N pages, for every N, from one pass (stack distances).

usage: mrc.py TRACE.mtr OUT.png [--page-size 4096] [--section burst|span|all]

The samples come from the metatrace Python package (installed by make install). A sampled trace
gives the curve of its samples; an every-access trace (mtemu --trace-all) the exact one."""
import argparse
import sys

import numpy as np

import metatrace


def stack_distances(pages):
    """LRU stack distance of each access (-1 for a first touch): O(n log n) with a Fenwick tree
    over access times, counting the distinct pages touched since the page's last use."""
    n = len(pages)
    tree = np.zeros(n + 1, dtype=np.int64)
    last = {}
    dist = np.empty(n, dtype=np.int64)

    def add(i, v):
        i += 1
        while i <= n:
            tree[i] += v
            i += i & -i

    def prefix(i):  # sum of [0, i)
        s = 0
        while i > 0:
            s += tree[i]
            i -= i & -i
        return s

    live = 0
    for t, p in enumerate(pages.tolist()):
        prev = last.get(p)
        if prev is None:
            dist[t] = -1
        else:
            dist[t] = live - prefix(prev + 1)  # live pages last used after prev
            add(prev, -1)
            live -= 1
        add(t, 1)
        live += 1
        last[p] = t
    return dist


def miss_ratio_curve(dist):
    """(sizes, miss ratios): an access hits in N pages when its stack distance is < N."""
    n = len(dist)
    reuse = np.sort(dist[dist >= 0])
    sizes = np.unique(np.concatenate(([1], np.geomspace(1, max(reuse.max() + 2, 2) if len(reuse) else 2,
                                                         64).astype(np.int64))))
    hits = np.searchsorted(reuse, sizes, side="left")
    return sizes, 1.0 - hits / n


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--page-size", type=int, default=4096)
    ap.add_argument("--section", choices=("burst", "span", "all"), default="all")
    a = ap.parse_args(argv)
    try:
        with metatrace.open(a.trace) as t:
            parts = []
            for chunk in t.chunks():
                if a.section != "all":
                    chunk = chunk[chunk["section"] == metatrace.SECTIONS.index(a.section)]
                parts.append(chunk["address"] // a.page_size)
    except metatrace.TraceError as e:
        print(f"mrc.py: {e}", file=sys.stderr)
        return 1
    pages = np.concatenate(parts) if parts else np.empty(0, dtype=np.uint64)
    if len(pages) == 0:
        print(f"mrc.py: {a.trace}: no samples", file=sys.stderr)
        return 1
    sizes, ratio = miss_ratio_curve(stack_distances(pages))

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.step(sizes * a.page_size / 2**20, ratio, where="post")
    ax.set_xscale("log")
    ax.set_xlabel(f"resident memory (MiB, {a.page_size}-byte pages, LRU)")
    ax.set_ylabel("miss ratio")
    ax.set_title(f"{a.trace}: {len(pages)} samples")
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(a.out, metadata={"Software": None})
    for s, r in zip(sizes, ratio):
        print(f"{s} pages  {r:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
