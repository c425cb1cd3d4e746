#!/usr/bin/env bash
# Constrained-random co-simulation, C model vs RTL (rtl_model/tb/mt_cosim.c): random register
# programs, access streams and FIFO parameters (depth 32..65536, drain 1..16, small FIFOs to force
# overflow).  Fixed seeds: the same streams every run; a divergence prints its cycle, the packets
# around the first differing byte on both sides and the recent inputs.
set -u
cosim="${BUILD:-build}/rtl/mt_cosim"
run() { # name args...
  local name=$1; shift
  if "$cosim" "$@"; then echo "PASS $name"; else echo "FAIL $name"; fi
}
run rtl_cosim_short "$@" --seed 1 --streams 400 --cycles 3000
run rtl_cosim_long --seed 2 --streams 8 --cycles 60000
# every stream from a reset that cut off a session (the pipeline's data registers have no reset)
run rtl_cosim_warm_reset --warm-reset --seed 3 --streams 200 --cycles 3000
