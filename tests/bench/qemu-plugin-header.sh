#!/usr/bin/env bash
# Puts QEMU's plugin API header, qemu-plugin.h, into OUTDIR/include/ (default build/qemu-plugin),
# taken from Debian's qemu source package: Debian's qemu binary packages ship neither the header nor
# the example plugins, but qemu-system-misc 7.2 does load plugins (-plugin).
#
#   tests/bench/qemu-plugin-header.sh [OUTDIR]          (run from the repository root)
#
# The source package is fetched the way firmware/linux/build.sh fetches busybox: apt-get with a
# private deb-src list, lists directory and cache under OUTDIR (the system's apt configuration is
# untouched), so apt checks every file against the signed Release -> Sources hashes. Only the header
# is extracted from the upstream tarball; a Debian patch touching it would make that copy wrong, so
# that case is refused rather than ignored. The downloaded source stays cached in OUTDIR/dl, so this
# runs once. Exit 0: the header is there; exit 1 with a message naming the step that failed (for
# example no network to Debian's archive): callers skip their QEMU-plugin work and say why.
set -euo pipefail

out=${1:-build/qemu-plugin}
pkg=qemu
header=include/qemu/qemu-plugin.h

die() { echo "qemu-plugin header: $*" >&2; exit 1; }
note() { echo "qemu-plugin header: $*" >&2; }

mkdir -p "$out"
out=$(cd "$out" && pwd -P)
[ -f "$out/include/qemu-plugin.h" ] && exit 0
for tool in tar xz; do
  command -v $tool >/dev/null || die "$tool missing"
done

if ! ls "$out"/dl/${pkg}_*.dsc >/dev/null 2>&1; then
  note "fetching Debian's $pkg source package (about 24 MB, once)"
  "$(dirname "$0")/../../mk/debsrc.sh" "$pkg" "$out/dl" "$out/apt" "$out/apt.log" ||
    die "Debian's $pkg source package could not be fetched"
fi

orig=$(ls "$out"/dl/${pkg}_*.orig.tar.* 2>/dev/null | head -1)
debian=$(ls "$out"/dl/${pkg}_*.debian.tar.* 2>/dev/null | head -1)
[ -n "$orig" ] || die "no upstream tarball in $out/dl"
[ -n "$debian" ] || die "no debian tarball in $out/dl"

# A Debian patch to the header would make the upstream copy wrong for the installed QEMU.
if tar -xOf "$debian" --wildcards 'debian/patches/*' 2>/dev/null | grep -q "^+++ .*$header"; then
  die "a patch in $(basename "$debian") changes $header: extract with dpkg-source -x instead"
fi

tmp="$out/extract.tmp"
rm -rf "$tmp" && mkdir -p "$tmp"
# -m: dated now, not as in the archive; --no-same-owner: as root, tar would keep the archive's owner.
tar -xmf "$orig" --no-same-owner --no-same-permissions -C "$tmp" --wildcards "*/$header" || die "$header not found in $(basename "$orig")"
mkdir -p "$out/include"
mv "$(find "$tmp" -path "*/$header" | head -1)" "$out/include/qemu-plugin.h"
rm -rf "$tmp"
# Which source the header came from, for the bench's report.
basename "$orig" > "$out/include/SOURCE"
note "$out/include/qemu-plugin.h from $(basename "$orig")"
