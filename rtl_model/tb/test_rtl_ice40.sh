#!/usr/bin/env bash
# The iCE40 variant of the RTL (MT_TU_ICE40: the SB_RAM40_4K configuration RAMs and the SB_MAC16
# counters that synthesis sees), simulated with yosys' models of those primitives: every golden
# vector, and random co-simulation against the C model (register reads included: the simulation
# library checks the registered read port, i.e. the block RAMs' answers, a clock after each read).
# Built with the synthesis harness's FIFO (D 4096, N 4: module.mk), so the vector with N = 8 is
# skipped here (the plain and gate builds run it).
exec "$(dirname "$0")/rtl_variant.sh" ice40 3 200 4
