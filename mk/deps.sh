#!/usr/bin/env bash
# Installs the Debian 12 packages metatrace needs, only when something is missing.
# As root: apt-get install. Otherwise: print the exact apt-get line and fail.
# A no-op in well under a second when everything is there (one dpkg-query call).
set -euo pipefail

packages=(
  gcc make pkg-config                          # host build
  libcmocka-dev libzstd-dev zstd libfdt-dev    # tests, container, device trees
  clang libclang-rt-14-dev                     # libFuzzer targets
  gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf   # bare-metal firmware and ISA tests
  verilator g++                                # RTL simulation
  yosys nextpnr-ice40 fpga-icestorm fpga-icestorm-chipdb # synthesis
  gnuplot-nox                                  # plots
  python3 python3-numpy python3-matplotlib     # the Python package (python/), its example, man pages
  gdb-multiarch                                # mtemu's gdbstub tests (tests/gdb)
  qemu-system-misc                             # reference for differential tests and benchmarks only
  opensbi u-boot-qemu                          # real firmware to boot
  linux-source-6.1 gcc-riscv64-linux-gnu libc6-dev-riscv64-cross  # Linux + busybox
  flex bison bc cpio xz-utils dpkg-dev rsync   # kernel build tools
)

missing=()
installed=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${packages[@]}" 2>/dev/null || true)
for p in "${packages[@]}"; do
  grep -qFx "$p ii " <<<"$installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "make deps: missing Debian packages; as root run:" >&2
  echo "  apt-get update && $line" >&2
  exit 1
fi
echo "make deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# Refresh the package lists only when they are absent or older than a day.
if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null | head -1)" ]; then
  apt-get update -q
fi
apt-get install -y -q --no-install-recommends "${missing[@]}"
