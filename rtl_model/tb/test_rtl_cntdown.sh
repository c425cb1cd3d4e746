#!/usr/bin/env bash
# The section count-down kept in two halves with a registered borrow (mt_tu_cntdown) against a
# plain 40-bit count-down, clock for clock (module level: counts through the borrow and to zero
# from past 2^20, loads with a borrow pending); and the whole unit against the C model with
# sections of about 2^20 and 2^21 cycles (mt_cosim --long), which end only through the high half.
# About 5 s of CPU for the second (4.6 M cycles of the unit in lockstep with the model).
set -u
cd "$(dirname "$0")/../.."
tb="${BUILD:-build}/rtl/cntdown/obj/mt_cntdown_tb"
if "$tb"; then echo "PASS rtl_cntdown_module"; else echo "FAIL rtl_cntdown_module"; fi
if "${BUILD:-build}/rtl/mt_cosim" --long --seed 5 --streams 2 --cycles 2300000; then
  echo "PASS rtl_cntdown_long_sections"
else
  echo "FAIL rtl_cntdown_long_sections"
fi
