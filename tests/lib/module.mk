# tests/lib: what test scripts share (sourced, not run).  jobs.sh runs a script's independent runs
# two at a time; test_jobs.sh checks it (order, overlap, bound, status; seconds).
TEST_SCRIPTS += tests/lib/test_jobs.sh
