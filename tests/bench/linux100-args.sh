#!/usr/bin/env bash
# tests/bench/bench_linux100.sh (make bench-linux100) without its measurement: every bad variable
# is a named error (exit 2) before anything runs, a missing Linux image or OpenSBI a named skip
# (exit 0), a missing mtemu a named failure, a kernel that is not the measured one (its run ends
# before the fraction's instruction count) a named failure, a TERM the end of the step and its
# run; and on a sliver of the workload (15.0 M instructions,
# a second or two) the table has both runs at the same instruction count, the trace's figures and
# the projection labelled as extrapolated.
set -u
BIN=${BIN:-build/bin}
S=tests/bench/bench_linux100.sh
T=$(mktemp -d "${TMPDIR:-/tmp}/linux100-args.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1"; sed 's/^/    /' "$T/out" "$T/err" | tail -n 20; }

# expect NAME RC PATTERN VAR=VALUE...: runs the script with the variables; RC and PATTERN (on
# stdout + stderr) must both match
expect() {
  local name=$1 rc=$2 pat=$3; shift 3
  env BIN="$BIN" "$@" "$S" >"$T/out" 2>"$T/err"
  local got=$?
  if [ "$got" = "$rc" ] && cat "$T/out" "$T/err" | grep -q -- "$pat"; then pass "$name"
  else echo "  (exit $got, wanted $rc and /$pat/)"; fail "$name"; fi
}

for f in 0 0.0 .000 1.5 2 -0.1 abc 10% 1e-3 0.5x; do
  expect "linux100-bad-fraction-$f" 2 "LINUX100_FRACTION=$f: not a decimal in (0, 1\] or 'full'" LINUX100_FRACTION="$f"
done
expect linux100-fraction-below-one-instruction 2 "LINUX100_FRACTION=0.000000000000001: less than one instruction" \
  LINUX100_FRACTION=0.000000000000001
for r in 0 10 x 1.5; do
  expect "linux100-bad-repeat-$r" 2 "LINUX100_REPEAT=$r: not a whole number from 1 to 9" LINUX100_REPEAT="$r"
done
# a bad variable is reported even when the run would be skipped
expect linux100-bad-before-skip 2 "LINUX100_FRACTION=x" LINUX100_FRACTION=x LINUX_IMAGE="$T/none"
expect linux100-skip-no-image 0 "skipped: no Linux image $T/none (make linux)" LINUX_IMAGE="$T/none"
expect linux100-skip-no-opensbi 0 "skipped: no OpenSBI $T/none" OPENSBI="$T/none" LINUX_IMAGE="$S"
expect linux100-no-mtemu 1 "$T/bin/mtemu missing" BIN="$T/bin"

SBI=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin
# a kernel whose run ends (SBI poweroff, 6.2 M instructions) before the fraction's --max-insns:
# not the measured workload, so no projection from it
PAYLOAD=${FWBUILD:-build/firmware}/emu/sbi_payload.elf
if [ -f "$SBI" ] && [ -f "$PAYLOAD" ]; then
  expect linux100-other-image-refused 1 "the guest stopped at [0-9]* instructions, before --max-insns 15041236: .* is not the" \
    LINUX100_FRACTION=0.0002 LINUX_IMAGE="$PAYLOAD"
fi
if [ ! -f build/linux/Image ] || [ ! -f "$SBI" ]; then
  echo "linux100-args: no build/linux/Image or $SBI: the sliver run is skipped"
  exit 0
fi
# a TERM (make's, a CI timeout) ends the step at once: exit 130, no mtemu left running, no
# temporary directory left behind. During the whole run (minutes): a step that held the signal
# until its run ended would keep this test past its timeout.
env BIN="$BIN" LINUX100_FRACTION=full TMPDIR="$T" "$S" >"$T/out" 2>"$T/err" &
step=$!
sleep 1
kill -TERM "$step"
wait "$step"
rc=$?
sleep 0.5
if [ "$rc" = 130 ] && ! pgrep -f "$T/bench-linux100" >/dev/null && ! ls -d "$T"/bench-linux100.* >/dev/null 2>&1; then
  pass linux100-term-stops-the-run
else
  echo "  (exit $rc; left: $(pgrep -f "$T/bench-linux100" | tr '\n' ' ') $(ls -d "$T"/bench-linux100.* 2>/dev/null))"
  fail linux100-term-stops-the-run
fi

# 0.0002 of 75.2 G instructions: inside the first burst, still in the boot
if env BIN="$BIN" LINUX100_FRACTION=0.0002 "$S" >"$T/out" 2>"$T/err" &&
   awk -F'|' '$1 ~ /^untraced +$/ { gsub(/ /, "", $2); u = $2 } $1 ~ /^traced +$/ { gsub(/ /, "", $2); gsub(/ /, "", $9); gsub(/ /, "", $10); t = $2; s = $9; d = $10 }
              END { exit !(u == 15041236 && t == u && s > 100000 && d == 0) }' "$T/out" &&
   grep -q "^the 100 s workload traced: [0-9]* s wall, [0-9]* s CPU .*extrapolated from 0.0[0-9]* of 102 s (0.02% of the instructions)" "$T/out" &&
   grep -q "^goal <= 210 s wall on 2 cores: " "$T/out"; then
  pass linux100-sliver-table
else
  fail linux100-sliver-table
fi
