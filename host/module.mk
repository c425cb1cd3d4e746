# metatrace, the host-side analysis tool.  Every host/*.c except main.c goes into $(HOST_A) so the
# unit tests (tests/unit/test_host_*.c) can link the analysis cores directly.
HOST_SRCS := $(filter-out host/main.c,$(wildcard host/*.c))
HOST_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(HOST_SRCS))
HOST_A    := $(BUILD)/host/libmthost.a
METATRACE := $(BIN)/metatrace

ALL_TARGETS  += $(HOST_A) $(METATRACE)
INSTALL_BINS += $(METATRACE)

$(HOST_A): $(HOST_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

# lib/module.mk is read after this file (sorted), so name its archive by path, not $(MT_A).
$(METATRACE): $(OBJ)/host/main.o $(HOST_A) $(BUILD)/lib/libmetatrace.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS)

# End-to-end checks of the command line (errors, round trips, hand-checked outputs).
TEST_SCRIPTS += host/test_cli.sh host/test_robust.sh
TEST_DEPS    += $(METATRACE)

# make bench: policy engine vs one simulation per configuration, decode vs zstd -d.
BENCH_STEPS += bench-host
.PHONY: bench-host
bench-host: $(METATRACE)
	@BIN=$(BIN) FWBUILD=$(FWBUILD) nice -n 10 tests/bench/bench_host.sh
