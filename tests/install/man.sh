#!/usr/bin/env bash
# The man pages stay true to the programs: every option that `mtemu --help` (or `metatrace --help`
# and each `metatrace CMD --help`) lists appears in the page, and every option the page names
# is one the program lists, whatever options there are; both --version texts give VERSION; the ISA
# that mtemu --help and --version name is the one its device tree gives the guest.
# Prints PASS/FAIL lines (mk/run-tests.sh).
set -u
BUILD=${BUILD:-build} BIN=${BIN:-build/bin} FWBUILD=${FWBUILD:-build/firmware}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }

# Option words: -x or --word, not inside a hyphenated word (RISC-V, meta-paging).
options() { grep -oP '(?<![A-Za-z0-9_./-])--?[A-Za-z][A-Za-z0-9-]*' | sort -u; }
# A man page's text as a reader sees it: roff comments dropped, \- and \e and fonts undone.
man_text() { grep -v '^\.\\"' "$1" | sed -e 's/\\-/-/g' -e 's/\\e/\\/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g'; }

check_page() { # name page help-text-file
  local name=$1 page=$2 help=$3
  if [ ! -s "$page" ]; then fail "man-$name" "$page is missing (make install builds it)"; return; fi
  options <"$help" >"$T/help.opts"
  man_text "$page" | options >"$T/man.opts"
  local only_help only_man
  only_help=$(comm -23 "$T/help.opts" "$T/man.opts" | tr '\n' ' ')
  only_man=$(comm -13 "$T/help.opts" "$T/man.opts" | tr '\n' ' ')
  if [ "$(wc -l <"$T/help.opts")" -lt 3 ]; then
    fail "man-$name" "--help lists no options?"
  elif [ -z "$only_help$only_man" ]; then
    pass "man-$name ($(wc -l <"$T/help.opts") options)"
  else
    fail "man-$name" "in --help only: ${only_help:-none}; in the man page only: ${only_man:-none}"
  fi
  # a well-formed page: a title and the usual sections
  for s in NAME SYNOPSIS DESCRIPTION 'EXIT STATUS' 'SEE ALSO'; do
    grep -q "^\.SH $s\$" "$page" || { fail "man-$name-sections" "no .SH $s"; return; }
  done
  grep -q "^\.TH [A-Z]* 1 .*$(cat VERSION)" "$page" && pass "man-$name-sections" ||
    fail "man-$name-sections" "no .TH line with the version"
}

"$BIN/mtemu" --help >"$T/mtemu.help"
check_page mtemu "$BUILD/man/mtemu.1" "$T/mtemu.help"

"$BIN/metatrace" --help >"$T/metatrace.help"
for cmd in $(sed -n 's/^  \([a-z][a-z0-9-]*\)  .*/\1/p' "$T/metatrace.help"); do
  "$BIN/metatrace" "$cmd" --help >>"$T/metatrace.help" 2>&1 || fail "help-$cmd" "metatrace $cmd --help failed"
  grep -q "^\.SS metatrace $cmd\$" "$BUILD/man/metatrace.1" || fail "man-metatrace-$cmd" "no section for $cmd"
done
check_page metatrace "$BUILD/man/metatrace.1" "$T/metatrace.help"

version=$(cat VERSION)
mv=$("$BIN/mtemu" --version) tv=$("$BIN/metatrace" --version)
[[ $mv == "mtemu $version "* && $tv == "metatrace $version" ]] && pass version ||
  fail version "mtemu says '$mv', metatrace '$tv', VERSION is $version"
[ "$("$BIN/mtemu" -V)" = "$mv" ] && [ "$("$BIN/metatrace" -V)" = "$tv" ] && pass version-short ||
  fail version-short "-V differs from --version"

# The ISA: --version's, --help's and the device tree's riscv,isa are one string, RV64GC + H.
isa=$(sed -n 's/^ISA: //p' <<<"$mv")
"$BIN/mtemu" -q --max-insns 1 --dump-dtb "$T/dtb" "$FWBUILD/emu/hello.elf" >/dev/null 2>&1
dt_isa=$(strings "$T/dtb" 2>/dev/null | grep -m1 '^rv64')
if [[ $isa == rv64imafdch_* && $isa == *_zicsr_zifencei_* ]] && [ "$isa" = "$dt_isa" ] && grep -qF "RISC-V $isa machine" "$T/mtemu.help"; then
  pass isa-string
else
  fail isa-string "--version '$isa', device tree '$dt_isa', --help: $(grep -m1 RISC-V "$T/mtemu.help")"
fi
exit 0
