#!/usr/bin/env bash
# The RTL is clean under `verilator --lint-only -Wall`, and yosys 0.23 (the synthesis front end)
# reads and elaborates every module with the top's default parameters.
set -u
cd "$(dirname "$0")/../.."
srcs=(rtl_model/rtl/mt_tu_pkg.sv $(ls rtl_model/rtl/*.sv | grep -v _pkg.sv))
if out=$(verilator --lint-only -Wall --top-module mt_tu "${srcs[@]}" 2>&1); then
  echo "PASS rtl_lint_verilator"
else
  echo "$out" | head -n 30; echo "FAIL rtl_lint_verilator"
fi
# the minimal build (FullFmt = 0) too, with the synthesis harness's FIFO (4096 bytes, a 4-byte
# port: 4 lanes): its constants must not leave unused or undriven logic
if out=$(verilator --lint-only -Wall -GFullFmt=0 -GDepth=4096 -GDrain=4 --top-module mt_tu "${srcs[@]}" 2>&1); then
  echo "PASS rtl_lint_verilator_minimal"
else
  echo "$out" | head -n 30; echo "FAIL rtl_lint_verilator_minimal"
fi
if out=$(yosys -q -p "read_verilog -sv ${srcs[*]} rtl_model/synth/mt_tu_sg48.sv; hierarchy -check -top mt_tu_sg48; proc; check -assert" 2>&1); then
  echo "PASS rtl_yosys_elaborate"
else
  echo "$out" | tail -n 30; echo "FAIL rtl_yosys_elaborate"
fi
