#!/usr/bin/env bash
# Gate-level co-simulation: the netlist yosys synthesizes for the iCE40 (gate_netlist.sh, the flow
# of make synth), simulated with yosys' models of the iCE40 cells, against the C model: golden
# vectors and random streams.  It sees what synthesis makes of the RTL, which the RTL simulations
# cannot: yosys 0.23 with -dsp rewrote the unit's SB_MAC16 counters into combinational adders, and
# every netlist placed and timed until this test existed had them so.
exec "$(dirname "$0")/rtl_variant.sh" gate 11 120
