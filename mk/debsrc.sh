#!/usr/bin/env bash
# Downloads a Debian 12 source package (its .dsc and tarballs) into DLDIR with apt-get, a private
# deb-src list and a private lists directory and cache under APTDIR: the system's apt configuration
# is untouched, and apt checks every file against the signed Release -> Sources hashes.
#
#   mk/debsrc.sh PKG DLDIR APTDIR LOG
#
# Nothing is fetched when DLDIR already holds PKG's .dsc. apt's output goes to LOG. Exit 1 with a
# message naming the step that failed and apt's first warning or error (for example no network to
# Debian's archive): the callers (firmware/linux/build.sh, tests/bench/qemu-plugin-header.sh) say
# what they cannot do without it.
set -euo pipefail
[ $# = 4 ] || { echo "usage: mk/debsrc.sh PKG DLDIR APTDIR LOG" >&2; exit 2; }
pkg=$1 dl=$2 apt_dir=$3 log=$4
deb_src="deb-src http://deb.debian.org/debian bookworm main"

ls "$dl/${pkg}"_*.dsc >/dev/null 2>&1 && exit 0
command -v apt-get >/dev/null || { echo "$pkg source: apt-get missing" >&2; exit 1; }
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$dl" "$(dirname "$log")"
log=$(cd "$(dirname "$log")" && pwd -P)/$(basename "$log") # the download runs in DLDIR
echo "$deb_src" >"$apt_dir/sources.list"
opts=(-q -o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
      -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
      -o APT::Sandbox::User=root)
fail() {
  echo "$pkg source: $1 ($(grep -E '^(W: Failed|E:)' "$log" | head -1)); see $log" >&2
  exit 1
}
apt-get "${opts[@]}" update >"$log" 2>&1 ||
  fail "apt-get update with $apt_dir/sources.list failed (no network to Debian's archive?)"
(cd "$dl" && apt-get "${opts[@]}" source --download-only "$pkg" >>"$log" 2>&1) ||
  fail "apt-get source --download-only $pkg failed"
