#!/usr/bin/env bash
# Gate-level co-simulation: the netlist yosys synthesizes for the iCE40 (gate_netlist.sh, the flow
# of make synth), simulated with yosys' models of the iCE40 cells, against the C model: golden
# vectors and random streams.  It sees what synthesis makes of the RTL, which the RTL simulations
# cannot: yosys 0.23 with -dsp rewrote the unit's SB_MAC16 counters into combinational adders, and
# every netlist placed and timed until this test existed had them so.
set -u
cd "$(dirname "$0")/../.."
d="${BUILD:-build}/rtl/gate"
for v in tests/golden/*.vec; do
  name=$(basename "$v" .vec)
  if "$d/mt_rtl_tb" "$v" "${v%.vec}.exp" >/dev/null; then echo "PASS rtl_gate_golden_$name"; else echo "FAIL rtl_gate_golden_$name"; fi
done
if "$d/mt_cosim" --seed 11 --streams 120 --cycles 3000; then echo "PASS rtl_gate_cosim"; else echo "FAIL rtl_gate_cosim"; fi
