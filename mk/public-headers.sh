#!/usr/bin/env bash
# Prints the public headers and every project header they include (the closure that
# include/metatrace/ must hold for each of them to compile alone), one path a line, sorted.
# Usage: CC=gcc mk/public-headers.sh HEADER...   (system headers are left out: gcc -MM)
set -euo pipefail
dirs=()
for h in "$@"; do dirs+=(-I "$(dirname "$h")"); done
for h in "$@"; do
  "${CC:-gcc}" -MM -x c "${dirs[@]}" "$h"
done | tr ' \\' '\n\n' | grep '\.h$' | sort -u
