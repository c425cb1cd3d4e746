# libFuzzer targets (clang), one per input path: the decoder, the container reader, the
# trace-unit model (lib/ only), mtemu's ELF loader, the device trees (mtemu's --dtb check and the
# firmware's reader), metatrace's HMTT/CSV import and its command-line parsers, the gdbstub's
# protocol. Each target is compiled with the sources it exercises (instrumented: coverage, ASan,
# UBSan). `make fuzz FUZZ_S=N` runs every target for N seconds (default 60); tests/fuzz/run.sh
# (part of make test) runs each for FUZZ_SECONDS (default 8) from seed corpora it builds.
FUZZ_BIN := $(BUILD)/fuzz
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,$(FUZZ_BIN)/%,$(FUZZ_SRCS))
FUZZ_FLAGS := -std=c17 -g -O1 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
              -I$(ROOT) -I$(ROOT)/lib -I$(GEN) -Wall -Wextra -Werror
# Every source is compiled once into $(FUZZ_BIN)/obj (instrumented: FUZZ_FLAGS) and linked into
# each target that needs it: lib/ into every one, the rest as listed per target below.
FUZZ_OBJ := $(FUZZ_BIN)/obj
fuzz_objs = $(patsubst %.c,$(FUZZ_OBJ)/%.o,$(1))
FUZZ_LIB_OBJS := $(call fuzz_objs,$(MT_SRCS) tests/fuzz/asan_options.c)
# the sources each target needs beyond lib/
FUZZ_EXTRA_elf := emu/platform/loader.c emu/platform/ram.c emu/metapaging/metapager.c
FUZZ_EXTRA_dt := emu/platform/dtb.c
FUZZ_HOST_SRCS := $(filter-out host/main.c,$(wildcard host/*.c))
FUZZ_EXTRA_import := $(FUZZ_HOST_SRCS) tests/fuzz/memfile.c
FUZZ_LIBS_import := -Wl,--wrap=fopen
FUZZ_EXTRA_cli := $(FUZZ_HOST_SRCS)
FUZZ_LIBS_dt := -lfdt
$(FUZZ_BIN)/fuzz_dt: firmware/rt/dt.c firmware/rt/dt.h # #included by fuzz_dt.c
# metatrace as a whole: host/main.c with its main renamed (tests/fuzz/fuzz_metatrace.c)
FUZZ_EXTRA_metatrace := host/main.c $(FUZZ_HOST_SRCS)
$(FUZZ_OBJ)/host/main.o: FUZZ_OBJ_OPT := -Dmain=metatrace_main
# The unit model's compares are of cycles and occupancies, not of input values a mutation could
# copy: their trace-cmp callbacks (over a third of fuzz_unit's time) guide nothing. Edge coverage
# stays. The same for what the model calls per packet (its encoder, FIFO and schedule copy) and
# for fuzz_unit's harness (item cycles and loop bounds): a quarter of fuzz_unit's CPU time.
# Nor do UBSan's alignment checks find anything there: those sources cast no pointer, so every
# access is of a declared type the compiler aligned, and the checks (one per field of the unit
# the clock touches) were 10 % of a busy input's time (tenth session).  The rest of UBSan stays.
$(FUZZ_OBJ)/lib/mt_unit.o $(FUZZ_OBJ)/lib/mt_unit_%.o $(FUZZ_OBJ)/lib/mt_enc.o $(FUZZ_OBJ)/lib/mt_fifo.o \
  $(FUZZ_OBJ)/lib/mt_sched.o: FUZZ_OBJ_OPT := -fno-sanitize-coverage=trace-cmp -fno-sanitize=alignment
FUZZ_CFLAGS_unit := -fno-sanitize-coverage=trace-cmp
# The clock, the bulk step and lazy time (mt_unit_clock.c, mt_unit_bulk.c, mt_unit.c with
# mt_unit_internal.h's steps inlined) without ASan's checks of loads: they were a fifth of
# fuzz_unit_modes' CPU time on a saturated busy corpus (docs/robustness.md, eleventh session).
# Their loads are of the unit's own fields and arrays (one object: ASan has no redzone inside
# it, and UBSan's bounds check of those arrays stays) and of two rings' heads (the reduce path's
# pending records and queue), which mt_unit_rd.c and mt_unit_reduce.c, checked, read at the same
# index in the same clock.  The heap buffers' reads (the FIFO, the stage's hand-over, the front ends) are in the
# other files, checked.  Their functions that store only into the unit are built without ASan
# at all (tests/fuzz/unit_stores.ignore says which and why, twelfth session); the stores that
# reach a heap buffer (the batched output's stage, by the act's choice) stay checked.
# `make SAN=1 test` and unit_cost / unit_lazy_check keep every check.
FUZZ_MODEL_HOT_OBJS := $(FUZZ_OBJ)/lib/mt_unit.o $(FUZZ_OBJ)/lib/mt_unit_clock.o $(FUZZ_OBJ)/lib/mt_unit_bulk.o
$(FUZZ_MODEL_HOT_OBJS): FUZZ_OBJ_OPT := -fno-sanitize-coverage=trace-cmp -fno-sanitize=alignment \
  -mllvm -asan-instrument-reads=0 -fsanitize-ignorelist=$(ROOT)/tests/fuzz/unit_stores.ignore
$(FUZZ_MODEL_HOT_OBJS): tests/fuzz/module.mk tests/fuzz/unit_stores.ignore # (built with these flags after a change to them)
# The unit targets' harness decodes the model's own output, not the fuzz input: there the
# decoder's trace-cmp callbacks guide nothing either (13 % of fuzz_unit_modes' CPU time on busy
# inputs, docs/robustness.md, sixth session), so they link a copy of it compiled without them
# (fuzz_dec and the readers keep the instrumented one: there the decoder reads the input).  The
# same for the packet encoders the model calls per packet (lib/mt_pkt.c: 6 % of a busy input's
# time in trace-cmp callbacks, tenth session), which fuzz_import's writer drives from its input.
FUZZ_NOCMP_SRCS := lib/mt_dec.c lib/mt_pkt.c
FUZZ_NOCMP_OBJS := $(patsubst %.c,$(FUZZ_OBJ)/nocmp/%.o,$(FUZZ_NOCMP_SRCS))
$(FUZZ_OBJ)/nocmp/lib/%.o: lib/%.c $(GEN)/mt_version.h
	@mkdir -p $(@D)
	clang $(FUZZ_FLAGS) -fno-sanitize-coverage=trace-cmp -MMD -MP -c $< -o $@
FUZZ_UNIT_LIB_OBJS := $(filter-out $(call fuzz_objs,$(FUZZ_NOCMP_SRCS)),$(FUZZ_LIB_OBJS)) $(FUZZ_NOCMP_OBJS)
$(FUZZ_BIN)/fuzz_unit $(FUZZ_BIN)/fuzz_unit_modes $(FUZZ_BIN)/fuzz_unit_long: $(FUZZ_NOCMP_OBJS)
$(FUZZ_BIN)/fuzz_unit $(FUZZ_BIN)/fuzz_unit_modes $(FUZZ_BIN)/fuzz_unit_long: FUZZ_LIB_OBJS = $(FUZZ_UNIT_LIB_OBJS)
# fuzz_unit_modes: the same harness with SPATIAL and REDUCE among its writes (#includes fuzz_unit.c)
FUZZ_CFLAGS_unit_modes := $(FUZZ_CFLAGS_unit)
$(FUZZ_BIN)/fuzz_unit_modes: tests/fuzz/fuzz_unit.c
# fuzz_unit_long: fuzz_unit_modes with no stream budget, for the states of long busy sessions
FUZZ_CFLAGS_unit_long := $(FUZZ_CFLAGS_unit)
$(FUZZ_BIN)/fuzz_unit_long: tests/fuzz/fuzz_unit.c
# unit_cost (tests/fuzz/unit_cost.c): fuzz_unit_modes' passes timed input by input, a tool (not
# a target): ASan, UBSan and coverage counters as in the fuzzer, without libFuzzer
$(FUZZ_BIN)/unit_cost: tests/fuzz/unit_cost.c tests/fuzz/fuzz_unit.c tests/fuzz/corpus_walk.h $(MT_SRCS) $(GEN)/mt_version.h
	@mkdir -p $(@D)
	clang -std=c17 -g -O1 -D_GNU_SOURCE -fsanitize=address,undefined -fsanitize-coverage=inline-8bit-counters \
	  -I$(ROOT) -I$(ROOT)/lib -I$(GEN) -Wall -Wextra -Werror $< $(MT_SRCS) -o $@ -lzstd -lm
# unit_lazy_check (tests/fuzz/unit_lazy_check.c): run()'s lazy pass against per-cycle clocking
# over a corpus, busy inputs beyond PER_CYCLE_SPAN_MAX included; a tool like unit_cost
$(FUZZ_BIN)/unit_lazy_check: tests/fuzz/unit_lazy_check.c tests/fuzz/fuzz_unit.c tests/fuzz/corpus_walk.h $(MT_SRCS) $(GEN)/mt_version.h
	@mkdir -p $(@D)
	clang -std=c17 -g -O1 -D_GNU_SOURCE -fsanitize=address,undefined \
	  -I$(ROOT) -I$(ROOT)/lib -I$(GEN) -Wall -Wextra -Werror $< $(MT_SRCS) -o $@ -lzstd -lm
# the targets that open .mtr files keep their zstd contexts across runs (tests/fuzz/zstd_pool.c)
FUZZ_ZSTD_POOL := -Wl,--wrap=ZSTD_createDCtx,--wrap=ZSTD_freeDCtx,--wrap=ZSTD_createCCtx,--wrap=ZSTD_freeCCtx
FUZZ_LIBS_metatrace := -pthread $(FUZZ_ZSTD_POOL)
# fuzz_mtr reads its input in memory (tests/fuzz/memfile.c, memfile_pread.c): fopen and pread wrapped
FUZZ_EXTRA_mtr := tests/fuzz/zstd_pool.c tests/fuzz/memfile.c tests/fuzz/memfile_pread.c
FUZZ_LIBS_mtr := $(FUZZ_ZSTD_POOL) -Wl,--wrap=fopen,--wrap=pread
FUZZ_EXTRA_metatrace += tests/fuzz/zstd_pool.c

.SECONDEXPANSION:
$(FUZZ_BIN)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_file.h tests/fuzz/memfile.h $(FUZZ_LIB_OBJS) $$(call fuzz_objs,$$(FUZZ_EXTRA_$$*))
	@mkdir -p $(@D)
	clang $(FUZZ_FLAGS) $(FUZZ_CFLAGS_$*) $< $(FUZZ_LIB_OBJS) $(call fuzz_objs,$(FUZZ_EXTRA_$*)) -o $@ -lzstd -lm $(FUZZ_LIBS_$*)

# the gdbstub's protocol layer (emu/gdb): framing and command handlers, over a fake target; the
# reply encoders without coverage callbacks (tests/fuzz/gdb_output.ignore says why)
FUZZ_GDB_SRCS := emu/gdb/rsp.c emu/gdb/session.c tests/fuzz/asan_options.c
$(FUZZ_OBJ)/emu/gdb/rsp.o $(FUZZ_OBJ)/emu/gdb/session.o: tests/fuzz/gdb_output.ignore
$(FUZZ_OBJ)/emu/gdb/rsp.o $(FUZZ_OBJ)/emu/gdb/session.o: FUZZ_OBJ_OPT := -fsanitize-coverage-ignorelist=tests/fuzz/gdb_output.ignore
$(FUZZ_BIN)/fuzz_gdb: tests/fuzz/fuzz_gdb.c $(call fuzz_objs,$(FUZZ_GDB_SRCS))
	@mkdir -p $(@D)
	clang $(FUZZ_FLAGS) $< $(call fuzz_objs,$(FUZZ_GDB_SRCS)) -o $@

# mtemu as a whole (tests/fuzz/fuzz_mtemu.c): emu/main.c with main renamed, every emu/ source,
# the lockstep comparator compiled here (instrumented), the Verilated unit from the FST build
# (C++, uninstrumented, as in mtemu: --trace-unit=rtl|both). One object per source (parallel,
# incremental); emu/cpu/cpu.c by gcc, uninstrumented: its interpreters (computed gotos over
# hundreds of labels, emu/cpu/interp.inc, four times) took clang 14 over 10 CPU minutes with the
# sanitizers even at -O0 and 2.4 at plain -O1, far too long for `make test`.  The CPU's own
# memory safety is checked by the random guest programs under `make SAN=1 test`
# (tests/fuzz/guest_configs.sh); this target is about options and machine set-up.
FUZZ_MTEMU_CLANG := -Wno-unknown-attributes -Wno-bitwise-instead-of-logical
FUZZ_MTEMU_SRCS := emu/main.c $(EMU_SRCS) rtl_model/sim/mt_lockstep.c rtl_model/sim/pktctx.c $(MT_SRCS) tests/fuzz/asan_options.c \
                    tests/fuzz/block_pool.c
FUZZ_MTEMU_OBJS := $(call fuzz_objs,$(FUZZ_MTEMU_SRCS))
$(FUZZ_BIN)/obj/emu/cpu/cpu.o: emu/cpu/cpu.c $(GEN)/mt_version.h
	@mkdir -p $(@D)
	$(CC) -std=c17 -O2 -g -D_GNU_SOURCE -I$(ROOT) -I$(ROOT)/lib -I$(GEN) -Wall -Wextra -Werror -MMD -MP -c $< -o $@
$(FUZZ_OBJ)/emu/main.o: FUZZ_OBJ_OPT := -Dmain=mtemu_main
$(FUZZ_OBJ)/%.o: %.c $(GEN)/mt_version.h
	@mkdir -p $(@D)
	clang $(FUZZ_FLAGS) $(FUZZ_MTEMU_CLANG) $(FUZZ_OBJ_OPT) -MMD -MP -c $< -o $@
$(FUZZ_BIN)/fuzz_mtemu: tests/fuzz/fuzz_mtemu.c $(FUZZ_MTEMU_OBJS) $(RTL_FST_A)
	clang $(FUZZ_FLAGS) $< $(FUZZ_MTEMU_OBJS) -o $@ \
	  -Wl,--wrap=machine_create,--wrap=machine_destroy,--wrap=mp_session_create,--wrap=cpu_take_trap \
	  -Wl,--wrap=calloc,--wrap=free,--wrap=realloc $(RTL_FST_A) -lzstd -lfdt -lm $(RTL_FST_LIBS)
-include $(wildcard $(FUZZ_BIN)/obj/*/*.d $(FUZZ_BIN)/obj/*/*/*.d $(FUZZ_BIN)/obj/*/*/*/*.d)

# random guest programs across mtemu's configurations (tests/fuzz/guest_configs.sh)
$(BUILD)/tests/gen_guest: $(OBJ)/tests/fuzz/gen_guest.o
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@

FUZZ_S ?= $(or $(FUZZ_SECONDS),60)
fuzz: $(FUZZ_TARGETS) $(BUILD)/tests/gen_golden $(BUILD)/tests/gen_guest $(BIN)/mtemu $(BIN)/metatrace
	@BUILD=$(BUILD) FWBUILD=$(FWBUILD) FUZZ_SECONDS=$(FUZZ_S) tests/fuzz/run.sh
	@BUILD=$(BUILD) BIN=$(BIN) GUEST_SECONDS=$(FUZZ_S) tests/fuzz/guest_configs.sh

TEST_SCRIPTS += tests/fuzz/run.sh tests/fuzz/guest_configs.sh
TEST_DEPS += $(FUZZ_TARGETS) $(BUILD)/tests/gen_golden $(BUILD)/tests/gen_guest $(FUZZ_BIN)/unit_cost # (built: kept compiling)
