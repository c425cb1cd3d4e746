#!/usr/bin/env bash
# The reduce path's filter (rtl_model/rtl/mt_tu_reduce.sv) against its C model
# (lib/mt_unit_reduce.c), clock for clock: random streams (fetch/data alternations, moves, jumps,
# accesses every clock or with gaps, budgets 4K..4M) with every access's taken/lost, the records
# in order, the engine's clocks and the forced slots compared; a small window and queue (W 16,
# Q 4) and a larger one (W 64, Q 8).  docs/trace-unit-rtl.md "The reduce path".
set -u
b="${BUILD:-build}/rtl"
run() { # name binary args...
  local name=$1 bin=$2; shift 2
  if "$bin" "$@"; then echo "PASS $name"; else echo "FAIL $name"; fi
}
run rtl_reduce_cosim_w16 "$b/reduce-w16/obj/mt_reduce_cosim" --seed 31 --streams 120 --len 2000
run rtl_reduce_cosim_w64 "$b/reduce-w64/obj/mt_reduce_cosim" --seed 32 --streams 120 --len 2000
