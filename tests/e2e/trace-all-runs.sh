#!/bin/sh
# The runs stream (--trace-all-format runs; docs/trace-format.md section 4.2) against the records
# stream (the default): every reader must see the same records, so `metatrace decode` and
# `metatrace export --to csv` of the two files are byte for byte the same, and `info` counts the
# run's --stats accesses in both.  The guests are the ones where the runs writer's rules are
# hardest (trace-all-batch.sh's list) and a prefix of every firmware workload:
#   straddle-guest   Sv39 walks writing A/D bits between fetches, fetches straddling pages, an
#                    instruction page fault mid-run (a trap: the next fetch is no +2/+4 step)
#   straddle-self    a jump to itself across a page boundary (the same fetch address again)
#   fencei           self-modifying code: stores into code then FENCE.I
#   trace-regs       guest sessions of the unit: markers and re-arms between the fetches
#   hyp              two-stage translation, guest walks between fetches
#   smp-skew         -smp 2: two harts' turns, fetch runs broken by the other hart's
#   ram-loadstore    --trace-all-ram --trace-all-kinds load,store,amo: no fetch at all
#   fetch-only       --trace-all-kinds fetch: only FETCHES packets, and MARKERs
#   single           the per-access path (a reduce trace beside it: no batch), fetches flagged by
#                    the recorder's own call
#   bench-cpu        1,000,000 instructions: hundreds of SYNCs in both streams
#   linux-1, linux-2 a Linux boot prefix on 1 and 2 harts (skipped without build/linux/Image)
# A mutant reader that takes a FETCHES element's +4 step for +2 fails every case with fetches.
# About 9 s of CPU (user+sys; the decodes and exports of the Linux records are most of it).
set -u
BUILD=${BUILD:-build} BIN=${BIN:-$BUILD/bin} FWBUILD=${FWBUILD:-build/firmware}
MTEMU=$BIN/mtemu MT=$BIN/metatrace
IMAGE=${IMAGE:-$BUILD/linux/Image}
BIOS=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin
[ -x "$MTEMU" ] && [ -x "$MT" ] || { echo "skipped: $MTEMU or $MT does not exist yet"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/trace-all-runs.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
fails=0

# check NAME "OPTIONS": records against runs; one PASS/FAIL line.
check() {
    name=$1 opts=$2
    # shellcheck disable=SC2086 # the option list is a word list
    "$MTEMU" -q --stats --trace-all "$T/rec.mtr" $opts >"$T/rec.log" 2>&1
    rr=$?
    # shellcheck disable=SC2086
    "$MTEMU" -q --stats --trace-all "$T/runs.mtr" --trace-all-format runs $opts >"$T/runs.log" 2>&1
    ru=$?
    stats=$(sed -n 's/^trace.all *\([0-9]*\) accesses recorded.*/\1/p' "$T/runs.log")
    decoded=$("$MT" info "$T/runs.mtr" 2>/dev/null | sed -n 's/^samples: \([0-9]*\).*/\1/p')
    ok=1
    for f in rec runs; do
        "$MT" decode "$T/$f.mtr" >"$T/$f.dec" 2>"$T/$f.err" || ok=0
        "$MT" export "$T/$f.mtr" --to csv -o "$T/$f.csv" 2>>"$T/$f.err" || ok=0
    done
    cmp -s "$T/rec.dec" "$T/runs.dec" || ok=0
    cmp -s "$T/rec.csv" "$T/runs.csv" || ok=0
    rb=$(wc -c <"$T/rec.mtr") ub=$(wc -c <"$T/runs.mtr")
    echo "  $name: exit $rr/$ru, $stats accesses recorded, $decoded decoded; $rb -> $ub bytes"
    if [ "$ok" = 1 ] && [ "$rr" = "$ru" ] && [ -n "$stats" ] && [ "$stats" -gt 100 ] && [ "$stats" = "$decoded" ]; then
        echo "PASS trace-all-runs-$name"
    else
        echo "FAIL trace-all-runs-$name"
        cmp "$T/rec.dec" "$T/runs.dec" | head -2
        cat "$T/rec.err" "$T/runs.err" | head -4
        tail -n 3 "$T/rec.log" "$T/runs.log"
        fails=$((fails + 1))
    fi
    rm -f "$T"/*.mtr "$T"/*.dec "$T"/*.csv
}

check straddle-guest "$FWBUILD/e2e/straddle_guest.elf"
check straddle-self "--max-insns 2000 $FWBUILD/e2e/straddle_self.elf"
check fencei "$FWBUILD/isa/s-fencei.elf"
check trace-regs "$FWBUILD/e2e/trace_regs.elf"
check hyp "$FWBUILD/hyp.elf"
check smp-skew "-smp 2 --max-insns 1000000 $FWBUILD/e2e/smp_skew.elf"
check ram-loadstore "--trace-all-ram --trace-all-kinds load,store,amo --max-insns 300000 $FWBUILD/pchase.elf"
check fetch-only "--trace-all-kinds fetch --max-insns 300000 $FWBUILD/qsort.elf"
check single "--trace-mode reduce --trace $T/red.mtr --max-insns 300000 $FWBUILD/qsort.elf"
check bench-cpu "--max-insns 1000000 $FWBUILD/bench/bench_cpu.elf"
for w in matmul memcpy pchase qsort random rt-check seq stride vmm wss; do
    check "$w" "--max-insns 300000 $FWBUILD/$w.elf"
done
if [ -f "$IMAGE" ] && [ -f "$BIOS" ]; then
    LINUX="-m 256M --bios $BIOS --kernel $IMAGE --max-insns 2000000"
    check linux-1 "$LINUX"
    check linux-2 "-smp 2 $LINUX"
else
    echo "  linux-1, linux-2 skipped: no $IMAGE or $BIOS"
fi
[ "$fails" = 0 ]
