#!/bin/sh
# The trace unit inside mtemu (emu/trace/tracedev, emu/trace/tracectl): defaults from reset, command-line
# registers, firmware overrides, determinism, model = RTL = lockstep, the every-access path,
# the device tree node, bad options.  One PASS/FAIL line per check.
set -u
BUILD=${BUILD:-build} BIN=${BIN:-$BUILD/bin} FWBUILD=${FWBUILD:-build/firmware}
MTEMU=$BIN/mtemu MT=$BIN/metatrace
T=$(mktemp -d "${TMPDIR:-/tmp}/trace-unit.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
ok() { if [ "$2" = 0 ]; then echo "PASS $1"; else echo "FAIL $1"; fi; }
has() { grep -q -- "$2" "$1"; }

# 1. a program that knows nothing of the unit is traced from reset with the seed's defaults
"$MTEMU" -q --trace "$T/seq.mtr" --append "size=256K iters=1" "$FWBUILD/seq.elf" >"$T/seq.out" 2>&1
rc=$?
"$MT" info "$T/seq.mtr" >"$T/seq.info" 2>&1
"$MT" decode "$T/seq.mtr" >"$T/seq.txt" 2>&1
has "$T/seq.out" "trace=present" && has "$T/seq.info" "fmt burst 48 span 32, rate_h 24 rate_l 2048, len_h 1000000000 len_l 10000000000" \
    && has "$T/seq.info" "producer=mtemu" && has "$T/seq.info" "memory.ram=0x80000000+0x8000000" \
    && head -1 "$T/seq.txt" | grep -q "^# [01] section burst format 48 rate 24$" && [ $rc = 0 ]
ok trace-defaults-from-reset $?
# both markers of the ROI are in the stream
[ "$(grep -c ' marker ' "$T/seq.txt")" = 2 ]
ok trace-markers $?

# 2. every register from the command line
"$MTEMU" -q --trace "$T/cl.mtr" --trace-rate-h 100 --trace-rate-l 1000 --trace-fmt-h full --trace-fmt-l line \
    --trace-kinds load,store --trace-len-h 1ms --trace-len-l=2ms --trace-sync-period 256 \
    --append "size=1M iters=1" "$FWBUILD/seq.elf" >/dev/null 2>&1
"$MT" info "$T/cl.mtr" >"$T/cl.info" 2>&1
"$MT" decode "$T/cl.mtr" >"$T/cl.txt" 2>&1
has "$T/cl.info" "kind_mask 0x6 tap 0 fmt burst full span line, rate_h 100 rate_l 1000, len_h 1000000 len_l 2000000, sync period 256" \
    && has "$T/cl.txt" "section burst format full rate 100" && has "$T/cl.txt" "section span format line rate 1000" \
    && ! grep -q "format 48" "$T/cl.txt"
ok trace-command-line-registers $?

# 3. firmware writes override the command line (the guest stops the session, sets rate 100 in
# the full format and starts again), and --trace-start=firmware waits for the guest's enable
"$MTEMU" -q --trace "$T/regs.mtr" "$FWBUILD/e2e/trace_regs.elf" >/dev/null 2>&1
rc=$?
"$MT" decode "$T/regs.mtr" | grep '^#' >"$T/regs.txt"
[ $rc = 0 ] && grep -q "section burst format 48 rate 24" "$T/regs.txt" && grep -q "section burst format full rate 100" "$T/regs.txt" \
    && grep -q " marker 4660" "$T/regs.txt"
ok trace-firmware-override $?
"$MTEMU" -q --trace "$T/regs2.mtr" --trace-start=firmware "$FWBUILD/e2e/trace_regs.elf" >/dev/null 2>&1
"$MT" decode "$T/regs2.mtr" | grep '^#' >"$T/regs2.txt"
! grep -q "rate 24" "$T/regs2.txt" && grep -q "section burst format full rate 100" "$T/regs2.txt"
ok trace-start-firmware $?

# 4. determinism: the same inputs give byte-identical files
for i in 1 2; do
    "$MTEMU" -q --trace "$T/d$i.mtr" --trace-all "$T/a$i.mtr" --trace-rate-h 7 \
        --append "size=256K stride=64" "$FWBUILD/pchase.elf" >/dev/null 2>&1
done
cmp -s "$T/d1.mtr" "$T/d2.mtr" && cmp -s "$T/a1.mtr" "$T/a2.mtr" && [ -s "$T/d1.mtr" ]
ok trace-deterministic $?

# 4b. the model on its own thread (the default with 2+ CPUs) writes the same file as in line:
# bursts and spans switching, a guest that stops, reprograms and reads the unit, a FIFO that
# overflows, a kind filter, the dram tap; and --stats counts the same accesses
r=0
thread_same() {
    name=$1
    shift
    for t in on off; do
        "$MTEMU" -q --stats --trace "$T/th-$t.mtr" --trace-thread=$t "$@" >/dev/null 2>"$T/th-$t.err"
        echo $? >"$T/th-$t.rc"
    done
    if ! { [ "$(cat "$T/th-on.rc")" = 0 ] && cmp -s "$T/th-on.mtr" "$T/th-off.mtr" && [ -s "$T/th-on.mtr" ] \
        && has "$T/th-on.err" "trace.thread" && ! has "$T/th-off.err" "trace.thread" \
        && [ "$(grep '^trace.accesses' "$T/th-on.err")" = "$(grep '^trace.accesses' "$T/th-off.err")" ]; }; then
        echo "  thread on/off differ: $name"
        r=1
    fi
}
thread_same sections --trace-len-h 100us --trace-len-l 300us --append "size=1M iters=1" "$FWBUILD/random.elf"
thread_same guest-regs "$FWBUILD/e2e/trace_regs.elf"
thread_same overflow --trace-rate-h 1 --trace-fmt-h full --trace-fifo-depth 64 --trace-fifo-drain 1 \
    --append "size=64K iters=1" "$FWBUILD/memcpy.elf"
thread_same kinds --trace-kinds store,ptw --trace-rate-h 3 --append "size=256K stride=64" "$FWBUILD/pchase.elf"
thread_same dram-tap --timing=cache --trace-tap dram --trace-fmt-h line --append "size=128K iters=1" "$FWBUILD/memcpy.elf"
thread_same qsort "$FWBUILD/qsort.elf"
# the default follows the CPUs the process may use: one (taskset) means no thread, same file
if command -v taskset >/dev/null 2>&1; then
    taskset -c 0 "$MTEMU" -q --stats --trace "$T/th-1cpu.mtr" "$FWBUILD/qsort.elf" >/dev/null 2>"$T/th-1cpu.err"
    { ! has "$T/th-1cpu.err" "trace.thread" && cmp -s "$T/th-1cpu.mtr" "$T/th-on.mtr"; } || { echo "  one CPU: thread or other file"; r=1; }
fi
ok trace-thread-same-file $r

# 4c. a signal (kill, `timeout`) ends the run as a normal end would: exit 128 + signal, the trace
# finished (its index written) with every sample --stats counted; the same with several harts
"$MTEMU" -q --stats --trace "$T/sig.mtr" "$FWBUILD/bench/bench_cpu.elf" >/dev/null 2>"$T/sig.err" &
pid=$!
sleep 0.3
kill -TERM $pid
wait $pid
rc=$?
"$MT" info "$T/sig.mtr" >"$T/sig.info" 2>&1
n=$(awk '$1 == "trace.samples" { print $2 }' "$T/sig.err")
[ $rc = 143 ] && has "$T/sig.err" "stopped by signal 15" && grep -q "^index: .* $n samples" "$T/sig.info"
ok trace-signal-finishes $?
"$MTEMU" -q -smp 2 "$FWBUILD/bench/bench_cpu.elf" >/dev/null 2>"$T/sig2.err" &
pid=$!
sleep 0.3
kill -INT $pid
wait $pid
[ $? = 130 ] && has "$T/sig2.err" "stopped by signal 2"
ok signal-smp $?

# 5. model, RTL and lockstep give the same stream; lockstep reports no divergence
for u in model rtl both; do
    "$MTEMU" -q --stats --trace "$T/$u.mtr" --trace-unit=$u --trace-rate-h 5 --trace-sync-period 128 \
        --append "size=64K iters=1" "$FWBUILD/memcpy.elf" >"$T/$u.out" 2>"$T/$u.err"
    echo $? >"$T/$u.rc"
    "$MT" decode "$T/$u.mtr" >"$T/$u.txt" 2>&1
done
[ "$(cat "$T/model.rc")" = 0 ] && [ "$(cat "$T/rtl.rc")" = 0 ] && cmp -s "$T/model.txt" "$T/rtl.txt" \
    && [ "$(wc -l <"$T/model.txt")" -gt 1000 ]
ok trace-unit-rtl-equals-model $?
# ... and at the default rates, where the CPU's runs interpreter takes most captures itself (the
# fetches: cpu_sample_run) and takes a few back (a TLB fill before the fetch: cpu_sample_resolve),
# the model's stream is the RTL's, which hears of every access (the RTL is never fed that way)
for u in model rtl; do
    "$MTEMU" -q --stats --trace "$T/runs-$u.mtr" --trace-unit=$u --max-insns 1000000 -m 64M \
        --append "min=512K max=4M" "$FWBUILD/wss.elf" >/dev/null 2>"$T/runs-$u.err"
    "$MT" decode "$T/runs-$u.mtr" >"$T/runs-$u.txt" 2>&1
done
fast=$(awk '$1 == "trace.runs" { print $2 }' "$T/runs-model.err")
back=$(awk '$1 == "trace.runs" { for (i = 1; i < NF; i++) if ($(i + 1) == "taken" && $(i + 2) == "back") print $i }' "$T/runs-model.err")
echo "  runs interpreter: ${fast:-0} captures taken, ${back:-0} taken back"
[ "${fast:-0}" -gt 40000 ] && [ "${back:-0}" -gt 0 ] && cmp -s "$T/runs-model.txt" "$T/runs-rtl.txt" \
    && [ "$(wc -l <"$T/runs-model.txt")" -gt 40000 ]
ok trace-runs-sampler-equals-rtl $?
# ... and the captures that are data accesses, which the runs interpreter takes ahead when their
# address is known before the run (cpu.c data_known_ahead: no slot before the access writes its
# base register, its TLB entry hits), else hands to the schedule itself at the access (cpu.c
# sample_data) or to the listener: qsort's loads and stores, with every kind and with stores left
# out (a store at a sample point is then not the capture; the interval stays open for the next
# fetch or load), against the RTL.  Each way must be taken often (with data_known_ahead's base
# register test removed, the streams differ).  The listener's way: since data_known_ahead follows
# an ADD or ADDI of the base register (2026-12-06), qsort with every kind leaves it ~180
# captures (2,420 before); without stores it still has ~7,000, so the two together must have
# more than 1000 and each more than 100.
r=0 listener=0
for k in all fetch,load; do
    for u in model rtl; do
        "$MTEMU" -q --stats --trace "$T/data-$u.mtr" --trace-unit=$u --trace-kinds $k --max-insns 1000000 \
            "$FWBUILD/qsort.elf" >/dev/null 2>"$T/data-$u.err"
        "$MT" decode "$T/data-$u.mtr" >"$T/data-$u.txt" 2>&1
    done
    acc=$(awk '$1 == "trace.accesses" { print $2 }' "$T/data-model.err")
    fast=$(awk '$1 == "trace.runs" { print $2 }' "$T/data-model.err")
    ahead=$(awk '$1 == "trace.runs" { for (i = 1; i < NF; i++) if ($(i + 1) == "data" && $(i + 2) == "accesses") print $i }' \
        "$T/data-model.err")
    echo "  $k: ${acc:-0} captures, ${fast:-0} taken by the runs interpreter, ${ahead:-0} of them data accesses"
    listener=$((listener + ${acc:-0} - ${fast:-0}))
    { [ $((${acc:-0} - ${fast:-0})) -gt 100 ] && [ "${fast:-0}" -gt 5000 ] && [ "${ahead:-0}" -gt 3000 ] \
        && cmp -s "$T/data-model.txt" "$T/data-rtl.txt"; } || r=1
done
[ "$listener" -gt 1000 ] || r=1
ok trace-data-captures-equal-rtl $r
# ... and where the sampler's plain state (cpu.h cpu_sampler.plain_due: its one-field entry test)
# starts and ends most often: r = 3 in 20 us bursts between 100 us spans at r = 100 (a section
# end every few thousand cycles), against the RTL
for u in model rtl; do
    "$MTEMU" -q --stats --trace "$T/plain-$u.mtr" --trace-unit=$u --trace-rate-h 3 --trace-len-h 20us \
        --trace-len-l 100us --trace-rate-l 100 --max-insns 1000000 "$FWBUILD/qsort.elf" >/dev/null 2>"$T/plain-$u.err"
    "$MT" decode "$T/plain-$u.mtr" >"$T/plain-$u.txt" 2>&1
done
fast=$(awk '$1 == "trace.runs" { print $2 }' "$T/plain-model.err")
echo "  r = 3, short sections: ${fast:-0} captures taken by the runs interpreter"
[ "${fast:-0}" -gt 20000 ] && cmp -s "$T/plain-model.txt" "$T/plain-rtl.txt" && [ "$(wc -l <"$T/plain-model.txt")" -gt 20000 ]
ok trace-runs-plain-state-equals-rtl $?
# ... and where the runs interpreter's remembered walks (cpu.c sample_walk, mt_cpu.sample_memo,
# valid while no decoded slot loses its contents: dpage_resets) would go stale: a program that
# rewrites its code in place
# hundreds of times, also inside a loop that calls it (tests/diff/src/jit.c), at r = 3 and r = 5
# (captures taken ahead in the rewritten runs, and taken back at their slow paths), against the
# RTL.  With the memo's reset count left out of its test the stream at r = 3 and r = 5 differs.
r=0
for rate in 3 5; do
    for u in model rtl; do
        "$MTEMU" -q --stats --trace "$T/memo-$u.mtr" --trace-unit=$u --trace-rate-h $rate "$FWBUILD/diff/jit.elf" \
            >"$T/memo-$u.out" 2>"$T/memo-$u.err"
        "$MT" decode "$T/memo-$u.mtr" >"$T/memo-$u.txt" 2>&1
    done
    fast=$(awk '$1 == "trace.runs" { print $2 }' "$T/memo-model.err")
    back=$(awk '$1 == "trace.runs" { for (i = 1; i < NF; i++) if ($(i + 1) == "taken" && $(i + 2) == "back") print $i }' \
        "$T/memo-model.err")
    echo "  rewritten code, r = $rate: ${fast:-0} captures taken by the runs interpreter, ${back:-0} taken back"
    { [ "${fast:-0}" -gt 3000 ] && [ "${back:-0}" -gt 100 ] && cmp -s "$T/memo-model.txt" "$T/memo-rtl.txt" \
        && cmp -s "$T/memo-model.out" "$T/memo-rtl.out" && [ "$(wc -l <"$T/memo-model.txt")" -gt 3000 ]; } || r=1
done
ok trace-runs-memo-rewritten-code-equals-rtl $r
# ... and the lazy captures (cpu.h cpu_sampler.lazy: the runs interpreter's usual capture leaves
# the schedule to be settled from the batch by whoever reads it next; the memo's rmin decides when
# it is usual): bench_cpu at r = 2, where a due falls in nearly every run and rmin is at its
# bound, and at r = 7 in 5 us bursts between 5 us spans at r = 11 (the schedule passes from lazy
# captures to the listener's and back at every section), against the RTL.  With the settle left
# out of cpu_access_due and the listener, or rmin one too small, the streams differ.
r=0
for args in "--trace-rate-h 2" "--trace-rate-h 7 --trace-len-h 5us --trace-len-l 5us --trace-rate-l 11"; do
    for u in model rtl; do
        # shellcheck disable=SC2086 # args is a list of options
        "$MTEMU" -q --stats --trace "$T/lazy-$u.mtr" --trace-unit=$u $args --max-insns 1000000 \
            "$FWBUILD/bench/bench_cpu.elf" >/dev/null 2>"$T/lazy-$u.err"
        "$MT" decode "$T/lazy-$u.mtr" >"$T/lazy-$u.txt" 2>&1
    done
    fast=$(awk '$1 == "trace.runs" { print $2 }' "$T/lazy-model.err")
    echo "  $args: ${fast:-0} captures taken by the runs interpreter"
    { [ "${fast:-0}" -gt 100000 ] && cmp -s "$T/lazy-model.txt" "$T/lazy-rtl.txt" \
        && [ "$(wc -l <"$T/lazy-model.txt")" -gt 100000 ]; } || r=1
done
ok trace-runs-lazy-captures-equal-rtl $r
# ... and the data accesses whose base register is written in the run before them
# (tests/e2e/sample_addr.S; cpu.c data_known_ahead (b): the last write an ADD or ADDI whose
# sources the run has not written before it), in the full format (the 48-bit one keeps pages
# only, where a wrong offset does not show), at rates above the loop's 26 cycles so that a
# sample's run fits before the next (the sampler's usual case) and the sample points sweep the
# loop, against the RTL.  With the test of the sources left out, a SUB taken for an ADD, or an
# ADD's second register left out, the streams differ.
r=0
for rate in 29 37 43; do
    for u in model rtl; do
        "$MTEMU" -q --stats --trace "$T/sum-$u.mtr" --trace-unit=$u --trace-fmt-h full --trace-rate-h $rate \
            "$FWBUILD/e2e/sample_addr.elf" >/dev/null 2>"$T/sum-$u.err"
        "$MT" decode "$T/sum-$u.mtr" >"$T/sum-$u.txt" 2>&1
    done
    ahead=$(awk '$1 == "trace.runs" { for (i = 1; i < NF; i++) if ($(i + 1) == "data" && $(i + 2) == "accesses") print $i }' \
        "$T/sum-model.err")
    echo "  base register written in the run, r = $rate: ${ahead:-0} data accesses taken ahead"
    { [ "${ahead:-0}" -gt 500 ] && cmp -s "$T/sum-model.txt" "$T/sum-rtl.txt" \
        && [ "$(wc -l <"$T/sum-model.txt")" -gt 15000 ]; } || r=1
done
ok trace-runs-data-sums-equal-rtl $r
[ "$(cat "$T/both.rc")" = 0 ] && cmp -s "$T/model.txt" "$T/both.txt" && has "$T/both.err" "bytes compared, identical"
ok trace-unit-both-lockstep $?

# 6. the every-access path records every load and store exactly (no FIFO, nothing dropped),
# where the unit at r = 1 in the full format loses samples at each SYNC+SECTION pair
"$MTEMU" -q --stats --trace-all "$T/all.mtr" --trace-all-kinds load,store --trace "$T/r1.mtr" --trace-rate-h 1 \
    --trace-fmt-h full --trace-kinds load,store --append "size=256K iters=1" "$FWBUILD/seq.elf" >/dev/null 2>"$T/all.err"
loads=$(awk '$1 == "access.load" { print $2 }' "$T/all.err")
stores=$(awk '$1 == "access.store" { print $2 }' "$T/all.err")
all=$("$MT" info "$T/all.mtr" | awk '$1 == "samples:" { print $2 }')
r1=$("$MT" info "$T/r1.mtr" | awk '$1 == "samples:" { print $2 }')
echo "  loads+stores $((loads + stores)), --trace-all samples $all, unit at r=1 samples $r1"
[ "$all" = $((loads + stores)) ] && [ "$r1" -le "$all" ] && [ "$r1" -gt 0 ]
ok trace-all-every-access $?
# ... and it carries the same markers as the unit's stream of the same run
"$MT" decode "$T/all.mtr" | grep ' marker ' | awk '{ print $4 }' >"$T/m1"
"$MT" decode "$T/r1.mtr" | grep ' marker ' | awk '{ print $4 }' >"$T/m2"
[ -s "$T/m1" ] && cmp -s "$T/m1" "$T/m2"
ok trace-all-markers $?

# ... and on the dram tap (--timing=cache) it records every line fill and write-back
"$MTEMU" -q --stats --timing=cache --trace-all "$T/dall.mtr" --trace-all-tap dram --trace "$T/dram.mtr" --trace-tap dram \
    --trace-fmt-h line --append "size=128K iters=1" "$FWBUILD/memcpy.elf" >/dev/null 2>"$T/dram.err"
transfers=$(awk '$1 == "dram" { print $2 + $5 }' "$T/dram.err")
dall=$("$MT" info "$T/dall.mtr" | awk '$1 == "samples:" { print $2 }')
dunit=$("$MT" info "$T/dram.mtr" | awk '$1 == "samples:" { print $2 }')
echo "  dram transfers $transfers, --trace-all-tap dram samples $dall, unit on the dram tap (r = 24) $dunit"
[ -n "$transfers" ] && [ "$transfers" -gt 1000 ] && [ "$dall" = "$transfers" ] && [ "$dunit" -gt 0 ] && [ "$dunit" -lt "$dall" ]
ok trace-dram-tap $?

# 7. the device is in the device tree only when tracing
"$MTEMU" -q --trace "$T/x.mtr" --dump-dtb "$T/t.dtb" --max-insns 10 "$FWBUILD/seq.elf" >/dev/null 2>&1
"$MTEMU" -q --dump-dtb "$T/n.dtb" --max-insns 10 "$FWBUILD/seq.elf" >/dev/null 2>&1
grep -q "metatrace,trace-unit" "$T/t.dtb" && ! grep -q "metatrace,trace-unit" "$T/n.dtb" \
    && "$MTEMU" -q --append "size=64K" "$FWBUILD/seq.elf" 2>&1 | grep -q "trace=absent"
ok trace-device-tree $?

# 8. bad options: one line naming the option, exit 2, no file left behind
bad() {
    name=$1
    shift
    "$MTEMU" -q "$@" "$FWBUILD/seq.elf" >"$T/bad.out" 2>"$T/bad.err"
    rc=$?
    [ $rc = 2 ] && [ "$(wc -l <"$T/bad.err")" = 1 ] && grep -q -- "$name" "$T/bad.err" && [ ! -s "$T/bad.out" ]
}
r=0
bad --trace-unit --trace "$T/b.mtr" --trace-unit=fpga || r=1
bad --trace-rate-h --trace "$T/b.mtr" --trace-rate-h 0 || r=1
bad --trace-fmt-l --trace "$T/b.mtr" --trace-fmt-l 64 || r=1
bad --trace-kinds --trace "$T/b.mtr" --trace-kinds load,bogus || r=1
bad --trace-len-h --trace "$T/b.mtr" --trace-len-h 2000s || r=1
bad --trace-fifo-depth --trace "$T/b.mtr" --trace-fifo-depth 8 || r=1
bad nonexistent --trace "$T/nonexistent/b.mtr" || r=1
bad --event-hash --trace "$T/b.mtr" --event-hash || r=1
bad --trace-thread --trace "$T/b.mtr" --trace-thread=maybe || r=1
[ ! -e "$T/b.mtr" ] || r=1
ok trace-bad-options $r

# 9. trace sizes, for the record: bytes per sample at the default rates
for w in seq random stride pchase memcpy; do
    "$MTEMU" -q --trace "$T/s.mtr" "$FWBUILD/$w.elf" >/dev/null 2>&1
    "$MT" info "$T/s.mtr" | awk -v w=$w -v sz="$(stat -c %s "$T/s.mtr")" -v st="$(zstd -dcq "$T/s.mtr" | wc -c)" '
        $1 == "samples:" { s = $2 }
        END { printf "  %-7s %8d samples: packet stream %8d bytes (%.3f/sample), .mtr %7d bytes (%.4f/sample)\n",
                     w, s, st, st / s, sz, sz / s }'
done
