#!/usr/bin/env bash
# End-to-end checks of metatrace's command line.  Each check prints PASS <name> or FAIL <name>.
set -u
MT=${BIN:-build/bin}/metatrace
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

check() { # name, command...; passes when the command exits 0
    local name=$1; shift
    if "$@" >"$tmp/out" 2>"$tmp/err"; then echo "PASS $name"; else echo "FAIL $name"; sed 's/^/    /' "$tmp/err" | head -5; fi
}
fails() { # name, command...; passes when the command exits non-zero with one message line naming the input
    local name=$1; shift
    if "$@" >"$tmp/out" 2>"$tmp/err"; then echo "FAIL $name (exit 0)"
    elif [ "$(wc -l <"$tmp/err")" -ge 1 ] && grep -q '^metatrace' "$tmp/err"; then echo "PASS $name"
    else echo "FAIL $name (no error message)"; fi
}

# size: the seed's defaults give S = 735085227 B (701.0 MiB); exact = 802734375 B (765.5 MiB)
check size_defaults "$MT" size
grep -q ' 735085227 B .* 735.1 MB .* 701.0 MiB' "$tmp/out" && echo "PASS size_formula_value" || echo "FAIL size_formula_value"
grep -q ' 802734375 B .* 765.5 MiB' "$tmp/out" && echo "PASS size_exact_value" || echo "FAIL size_exact_value"
fails size_bad_number "$MT" size --r-h abc
check size_help "$MT" size --help
fails unknown_command "$MT" frobnicate
