#!/usr/bin/env bash
# Meta-paging bench (make bench-metapaging).  Ratios are against references measured in this run.
set -euo pipefail
BUILD=${BUILD:-build}; BIN=${BIN:-$BUILD/bin}; FWBUILD=${FWBUILD:-build/firmware}
echo "== meta-pager fault path alone (256 MiB swept, 8 MiB budget, LRU): $BUILD/tests/mpbench"
nice -n 10 "$BUILD/tests/mpbench"
