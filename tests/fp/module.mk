# tests/fp: differential test of RV64F/D and Zfh.  fpdiff.elf (bare-metal, rv64gc) prints every F/D
# operation on a deterministic operand stream in every rounding mode; fpcheck recomputes each
# line with emu/cpu/softfp.  run.sh runs the program on QEMU (and on mtemu once it executes F/D)
# and checks both outputs.
FP_CC       := riscv64-unknown-elf-gcc
# 1200 operations per op and rounding mode: about 252,000 operations, ~16 s on QEMU (which
# spends most of it writing the UART output one byte per system call).
FP_PER_MODE := 1200
# the 34 Zfh op forms (a half among the operands or the result): 600 per op and rounding mode,
# 70,800 operations
FP_PER_MODE_H := 600
FP_SEED     := 0x243f6a8885a308d3
FP_CFLAGS   := -march=rv64gc_zfh -mabi=lp64d -Wa,-march=rv64gc_zicsr_zifencei_zfh -mcmodel=medany -O2 \
               -Wall -Wextra -Werror -ffreestanding -nostdlib -nostartfiles -static \
               -T tests/fp/link.ld -DPER_MODE=$(FP_PER_MODE) -DPER_MODE_H=$(FP_PER_MODE_H) -DSEED=$(FP_SEED)ull
FP_ELF      := $(FWBUILD)/fp/fpdiff.elf
FP_CHECK    := $(BUILD)/tests/fpcheck

$(FP_ELF): tests/fp/start.S tests/fp/fpdiff.c tests/fp/link.ld tests/fp/module.mk
	@mkdir -p $(@D)
	$(FP_CC) $(FP_CFLAGS) tests/fp/start.S tests/fp/fpdiff.c -o $@

$(FP_CHECK): $(OBJ)/tests/fp/fpcheck.o $(OBJ)/emu/cpu/softfp.o
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS)

# Self-checking F/D ISA tests (tests/isa's harness, M-mode environment, rv64gc).
FP_ISA_CFLAGS := -march=rv64gc_zfh -mabi=lp64d -Wa,-march=rv64gc_zicsr_zifencei_zfh -mcmodel=medany \
                 -nostdlib -nostartfiles -static -Wl,--no-warn-rwx-segments -Itests/isa/include \
                 -T tests/isa/link.ld -DENV_M
FP_ISA_ELFS   := $(patsubst tests/fp/isa/%.S,$(FWBUILD)/fp/isa/m-%.elf,$(wildcard tests/fp/isa/*.S))

$(FWBUILD)/fp/isa/m-%.elf: tests/fp/isa/%.S tests/isa/include/isa_test.h tests/isa/link.ld
	@mkdir -p $(@D)
	$(FP_CC) $(FP_ISA_CFLAGS) $< -o $@

.PHONY: fp-tests
fp-tests: $(FP_ELF) $(FP_CHECK) $(FP_ISA_ELFS)
TEST_DEPS    += $(FP_ELF) $(FP_CHECK) $(FP_ISA_ELFS)
TEST_SCRIPTS += tests/fp/run.sh
