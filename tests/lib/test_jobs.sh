#!/usr/bin/env bash
# tests/lib/jobs.sh, the helper that runs a test script's independent runs two at a time:
#   jobs/order        output in the order the jobs were started, not the order they ended
#   jobs/overlap      with TEST_JOBS=2 two jobs run at the same time
#   jobs/bound        never more than TEST_JOBS at once (3 jobs, limit 2; limit 1)
#   jobs/status       jobs_end returns 0 when every job did, 1 when one failed or was killed
#   jobs/serial-same  TEST_JOBS=1 prints the same as TEST_JOBS=2
#   jobs/bad-count    TEST_JOBS=0 is refused with a FAIL line naming it
set -u
lib=$(cd "$(dirname "$0")" && pwd)/jobs.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
check() { if [ "$2" = 0 ]; then echo "PASS jobs/$1"; else echo "FAIL jobs/$1: $3"; fails=$((fails + 1)); fi; }

# order: the first job ends last
out=$(TEST_JOBS=2 bash -c '. "$1"; slow() { sleep 0.5; echo first; }; jobs_begin; job slow; job echo second; jobs_end' _ "$lib")
[ "$out" = "$(printf 'first\nsecond')" ]; check order $? "got '$out'"

# overlap: job a waits (up to 20 s) for the file job b makes; b waits for a's, so neither can
# end unless both run at once
overlap='. "$1"; d=$2
meet() { touch "$d/$1"; for _ in $(seq 200); do [ -e "$d/$2" ] && { echo "$1 met $2"; return 0; }; sleep 0.1; done; echo "$1 alone"; return 1; }
jobs_begin; job meet a b; job meet b a; jobs_end'
out=$(TEST_JOBS=2 bash -c "$overlap" _ "$lib" "$tmp")
[ "$out" = "$(printf 'a met b\nb met a')" ]; check overlap $? "got '$out'"

# bound: each job marks itself running, counts the marks, holds a moment, unmarks
bound='. "$1"; d=$2; mkdir -p "$d"
hold() { touch "$d/$1"; ls "$d" | wc -l >"$d.max.$1"; sleep 0.3; rm "$d/$1"; }
jobs_begin; for i in 1 2 3 4 5; do job hold $i; done; jobs_end; sort -n "$d".max.* | tail -n 1'
most=$(TEST_JOBS=2 bash -c "$bound" _ "$lib" "$tmp/b2")
most1=$(TEST_JOBS=1 bash -c "$bound" _ "$lib" "$tmp/b1")
[ "$most" -le 2 ] && [ "$most1" = 1 ]; check bound $? "at most $most at once with TEST_JOBS=2, $most1 with 1"

# status: every job returns 0; one returns 3; one is killed before it can say anything
s0=$(bash -c '. "$1"; jobs_begin; job true; job true; jobs_end; echo $?' _ "$lib")
s1=$(bash -c '. "$1"; jobs_begin; job true; job sh -c "exit 3"; job true; jobs_end; echo $?' _ "$lib")
s2=$(bash -c '. "$1"; jobs_begin; job sh -c "kill -9 \$PPID"; jobs_end; echo $?' _ "$lib")
[ "$s0" = 0 ] && [ "$s1" = 1 ] && [ "$s2" = 1 ]; check status $? "all ok: $s0, one exit 3: $s1, one killed: $s2"

# serial-same: a job's stdout and stderr, several lines each, in both modes
same='. "$1"; say() { echo "$1 out"; echo "$1 err" >&2; sleep "0.$((RANDOM % 3))"; echo "$1 end"; }
jobs_begin; for n in a b c d e; do job say $n; done; jobs_end'
o2=$(TEST_JOBS=2 bash -c "$same" _ "$lib" 2>&1); o1=$(TEST_JOBS=1 bash -c "$same" _ "$lib" 2>&1)
[ "$o1" = "$o2" ] && [ "$(wc -l <<<"$o1")" = 15 ]; check serial-same $? "TEST_JOBS=1: '$o1' / 2: '$o2'"

out=$(TEST_JOBS=0 bash -c '. "$1"; echo reached' _ "$lib"); rc=$?
[ $rc = 1 ] && [[ $out == "FAIL jobs: TEST_JOBS='0' is not a positive count" ]]; check bad-count $? "exit $rc, '$out'"
[ "$fails" -eq 0 ]
