#!/usr/bin/env bash
# The reduce path's filter (rtl_model/rtl/mt_tu_reduce.sv) against its C model
# (lib/mt_unit_reduce.c), clock for clock: every access's taken/lost, the records in order and the
# clock each leaves, the engine's clocks and the forced slots.  Random streams (fetch/data
# alternations, moves, jumps, accesses every clock or with gaps, budgets 4K..4M) with a small
# window and queue (W 16, Q 4) and a larger one (W 64, Q 8); and firmware runs: each workload's
# every-access stream (mtemu --trace-all --trace-all-ram) at budgets 4K, 64K and 4M, W 64, Q 8.
# docs/trace-unit-rtl.md "The reduce path".
set -u
BUILD=${BUILD:-build} BIN=${BIN:-$BUILD/bin} FWBUILD=${FWBUILD:-build/firmware}
b="$BUILD/rtl"
T=$(mktemp -d "${TMPDIR:-/tmp}/test-rtl-reduce.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
run() { # name binary args...
  local name=$1 bin=$2; shift 2
  if "$bin" "$@"; then echo "PASS $name"; else echo "FAIL $name"; fi
}
run rtl_reduce_cosim_w16 "$b/reduce-w16/obj/mt_reduce_cosim" --seed 31 --streams 120 --len 2000
run rtl_reduce_cosim_w64 "$b/reduce-w64/obj/mt_reduce_cosim" --seed 32 --streams 120 --len 2000
fw() { # name elf args
  local name=$1 elf=$2 args=$3
  if ! "$BIN/mtemu" -q -m 16M --trace-all "$T/a.mtr" --trace-all-ram --append "$args" "$FWBUILD/$elf" \
      >/dev/null 2>"$T/err"; then
    echo "FAIL $name (mtemu)"; cat "$T/err"; return
  fi
  run "$name" "$b/reduce-w64/obj/mt_reduce_cosim" --trace "$T/a.mtr"
}
fw rtl_reduce_lockstep_memcpy memcpy.elf "size=4K iters=1"
fw rtl_reduce_lockstep_pchase pchase.elf "size=64K stride=64"
fw rtl_reduce_lockstep_random random.elf "size=64K iters=1"
fw rtl_reduce_lockstep_wss wss.elf "min=16K max=64K iters=1"
fw rtl_reduce_lockstep_hyp hyp.elf ""
