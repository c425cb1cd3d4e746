# End-to-end tests of tracing in mtemu (emu/trace/tracedev, emu/trace/tracectl) and RowScope, reproduced.
#   make rowscope   the full RowScope sweep -> build/results/rowscope.csv and rowscope.png

# mtemu links the RTL for --trace-unit=rtl|both (see emu/module.mk).
$(BIN)/mtemu: $(RTL_FST_A) $(MT_A)

TRACE_E2E_ELFS := $(patsubst %,$(FWBUILD)/%.elf,seq random stride wss memcpy pchase matmul qsort)
TEST_SCRIPTS += tests/e2e/rowscope.sh
TEST_DEPS    += $(BIN)/mtemu $(BIN)/metatrace $(TRACE_E2E_ELFS)

# The full RowScope sweep (sequential 64 MB, random 16 MB, stride 1..1024 on 16 MB, working sets
# 512 KB..128 MB) and its plot: build/results/rowscope.csv, build/results/rowscope.png.
ROWSCOPE_OUT := build/results
.PHONY: rowscope
rowscope: $(BIN)/mtemu $(BIN)/metatrace $(TRACE_E2E_ELFS)
	BIN=$(BIN) FWBUILD=$(FWBUILD) nice -n 10 sh tests/e2e/rowscope-run.sh full $(ROWSCOPE_OUT)
	sh tests/e2e/rowscope-plot.sh $(ROWSCOPE_OUT)/rowscope.csv $(ROWSCOPE_OUT)/rowscope.png
	@cat $(ROWSCOPE_OUT)/rowscope.csv

# A guest that programs the unit itself (firmware writes override the command line).
$(FWBUILD)/e2e/trace_regs.elf: tests/e2e/trace_regs.S tests/emu/link.ld
	@mkdir -p $(@D)
	$(EMU_TEST_CC) $(EMU_TEST_FLAGS) $< -o $@
TEST_SCRIPTS += tests/e2e/trace-unit.sh tests/e2e/trace-reduce.sh tests/e2e/trace-reduce-filter.sh tests/e2e/trace-spatial-filter.sh tests/e2e/trace-metapage.sh tests/e2e/trace-lockstep.sh tests/e2e/trace-smp.sh \
                tests/e2e/trace-spatial-unit.sh tests/e2e/trace-reduce-unit.sh tests/e2e/trace-unit-reduce.sh \
                tests/e2e/trace-all-listener.sh tests/e2e/trace-all-batch.sh tests/e2e/trace-all-runs.sh
TEST_SCRIPTS += tests/e2e/console.sh tests/e2e/waves.sh
TEST_DEPS    += $(FWBUILD)/e2e/trace_regs.elf $(FWBUILD)/bench/bench_cpu.elf

# A guest whose instructions straddle pages on fetch, load, store and AMO under Sv39 with cold
# TLBs: every access a cycle of its own, the recorders against the online truth.
$(FWBUILD)/e2e/straddle_guest.elf: tests/e2e/straddle_guest.S tests/emu/link.ld
	@mkdir -p $(@D)
	$(EMU_TEST_CC) $(EMU_TEST_FLAGS) $< -o $@
# ... and one that jumps to itself across the page boundary.
$(FWBUILD)/e2e/straddle_self.elf: tests/e2e/straddle_self.S tests/emu/link.ld
	@mkdir -p $(@D)
	$(EMU_TEST_CC) $(EMU_TEST_FLAGS) $< -o $@
# ... and one whose loads and stores follow writes of their base registers in the same run
# (the sampler's data accesses known ahead, trace-unit.sh).
$(FWBUILD)/e2e/sample_addr.elf: tests/e2e/sample_addr.S tests/emu/link.ld
	@mkdir -p $(@D)
	$(EMU_TEST_CC) $(EMU_TEST_FLAGS) $< -o $@
TEST_DEPS    += $(FWBUILD)/e2e/sample_addr.elf
# ... and one that moves the unit to the dram tap past a refused enable (trace-tap-switch.sh).
$(FWBUILD)/e2e/tap_switch.elf: tests/e2e/tap_switch.S tests/emu/link.ld
	@mkdir -p $(@D)
	$(EMU_TEST_CC) $(EMU_TEST_FLAGS) $< -o $@
TEST_SCRIPTS += tests/e2e/trace-tap-switch.sh
TEST_DEPS    += $(FWBUILD)/e2e/tap_switch.elf
TEST_SCRIPTS += tests/e2e/trace-straddle.sh tests/e2e/straddle-self.sh
TEST_DEPS    += $(FWBUILD)/e2e/straddle_guest.elf $(FWBUILD)/e2e/straddle_self.elf

.PHONY: bench-trace
bench-trace: $(BIN)/mtemu $(TRACE_E2E_ELFS) $(BUILD)/tests/mispredict $(FWBUILD)/bench/bench_cpu.elf
	BUILD=$(BUILD) BIN=$(BIN) FWBUILD=$(FWBUILD) sh tests/e2e/trace-bench.sh
BENCH_STEPS += bench-trace

# test_tracectl drives --trace-unit=both, so it links the RTL (overrides tests/unit's rule);
# test_emu_spatial_log drives a trace session, whose library refers to the RTL too.
$(BUILD)/tests/test_tracectl $(BUILD)/tests/test_emu_spatial_log: $(BUILD)/tests/%: $(OBJ)/tests/unit/%.o $(EMU_A) $(RTL_FST_A) $(MT_A)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(CMOCKA_LIBS) $(RTL_FST_LIBS) $(LDLIBS)
# The online truth (--metapage-sim alone: the observed interpreter) hears what the recorders hear
# on the Linux workload, and the reduce filter's self-check agrees with it (issue 22).
TEST_SCRIPTS += tests/e2e/observer-truth.sh
