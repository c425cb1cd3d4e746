#!/bin/sh
# test-timeout: 600
# Reduce mode end to end (docs/metapaging.md "Exact reduction"): on firmware workloads whose
# working set exceeds the reduction budget B, `metatrace policy` on the reduced trace
# (mtemu --trace-mode reduce) gives the same LRU and OPT fault counts as on the every-access truth
# of the same run (--trace-all --trace-all-ram, same kinds and tap) at every metapage size 4K..2M
# and every budget >= B, and labels those rows exact; mtemu refuses bad mode options by name
# (exit 2); metatrace refuses a trace whose mode it does not know.
set -u
BUILD=${BUILD:-build} BIN=${BIN:-$BUILD/bin} FWBUILD=${FWBUILD:-build/firmware}
MTEMU=$BIN/mtemu MT=$BIN/metatrace
T=$(mktemp -d "${TMPDIR:-/tmp}/trace-reduce.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

# check NAME ELF ARGS B BUDGETS
check() {
    name=$1 elf=$2 args=$3 b=$4 budgets=$5
    "$MTEMU" -q -m 16M --append "$args" --trace-mode reduce --trace-reduce-budget "$b" --trace "$T/r.mtr" \
        --trace-all "$T/a.mtr" --trace-all-ram "$FWBUILD/$elf" >/dev/null 2>"$T/err" \
        || { echo "FAIL $name (mtemu)"; cat "$T/err"; return; }
    for f in r a; do
        "$MT" policy "$T/$f.mtr" --sizes 4K..2M --budgets "$budgets" --budget "$b" --policies lru,opt \
            --format csv >"$T/$f.csv" 2>"$T/err" || { echo "FAIL $name (metatrace policy $f)"; cat "$T/err"; return; }
        # policy,size,budget,faults
        awk -F, 'NR > 1 { print $1 "," $2 "," $4 "," $6 }' "$T/$f.csv" | sort >"$T/$f.rows"
    done
    n=$(wc -l <"$T/a.rows")
    inexact=$(awk -F, 'NR > 1 && $13 != "exact"' "$T/r.csv" | wc -l)
    ra=$(stat -c %s "$T/a.mtr") rr=$(stat -c %s "$T/r.mtr")
    if [ "$n" -ge 40 ] && [ "$inexact" -eq 0 ] && cmp -s "$T/a.rows" "$T/r.rows"; then
        echo "PASS $name ($n configurations equal, all exact; $rr bytes against $ra)"
    else
        echo "FAIL $name ($n configurations, $inexact not labelled exact)"
        diff "$T/a.rows" "$T/r.rows" | head -20
    fi
}
check trace-reduce-exact-random random.elf "size=512K iters=1" 128K 128K,256K,384K,512K,1M
check trace-reduce-exact-wss wss.elf "min=64K max=512K iters=1" 64K 64K,128K,256K,512K,1M
check trace-reduce-exact-pchase pchase.elf "size=256K stride=64" 64K 64K,128K,192K,256K,512K

# bad options: a named error and exit 2
bad() {
    name=$1
    shift
    "$MTEMU" -q "$@" "$FWBUILD/seq.elf" >/dev/null 2>"$T/err"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -q -- "$name" "$T/err"; then
        echo "PASS trace-reduce-bad-option $name $*"
    else
        echo "FAIL trace-reduce-bad-option $* (exit $rc)"
        cat "$T/err"
    fi
}
bad --trace-mode --trace "$T/x.mtr" --trace-mode bogus
bad --trace-reduce-budget --trace "$T/x.mtr" --trace-mode reduce --trace-reduce-budget 1000
bad --trace-reduce-budget --trace "$T/x.mtr" --trace-mode reduce --trace-reduce-budget 2G
bad --trace-reduce-budget --trace "$T/x.mtr" --trace-mode reduce --trace-reduce-budget 6K
# reduce through the unit (--trace-unit=rtl|both) holds budgets 4K << k up to 4M only
bad --trace-reduce-budget --trace "$T/x.mtr" --trace-mode reduce --trace-unit=rtl --trace-reduce-budget 8M
# the self-check: sizes 4K..2M or all, and only beside the software filter of a reduce trace
bad --trace-reduce-check --trace "$T/x.mtr" --trace-mode reduce --trace-reduce-check 3M
bad --trace-reduce-check --trace "$T/x.mtr" --trace-mode reduce --trace-reduce-check 1M,,2M
bad --trace-reduce-check --trace "$T/x.mtr" --trace-reduce-check all
bad --trace-reduce-check --trace "$T/x.mtr" --trace-mode reduce --trace-unit=rtl --trace-reduce-check all
bad --trace-spatial-rate --trace "$T/x.mtr" --trace-mode spatial --trace-spatial-rate 3
bad --trace-spatial-rate --trace "$T/x.mtr" --trace-mode spatial --trace-spatial-rate 0
bad --trace-spatial-rate --trace "$T/x.mtr" --trace-mode spatial --trace-spatial-rate 131072
bad --trace-spatial-rate --trace "$T/x.mtr" --trace-mode spatial --trace-spatial-rate x
bad --trace-spatial-unit --trace "$T/x.mtr" --trace-spatial-unit

# spatial: the header names the mode and its parameters, the trailer the accesses seen; policy
# counts those accesses (fault_rate per access, not per record), for reduce too
"$MTEMU" -q --trace-mode spatial --trace-spatial-rate 4 --trace "$T/sp.mtr" "$FWBUILD/seq.elf" >/dev/null 2>&1
"$MT" info "$T/sp.mtr" >"$T/spi" 2>&1
acc=$(sed -n 's/.*trailer: trace.accesses=\([0-9]*\)$/\1/p' "$T/spi")
recs=$(sed -n 's/^samples: \([0-9]*\).*/\1/p' "$T/spi")
if grep -q "trace.mode=spatial" "$T/spi" && grep -q "trace.spatial_rate=4$" "$T/spi" &&
   grep -q "trace.spatial_rates=4,2,1,1,1,1,1,1,1,1$" "$T/spi" && grep -q "trace.spatial_max=8192$" "$T/spi" && grep -q "trace.spatial_rule=bitmap-14$" "$T/spi" &&
   grep -q "trailer: trace.spatial_final_rates=" "$T/spi" && [ -n "$acc" ] && [ "$acc" -gt "$recs" ]; then
    echo "PASS trace-spatial-header-and-trailer ($acc accesses, $recs records)"
else
    echo "FAIL trace-spatial-header-and-trailer"
    cat "$T/spi"
fi
"$MT" policy "$T/sp.mtr" --sizes 4K,2M --budgets 1M --format csv >"$T/spp.csv" 2>"$T/err"
if [ -n "$acc" ] && awk -F, -v a="$acc" 'NR > 1 && $5 != a { bad = 1 } NR > 1 { n++ } END { exit !(n > 0 && !bad) }' "$T/spp.csv" &&
   grep -q ',estimate,' "$T/spp.csv" && grep -q '^policy,.*,fidelity,error_bar$' "$T/spp.csv"; then
    echo "PASS trace-spatial-policy-counts-accesses"
else
    echo "FAIL trace-spatial-policy-counts-accesses"
    cat "$T/spp.csv" "$T/err"
fi
# (beside --trace-all, where the reduce filter hears every access; alone it hears only the
# changes of page and its trailer says trace.page_changes instead)
"$MTEMU" -q --trace-mode reduce --trace "$T/rd.mtr" --trace-all "$T/rda.mtr" "$FWBUILD/seq.elf" >/dev/null 2>&1
"$MTEMU" -q --trace-mode reduce --trace "$T/rdf.mtr" "$FWBUILD/seq.elf" >/dev/null 2>&1
if "$MT" info "$T/rdf.mtr" 2>/dev/null | grep -q 'trailer: trace.page_changes=[0-9]' &&
   ! "$MT" info "$T/rdf.mtr" 2>/dev/null | grep -q 'trace.accesses='; then
    echo "PASS trace-reduce-filtered-trailer"
else
    echo "FAIL trace-reduce-filtered-trailer"; "$MT" info "$T/rdf.mtr"
fi
racc=$("$MT" info "$T/rd.mtr" 2>/dev/null | sed -n 's/.*trailer: trace.accesses=\([0-9]*\)$/\1/p')
if [ -n "$racc" ] && "$MT" policy "$T/rd.mtr" --sizes 4K --budgets 1M --format csv 2>/dev/null |
   awk -F, -v a="$racc" 'NR > 1 && $5 != a { bad = 1 } NR > 1 { n++ } END { exit !(n > 0 && !bad) }'; then
    echo "PASS trace-reduce-policy-counts-accesses ($racc)"
else
    echo "FAIL trace-reduce-policy-counts-accesses"
fi

# the header names the mode and its budget
"$MTEMU" -q --trace-mode reduce --trace-reduce-budget 64K --trace "$T/s.mtr" "$FWBUILD/seq.elf" >/dev/null 2>&1
if "$MT" info "$T/s.mtr" 2>/dev/null | grep -q "trace.mode=reduce" &&
   "$MT" info "$T/s.mtr" 2>/dev/null | grep -q "trace.reduce_budget=65536"; then
    echo "PASS trace-reduce-header-names-mode"
else
    echo "FAIL trace-reduce-header-names-mode"
    "$MT" info "$T/s.mtr" 2>&1 | head
fi
# without --trace-reduce-budget: the default B, 16 MiB (lib/mt_reduce.h; docs/metapaging.md "The
# default B"), in the header of the run above that gave none
if "$MT" info "$T/rdf.mtr" 2>/dev/null | grep -q "trace.reduce_budget=16777216$"; then
    echo "PASS trace-reduce-default-budget-16M"
else
    echo "FAIL trace-reduce-default-budget-16M"
    "$MT" info "$T/rdf.mtr" 2>&1 | grep reduce_budget
fi

# commands that read samples as accesses refuse a reduce trace by name instead of misreading it
for cmd in "compare $T/s.mtr $T/s.mtr" "rowbuf $T/s.mtr" "reconstruct $T/s.mtr -o $T/x.mtr" "export $T/s.mtr --to csv -o $T/x.csv"; do
    # shellcheck disable=SC2086
    "$MT" $cmd >/dev/null 2>"$T/err"
    rc=$?
    if [ "$rc" -ne 0 ] && grep -q "reduce-mode trace" "$T/err"; then
        echo "PASS trace-reduce-refused-by-${cmd%% *}"
    else
        echo "FAIL trace-reduce-refused-by-${cmd%% *} (exit $rc)"
        cat "$T/err"
    fi
done
for cmd in "compare $T/sp.mtr $T/sp.mtr" "rowbuf $T/sp.mtr" "reconstruct $T/sp.mtr -o $T/x.mtr" "export $T/sp.mtr --to csv -o $T/x.csv"; do
    # shellcheck disable=SC2086
    "$MT" $cmd >/dev/null 2>"$T/err"
    rc=$?
    if [ "$rc" -ne 0 ] && grep -q "spatial-mode trace" "$T/err"; then
        echo "PASS trace-spatial-refused-by-${cmd%% *}"
    else
        echo "FAIL trace-spatial-refused-by-${cmd%% *} (exit $rc)"
        cat "$T/err"
    fi
done
