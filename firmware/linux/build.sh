#!/usr/bin/env bash
# Builds build/linux/Image: Linux 6.1 from Debian's linux-source-6.1 with a built-in initramfs
# holding a static busybox built from Debian's busybox source package and firmware/linux/init.
#
#   firmware/linux/build.sh [OUTDIR]      (OUTDIR defaults to build/linux; run from the repo root)
#
# Every step is cached in OUTDIR and keyed on the hash of its inputs (stamp files), so a second
# run with nothing changed takes a second, and changing only /init relinks only the kernel's
# initramfs. Nothing outside OUTDIR is written: busybox's source is fetched with apt-get and a
# private deb-src list, lists directory and cache (mk/debsrc.sh; the system's apt configuration
# is untouched).
# JOBS (default 2) and NICE (default "nice -n 19") control how hard the build leans on the machine.
set -euo pipefail

here=firmware/linux
out=${1:-build/linux}
jobs=${JOBS:-2}
nice_cmd=${NICE:-nice -n 19}
kernel_tar=/usr/src/linux-source-6.1.tar.xz
cross=riscv64-linux-gnu-
busybox_pkg=busybox
# One fixed date for every timestamp that ends up in the Image (busybox's version string, the
# kernel's, the initramfs entries), so the same inputs give a byte-identical Image.
export SOURCE_DATE_EPOCH=1767225600   # 2026-01-01 00:00:00 UTC

die() { echo "linux build: $*" >&2; exit 1; }
note() { echo "linux build: $*" >&2; }
hash_of() { cat "$@" | sha256sum | cut -d' ' -f1; }
stamp_ok() { [ -f "$1" ] && [ "$(cat "$1")" = "$2" ]; }

[ -f "$here/kernel.fragment" ] || die "run from the repository root ($here/kernel.fragment not found)"
[ -f "$kernel_tar" ] || die "$kernel_tar missing: install linux-source-6.1 (make deps)"
command -v ${cross}gcc >/dev/null || die "${cross}gcc missing: install gcc-riscv64-linux-gnu (make deps)"
for tool in dpkg-source flex bison bc cpio; do
  command -v $tool >/dev/null || die "$tool missing (make deps)"
done
mkdir -p "$out"
out=$(cd "$out" && pwd -P)

# --- 1. busybox source, from Debian's source package -------------------------------------------
bb_src=$(ls -d "$out"/busybox-src/busybox-*/ 2>/dev/null | head -1 || true)
if [ -z "$bb_src" ]; then
  ls "$out"/busybox-dl/*.dsc >/dev/null 2>&1 || note "fetching Debian's $busybox_pkg source package"
  mk/debsrc.sh "$busybox_pkg" "$out/busybox-dl" "$out/apt" "$out/apt.log" ||
    die "Debian's $busybox_pkg source package could not be fetched"
  dsc=$(ls "$out"/busybox-dl/*.dsc | head -1)
  rm -rf "$out/busybox-src.tmp" && mkdir -p "$out/busybox-src.tmp"
  # apt has checked the files against the signed Release -> Sources hashes; dpkg-source's own
  # signature check needs debian-keyring (not installed) and only warns: keep its noise in a log.
  (cd "$out/busybox-src.tmp" && dpkg-source -x "$dsc" busybox-debian >"$out/dpkg-source.log" 2>&1) \
    || { cat "$out/dpkg-source.log" >&2; die "dpkg-source -x $dsc failed"; }
  # Not needed to build, and their directories named *.d would be picked up by the top-level
  # Makefile's search for dependency files under build/.
  rm -rf "$out/busybox-src.tmp/busybox-debian/debian/tree" "$out/busybox-src.tmp/busybox-debian/examples"
  rm -rf "$out/busybox-src" && mv "$out/busybox-src.tmp" "$out/busybox-src"
  bb_src="$out/busybox-src/busybox-debian/"
fi
bb_src=${bb_src%/}

# --- 2. busybox, static ---------------------------------------------------------------------------
bb_key=$(hash_of "$here/busybox.fragment" "$bb_src/debian/changelog"; echo "$cross $SOURCE_DATE_EPOCH")
if ! stamp_ok "$out/busybox.stamp" "$bb_key" || [ ! -x "$bb_src/busybox" ]; then
  note "building busybox (static, ${cross}gcc)"
  t0=$(date +%s)
  make -s -C "$bb_src" distclean >/dev/null 2>&1 || true
  make -s -C "$bb_src" ARCH=riscv CROSS_COMPILE=$cross defconfig >/dev/null
  # Apply the fragment: drop every symbol it names from .config, append its lines, re-resolve.
  syms=$(grep -oE '^(# )?CONFIG_[A-Za-z0-9_]+' "$here/busybox.fragment" | sed 's/^# //')
  for s in $syms; do sed -i -e "/^$s=/d" -e "/^# $s is not set/d" "$bb_src/.config"; done
  grep -E '^(CONFIG_|# CONFIG_.* is not set)' "$here/busybox.fragment" >> "$bb_src/.config"
  { yes "" || true; } | make -s -C "$bb_src" ARCH=riscv CROSS_COMPILE=$cross oldconfig >/dev/null
  grep -qx 'CONFIG_STATIC=y' "$bb_src/.config" || die "busybox .config lost CONFIG_STATIC=y"
  $nice_cmd make -s -C "$bb_src" ARCH=riscv CROSS_COMPILE=$cross -j"$jobs" busybox busybox.links \
    > "$out/busybox-build.log" 2>&1 || { tail -20 "$out/busybox-build.log" >&2; die "busybox build failed (log: $out/busybox-build.log)"; }
  echo "$bb_key" > "$out/busybox.stamp"
  note "busybox built in $(( $(date +%s) - t0 )) s: $(stat -c %s "$bb_src/busybox") bytes"
fi

# --- 3. initramfs description (gen_init_cpio format: no root needed for device nodes) ------------
# gen_init_cpio records a file's own mtime: stage the files with the fixed date.
stage="$out/initramfs-files"
rm -rf "$stage" && mkdir -p "$stage/scripts"
install -m 755 "$bb_src/busybox" "$stage/busybox"
install -m 755 "$here/init" "$stage/init"
for s in "$here"/scripts/*.sh; do [ -f "$s" ] && install -m 755 "$s" "$stage/scripts/"; done
find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
list="$out/initramfs.list"
{
  echo "# generated by firmware/linux/build.sh"
  for d in /bin /sbin /usr /usr/bin /usr/sbin /dev /proc /sys /tmp /etc /etc/mt /root; do
    echo "dir $d 755 0 0"
  done
  echo "nod /dev/console 600 0 0 c 5 1"
  echo "nod /dev/null 666 0 0 c 1 3"
  echo "file /bin/busybox $stage/busybox 755 0 0"
  echo "file /init $stage/init 755 0 0"
  for s in "$stage"/scripts/*.sh; do
    [ -f "$s" ] && echo "file /etc/mt/$(basename "$s") $s 755 0 0"
  done
  # One symlink per applet, from the list busybox's own build wrote.
  while read -r link; do
    [ "$link" = /bin/busybox ] && continue
    echo "slink $link /bin/busybox 777 0 0"
  done < "$bb_src/busybox.links"
} > "$list.tmp"
mv "$list.tmp" "$list"

# --- 4. kernel source ----------------------------------------------------------------------------
ksrc="$out/linux-source-6.1"
tar_key=$(stat -c '%s %Y' "$kernel_tar")
if ! stamp_ok "$out/kernel-src.stamp" "$tar_key" || [ ! -f "$ksrc/Makefile" ]; then
  note "unpacking $kernel_tar"
  rm -rf "$ksrc"
  $nice_cmd tar -xJf "$kernel_tar" -C "$out" || die "cannot unpack $kernel_tar"
  rm -rf "$ksrc/tools/testing/selftests"   # unused; holds a directory named test.d (see below)
  echo "$tar_key" > "$out/kernel-src.stamp"
fi

# --- 5. kernel config and build -------------------------------------------------------------------
kobj="$out/kernel-obj"
mkdir -p "$kobj"
frag="$out/kernel.allconfig"
{ cat "$here/kernel.fragment"; echo "CONFIG_INITRAMFS_SOURCE=\"$list\""; } > "$frag"
# Fixed build identity, so the same inputs give a byte-identical Image (uname -v shows it).
export KBUILD_BUILD_TIMESTAMP="$(LC_ALL=C date -u -d "@$SOURCE_DATE_EPOCH")" KBUILD_BUILD_USER=metatrace \
       KBUILD_BUILD_HOST=metatrace KBUILD_BUILD_VERSION=1
kmake=(make -s -C "$ksrc" O="$kobj" ARCH=riscv CROSS_COMPILE=$cross)
k_key=$(hash_of "$frag" "$list" "$here/init" "$here"/scripts/*.sh "$bb_src/busybox" "$0"; echo "$tar_key")
if ! stamp_ok "$out/kernel.stamp" "$k_key" || [ ! -f "$out/Image" ]; then
  t0=$(date +%s)
  note "configuring Linux (allnoconfig + $here/kernel.fragment)"
  KCONFIG_ALLCONFIG="$frag" "${kmake[@]}" allnoconfig >/dev/null
  # Every line of the fragment must have survived Kconfig's dependency resolution: a silently
  # dropped option (a typo, a missing dependency) would give a kernel that fails only at boot.
  lost=0
  while read -r line; do
    case "$line" in
      CONFIG_*=*) grep -qxF "$line" "$kobj/.config" || { note "kernel option '$line' from $here/kernel.fragment did not survive allnoconfig"; lost=1; } ;;
    esac
  done < "$frag"
  [ "$lost" = 0 ] || die "fix $here/kernel.fragment (options above were dropped by Kconfig)"
  # The initramfs is regenerated from the list every time the key changes (its own dependency
  # file is swept below, so the kernel's make alone would not notice a changed /init).
  rm -f "$kobj/usr/initramfs_data.cpio"
  note "building Linux (-j$jobs, niced; 5-9 minutes from scratch)"
  $nice_cmd "${kmake[@]}" -j"$jobs" Image > "$out/kernel-build.log" 2>&1 \
    || { tail -30 "$out/kernel-build.log" >&2; die "kernel build failed (log: $out/kernel-build.log)"; }
  cp "$kobj/arch/riscv/boot/Image" "$out/Image.tmp" && mv "$out/Image.tmp" "$out/Image"
  echo "$k_key" > "$out/kernel.stamp"
  note "Linux built in $(( $(date +%s) - t0 )) s: $out/Image, $(stat -c %s "$out/Image") bytes"
fi
# The top-level Makefile includes every *.d file it finds under build/ as a make dependency
# file: leave none behind (the kernel's and busybox's are regenerated when they are needed).
find "$out" -name '*.d' -type f -delete
echo "$out/Image"
