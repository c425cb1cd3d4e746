#!/bin/sh
# The every-access recorder's short paths against the general ones, the same .mtr byte for byte
# and its decoded sample count equal to the run's --stats count: emu/trace/tracedev.c
# every_access_listener (installed while the unit is idle) against tracedev_listener, which a
# unit beside it forces (the C model with a session, the RTL backend); and tracectl's all_access
# as the recorder's own call (--trace-all alone) against rec_access, which the reduce filter
# beside it forces.  The guest-programmed case (trace_regs: sessions started and stopped by
# register writes) switches the alone run between the two listeners at every write.
# A mutant listener that drops one access in 1000 fails three of the four.
set -u
BUILD=${BUILD:-build} BIN=${BIN:-$BUILD/bin} FWBUILD=${FWBUILD:-build/firmware}
MTEMU=$BIN/mtemu MT=$BIN/metatrace
T=$(mktemp -d "${TMPDIR:-/tmp}/trace-all-listener.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

# check NAME ELF "ALL-OPTIONS" "BESIDE-OPTIONS": one PASS/FAIL line
check() {
    name=$1 elf=$2 allopt=$3 beside=$4
    # shellcheck disable=SC2086 # the option lists are word lists
    "$MTEMU" -q --stats --trace-all "$T/alone.mtr" $allopt "$elf" >"$T/alone.log" 2>&1 ||
        { echo "FAIL $name (mtemu alone)"; cat "$T/alone.log"; return; }
    # shellcheck disable=SC2086
    "$MTEMU" -q --stats --trace-all "$T/beside.mtr" $allopt $beside "$elf" >"$T/beside.log" 2>&1 ||
        { echo "FAIL $name (mtemu beside)"; cat "$T/beside.log"; return; }
    stats=$(sed -n 's/^trace.all *\([0-9]*\) accesses recorded.*/\1/p' "$T/alone.log")
    decoded=$("$MT" info "$T/alone.mtr" 2>/dev/null | sed -n 's/^samples: \([0-9]*\).*/\1/p')
    echo "  $name: $stats accesses recorded, $decoded decoded"
    if [ -n "$stats" ] && [ "$stats" -gt 1000 ] && [ "$stats" = "$decoded" ] && cmp -s "$T/alone.mtr" "$T/beside.mtr"; then
        echo "PASS $name"
    else
        echo "FAIL $name"
    fi
}

check trace-all-alone-vs-model "$FWBUILD/qsort.elf" "" "--trace $T/unit.mtr"
check trace-all-alone-vs-rtl-guest-sessions "$FWBUILD/e2e/trace_regs.elf" "" "--trace-unit=rtl"
check trace-all-ram-loadstore-vs-reduce "$FWBUILD/pchase.elf" "--trace-all-ram --trace-all-kinds load,store" \
    "--trace-mode reduce --trace $T/red.mtr"
check trace-all-cache-timing-vs-model "$FWBUILD/wss.elf" "--timing=cache --max-insns 2000000" "--trace $T/unit.mtr"
exit 0
