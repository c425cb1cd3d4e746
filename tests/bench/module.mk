# Benchmarks of mtemu against qemu-system-riscv64 (TCG) on the same bare-metal programs.
# The programs are cross-built into $(FWBUILD)/bench/; `make bench` runs bench_emu.
BENCH_CC     := riscv64-unknown-elf-gcc
BENCH_FWFLAGS := -march=rv64imac -mabi=lp64 -Wa,-march=rv64imac_zicsr -mcmodel=medany -O2 \
                 -nostdlib -nostartfiles -static -ffreestanding -Itests/bench -T tests/bench/link.ld \
                 -Wl,--no-warn-rwx-segments
BENCH_EMU_ELFS := $(FWBUILD)/bench/bench_cpu.elf $(FWBUILD)/bench/bench_mem.elf

$(FWBUILD)/bench/bench_cpu.elf: tests/bench/start.S tests/bench/bench_cpu.c tests/bench/bench_io.h tests/bench/link.ld
	@mkdir -p $(@D)
	$(BENCH_CC) $(BENCH_FWFLAGS) -DITERATIONS=30000 tests/bench/start.S tests/bench/bench_cpu.c -o $@
$(FWBUILD)/bench/bench_mem.elf: tests/bench/start.S tests/bench/bench_mem.c tests/bench/bench_io.h tests/bench/link.ld
	@mkdir -p $(@D)
	$(BENCH_CC) $(BENCH_FWFLAGS) tests/bench/start.S tests/bench/bench_mem.c -o $@

.PHONY: bench_emu
bench_emu: $(BIN)/mtemu $(BENCH_EMU_ELFS)
	@BIN=$(BIN) FWBUILD=$(FWBUILD) tests/bench/bench_emu.sh $(BENCH_EMU_ELFS)
BENCH_STEPS += bench_emu

# op_pairs: dynamic op-pair counts of a --log-commits log (how emu/cpu/decode.h's fused pairs were
# chosen; see the file's header).  Built with everything, so it stays in step with the decoder.
$(BUILD)/tests/op_pairs: $(OBJ)/tests/bench/op_pairs.o $(EMU_A) $(MT_A)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS)
ALL_TARGETS += $(BUILD)/tests/op_pairs

# mispredict: the host's cost of one branch it cannot predict (tests/bench/mispredict.c), the
# floor that tests/e2e/trace-bench.sh sets beside the cost of a sample inside a burst.
$(BUILD)/tests/mispredict: $(OBJ)/tests/bench/mispredict.o
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@
ALL_TARGETS += $(BUILD)/tests/mispredict

# QEMU + a TCG plugin writing one record per fetch and data access, beside mtemu --trace-all on
# bench_cpu (tests/bench/bench_qemu_plugin.sh). The plugin's header comes from Debian's qemu source
# package, fetched once into $(QPLUGIN_DIR) (tests/bench/qemu-plugin-header.sh); without it (no
# network to Debian's archive) the step says so and skips the QEMU + plugin row. Not part of `all`:
# building everything must not need the network. Like FWBUILD, one copy under build/ serves the
# plain and the SAN=1 build (the plugin runs inside QEMU: it is never sanitized).
QPLUGIN_DIR := build/qemu-plugin
QPLUGIN_H   := $(QPLUGIN_DIR)/include/qemu-plugin.h
QPLUGIN_SO  := $(QPLUGIN_DIR)/qemu_trace_plugin.so
# No prerequisite: the header is fetched once and then kept, whatever the script's date.
$(QPLUGIN_H):
	tests/bench/qemu-plugin-header.sh $(QPLUGIN_DIR)
$(QPLUGIN_SO): tests/bench/qemu_trace_plugin.c $(QPLUGIN_H)
	$(CC) -std=c17 $(OPT) -g $(WARN) -fPIC -shared -I$(QPLUGIN_DIR)/include $< -o $@ -lpthread

.PHONY: bench-qemu-plugin
bench-qemu-plugin: $(BIN)/mtemu $(FWBUILD)/bench/bench_cpu.elf
	@if tests/bench/qemu-plugin-header.sh $(QPLUGIN_DIR); then $(MAKE) --no-print-directory $(QPLUGIN_SO); fi
	@BIN=$(BIN) QPLUGIN=$(QPLUGIN_SO) tests/bench/bench_qemu_plugin.sh $(FWBUILD)/bench/bench_cpu.elf
BENCH_STEPS += bench-qemu-plugin

# The plugin against a program whose records follow from its text (skips without the header).
TEST_SCRIPTS += tests/bench/qemu-plugin-count.sh

# The 100 s Linux workload untraced and traced at the seed's parameters, same instruction count,
# projected to the whole workload against issue #24's goal (<= 3.5 min wall on 2 cores).
# LINUX100_FRACTION=0.2 (default, about 1.5 min idle) .. full; a missing Image or OpenSBI skips.
.PHONY: bench-linux100
bench-linux100: $(BIN)/mtemu
	@BIN=$(BIN) tests/bench/bench_linux100.sh
BENCH_STEPS += bench-linux100

# bench_linux100.sh's variables and skips, and its table on a sliver of the workload (seconds).
TEST_SCRIPTS += tests/bench/linux100-args.sh
