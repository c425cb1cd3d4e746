#!/usr/bin/env bash
# Constrained-random co-simulation, C model vs RTL (rtl_model/tb/mt_cosim.c), on two RTL builds:
# the default FIFO (4096 bytes, drain 8) and a small one (48 bytes, drain 3) that overflows often.
# Fixed seeds: the same streams every run; a divergence prints its cycle, packets and inputs.
set -u
dir="${BUILD:-build}/rtl"
run() { # name binary args...
  local name=$1; shift
  if "$@"; then echo "PASS $name"; else echo "FAIL $name"; fi
}
run rtl_cosim_default "$dir/mt_cosim" --seed 1 --streams 300 --cycles 3000
run rtl_cosim_default_long "$dir/mt_cosim" --seed 2 --streams 6 --cycles 60000
run rtl_cosim_small_fifo "$dir/mt_cosim_small" --seed 3 --streams 300 --cycles 3000
