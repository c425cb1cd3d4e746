#!/bin/sh
# Waveforms of the RTL trace unit from an emulator run (--waves, --waves-from, --waves-to): the
# FST file is whole, holds the cycles asked for (its header's start and end times: the RTL
# dumps cycle c at times 2c+1 and 2c+2), and the trace is byte-identical with and without it.
# Bad combinations are refused by name with exit 2.  One PASS/FAIL line per check.
set -u
BUILD=${BUILD:-build} BIN=${BIN:-$BUILD/bin} FWBUILD=${FWBUILD:-build/firmware}
MTEMU=$BIN/mtemu
T=$(mktemp -d "${TMPDIR:-/tmp}/waves.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
ok() { if [ "$2" = 0 ]; then echo "PASS $1"; else echo "FAIL $1"; fi; }
prog="$FWBUILD/seq.elf"
run() { "$MTEMU" -q --append "size=64K iters=1" --max-insns 300000 "$@"; }
# The FST header block (type 0) as the writer leaves it at close: u64 start and end times, BE.
fst_times() { od -An -j1 -N24 -tx1 "$1" | tr -d ' \n' | sed 's/^\(.\{16\}\)\(.\{16\}\)\(.\{16\}\)$/\2 \3/'; }
hex() { printf '%016x' "$1"; }

# 1. the whole run, lockstep: a whole FST, the same trace as without
run --trace-unit=both --trace "$T/a.mtr" "$prog" >/dev/null 2>&1
run --trace-unit=both --trace "$T/b.mtr" --waves "$T/all.fst" "$prog" >/dev/null 2>"$T/err"
rc=$?
[ $rc = 0 ] && cmp -s "$T/a.mtr" "$T/b.mtr"
ok waves-trace-identical $?
[ -s "$T/all.fst" ] && [ "$(od -An -N1 -tu1 "$T/all.fst" | tr -d ' ')" = 0 ] && grep -aq fstWriter "$T/all.fst" &&
    [ ! -e "$T/all.fst.partial" ]
ok waves-fst-whole $?
set -- $(fst_times "$T/all.fst")
[ "$1" = "$(hex 1)" ] && [ "$((0x$2))" -gt 1000 ]
ok waves-fst-from-reset $?

# 2. a window, with the RTL alone (its trace against the RTL's without a waveform: the header
# names the unit)
run --trace-unit=rtl --trace "$T/r.mtr" "$prog" >/dev/null 2>&1
run --trace-unit=rtl --trace "$T/c.mtr" --waves "$T/win.fst" --waves-from 5000 --waves-to 6000 \
    "$prog" >/dev/null 2>&1
rc=$?
set -- $(fst_times "$T/win.fst")
[ $rc = 0 ] && [ "$1" = "$(hex 10001)" ] && [ "$2" = "$(hex 12000)" ] && cmp -s "$T/r.mtr" "$T/c.mtr" &&
    [ "$(stat -c %s "$T/win.fst")" -lt "$(stat -c %s "$T/all.fst")" ]
ok waves-window $?

# 3. refused: no RTL, no trace, an empty window, a window without --waves, an unwritable file
bad() {
  name=$1; want=$2; shift 2
  "$MTEMU" "$@" "$prog" >/dev/null 2>"$T/bad.err"
  rc=$?
  [ $rc = 2 ] && grep -q -- "$want" "$T/bad.err"
  ok "waves-refused-$name" $?
}
bad model "give --trace-unit=rtl or both" -q --trace "$T/x.mtr" --waves "$T/x.fst"
bad no-trace "needs --trace" -q --trace-unit=rtl --waves "$T/x.fst"
bad empty-window "is not before" -q --trace-unit=rtl --trace "$T/x.mtr" --waves "$T/x.fst" --waves-from 10 --waves-to 10
bad window-alone "give --waves" -q --trace "$T/x.mtr" --waves-to 10
bad bad-cycle "--waves-from" -q --trace-unit=rtl --trace "$T/x.mtr" --waves "$T/x.fst" --waves-from ten
bad unwritable "cannot create" -q --trace-unit=rtl --trace "$T/x.mtr" --waves "$T/no/such/dir/x.fst"
[ ! -e "$T/x.fst" ]
ok waves-refused-leave-nothing $?
