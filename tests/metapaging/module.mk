# Meta-paging: the equality test script and the bench.  (The unit tests test_metapager,
# test_mpsim and test_mpctl are built by tests/unit/module.mk and link $(EMU_A).)
MP_OBJS := $(OBJ)/emu/metapaging/metapager.o $(OBJ)/emu/metapaging/mpsim.o $(OBJ)/emu/metapaging/mpstack.o $(OBJ)/emu/metapaging/mpctl.o $(OBJ)/emu/platform/ram.o
# Should emu/ have no archive (no emu/module.mk), link the meta-paging objects directly.
ifeq ($(EMU_A),)
$(BUILD)/tests/test_metapager $(BUILD)/tests/test_mpsim $(BUILD)/tests/test_mpctl: $(MP_OBJS)
MP_LINK := $(MP_OBJS)
else
MP_LINK := $(EMU_A)
endif

# Self-checking memory-bound workloads (bare metal, virt map): mp-small for the equality tests,
# mp-bench (24 MiB working set) for the bench.  See memwork.c.
MPW_CC     := riscv64-unknown-elf-gcc
MPW_CFLAGS := -march=rv64imac -mabi=lp64 -Wa,-march=rv64imac_zicsr -mcmodel=medany -O2 -Wall \
              -nostdlib -nostartfiles -ffreestanding -static -Wl,--no-warn-rwx-segments \
              -T tests/metapaging/link.ld
MPW_DEPS   := tests/metapaging/start.S tests/metapaging/memwork.c tests/metapaging/link.ld
MPW_ELFS   := $(FWBUILD)/metapaging/mp-small.elf $(FWBUILD)/metapaging/mp-bench.elf

$(FWBUILD)/metapaging/mp-small.elf: $(MPW_DEPS)
	@mkdir -p $(@D)
	$(MPW_CC) $(MPW_CFLAGS) -DNAME='"mp-small"' -DWS_KIB=2048 -DOPS=50000 \
	  tests/metapaging/start.S tests/metapaging/memwork.c -o $@
$(FWBUILD)/metapaging/mp-bench.elf: $(MPW_DEPS)
	@mkdir -p $(@D)
	$(MPW_CC) $(MPW_CFLAGS) -DNAME='"mp-bench"' -DWS_KIB=24576 -DOPS=1000000 \
	  tests/metapaging/start.S tests/metapaging/memwork.c -o $@

.PHONY: metapaging-workloads
metapaging-workloads: $(MPW_ELFS)
TEST_DEPS += $(MPW_ELFS)

# Invisibility and online == real (docs/metapaging.md): mtemu on mp-small and the ISA tests.
TEST_SCRIPTS += tests/metapaging/equality.sh
# The simulations on their own thread == in line (--metapage-sim-thread on/off).
TEST_SCRIPTS += tests/metapaging/thread.sh
# The LRU stack pass == one LRU core per configuration (--metapage-sim-lru each), incl. thrashing grids.
TEST_SCRIPTS += tests/metapaging/stack-each.sh

# The fault path alone (no emulator): faults per second and the share of backing-file I/O.
$(BUILD)/tests/mpbench: $(OBJ)/tests/metapaging/mpbench.o $(MP_LINK) $(MT_A)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS)

# make bench: the fault path alone, then mtemu on mp-bench (unlimited / working set resident /
# thrashing) and faults vs metapage size under an 8 MiB budget.
.PHONY: bench-metapaging
bench-metapaging: $(BUILD)/tests/mpbench $(MPW_ELFS)
	@BUILD=$(BUILD) BIN=$(BIN) FWBUILD=$(FWBUILD) tests/metapaging/bench.sh
BENCH_STEPS += bench-metapaging
