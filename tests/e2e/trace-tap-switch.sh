#!/bin/sh
# The emulator's hook picks the accesses it gives the unit by the unit's tap; every backend must
# answer with the tap the unit holds at the access's cycle (docs/trace-unit.md section 8, "The
# hook").  tests/e2e/tap_switch.S: a session on the core tap whose stop comes after a TAP write
# (the stop's own store is still of the session), an enable the unit refuses (STATUS.BUSY) with
# TAP = core, then TAP = dram and an enable that starts a session on the dram tap.  With
# --trace-unit=c, rtl and both: the decoded streams are equal, the second session has the walk's
# DRAM transfers (4096 line addresses, no word address of the walk), the lockstep compares equal,
# and the RTL's stream equals the lockstep's byte for byte.
# (Failed before the backends' tap_at: the RTL backend kept a copy of TAP beside the RTL, which
# took the refused enable for a start and applied writes before their cycle's end.)
set -u
BUILD=${BUILD:-build} BIN=${BIN:-$BUILD/bin} FWBUILD=${FWBUILD:-build/firmware}
MTEMU=$BIN/mtemu MT=$BIN/metatrace
T=$(mktemp -d "${TMPDIR:-/tmp}/trace-tap-switch.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
ELF=$FWBUILD/e2e/tap_switch.elf
# a 64-byte FIFO drained a byte a cycle: the first session's END stays in it long enough for the
# guest's second enable to be refused
OPTS="--timing=cache --trace-fifo-depth 64 --trace-fifo-drain 1"

for u in model rtl both; do
    # shellcheck disable=SC2086
    "$MTEMU" -q --stats $OPTS --trace "$T/$u.mtr" --trace-unit=$u "$ELF" >"$T/$u.out" 2>"$T/$u.err"
    echo $? >"$T/$u.rc"
    "$MT" decode "$T/$u.mtr" >"$T/$u.txt" 2>&1
done

for u in model rtl both; do
    if [ "$(cat "$T/$u.rc")" = 0 ]; then echo "PASS tap-switch-runs-$u"; else
        echo "FAIL tap-switch-runs-$u (exit $(cat "$T/$u.rc"); 5: the guest's enable was not refused)"
        head -20 "$T/$u.err"
    fi
done

# the walk is big[] (0x80005000 + 256 KiB); a DRAM transfer is a line address, a core access of
# the walk is not (its stores are at +8)
walk() { # FILE -> "lines words"
    awk '$2 == "burst" && $5 >= "0x00000080005000" && $5 < "0x00000080045000" {
         if ($5 ~ /[048c]0$/) l++; else w++ } END { printf "%d %d\n", l, w }' "$1"
}
for u in model rtl both; do
    # shellcheck disable=SC2046 # two words: the counts
    set -- $(walk "$T/$u.txt")
    echo "  $u: $1 line samples of the walk, $2 word samples"
    if [ "$1" = 4096 ] && [ "$2" = 0 ]; then echo "PASS tap-switch-dram-session-$u"; else echo "FAIL tap-switch-dram-session-$u"; fi
done

for u in rtl both; do
    if cmp -s "$T/model.txt" "$T/$u.txt" && [ -s "$T/model.txt" ]; then echo "PASS tap-switch-model-equals-$u"; else
        echo "FAIL tap-switch-model-equals-$u"
        diff "$T/model.txt" "$T/$u.txt" | head -10
    fi
done
if grep -q "bytes compared, identical" "$T/both.err" && ! grep -q DIVERGE "$T/both.err"; then
    echo "PASS tap-switch-lockstep-identical"
else
    echo "FAIL tap-switch-lockstep-identical"
    head -20 "$T/both.err"
fi
exit 0
