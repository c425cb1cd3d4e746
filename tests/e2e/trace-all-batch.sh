#!/bin/sh
# The every-access recorder's batched path (--trace-all alone: the runs interpreter writes each
# run's records into the device's buffer as it charges the run, emu/cpu/cpu.c rec_expand and
# rec_cut, interpreter_recorded; with --trace-all-kinds short of fetch, load and store the hooked
# interpreter appends its fast paths' accesses there; the recorder encodes them up to 4096 at a
# time, lib/mt_swenc.c mt_swenc_samples) against the per-access path
# (cpu_access_due, the listener and one mt_swenc_sample each), which the reduce filter beside it
# forces (tracectl rec_access: no batch call).  The same .mtr byte for byte, so every reader
# decodes the same records, and its decoded sample count equal to the run's --stats count, on
# guests that take the batch's boundaries where they are hardest:
#   straddle-guest   Sv39 walks whose first passes write A/D bits, fetches, loads, stores and an
#                    AMO straddling pages, an instruction page fault mid-run (trap, resume)
#   straddle-self    a jump to itself across a page boundary (the cross page's own fetches)
#   fencei           self-modifying code: stores into code then FENCE.I (the ISA test, S-mode)
#   trace-regs       the guest programs the unit: sessions started and stopped, so the recorder
#                    goes from the buffer to the listener and back at every re-arm
#   hyp              two-stage translation, VS/VU traps, guest page-table walks
#   smp-skew         -smp 2: two harts' turns, each stamped from its own offset
#   ram-loadstore    --trace-all-ram --trace-all-kinds load,store,amo: the batch's RAM filter
#                    (pchase writes MARKERs outside a session: the buffer drained before each)
#   fetch-only       --trace-all-kinds fetch (qsort: MARKERs too)
#   bench-cpu        2,000,000 instructions: thousands of batches and SYNCs
#   linux-1, linux-2 a Linux boot prefix on 1 and 2 harts (MMIO, timer interrupts, walks;
#                    skipped when build/linux/Image is missing)
# The runs recorder's mutants: SAVE without rec_cut (a slow path, trap or system instruction keeps
# the records of the run's slots it cut off) fails 9 of the 11 cases; L_BREAK without it (a stop
# for the timer or the instruction limit) fails 4 (smp-skew, bench-cpu,
# linux-1, linux-2); one that writes a fetch again after cpu_event handed it over (the drain drops
# it as a same-cycle access, so only --stats' skipped count shows it) fails 5 by that count.
# A mutant that drops the drain before a register write (a MARKER lands before the accesses that
# preceded it) fails ram-loadstore and fetch-only; one that stamps the buffered accesses without
# the hart's offset fails smp-skew and linux-2.  The runs- cases: the same with --trace-all-format
# runs (the runs .mtr of both paths byte for byte).  About 15 s.
set -u
BUILD=${BUILD:-build} BIN=${BIN:-$BUILD/bin} FWBUILD=${FWBUILD:-build/firmware}
MTEMU=$BIN/mtemu MT=$BIN/metatrace
IMAGE=${IMAGE:-$BUILD/linux/Image}
BIOS=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin
[ -x "$MTEMU" ] && [ -x "$MT" ] || { echo "skipped: $MTEMU or $MT does not exist yet"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/trace-all-batch.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
fails=0

# check NAME "OPTIONS": the batched run against the per-access one; one PASS/FAIL line.
# The exit status may be the guest's (the finisher's code, or 3 for a hart stopped by the limit):
# both runs must give the same.
check() {
    name=$1 opts=$2
    # shellcheck disable=SC2086 # the option list is a word list
    "$MTEMU" -q --stats --trace-all "$T/batch.mtr" $opts >"$T/batch.log" 2>&1
    rb=$?
    # shellcheck disable=SC2086
    "$MTEMU" -q --stats --trace-all "$T/single.mtr" --trace-mode reduce --trace "$T/red.mtr" $opts \
        >"$T/single.log" 2>&1
    rs=$?
    stats=$(sed -n 's/^trace.all *\([0-9]*\) accesses recorded.*/\1/p' "$T/batch.log")
    decoded=$("$MT" info "$T/batch.mtr" 2>/dev/null | sed -n 's/^samples: \([0-9]*\).*/\1/p')
    # the same-cycle accesses the drain skipped: a record written twice at one stamp is dropped
    # there, so only this count shows it
    skb=$(grep '^trace.accesses' "$T/batch.log") sks=$(grep '^trace.accesses' "$T/single.log")
    echo "  $name: exit $rb/$rs, $stats accesses recorded, $decoded decoded; $skb"
    if [ "$rb" = "$rs" ] && [ -n "$stats" ] && [ "$stats" -gt 100 ] && [ "$stats" = "$decoded" ] &&
        [ -n "$skb" ] && [ "$skb" = "$sks" ] && cmp "$T/batch.mtr" "$T/single.mtr"; then
        echo "PASS trace-all-batch-$name"
    else
        echo "FAIL trace-all-batch-$name"
        tail -3 "$T/batch.log" "$T/single.log"
        fails=$((fails + 1))
    fi
    rm -f "$T"/*.mtr
}

check straddle-guest "$FWBUILD/e2e/straddle_guest.elf"
check straddle-self "--max-insns 2000 $FWBUILD/e2e/straddle_self.elf"
check fencei "$FWBUILD/isa/s-fencei.elf"
check trace-regs "$FWBUILD/e2e/trace_regs.elf"
check hyp "$FWBUILD/hyp.elf"
check smp-skew "-smp 2 $FWBUILD/e2e/smp_skew.elf"
check ram-loadstore "--trace-all-ram --trace-all-kinds load,store,amo $FWBUILD/pchase.elf"
check fetch-only "--trace-all-kinds fetch $FWBUILD/qsort.elf"
check bench-cpu "--max-insns 2000000 $FWBUILD/bench/bench_cpu.elf"
# the runs format: the same buffer, drain and cuts, into the runs writer's batched loop (a
# FETCHES packet kept open across runs, batches and drains) against its per-access call
RUNS="--trace-all-format runs"
check runs-straddle-guest "$RUNS $FWBUILD/e2e/straddle_guest.elf"
check runs-straddle-self "$RUNS --max-insns 2000 $FWBUILD/e2e/straddle_self.elf"
check runs-fencei "$RUNS $FWBUILD/isa/s-fencei.elf"
check runs-trace-regs "$RUNS $FWBUILD/e2e/trace_regs.elf"
check runs-hyp "$RUNS $FWBUILD/hyp.elf"
check runs-smp-skew "$RUNS -smp 2 $FWBUILD/e2e/smp_skew.elf"
check runs-ram "$RUNS --trace-all-ram $FWBUILD/qsort.elf"
check runs-bench-cpu "$RUNS --max-insns 2000000 $FWBUILD/bench/bench_cpu.elf"
if [ -f "$IMAGE" ] && [ -f "$BIOS" ]; then
    LINUX="-m 256M --bios $BIOS --kernel $IMAGE --max-insns 4000000"
    check linux-1 "$LINUX"
    check linux-2 "-smp 2 $LINUX"
    check runs-linux-1 "$RUNS $LINUX"
    check runs-linux-2 "$RUNS -smp 2 $LINUX"
else
    echo "  linux-1, linux-2 skipped: no $IMAGE or $BIOS"
fi
[ "$fails" = 0 ]
