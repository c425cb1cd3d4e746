# tests/diff: bare-metal programs run on QEMU's virt machine (the reference) and on mtemu; run.sh
# compares console output and exit code (no libc, no libgcc: zicsr can go in -march).  Each tests/diff/src/<p>.c -> $(FWBUILD)/diff/<p>.elf.
DIFF_CC     := riscv64-unknown-elf-gcc
DIFF_CFLAGS := -march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany -O2 \
               -ffreestanding -fno-builtin -fno-tree-loop-distribute-patterns -fomit-frame-pointer \
               -nostdlib -nostartfiles -static -Wall -Wextra -Werror -Wl,--no-warn-rwx-segments \
               -Itests/diff/common -T tests/diff/common/link.ld
DIFF_SRCS   := $(sort $(wildcard tests/diff/src/*.c))
# zb.c: the bit-manipulation extensions, which GCC then emits itself (QEMU 7.2's rv64 has them)
$(FWBUILD)/diff/zb.elf: DIFF_CFLAGS := $(subst -march=rv64imac_zicsr_zifencei,-march=rv64imac_zba_zbb_zbc_zbs_zicsr_zifencei,$(DIFF_CFLAGS))
DIFF_ELFS   := $(patsubst tests/diff/src/%.c,$(FWBUILD)/diff/%.elf,$(DIFF_SRCS))

$(FWBUILD)/diff/%.elf: tests/diff/src/%.c tests/diff/common/crt.S tests/diff/common/diff.c \
                       tests/diff/common/diff.h tests/diff/common/link.ld
	@mkdir -p $(@D)
	$(DIFF_CC) $(DIFF_CFLAGS) tests/diff/common/crt.S tests/diff/common/diff.c $< -o $@

.PHONY: diff-tests
diff-tests: $(DIFF_ELFS)
TEST_DEPS    += $(DIFF_ELFS)
TEST_SCRIPTS += tests/diff/run.sh
