# The yosys flow for the iCE40, sourced by run_synth.sh (place and route) and gate_netlist.sh (the
# netlist that the gate-level co-simulation runs), so that what is simulated is what is placed.
#   SYNTH_FLAGS  synth_ice40's options
#   ABC9_SCRIPT  yosys commands put before synth_ice40
#
# -abc9: yosys' timing-driven ABC9 flow (LUT mapping with the iCE40 box delays).  No -dsp: yosys
# 0.23's ice40_dsp pass takes every SB_MAC16 in the design for a multiplier of its own making and
# rewrites its parameters and ports (CLK and CE tied to 0, combinational output select), so the
# unit's counters in mt_tu_acc were combinational adders in every netlist synthesized with -dsp;
# they still counted 8 SB_MAC16, placed and timed (found by the gate-level co-simulation, which
# diverged in its first SYNC: the cycle counter read 0).  The design infers no multiplier, so -dsp
# has nothing else to do.  SYNTH_FLAGS= (empty) gives the plain flow for comparison.
SYNTH_FLAGS=${SYNTH_FLAGS--abc9 -device u}
# ABC9's default script ends in &mfs, which aborts on this design in Debian's berkeley-abc
# (giaMfs.c assertion); yosys then silently keeps the mapping written before it.  Say so
# explicitly: the default script without &mfs (same result, no abort).
# ABC9_EXTRA: yosys commands put before it, for experiments (e.g. 'scratchpad -set
# synth_ice40.abc9.W 2000; ', ABC9's wire delay in ps).
ABC9_SCRIPT="${ABC9_EXTRA:-}"'scratchpad -set abc9.script +&scorr;&sweep;&dc2;&dch,-f;&ps;&if,{C},{W},{D},{R},-v;'
case " $SYNTH_FLAGS " in *" -abc9 "*) ;; *) ABC9_SCRIPT= ;; esac
