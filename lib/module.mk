# libmetatrace: the access-event type, the trace unit's C reference model, the packet decoder and
# the .mtr container.  Everything else links against $(MT_A).
MT_SRCS := $(wildcard lib/*.c)
MT_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(MT_SRCS))
MT_A    := $(BUILD)/lib/libmetatrace.a
ALL_TARGETS += $(MT_A)

$(MT_A): $(MT_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

# `make bench` step: compression (bytes/sample vs the seed's 6 B / 4 B) and decoder throughput
# next to `zstd -d` on the same container, measured in the same run.
BENCH_LIB := $(BUILD)/tests/bench_lib
$(BENCH_LIB): $(OBJ)/tests/bench/bench_lib.o $(MT_A)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS)

.PHONY: bench_lib
bench_lib: $(BENCH_LIB)
	@mkdir -p $(BUILD)/bench && nice -n 10 $(BENCH_LIB) $(BUILD)/bench
BENCH_STEPS += bench_lib
