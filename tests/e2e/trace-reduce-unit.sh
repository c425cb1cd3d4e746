#!/bin/sh
# mtemu --trace-mode reduce --trace-reduce-unit (the C model of the unit's reduce path,
# lib/mt_unit_reduce.h; docs/trace-unit-rtl.md "The reduce path"): the trace says so in its header
# (trace.reduce_unit=1, window, queue) and its trailer (trace.reduce_unit_lost, the --stats line's
# lost count), metatrace reads it (info, policy), its record count is the --stats line's; the
# option without --trace-mode reduce is refused by name (exit 2).  The records' exactness (of the
# accesses taken) and the RTL's equality with the model are tests/unit/test_lib_unit_reduce.c and
# rtl_model/tb/test_rtl_reduce.sh.
set -u
BUILD=${BUILD:-build} BIN=${BIN:-$BUILD/bin} FWBUILD=${FWBUILD:-build/firmware}
MTEMU=$BIN/mtemu MT=$BIN/metatrace
T=$(mktemp -d "${TMPDIR:-/tmp}/trace-reduce-unit.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

# run NAME ELF ARGS
run() {
    name=$1 elf=$2 args=$3
    if ! "$MTEMU" -q --stats -m 16M --append "$args" --trace-mode reduce --trace-reduce-unit --trace-reduce-budget 64K \
        --trace "$T/u.mtr" "$FWBUILD/$elf" >/dev/null 2>"$T/err"; then
        echo "FAIL $name (mtemu)"; cat "$T/err"; return
    fi
    line=$(grep '^trace.reduce_unit ' "$T/err")
    lost=$(echo "$line" | sed -n 's/.* \([0-9]*\) lost,.*/\1/p')
    recs=$(echo "$line" | sed -n 's/.* \([0-9]*\) records,.*/\1/p')
    "$MT" info "$T/u.mtr" >"$T/info" 2>&1 || { echo "FAIL $name (metatrace info)"; cat "$T/info"; return; }
    "$MT" policy "$T/u.mtr" --sizes 4K..2M --budgets 64K,128K --policies lru --format csv >"$T/p.csv" 2>"$T/perr" \
        || { echo "FAIL $name (metatrace policy)"; cat "$T/perr"; return; }
    got=$("$MT" decode "$T/u.mtr" 2>/dev/null | grep -vc "^#")
    if [ -n "$lost" ] && grep -q "trace.reduce_unit=1" "$T/info" && grep -q "trace.reduce_window=64" "$T/info" \
        && grep -q "trace.reduce_unit_lost=$lost\$" "$T/info" && [ "$got" -eq "$recs" ] && [ "$recs" -gt 0 ]; then
        echo "PASS $name ($line)" | cut -c1-200
    else
        echo "FAIL $name (stats: '$line', decoded lines $got)"; cat "$T/info"
    fi
}
run trace-reduce-unit-memcpy memcpy.elf "size=4K iters=1"
run trace-reduce-unit-pchase pchase.elf "size=64K stride=64"

"$MTEMU" -q --trace "$T/x.mtr" --trace-reduce-unit "$FWBUILD/seq.elf" >/dev/null 2>"$T/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q -- "--trace-reduce-unit" "$T/err"; then
    echo "PASS trace-reduce-unit-bad-option"
else
    echo "FAIL trace-reduce-unit-bad-option (exit $rc)"; cat "$T/err"
fi
