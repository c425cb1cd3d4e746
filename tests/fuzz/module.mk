# libFuzzer targets (clang): the decoder, the container reader, the trace-unit model, the gdbstub's
# protocol.
# `make fuzz` builds them; tests/fuzz/run.sh (part of make test) runs each for FUZZ_SECONDS
# (default 8) from a seed corpus made of the golden vectors' streams.
FUZZ_BIN := $(BUILD)/fuzz
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,$(FUZZ_BIN)/%,$(FUZZ_SRCS))
FUZZ_FLAGS := -std=c17 -g -O1 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
              -I$(ROOT) -I$(ROOT)/lib -Wall -Wextra -Werror

$(FUZZ_BIN)/fuzz_%: tests/fuzz/fuzz_%.c $(MT_SRCS) $(wildcard lib/*.h)
	@mkdir -p $(@D)
	clang $(FUZZ_FLAGS) $< $(MT_SRCS) -o $@ -lzstd

# the gdbstub's protocol layer (emu/gdb): framing and command handlers, over a fake target
FUZZ_GDB_SRCS := emu/gdb/rsp.c emu/gdb/session.c
$(FUZZ_BIN)/fuzz_gdb: tests/fuzz/fuzz_gdb.c $(FUZZ_GDB_SRCS) $(wildcard emu/gdb/*.h)
	@mkdir -p $(@D)
	clang $(FUZZ_FLAGS) $< $(FUZZ_GDB_SRCS) -o $@

fuzz: $(FUZZ_TARGETS) $(BUILD)/tests/gen_golden
	@BUILD=$(BUILD) FUZZ_SECONDS=$${FUZZ_SECONDS:-60} tests/fuzz/run.sh

TEST_SCRIPTS += tests/fuzz/run.sh
TEST_DEPS += $(FUZZ_TARGETS) $(BUILD)/tests/gen_golden
