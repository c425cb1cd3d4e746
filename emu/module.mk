# mtemu, the RV64 emulator, in rooms by concern:
#   emu/cpu/         the hart: decode, interpreter, CSRs, MMU, H extension, PMP, F/D, cache timing
#   emu/platform/    the machine: bus, RAM, device tree, ELF/Image loader, SMP schedule
#   emu/devices/     what sits on the bus: UART 16550, PLIC, CLINT, HTIF, test finisher, console
#   emu/trace/       the trace unit's attachment: MMIO device, options, model thread, access ring
#   emu/metapaging/  the meta-pager, its online simulations and its options and report
#   emu/gdb/         the gdbstub: packet framing, command handlers, the harts as a target, socket
# Every room's *.c goes into $(EMU_A); emu/main.c (the CLI) and emu/cliopt.c (its option matcher)
# stay at the top.
EMU_ROOMS := cpu platform devices trace metapaging gdb
EMU_SRCS := emu/cliopt.c $(foreach r,$(EMU_ROOMS),$(wildcard emu/$(r)/*.c))
EMU_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(EMU_SRCS))
EMU_A    := $(BUILD)/emu/libmtemu.a
ALL_TARGETS += $(EMU_A) $(BIN)/mtemu
INSTALL_BINS += $(BIN)/mtemu

# The interpreter (cpu.c, interp.inc) is compiled position-dependent: each dispatch is then
# `jmp *handler(,%op,8)` instead of lea + load + jmp, the handler table's address being a
# link-time constant (bench_cpu: 247.1 -> 237.7 M host instructions for its first 2 x 10^7;
# docs/emulator.md "Measured").  So every executable that links $(EMU_A) is linked -no-pie
# (Makefile LDFLAGS).
$(OBJ)/emu/cpu/cpu.o: CFLAGS += -fno-pie

$(EMU_A): $(EMU_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

# --trace-unit=rtl|both (emu/trace/tracectl.c) links the Verilated trace unit, the build with FST
# support (--waves; nothing is traced without it): $(RTL_FST_A) is a
# prerequisite added by tests/e2e/module.mk (read after lib/ and rtl_model/ define them).
$(BIN)/mtemu: $(OBJ)/emu/main.o $(EMU_A) $(MT_A)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(OBJ)/emu/main.o $(EMU_A) $(RTL_FST_A) $(MT_A) -o $@ $(RTL_FST_LIBS) $(LDLIBS)

# Command-line tests (bad input, exit codes, HTIF, determinism) and their small guest programs.
EMU_TEST_CC := riscv64-unknown-elf-gcc
EMU_TEST_FLAGS := -march=rv64imac -mabi=lp64 -Wa,-march=rv64imac_zicsr -mcmodel=medany -nostdlib \
                  -nostartfiles -static -T tests/emu/link.ld -Wl,--no-warn-rwx-segments
EMU_TEST_ELFS := $(FWBUILD)/emu/hello.elf $(FWBUILD)/emu/htif.elf $(FWBUILD)/emu/sbi_payload.elf \
                 $(FWBUILD)/emu/idle.elf
$(FWBUILD)/emu/%.elf: tests/emu/%.S tests/emu/link.ld
	@mkdir -p $(@D)
	$(EMU_TEST_CC) $(EMU_TEST_FLAGS) $< -o $@
# an S-mode payload for OpenSBI's fw_jump (linked at 0x8020_0000)
$(FWBUILD)/emu/sbi_payload.elf: tests/emu/sbi_payload.S tests/emu/payload.ld
	@mkdir -p $(@D)
	$(EMU_TEST_CC) $(subst tests/emu/link.ld,tests/emu/payload.ld,$(EMU_TEST_FLAGS)) $< -o $@
TEST_SCRIPTS += tests/emu/test_cli.sh tests/emu/test_idle_kill.sh tests/emu/test_dispatch_build.sh
TEST_DEPS += $(EMU_TEST_ELFS) $(FWBUILD)/bench/bench_cpu.elf $(FWBUILD)/bench/bench_mem.elf
