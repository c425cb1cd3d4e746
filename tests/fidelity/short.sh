#!/bin/sh
# The short fidelity run `make test` does (seconds): tests/fidelity/fidelity.sh --short, whose
# PASS/FAIL lines are the checks: the stack-distance LRU equals one simulation per configuration,
# the online truth equals the every-access trace, the reduce mode is exact, the spatial mode is
# exact at rate 1 and within the bound at its default rate.  Then --resume over its --keep
# directory: a missing output is made again, an output that is there is not (its file untouched),
# and the tables come out the same.
# test-timeout: 600
F="$(dirname "$0")/fidelity.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/fidelity-short.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
"$F" --short --keep "$T/k" >"$T/first.out"; rc=$?
grep -E '^(PASS|FAIL) ' "$T/first.out"
[ $rc = 0 ] || { echo "FAIL fidelity-short (exit $rc)"; exit 1; }

# --resume: drop one compare (made again), age the burst trace (kept: a run made again would
# rewrite it), then the tables must equal the first run's
d=$T/k/memcpy
cp "$T/k/tables.md" "$T/tables.first"
rm -f "$d/c.bs.json"
touch -d '2001-01-01 00:00:00' "$d/bs.mtr" "$d/t.none"
"$F" --short --resume "$T/k" >"$T/second.out"; rc=$?
if [ $rc = 0 ] && [ -s "$d/c.bs.json" ] && [ "$(stat -c %Y "$d/bs.mtr")" = "$(stat -c %Y "$d/t.none")" ] &&
   [ "$(stat -c %Y "$d/bs.mtr")" = "$(date -d '2001-01-01 00:00:00' +%s)" ] &&
   sed 1d "$T/tables.first" >"$T/a" && sed 1d "$T/k/tables.md" >"$T/b" && diff "$T/a" "$T/b" >"$T/diff" 2>&1; then
    echo "PASS fidelity-resume-reuses-outputs ($(grep -c '^| memcpy |' "$T/k/rows.md") rows rebuilt, bs.mtr and the untraced run reused)"
else
    echo "FAIL fidelity-resume-reuses-outputs (exit $rc)"; head -20 "$T/diff"; grep FAIL "$T/second.out"
    exit 1
fi
! "$F" --resume "$T/none" >/dev/null 2>"$T/err" && grep -q -- "--resume $T/none: no such directory" "$T/err" &&
    echo "PASS fidelity-resume-missing-dir" || { echo "FAIL fidelity-resume-missing-dir"; cat "$T/err"; exit 1; }
