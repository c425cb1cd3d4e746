#!/usr/bin/env bash
# The interpreter's dispatch as the build is meant to make it (emu/module.mk, docs/emulator.md
# "Execution model"): cpu.c compiled position-dependent and mtemu linked -no-pie, so that each
# `goto *handler[op]` reads the handler table at a link-time address (`jmp *ADDR(,%reg,8)` or
# `mov ADDR(,%reg,8),%reg`) instead of first making the table's address from the pc.  A build
# that lost either flag still runs every program alike, only slower (bench_cpu's first 2 x 10^7
# instructions: 237.7 M host instructions instead of 247.1 M), which no other test would see.
set -u
BIN=${BIN:-build/bin}
EMU=$BIN/mtemu
fails=0
pass() { echo "PASS dispatch-build/$1"; }
fail() { echo "FAIL dispatch-build/$1: $2"; fails=$((fails + 1)); }
command -v readelf >/dev/null && command -v objdump >/dev/null || { echo "needs readelf and objdump (binutils)"; exit 77; }
[ -x "$EMU" ] || { echo "FAIL dispatch-build/mtemu: $EMU is not an executable"; exit 1; }

type=$(readelf -h "$EMU" | sed -n 's/^ *Type: *\([A-Z]*\).*/\1/p')
if [ "$type" = EXEC ]; then pass elf-type; else fail elf-type "$EMU is ELF type '$type', not EXEC (linked without -no-pie?)"; fi

# interpreter_runs' dispatches: the handler table at an absolute address, none rip-relative
dis=$(objdump -d --no-show-raw-insn "$EMU" | awk '/^[0-9a-f]+ <interpreter_runs>:$/ {p = 1; next} p && /^$/ {exit} p')
if [ -z "$dis" ]; then
  fail disassembly "no interpreter_runs in $EMU (stripped?)"
else
  absolute=$(grep -cE '(jmp +\*|mov +)0x[0-9a-f]+\(,%r[a-z0-9]+,8\)' <<<"$dis")
  relative=$(grep -cE 'lea +0x[0-9a-f]+\(%rip\),%r[a-z0-9]+ +# [0-9a-f]+ <handler' <<<"$dis")
  if [ "$absolute" -ge 100 ] && [ "$relative" -eq 0 ]; then
    pass absolute-table
  else
    fail absolute-table "interpreter_runs has $absolute table reads at absolute addresses and $relative table addresses made from the pc (want >= 100 and 0: cpu.c compiled without -fno-pie?)"
  fi
fi
exit $((fails > 0))
