#!/usr/bin/env bash
# Runs every test given on the command line and prints one summary line: "N passed, M failed".
#
#  * cmocka binaries (build/.../tests/test_*): their "[  PASSED  ] n test(s)" and
#    "[  FAILED  ] m test(s)" lines are counted; a crash or timeout counts as one failure.
#  * scripts (*.sh): each line "PASS <name>" or "FAIL <name>" it prints counts as one test;
#    a script that prints none counts as one test, passed when it exits 0. Exit 77 = skipped.
# Every test runs under a timeout so that nothing can hang CI (TEST_TIMEOUT, 300 s; a script may
# ask for more with a line "# test-timeout: SECONDS"). Output of failing tests is shown.
# Tests run one at a time; a script whose runs are independent runs them two at a time itself
# (tests/lib/jobs.sh, TEST_JOBS), so the machine's two cores stay busy without tests sharing files.
# Before the summary: the time of all tests and the ten slowest (where CI's time goes).
set -u
passed=0; failed=0; skipped=0
log=$(mktemp); times=$(mktemp); trap 'rm -f "$log" "$times"' EXIT
all_start=$SECONDS
TEST_TIMEOUT=${TEST_TIMEOUT:-300}

for t in "$@"; do
  name=${t#"$BUILD"/}
  start=$SECONDS
  # A script may ask for more time with a line "# test-timeout: SECONDS" (never for less).
  limit=$TEST_TIMEOUT
  if [[ $t == *.sh ]]; then
    own=$(sed -n 's/^# test-timeout: \([0-9][0-9]*\)$/\1/p' "$t" | head -n 1)
    if [ -n "$own" ] && [ "$own" -gt "$limit" ]; then limit=$own; fi
  fi
  timeout --kill-after=10 "$limit" "$t" </dev/null >"$log" 2>&1
  rc=$?
  secs=$((SECONDS - start))
  echo "$secs $name" >>"$times"
  if [[ $t == *.sh ]]; then
    p=$(grep -c '^PASS ' "$log"); f=$(grep -c '^FAIL ' "$log")
    if [ "$rc" -eq 77 ] && [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
      skipped=$((skipped + 1)); echo "SKIP  $name ($(tail -n1 "$log"))"; continue
    fi
    if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
      if [ "$rc" -eq 0 ]; then p=1; else f=1; fi
    elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
      f=1   # the script failed outside any named test
    fi
  else
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # crashed, timed out, or leaked
  fi
  passed=$((passed + p)); failed=$((failed + f))
  if [ "$f" -eq 0 ]; then
    echo "ok    $name ($p, ${secs}s)"
  else
    echo "FAIL  $name ($f failed, $p passed, exit $rc, ${secs}s)"
    sed 's/^/      | /' "$log" | tail -n 60
  fi
done
[ "$skipped" -gt 0 ] && echo "($skipped skipped)"
echo "$(($SECONDS - all_start)) s in all; slowest: $(sort -k1,1nr -k2 "$times" | head -n 10 | awk '{printf "%s%s %ss", sep, $2, $1; sep = ", "}')"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
