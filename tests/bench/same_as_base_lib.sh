# same_as_base_lib.sh: the part of same_as_base.sh and same_as_base_modes.sh that runs two mtemu
# builds and compares what they print and write (sourced; the caller's "$@" is BASE NEW).
# Defines B, N, FW, SBI, IMAGE, a scratch directory W (removed at exit), the counters and one();
# finish prints "N pairs, M differ" and exits 1 when any differs.
set -u
if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
  echo "usage: $0 BASE_MTEMU NEW_MTEMU (two executables)" >&2
  exit 2
fi
B=$1 N=$2
FW=${FWBUILD:-build/firmware}
SBI=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin
IMAGE=${IMAGE:-build/linux/Image}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
pairs=0 differ=0

# one NAME ARGS...: runs both builds (an argument @F@ becomes a file of the run's own) and compares
one() {
  local name=$1 v bin
  shift
  for v in B N; do
    bin=${!v}
    local args=("${@//@F@/$W/$name.$v.file}")
    timeout 900 "$bin" "${args[@]}" >"$W/$name.$v.out" 2>&1 </dev/null
    echo "exit $?" >>"$W/$name.$v.out"
    sed -i -E '/^(seconds|MIPS) |waits|G instructions[ ,(]/d' "$W/$name.$v.out"
  done
  pairs=$((pairs + 1))
  if ! cmp -s "$W/$name.B.out" "$W/$name.N.out"; then
    echo "differ: $name (stdout)"
    diff "$W/$name.B.out" "$W/$name.N.out" | head -6
    differ=$((differ + 1))
  fi
  if [ -e "$W/$name.B.file" ] || [ -e "$W/$name.N.file" ]; then
    if ! cmp -s "$W/$name.B.file" "$W/$name.N.file"; then
      echo "differ: $name (file)"
      differ=$((differ + 1))
    fi
  fi
  rm -f "$W/$name".*
}
finish() {
  echo "$pairs pairs, $differ differ"
  [ "$differ" -eq 0 ]
  exit
}
