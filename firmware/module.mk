# Bare-metal firmware: the runtime (firmware/rt) and the workloads (firmware/workloads), cross-built
# with Debian's riscv64-unknown-elf-gcc + picolibc into $(FWBUILD)/NAME.elf (shared by SAN and
# non-SAN builds: guest code is never sanitized).  Skipped, with a note, when the toolchain is
# missing (make deps installs it).
FW_CC      := riscv64-unknown-elf-gcc
FW_ARCH    := -march=rv64imac -mabi=lp64 -Wa,-march=rv64imac_zicsr -mcmodel=medany
FW_CFLAGS  := -std=c17 -O2 -g -Wall -Wextra -Werror $(FW_ARCH) --specs=picolibc.specs \
              -DPICOLIBC_INTEGER_PRINTF_SCANF -D_DEFAULT_SOURCE -ffunction-sections -fdata-sections -I$(ROOT)
FW_LDFLAGS := $(FW_ARCH) --specs=picolibc.specs -DPICOLIBC_INTEGER_PRINTF_SCANF -nostartfiles \
              -T firmware/rt/link.ld -Wl,--gc-sections
FW_OBJ     := $(FWBUILD)/obj

FW_RT_SRCS := $(wildcard firmware/rt/*.c) firmware/rt/start.S
FW_RT_OBJS := $(patsubst firmware/rt/%,$(FW_OBJ)/rt/%.o,$(FW_RT_SRCS))
FW_WORKLOADS := seq random stride wss pchase matmul memcpy qsort
FW_ELFS    := $(patsubst %,$(FWBUILD)/%.elf,$(FW_WORKLOADS)) $(FWBUILD)/rt-check.elf

ifneq ($(shell command -v $(FW_CC) 2>/dev/null),)
ALL_TARGETS += $(FW_ELFS)
TEST_DEPS   += $(FW_ELFS)
# Each workload on mtemu against QEMU (the reference): same exit code, same console.
TEST_SCRIPTS += tests/e2e/firmware-run.sh
else
$(info firmware: $(FW_CC) not found, skipping the firmware (make deps installs it))
endif

.PHONY: firmware
firmware: $(FW_ELFS)

$(FW_OBJ)/rt/%.c.o: firmware/rt/%.c
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) -MMD -MP -c $< -o $@

$(FW_OBJ)/rt/%.S.o: firmware/rt/%.S
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) -MMD -MP -c $< -o $@

$(FW_OBJ)/workloads/%.o: firmware/workloads/%.c
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) -MMD -MP -c $< -o $@

$(FW_OBJ)/tests/%.o: firmware/tests/%.c
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) -MMD -MP -c $< -o $@

$(FWBUILD)/rt-check.elf: $(FW_OBJ)/tests/rt_check.o $(FW_RT_OBJS) firmware/rt/link.ld
	$(FW_CC) $(FW_LDFLAGS) $(filter %.o,$^) -o $@

$(FWBUILD)/%.elf: $(FW_OBJ)/workloads/%.o $(FW_RT_OBJS) firmware/rt/link.ld
	$(FW_CC) $(FW_LDFLAGS) $(filter %.o,$^) -o $@

-include $(wildcard $(FW_OBJ)/*/*.d)

# Objects made through pattern rules are intermediates to make: keep them for incremental builds.
.SECONDARY: $(FW_RT_OBJS) $(patsubst %,$(FW_OBJ)/workloads/%.o,$(FW_WORKLOADS)) $(FW_OBJ)/tests/rt_check.o
