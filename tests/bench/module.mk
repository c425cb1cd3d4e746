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
