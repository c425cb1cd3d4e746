#!/bin/sh
# make bench step: the cost of tracing in mtemu, as MIPS ratios against the same workload without
# tracing measured in the same run (best of 3 each, to damp a shared machine), and the same ratio
# in user CPU time (least of the 3 runs; less sensitive than wall time to other processes; with
# the model on its own thread, the default on 2+ CPUs, it counts both threads):
#   default rates over a whole burst+span period (1:10, scaled to 1 ms / 10 ms),
#   inside a burst (r = 24: the first emulated second of any run), --trace-all (every access),
#   --trace-unit=both (model + RTL in lockstep; a smaller run: the RTL clocks every cycle),
#   --trace-mode reduce (the exact reduction behind the CPU's page filter) and --trace-mode spatial
#   (every access through the sampling filter) on wss and on bench_cpu (CoreMark-class, the first
#   3e8 instructions), and the default trace, reduce and spatial on a Linux boot (1e8
#   instructions), against the same runs untraced.
# Inside a burst it also prints what a sample costs (the extra time over untraced, per sample) and
# the floor under that cost on this host: a sample comes at a time the guest's control flow does
# not foretell, so taking it costs at least one branch the host mispredicts (tests/bench/mispredict.c
# measures one); with the untraced time between two samples, no design can be faster than
# interval / (interval + mispredict) of untraced there.
set -eu
BUILD=${BUILD:-build} BIN=${BIN:-build/bin} FWBUILD=${FWBUILD:-build/firmware}
T=$(mktemp -d "${TMPDIR:-/tmp}/trace-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
# user CPU seconds: `times` (a builtin: it must run in the shell that waited for the runs, not in a
# subshell of its own), second line = finished children
mips() { # best MIPS of 3 runs of: ARGS..., and the least user CPU seconds of one run
    best=0 least=1e9
    for i in 1 2 3; do
        times >"$T/times"
        c0=$(awk 'NR == 2 { split($1, t, "m"); print t[1] * 60 + t[2] }' "$T/times")
        m=$("$BIN/mtemu" -q --stats "$@" 2>&1 >/dev/null | awk '$1 == "MIPS" { print $2 }')
        times >"$T/times"
        c1=$(awk 'NR == 2 { split($1, t, "m"); print t[1] * 60 + t[2] }' "$T/times")
        best=$(awk -v a="$best" -v b="$m" 'BEGIN { print (b > a ? b : a) }')
        least=$(awk -v a="$least" -v b="$c0" -v c="$c1" 'BEGIN { print (c - b < a ? c - b : a) }')
    done
    echo "$best $least"
}
base=$(mips -m 256M --append "min=512K max=16M" "$FWBUILD/wss.elf")
period=$(mips --trace "$T/p.mtr" --trace-len-h 1ms --trace-len-l 10ms -m 256M --append "min=512K max=16M" "$FWBUILD/wss.elf")
burst=$(mips --trace "$T/b.mtr" -m 256M --append "min=512K max=16M" "$FWBUILD/wss.elf")
all=$(mips --trace-all "$T/a.mtr" --trace-all-kinds load,store -m 256M --append "min=512K max=16M" "$FWBUILD/wss.elf")
# instructions per sample inside a burst (the run is deterministic: any run of it gives the same)
per_sample=$("$BIN/mtemu" -q --stats --trace "$T/s.mtr" -m 256M --append "min=512K max=16M" "$FWBUILD/wss.elf" 2>&1 >/dev/null |
    awk '$1 == "instructions" { n = $2 } $1 == "trace.samples" { s = $2 } END { print (s > 0 ? n / s : 0) }')
mispredict=$("$BUILD/tests/mispredict" | awk '$1 == "mispredict_ns" { print $2 }')
reduce=$(mips --trace-mode reduce --trace "$T/r.mtr" -m 256M --append "min=512K max=16M" "$FWBUILD/wss.elf")
cpu_base=$(mips --max-insns 300000000 "$FWBUILD/bench/bench_cpu.elf")
cpu_reduce=$(mips --trace-mode reduce --trace "$T/rc.mtr" --max-insns 300000000 "$FWBUILD/bench/bench_cpu.elf")
spatial=$(mips --trace-mode spatial --trace "$T/sp.mtr" -m 256M --append "min=512K max=16M" "$FWBUILD/wss.elf")
cpu_spatial=$(mips --trace-mode spatial --trace "$T/sc.mtr" --max-insns 300000000 "$FWBUILD/bench/bench_cpu.elf")
# the default trace (burst mode at the seed's rates: all of it inside the first burst, r = 24) on
# bench_cpu and on a Linux boot (OpenSBI + build/linux/Image, the first 1e8 instructions)
cpu_burst=$(mips --trace "$T/bc.mtr" --max-insns 300000000 "$FWBUILD/bench/bench_cpu.elf")
SBI=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin
lx_base="0 0" lx_burst="0 0" lx_reduce="0 0" lx_spatial="0 0"
if [ -f build/linux/Image ] && [ -f "$SBI" ]; then
    lx() { mips "$@" -m 256M --bios "$SBI" --kernel build/linux/Image --append "console=ttyS0 earlycon=sbi mt.run=true" \
        --max-insns 100000000; }
    lx_base=$(lx)
    lx_burst=$(lx --trace "$T/lx.mtr")
    lx_reduce=$(lx --trace-mode reduce --trace "$T/lxr.mtr")
    lx_spatial=$(lx --trace-mode spatial --trace "$T/lxs.mtr")
fi
small=$(mips -m 64M --append "size=256K iters=1" "$FWBUILD/seq.elf")
both=$(mips --trace "$T/l.mtr" --trace-unit=both -m 64M --append "size=256K iters=1" "$FWBUILD/seq.elf")
echo "$base $period $burst $all $small $both $per_sample $mispredict $reduce $cpu_base $cpu_reduce $spatial $cpu_spatial $cpu_burst $lx_base $lx_burst $lx_reduce $lx_spatial" | awk '{
    b = $1; bc = $2; p = $3; pc = $4; u = $5; uc = $6; a = $7; ac = $8; s = $9; l = $11; n = $13; m = $14
    # user-time ratios computed first: inside printf arguments mawk reads "x > 0" as a redirection
    rp = 0; if (pc > 0) rp = bc / pc
    ru = 0; if (uc > 0) ru = bc / uc
    ra = 0; if (ac > 0) ra = bc / ac
    r = $15; rc = $16; cb = $17; cbc = $18; cr = $19; crc = $20
    rr = 0; if (rc > 0) rr = bc / rc
    rcr = 0; if (crc > 0) rcr = cbc / crc
    sp = $21; spc = $22; csp = $23; cspc = $24
    rs = 0; if (spc > 0) rs = bc / spc
    rcs = 0; if (cspc > 0) rcs = cbc / cspc
    printf "trace-bench: wss 512K..16M without tracing %.1f MIPS (%.2f s user)\n", b, bc
    printf "  --trace, default rates over a burst+span period  %6.1f MIPS  %.2fx of untraced  (user time %.2fx)\n", p, p / b, rp
    printf "  --trace, inside a burst (r = 24)                 %6.1f MIPS  %.2fx  (user time %.2fx)\n", u, u / b, ru
    gap = n * 1000 / b; cost = n * (1000 / u - 1000 / b)
    printf "    a sample per %.1f instructions (%.1f ns untraced) costs %.1f ns; a sample at a time the host\n", n, gap, cost
    printf "    cannot foresee costs a mispredicted branch, %.1f ns here: about %.2fx at best\n", m, gap / (gap + m)
    printf "  --trace-all load,store (every access)            %6.1f MIPS  %.2fx  (user time %.2fx)\n", a, a / b, ra
    printf "  --trace-mode reduce (exact reduction, B = 16M)   %6.1f MIPS  %.2fx  (user time %.2fx)\n", r, r / b, rr
    printf "  bench_cpu (3e8 instructions) without tracing     %6.1f MIPS  (%.2f s user)\n", cb, cbc
    printf "  --trace-mode spatial (N = 1)                     %6.1f MIPS  %.2fx  (user time %.2fx)\n", sp, sp / b, rs
    printf "  bench_cpu --trace-mode reduce                    %6.1f MIPS  %.2fx  (user time %.2fx)\n", cr, cr / cb, rcr
    printf "  bench_cpu --trace-mode spatial                   %6.1f MIPS  %.2fx  (user time %.2fx)\n", csp, csp / cb, rcs
    cbt = $25; cbtc = $26; lb = $27; lbc = $28; lt = $29; ltc = $30
    rcb = 0; if (cbtc > 0) rcb = cbc / cbtc
    printf "  bench_cpu --trace (default: burst, r = 24)       %6.1f MIPS  %.2fx  (user time %.2fx)\n", cbt, cbt / cb, rcb
    if (lb > 0) {
        rl = 0; if (ltc > 0) rl = lbc / ltc
        printf "  Linux boot (1e8 instructions) without tracing    %6.1f MIPS  (%.2f s user)\n", lb, lbc
        printf "  Linux boot --trace (default)                     %6.1f MIPS  %.2fx  (user time %.2fx)\n", lt, lt / lb, rl
        lr = $31; lrc = $32; ls = $33; lsc = $34
        rlr = 0; if (lrc > 0) rlr = lbc / lrc
        rls = 0; if (lsc > 0) rls = lbc / lsc
        printf "  Linux boot --trace-mode reduce                   %6.1f MIPS  %.2fx  (user time %.2fx)\n", lr, lr / lb, rlr
        printf "  Linux boot --trace-mode spatial                  %6.1f MIPS  %.2fx  (user time %.2fx)\n", ls, ls / lb, rls
    }
    printf "  --trace-unit=both (seq 256K; untraced %.1f MIPS)  %6.1f MIPS  %.3fx\n", s, l, l / s }'
