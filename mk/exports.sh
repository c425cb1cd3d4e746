#!/usr/bin/env bash
# Writes the version script of libmetatrace.so on stdout: a global symbol of the objects is
# exported when an installed header names it (as a whole word), everything else is local.
# Usage: mk/exports.sh VERSION_NODE "HEADER..." OBJECT...
set -euo pipefail
node=$1 headers=$2
shift 2
# identifiers the public headers mention
words=$(cat $headers | tr -c 'A-Za-z0-9_' '\n' | grep -E '^[A-Za-z_]' | sort -u)
syms=$(nm -g --defined-only "$@" | awk 'NF == 3 && $2 ~ /[TDRB]/ {print $3}' | sort -u)
exported=$(comm -12 <(printf '%s\n' "$words") <(printf '%s\n' "$syms"))
[ -n "$exported" ] || { echo "mk/exports.sh: no public symbol found" >&2; exit 1; }
echo "$node {"
echo "  global:"
printf '    %s;\n' $exported
echo "  local: *;"
echo "};"
