#!/usr/bin/env bash
# `make -n` only prints: with an RTL source newer than everything built from it, a dry run of any
# goal runs no command (it once re-synthesised the gate-level netlist with yosys, because the
# Makefile included Verilator's *__ver.d files, which make brings up to date as makefiles before
# any goal, even under -n).  Prints PASS/FAIL lines (mk/run-tests.sh).
set -u
# (the make of `make test` passes its jobserver in MAKEFLAGS: the dry run is a make of its own)
BUILD=${BUILD:-build}
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }
src=rtl_model/rtl/mt_tu.sv
[ -f Makefile ] && [ -f "$src" ] || { echo "make-dry-run: run from the repository's top (no Makefile or $src here)"; exit 77; }
# every Verilator output directory's dependency files as they are now: a dry run changes none
snap() { find build/rtl -name '*.d' -o -name '*.v' 2>/dev/null | sort | xargs -r stat -c '%n %Y %s'; }
before=$(snap)
out=$(timeout 120 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES make --no-print-directory -n -W "$src" clean 2>&1); rc=$?
after=$(snap)
if [ $rc -ne 0 ]; then
  fail make-dry-run-clean "make -n -W $src clean exited $rc: $(printf '%s' "$out" | tail -n 3)"
elif printf '%s\n' "$out" | grep -qv '^rm -rf '; then
  fail make-dry-run-clean "make -n printed or ran more than the clean goal's rm: $(printf '%s\n' "$out" | grep -v '^rm -rf ' | head -n 3 | cut -c1-160)"
elif [ "$before" != "$after" ]; then
  fail make-dry-run-clean "make -n changed files under build/rtl"
else
  pass make-dry-run-clean
fi
