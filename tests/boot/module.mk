# Debian's unmodified firmware and Linux on mtemu (docs/boot.md): OpenSBI's banner (fw_jump and
# fw_dynamic), U-Boot's prompt as M-mode --bios and as S-mode payload behind OpenSBI, with typed
# commands; the same with -smp 4; a bare-metal 2-hart handshake (tests/e2e/smp_skew.S); Linux +
# busybox, 1, 4 and 8 harts (tests/e2e/linux-boot.sh's checks).
# Each is a few seconds (under SAN=1 too).
TEST_SCRIPTS += tests/e2e/boot-opensbi.sh tests/e2e/boot-uboot-m.sh tests/e2e/boot-uboot-s.sh \
                tests/e2e/boot-smp.sh tests/e2e/boot-linux.sh
# boot-smp.sh's bare-metal case: how far a hart may run ahead of one waiting for its turn.
$(FWBUILD)/e2e/smp_skew.elf: tests/e2e/smp_skew.S tests/emu/link.ld
	@mkdir -p $(@D)
	$(EMU_TEST_CC) $(EMU_TEST_FLAGS) $< -o $@
TEST_DEPS += $(FWBUILD)/e2e/smp_skew.elf
# boot-linux.sh needs build/linux/Image (`make linux`, 5-9 minutes once, shared by the SAN and
# non-SAN runs) and F/D in mtemu (busybox is hard-float): without emu/cpu/exec_fp.c it skips (77), so
# the kernel is only built when it can be booted.
ifneq ($(wildcard emu/cpu/exec_fp.c),)
TEST_DEPS += linux
endif

# make bench: boot to poweroff on QEMU and mtemu, 1, 4 and 8 harts, same OpenSBI and Image, same run.
.PHONY: bench_boot
bench_boot: $(BIN)/mtemu
	@BIN=$(BIN) tests/bench/bench_boot.sh
BENCH_STEPS += bench_boot
