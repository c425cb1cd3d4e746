#!/usr/bin/env bash
# run_synth.sh's summary (build/synth/summary.txt, builds.md) lists every build whose figures an
# earlier run left, not only the builds of this run: a partial `BUILDS=rdpath make synth` once
# wrote a summary of rdpath lines alone.  Also: a build that did not fit (fits 0, as the reduce
# build writes it) is listed with its figures and no fmax verdict.  Runs run_synth.sh with
# SUMMARY_ONLY=1 on figures made here (nothing is synthesised; well under a second).
set -u
cd "$(dirname "$0")/../.."
for t in yosys nextpnr-ice40; do
  command -v $t >/dev/null || { echo "no $t (run_synth.sh needs it to start)"; exit 77; }
done
T=$(mktemp -d "${TMPDIR:-/tmp}/test-rtl-synth-summary.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
fig() { # fig DIR LUT4 FMAX FITS
  mkdir -p "$1"
  printf 'lut4 %s\nff 1\nbram 2\ndsp 0\nfmax_mhz %s\nfmax_seeds 1:%s\ndevice up5k-sg48\nlut4_fraction 0.500\nlogic_cells_placed 10/5280\nfits %s\n' \
    "$2" "$3" "$3" "$4" >"$1/figures.txt"
}
fig "$T/s" 4689 59.25 1
fig "$T/s/minimal" 3041 48.11 1
fig "$T/s/rdpath" 5082 38.45 1
fig "$T/s/reduce" 9000 none 0
check() { # check NAME CONDITION-COMMAND...
  local name=$1; shift
  if "$@"; then echo "PASS $name"; else echo "FAIL $name"; fi
}
SUMMARY_ONLY=1 BUILDS=rdpath rtl_model/synth/run_synth.sh "$T/s" >"$T/out" 2>"$T/err"
check rtl_synth_summary_partial_ok test $? = 0
check rtl_synth_summary_keeps_full grep -qx 'lut4 4689' "$T/s/summary.txt"
check rtl_synth_summary_keeps_minimal grep -qx 'minimal.lut4 3041' "$T/s/summary.txt"
check rtl_synth_summary_has_rdpath grep -qx 'rdpath.lut4 5082' "$T/s/summary.txt"
check rtl_synth_summary_has_nofit grep -qx 'reduce.fits 0' "$T/s/summary.txt"
check rtl_synth_summary_table_rows test "$(grep -c '^| [a-z]* | up5k' "$T/s/builds.md")" = 4
# the fmax verdict: of this run's builds that placed (rdpath misses 48 MHz), none for one that
# did not fit
check rtl_synth_summary_verdict grep -q 'rdpath: median fmax 38.45 MHz misses' "$T/err"
SUMMARY_ONLY=1 BUILDS=reduce rtl_model/synth/run_synth.sh "$T/s" >"$T/out" 2>"$T/err"
check rtl_synth_summary_nofit_no_verdict sh -c "! grep -q 'reduce: median fmax' '$T/err'"
# a build asked for whose figures are missing is an error naming it
rm "$T/s/minimal/figures.txt"
if SUMMARY_ONLY=1 BUILDS=minimal rtl_model/synth/run_synth.sh "$T/s" >"$T/out" 2>"$T/err"; then
  echo "FAIL rtl_synth_summary_missing (exit 0)"
else
  check rtl_synth_summary_missing grep -q 'no .*minimal/figures.txt' "$T/err"
fi
