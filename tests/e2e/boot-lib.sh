# Shared by tests/e2e/boot-*.sh (sourced, not run): boots Debian's unmodified firmware on mtemu and
# checks the console.  Env: BIN (mtemu's directory).  Every check prints one PASS/FAIL line.
BIN=${BIN:-build/bin}
MTEMU=$BIN/mtemu
OPENSBI_DIR=/usr/lib/riscv64-linux-gnu/opensbi/generic
UBOOT_DIR=/usr/lib/u-boot
BOOT_TIMEOUT=${BOOT_TIMEOUT:-120}
failures=0

if [ ! -x "$MTEMU" ]; then
  echo "skipped: $MTEMU does not exist yet"
  exit 77
fi

boot_tmp=$(mktemp -d)
boot_pid=
boot_cleanup() { [ -n "$boot_pid" ] && kill "$boot_pid" 2>/dev/null; rm -rf "$boot_tmp"; }
trap boot_cleanup EXIT

# need FILE: the Debian package that ships FILE must be installed (make deps does it).
need() {
  [ -f "$1" ] && return 0
  echo "FAIL $(basename "$0" .sh): $1 missing (make deps installs opensbi, u-boot-qemu)"
  exit 1
}

# expect_in_order NAME OUT STRING...: every fixed string appears in OUT, in this order.
expect_in_order() {
  local name=$1 out=$2; shift 2
  local rest; rest=$(tr -d '\r' < "$out")
  for want in "$@"; do
    case "$rest" in
      *"$want"*) rest=${rest#*"$want"} ;;
      *) echo "FAIL $name: console lacks '$want' (in order); last lines:"
         tr -d '\r' < "$out" | tail -6 | sed 's/^/    /'
         failures=$((failures + 1))
         return 1 ;;
    esac
  done
  echo "PASS $name"
}

# run_to_exit NAME OUT MTEMU-ARGS...: runs mtemu with no input; fails on a non-zero exit status.
run_to_exit() {
  local name=$1 out=$2; shift 2
  timeout "$BOOT_TIMEOUT" "$MTEMU" -q "$@" < /dev/null > "$out" 2>&1
  local rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL $name: mtemu exit status $rc (124 = timeout); last lines:"
    tail -6 "$out" | sed 's/^/    /'
    failures=$((failures + 1))
    return 1
  fi
}

# run_with_input NAME OUT PROMPT INPUT MTEMU-ARGS...: starts mtemu with a FIFO on stdin, waits until
# the console shows PROMPT (input typed before the guest initialises its UART would be discarded
# by the guest's FIFO reset, as on hardware), types INPUT, and waits for mtemu to exit with 0.
run_with_input() {
  local name=$1 out=$2 prompt=$3 input=$4; shift 4
  rm -f "$boot_tmp/in"; mkfifo "$boot_tmp/in"
  timeout "$BOOT_TIMEOUT" "$MTEMU" -q "$@" < "$boot_tmp/in" > "$out" 2>&1 &
  boot_pid=$!
  exec 3> "$boot_tmp/in"
  local waited=0
  until grep -qF -- "$prompt" "$out" 2>/dev/null; do
    if ! kill -0 "$boot_pid" 2>/dev/null || [ $waited -ge $((BOOT_TIMEOUT * 10)) ]; then break; fi
    sleep 0.1; waited=$((waited + 1))
  done
  printf '%b' "$input" >&3
  exec 3>&-
  wait "$boot_pid"; local rc=$?
  boot_pid=
  if [ $rc -ne 0 ]; then
    echo "FAIL $name: mtemu exit status $rc (124 = timeout); last lines:"
    tail -6 "$out" | sed 's/^/    /'
    failures=$((failures + 1))
    return 1
  fi
}
