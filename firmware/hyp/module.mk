# firmware/hyp: the mini-hypervisor (M-mode start -> HS hypervisor with an Sv39x4 G-stage ->
# a VS guest kernel with its own Sv39 tables -> a VU program), one freestanding ELF:
# $(FWBUILD)/hyp.elf.  tests/e2e/hyp.sh runs it on mtemu and QEMU (-cpu rv64,h=true).
HYP_CC     := riscv64-unknown-elf-gcc
HYP_CFLAGS := -std=c17 -O2 -g -Wall -Wextra -Werror -march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany \
              -mno-relax -ffreestanding -fno-builtin -fno-jump-tables \
              -fno-tree-loop-distribute-patterns -fno-pic -nostdlib -ffunction-sections -Ifirmware/hyp
HYP_SRCS   := firmware/hyp/m_start.S firmware/hyp/hyp.c firmware/hyp/guest_entry.S \
              firmware/hyp/guest_kernel.c firmware/hyp/guest_user.c
HYP_OBJS   := $(patsubst firmware/hyp/%,$(FWBUILD)/obj/hyp/%.o,$(HYP_SRCS))

ifneq ($(shell command -v $(HYP_CC) 2>/dev/null),)
ALL_TARGETS  += $(FWBUILD)/hyp.elf
TEST_DEPS    += $(FWBUILD)/hyp.elf
TEST_SCRIPTS += tests/e2e/hyp.sh
endif

$(FWBUILD)/obj/hyp/%.o: firmware/hyp/% firmware/hyp/hyp_defs.h firmware/rt/hs_guest_trap.S.inc
	@mkdir -p $(@D)
	$(HYP_CC) $(HYP_CFLAGS) -c $< -o $@

$(FWBUILD)/hyp.elf: $(HYP_OBJS) firmware/hyp/link.ld
	$(HYP_CC) $(HYP_CFLAGS) -static -Wl,--no-warn-rwx-segments -T firmware/hyp/link.ld $(HYP_OBJS) -o $@

.SECONDARY: $(HYP_OBJS)
