#!/usr/bin/env bash
# make install into a temporary DESTDIR, then use the installed copy as a user would:
# the layout, the shared library's soname and exports, each public header compiling alone, a
# small decoder built with `pkg-config --cflags --libs metatrace` (shared and static) whose sample
# count must equal `metatrace info`'s, and the Python package (python/tests/check.py).
# Prints PASS/FAIL lines (mk/run-tests.sh).
set -u
BUILD=${BUILD:-build} BIN=${BIN:-build/bin}
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
PREFIX=/usr/local
P=$D$PREFIX
fails=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; fails=$((fails + 1)); }

# The install itself: the tree is built already (make test), so this only copies and links.
unset MAKEFLAGS MFLAGS MAKELEVEL
if make --no-print-directory -s install PREFIX=$PREFIX DESTDIR="$D" BUILD="$BUILD" SAN="${SAN:-}" >"$D/make.log" 2>&1; then
  pass install
else
  fail install "make install failed: $(tail -n 5 "$D/make.log")"
  exit 1
fi

missing=
for f in bin/mtemu bin/metatrace lib/libmetatrace.a lib/libmetatrace.so lib/pkgconfig/metatrace.pc \
         include/metatrace/mt_mtr.h include/metatrace/mt_dec.h include/metatrace/mt_pkt.h \
         include/metatrace/mt_event.h include/metatrace/mt_regs.h include/metatrace/mt_reader.h \
         include/metatrace/mt_version.h share/man/man1/mtemu.1 share/man/man1/metatrace.1 \
         share/doc/metatrace/README.md share/doc/metatrace/docs/trace-format.md share/doc/metatrace/mrc.py \
         lib/python3/dist-packages/metatrace/__init__.py lib/python3/dist-packages/metatrace/_installed.py; do
  [ -e "$P/$f" ] || missing="$missing $f"
done
for f in mt_paths.h mt_sched.h; do [ -e "$P/include/metatrace/$f" ] && missing="$missing (private $f installed)"; done
[ -z "$missing" ] && pass install-layout || fail install-layout "missing:$missing"

version=$(cat VERSION) major=${version%%.*}
so=$(readlink -f "$P/lib/libmetatrace.so")
soname=$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')
if [ "$(basename "$so")" = "libmetatrace.so.$version" ] && [ "$soname" = "libmetatrace.so.$major" ] &&
   [ -L "$P/lib/libmetatrace.so.$major" ]; then
  pass install-soname
else
  fail install-soname "file $(basename "$so"), soname '$soname' (want libmetatrace.so.$version, libmetatrace.so.$major)"
fi

# Exports: only what the installed headers declare; a private function (mt_paths.c) is local.
syms=$(nm -D --defined-only "$so" | awk '$2 ~ /[TDRB]/ {print $3}' | sed 's/@.*//' | sort -u)
undeclared=
for s in $syms; do grep -qw "$s" "$P"/include/metatrace/*.h || undeclared="$undeclared $s"; done
if [ -z "$undeclared" ] && grep -qx mt_reader_open <<<"$syms" && grep -qx mt_file_open <<<"$syms" &&
   ! grep -qx mt_paths_check <<<"$syms"; then
  pass install-exports
else
  fail install-exports "exported but not in a public header:$undeclared; or a public/private symbol misplaced"
fi

export PKG_CONFIG_PATH="$P/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$D"
if flags=$(pkg-config --cflags --libs metatrace) && [[ $flags == *"-I$P/include"* ]] &&
   [[ $flags == *"-L$P/lib"* ]] && [[ $flags == *-lmetatrace* ]] &&
   [ "$(pkg-config --modversion metatrace)" = "$version" ]; then
  pass install-pkgconfig
else
  fail install-pkgconfig "pkg-config says '${flags:-nothing}'"
fi

# Every installed header compiles alone, as the first include of a C17 file (-pedantic).
for h in "$P"/include/metatrace/*.h; do
  name=$(basename "$h")
  if out=$(printf '#include <metatrace/%s>\nint mt_header_alone_check;\n' "$name" |
           gcc -std=c17 -Wall -Wextra -Werror -pedantic -fsyntax-only $(pkg-config --cflags metatrace) -x c - 2>&1); then
    pass "header-alone-$name"
  else
    fail "header-alone-$name" "$out"
  fi
done

# A small decoder against the installed copy: shared, then static (--static: the private libs).
gen() { "$BIN/metatrace" gen "$@" >/dev/null 2>&1; }
gen -o "$D/mixed.mtr" --accesses 1000000 --seed 7 && gen -o "$D/all.mtr" --every-access --accesses 20000 --pattern random --seed 3 ||
  { fail traces "metatrace gen failed"; exit 1; }
info_count() { "$BIN/metatrace" info "$1" | sed -n 's/^\(samples: [0-9]* ([0-9]* writes)\)$/\1/p'; }
if out=$(gcc -std=c17 -Wall -Wextra -Werror tests/install/count_samples.c $(pkg-config --cflags --libs metatrace) \
         -o "$D/count_shared" 2>&1); then
  ok=1
  for t in "$D/mixed.mtr" "$D/all.mtr"; do
    want=$(info_count "$t") got=$(LD_LIBRARY_PATH="$P/lib" "$D/count_shared" "$t")
    [ -n "$want" ] && [ "$got" = "$want" ] || { ok=0; fail decoder-shared "$(basename "$t"): '$got', metatrace info '$want'"; }
  done
  lib=$(LD_LIBRARY_PATH="$P/lib" ldd "$D/count_shared" | awk '/libmetatrace/ {print $3}')
  [ "$(readlink -f "$lib")" = "$so" ] || { ok=0; fail decoder-shared "loads '$lib', not the installed $so"; }
  [ $ok = 1 ] && pass decoder-shared
else
  fail decoder-shared "does not build: $out"
fi
# (under make SAN=1 the installed archive is the sanitized build's: link the runtime with it)
if out=$(gcc -std=c17 ${SAN:+-fsanitize=address,undefined} tests/install/count_samples.c $(pkg-config --cflags metatrace) "$P/lib/libmetatrace.a" \
         $(pkg-config --static --libs-only-l metatrace | sed 's/-lmetatrace//') -o "$D/count_static" 2>&1); then
  want=$(info_count "$D/mixed.mtr") got=$("$D/count_static" "$D/mixed.mtr")
  [ "$got" = "$want" ] && pass decoder-static || fail decoder-static "'$got', metatrace info '$want'"
else
  fail decoder-static "does not build: $out"
fi
# Bad input: a clear message naming the file, exit 1.
printf 'not a trace\n' >"$D/text.mtr"
for bad in "$D/none.mtr" "$D/text.mtr"; do
  err=$(LD_LIBRARY_PATH="$P/lib" "$D/count_shared" "$bad" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 1 ] && [[ $err == *"$bad"* ]] && pass "decoder-bad-$(basename "$bad")" ||
    fail "decoder-bad-$(basename "$bad")" "exit $rc: $err"
done

# The Python package, from the installed copy only (its own library lookup, no METATRACE_LIBRARY),
# under Debian's python3 (PYTHON overrides; a python3 of its own earlier in PATH, such as pyenv's,
# has not Debian's python3-numpy).
PYTHON=${PYTHON:-/usr/bin/python3}
if "$PYTHON" -c 'import numpy' 2>/dev/null; then
  unset METATRACE_LIBRARY
  PYTHONPATH="$P/lib/python3/dist-packages" "$PYTHON" python/tests/check.py "$BIN/metatrace" "$D" \
    "$D/mixed.mtr" "$D/all.mtr" "$P/share/doc/metatrace/mrc.py"
else
  fail python "$PYTHON cannot import numpy (make deps installs python3-numpy)"
fi
exit 0
