# Sourced by test scripts (not run): runs a script's independent runs two at a time.
# mk/run-tests.sh runs one test at a time and CI's machine has 2 cores, so a script whose runs do
# not depend on each other leaves one core idle unless it runs them side by side.  The output of
# every job is kept in a file and shown in the order the jobs were started, whatever order they
# end in, so a script's output is the same from run to run.
#
#   jobs_begin              once, before the first job (bash 5.1+: `wait -n`)
#   job FUNCTION ARGS...    runs FUNCTION ARGS in the background, stdin from /dev/null, stdout and
#                           stderr to the job's log; first waits while TEST_JOBS jobs are running.
#                           A job is a subshell: it cannot set the script's variables, so it says
#                           what happened through its exit status, its output and its files.
#   jobs_end                waits for every job, prints each one's output in start order; returns
#                           1 when a job exited non-zero (or left no status: killed)
#
# TEST_JOBS: how many jobs at once (default 2; TEST_JOBS=1 runs them one after the other, in the
# same order, with the same output).  Jobs must not share files: give each its own names.
# A job costs a fork of the shell and two files: runs of a few milliseconds (the ISA tests) go
# into jobs by the dozen, not one each.
TEST_JOBS=${TEST_JOBS:-2}
case $TEST_JOBS in ''|*[!0-9]*|0) echo "FAIL jobs: TEST_JOBS='$TEST_JOBS' is not a positive count"; exit 1 ;; esac

jobs_begin() {
  _jobs_dir=$(mktemp -d)
  _jobs_count=0
  _jobs_running=0
}

job() {
  # `wait -n` returns as soon as any of the running jobs ends (at once if one has already ended).
  while [ "$_jobs_running" -ge "$TEST_JOBS" ]; do
    wait -n
    _jobs_running=$((_jobs_running - 1))
  done
  local log=$_jobs_dir/$_jobs_count
  ( "$@"; echo $? >"$log.rc" ) </dev/null >"$log.out" 2>&1 &
  _jobs_count=$((_jobs_count + 1))
  _jobs_running=$((_jobs_running + 1))
}

jobs_end() {
  wait
  local i rc status=0
  for ((i = 0; i < _jobs_count; i++)); do
    [ -s "$_jobs_dir/$i.out" ] && cat "$_jobs_dir/$i.out"
    rc=
    [ -f "$_jobs_dir/$i.rc" ] && read -r rc <"$_jobs_dir/$i.rc"
    [ "$rc" = 0 ] || status=1
  done
  rm -rf "$_jobs_dir"
  _jobs_count=0
  _jobs_running=0
  return $status
}
