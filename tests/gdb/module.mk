# The gdbstub's tests: gdb-multiarch in batch mode against mtemu on a small guest (tests/gdb/),
# a raw-protocol client for Ctrl-C and hostile packets, and the determinism check (a trace under
# gdb equals one without).  The guest is built -O0 -g so that gdb sees every variable.
GDB_TEST_ELF := $(FWBUILD)/gdb/gdbtest.elf
$(GDB_TEST_ELF): tests/gdb/start.S tests/gdb/gdbtest.c tests/gdb/link.ld
	@mkdir -p $(@D)
	riscv64-unknown-elf-gcc -march=rv64imac -mabi=lp64 -Wa,-march=rv64imac_zicsr -mcmodel=medany -O0 -g \
	  -ffreestanding -nostdlib -nostartfiles -static -T tests/gdb/link.ld -Wl,--no-warn-rwx-segments \
	  tests/gdb/start.S tests/gdb/gdbtest.c -o $@
TEST_SCRIPTS += tests/gdb/test_gdb.sh
TEST_DEPS += $(GDB_TEST_ELF)
