#!/bin/sh
# test-timeout: 300
# The spatial recorder behind the CPU's page filter (emu/cpu/cpu.h mt_page_filter, docs/metapaging.md
# "Recording speed"): `--trace-mode spatial` alone hears only the accesses that change the 4 KiB page
# (a repeat changes nothing in the filter) and is told how many repeats the CPU kept from it
# (cpu_filter_ordinal), so its trailer's `trace.accesses` stays the count of every access it saw;
# beside `--trace-all` it hears every access.  Both must write the same file, records and trailer
# byte for byte: on several workloads, rates, kind sets (fetches filtered or not), with the cache
# timing model and the online metapage simulation (interpreter_hooked with the filter), the
# meta-pager (whose faults may cost cycles), two harts (the filter follows the listener), and a
# Linux prefix (traps, straddling instructions, MMIO) when the image is there.
set -u
BUILD=${BUILD:-build} BIN=${BIN:-$BUILD/bin} FWBUILD=${FWBUILD:-build/firmware}
MTEMU=$BIN/mtemu
LINUX_IMAGE=${LINUX_IMAGE:-$BUILD/linux/Image}
OPENSBI=${OPENSBI:-/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin}
T=$(mktemp -d "${TMPDIR:-/tmp}/trace-spatial-filter.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

# same NAME ARGS... : spatial alone against spatial beside --trace-all
same() {
    name=$1
    shift
    if ! "$MTEMU" -q "$@" --trace-mode spatial --trace "$T/f.mtr" >/dev/null 2>"$T/err"; then
        echo "FAIL $name (mtemu, filtered)"; cat "$T/err"; return
    fi
    if ! "$MTEMU" -q "$@" --trace-mode spatial --trace "$T/u.mtr" --trace-all "$T/a.mtr" >/dev/null 2>"$T/err"; then
        echo "FAIL $name (mtemu, every access)"; cat "$T/err"; return
    fi
    "$BIN/metatrace" decode "$T/f.mtr" >"$T/f.txt" 2>&1
    "$BIN/metatrace" decode "$T/u.mtr" >"$T/u.txt" 2>&1
    "$BIN/metatrace" info "$T/f.mtr" 2>&1 | grep 'trailer' >"$T/f.trl"
    "$BIN/metatrace" info "$T/u.mtr" 2>&1 | grep 'trailer' >"$T/u.trl"
    if [ -s "$T/f.txt" ] && cmp -s "$T/f.txt" "$T/u.txt" && grep -q 'trace.accesses=' "$T/f.trl" &&
       cmp -s "$T/f.trl" "$T/u.trl"; then
        echo "PASS $name ($(wc -l <"$T/f.txt") records, $(grep -o 'trace.accesses=[0-9]*' "$T/f.trl"): identical)"
    else
        echo "FAIL $name (the filtered spatial trace differs from the every-access one)"
        diff "$T/f.trl" "$T/u.trl" | head -4
        diff "$T/f.txt" "$T/u.txt" | head -4
    fi
}
F=$FWBUILD
same trace-spatial-filter-wss -m 16M --append "min=64K max=512K iters=1" "$F/wss.elf"
same trace-spatial-filter-random-rate -m 16M --append "size=512K iters=1" --trace-spatial-rate 16 "$F/random.elf"
same trace-spatial-filter-pchase -m 16M --append "size=256K stride=64" "$F/pchase.elf"
same trace-spatial-filter-qsort -m 16M --max-insns 3000000 "$F/qsort.elf"
same trace-spatial-filter-loadstore -m 16M --append "min=64K max=512K iters=1" --trace-kinds load,store "$F/wss.elf"
same trace-spatial-filter-cache -m 16M --append "size=256K iters=1" --timing=cache "$F/random.elf"
same trace-spatial-filter-metapage-sim -m 16M --append "size=256K iters=1" --metapage-sim 4K:64K "$F/seq.elf"
same trace-spatial-filter-pager-timed -m 16M --append "min=64K max=512K iters=1" --metapage-budget 256K \
    --metapage-fault-cycles 1000 "$F/wss.elf"
same trace-spatial-filter-smp -m 16M --smp 2 --max-insns 2000000 "$F/matmul.elf"
if [ -f "$LINUX_IMAGE" ] && [ -f "$OPENSBI" ]; then
    same trace-spatial-filter-linux --max-insns 10000000 --bios "$OPENSBI" --kernel "$LINUX_IMAGE" \
        --append "console=ttyS0 earlycon=sbi mt.script=worksets.sh mt.scale=1"
else
    echo "SKIP trace-spatial-filter-linux (no $LINUX_IMAGE or $OPENSBI)"
fi
