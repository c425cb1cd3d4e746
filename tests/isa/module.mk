# tests/isa: the project's own self-checking RV64 ISA tests (see tests/isa/README.md).
# Each tests/isa/src/<t>.S is assembled once per environment: $(FWBUILD)/isa/m-<t>.elf (M-mode,
# bare), s-<t>.elf (S-mode, Sv39 identity map), s48-<t>.elf (S-mode, Sv48) and u-<t>.elf (U-mode,
# Sv39), or only m-<t>.elf
# when the source says "ISA-ENV: m-only".  run.sh runs them all on $(BIN)/mtemu.
ISA_CC      := riscv64-unknown-elf-gcc
ISA_CFLAGS  := -march=rv64imac -mabi=lp64 -Wa,-march=rv64imac_zicsr_zifencei -mcmodel=medany \
               -nostdlib -nostartfiles -static -Wl,--no-warn-rwx-segments -Itests/isa/include -T tests/isa/link.ld
ISA_SRCS    := $(sort $(wildcard tests/isa/src/*.S))
ISA_NAMES   := $(patsubst tests/isa/src/%.S,%,$(ISA_SRCS))
# Tests that set up privilege modes or translation themselves only make sense in M-mode.
ISA_M_ONLY  := $(shell grep -l 'ISA-ENV: m-only' $(ISA_SRCS) 2>/dev/null | sed 's|.*/||; s|\.S$$||')
# The bit-manipulation tests (src/zb*.S) need Zba/Zbb/Zbc/Zbs/Zbkb/Zbkx in the assembler's -march (and
# gcc's, so that sext.b, zext.h, zext.w assemble to the Zbb/Zba instructions, not to pseudo-ops).
ISA_ZB_NAMES := $(filter zb%,$(ISA_NAMES))
ISA_ZB_FLAGS := -march=rv64imac_zba_zbb_zbc_zbs_zbkb_zbkx -Wa,-march=rv64imac_zicsr_zifencei_zba_zbb_zbc_zbs_zbkb_zbkx
$(foreach e,m s s48 u,$(patsubst %,$(FWBUILD)/isa/$(e)-%.elf,$(ISA_ZB_NAMES))): ISA_XFLAGS := $(ISA_ZB_FLAGS)
# src/cbo.S: the assembler's Zicbom/Zicboz (cbo.* have no C-level use: -Wa only)
$(FWBUILD)/isa/m-cbo.elf: ISA_XFLAGS := -Wa,-march=rv64imac_zicsr_zifencei_zicbom_zicboz
ISA_ELFS    := $(foreach t,$(ISA_NAMES),$(FWBUILD)/isa/m-$(t).elf \
                 $(if $(filter $(t),$(ISA_M_ONLY)),,$(FWBUILD)/isa/s-$(t).elf $(FWBUILD)/isa/u-$(t).elf \
                 $(FWBUILD)/isa/s48-$(t).elf))

$(FWBUILD)/isa/m-%.elf: tests/isa/src/%.S $(wildcard tests/isa/include/*) tests/isa/link.ld
	@mkdir -p $(@D)
	$(ISA_CC) $(ISA_CFLAGS) $(ISA_XFLAGS) -DENV_M $< -o $@
$(FWBUILD)/isa/s-%.elf: tests/isa/src/%.S $(wildcard tests/isa/include/*) tests/isa/link.ld
	@mkdir -p $(@D)
	$(ISA_CC) $(ISA_CFLAGS) $(ISA_XFLAGS) -DENV_S $< -o $@
$(FWBUILD)/isa/s48-%.elf: tests/isa/src/%.S $(wildcard tests/isa/include/*) tests/isa/link.ld
	@mkdir -p $(@D)
	$(ISA_CC) $(ISA_CFLAGS) $(ISA_XFLAGS) -DENV_S48 $< -o $@
$(FWBUILD)/isa/u-%.elf: tests/isa/src/%.S $(wildcard tests/isa/include/*) tests/isa/link.ld
	@mkdir -p $(@D)
	$(ISA_CC) $(ISA_CFLAGS) $(ISA_XFLAGS) -DENV_U $< -o $@

# Negative controls (tests/isa/neg/*.S): deliberately broken tests that must fail with the
# exit code their source names ("NEGATIVE-CONTROL(exit N)"); run.sh checks that they do.
ISA_NEG_SRCS := $(sort $(wildcard tests/isa/neg/*.S))
ISA_NEG_ELFS := $(patsubst tests/isa/neg/%.S,$(FWBUILD)/isa-neg/%.elf,$(ISA_NEG_SRCS))
$(FWBUILD)/isa-neg/%.elf: tests/isa/neg/%.S $(wildcard tests/isa/include/*) tests/isa/link.ld
	@mkdir -p $(@D)
	$(ISA_CC) $(ISA_CFLAGS) -DENV_M $< -o $@

.PHONY: isa-tests
isa-tests: $(ISA_ELFS) $(ISA_NEG_ELFS)
TEST_DEPS    += $(ISA_ELFS) $(ISA_NEG_ELFS)
TEST_SCRIPTS += tests/isa/run.sh
