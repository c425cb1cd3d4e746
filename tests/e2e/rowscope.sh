#!/bin/sh
# RowScope, reproduced (issue #4), at sizes that run in seconds: every-access traces of the
# firmware workloads on mtemu, ROI by markers, metatrace rowbuf (8 KB rows, 8 banks, RowScope's
# mapping); checks the document's numbers (seed 002): sequential 99.95% at every size, random on
# 16 MB about 0.4%, stride sweep within one percentage point of 1 - stride*4/8192.
# `make rowscope` runs the same with the full sizes (tests/e2e/rowscope-run.sh full).
set -u
BUILD=${BUILD:-build} BIN=${BIN:-$BUILD/bin} FWBUILD=${FWBUILD:-build/firmware}
export BIN FWBUILD
out=$BUILD/tests/rowscope
here=$(dirname "$0")
if ! sh "$here/rowscope-run.sh" quick "$out"; then
    echo "FAIL rowscope-run"
    exit 1
fi
echo "PASS rowscope-run"
cat "$out/rowscope.csv"

# check NAME AWK-CONDITION-ON-ROWS: one PASS/FAIL line; every selected row must satisfy it
check() {
    if awk -F, -v OFS=, "NR > 1 && $2 { n++; if (!($3)) { print \"  bad: \" \$0; bad++ } }
        END { exit !(n > 0 && bad == 0) }" "$out/rowscope.csv"; then
        echo "PASS $1"
    else
        echo "FAIL $1"
    fi
}
check rowscope-sequential '$1 == "sequential" || $1 == "wss"' '$4 >= 0.9993 && $4 <= 0.9997 && $3 >= $2 / 4'
check rowscope-random-16M '$1 == "random" && $2 == 16777216' '$4 >= 0.002 && $4 <= 0.006 && $6 >= 0.99'
check rowscope-stride-formula '$1 == "stride"' '($4 - (1 - $2 * 4 / 8192)) ^ 2 <= 0.01 ^ 2'
n=$(grep -c '^stride,' "$out/rowscope.csv")
if [ "$n" -eq 11 ]; then echo "PASS rowscope-stride-11-points"; else echo "FAIL rowscope-stride-11-points ($n)"; fi
