# firmware/vmm: metatrace's VMM, a bare-metal HS-mode hypervisor that boots an unmodified Linux
# Image as a VS-mode guest (docs/boot.md, "Linux as a guest"): $(FWBUILD)/vmm.elf.
#   make run-guest GUEST=IMAGE [GUEST_APPEND='...']   boots IMAGE on mtemu behind it
# Built with the firmware's cross compiler and picolibc's string functions (no start files).
# Compiled for rv64imac_zicsr_zifencei (CSRs, FENCE.I), linked as rv64imac: gcc picks picolibc's
# multilib from the link's -march (TOOLCHAIN-NOTES: "_zicsr" there selects the wrong one).
# No loop-to-memcpy/memset rewriting: picolibc's rv64imac ones go byte by byte.
VMM_CC     := riscv64-unknown-elf-gcc
VMM_COMMON := -mabi=lp64 -mcmodel=medany -mno-relax --specs=picolibc.specs
VMM_CFLAGS := -std=c17 -O2 -g -Wall -Wextra -Werror -march=rv64imac_zicsr_zifencei $(VMM_COMMON) \
              -ffreestanding -fno-tree-loop-distribute-patterns -ffunction-sections -D_DEFAULT_SOURCE -I$(ROOT) -Ifirmware/vmm
VMM_SRCS   := firmware/vmm/start.S firmware/vmm/vmm.c firmware/vmm/sbi.c firmware/vmm/gstage.c \
              firmware/vmm/guest_dt.c firmware/vmm/fdtw.c firmware/vmm/console.c firmware/vmm/mmio.c \
              firmware/vmm/vuart.c firmware/vmm/vplic.c firmware/rt/dt.c
VMM_OBJS   := $(patsubst firmware/%,$(FWBUILD)/obj/vmm/%.o,$(VMM_SRCS))
VMM_ELF    := $(FWBUILD)/vmm.elf

ifneq ($(shell command -v $(VMM_CC) 2>/dev/null),)
ALL_TARGETS  += $(VMM_ELF)
TEST_DEPS    += $(VMM_ELF) linux
# the project's Linux as a guest, traced, meta-paged, on QEMU too (about 8 s of CPU)
TEST_SCRIPTS += tests/e2e/guest-linux.sh
endif

$(FWBUILD)/obj/vmm/%.o: firmware/% $(wildcard firmware/vmm/*.h) firmware/rt/dt.h firmware/rt/hs_guest_trap.S.inc
	@mkdir -p $(@D)
	$(VMM_CC) $(VMM_CFLAGS) -c $< -o $@

$(VMM_ELF): $(VMM_OBJS) firmware/vmm/link.ld
	$(VMM_CC) -march=rv64imac $(VMM_COMMON) -nostartfiles -static -Wl,--gc-sections -Wl,--no-warn-rwx-segments \
	  -T firmware/vmm/link.ld $(VMM_OBJS) -o $@

.SECONDARY: $(VMM_OBJS)

# Boots GUEST (default: the project's Linux) as a VS-mode guest; exits when the guest powers off,
# with its status.  GUEST_APPEND is added to the guest's command line (quoted for the shell here,
# so it may hold both kinds of quotes); GUEST_MEM is the host's RAM (the guest gets 64 MiB less).
GUEST ?= $(LINUX_IMAGE)
GUEST_APPEND ?=
GUEST_MEM ?= 256M
.PHONY: run-guest
run-guest: $(BIN)/mtemu $(VMM_ELF)
	@test -f "$(GUEST)" || { echo "run-guest: no guest Image '$(GUEST)' (make linux, or GUEST=IMAGE)" >&2; exit 2; }
	$(BIN)/mtemu -q -m $(GUEST_MEM) --bios $(VMM_ELF) --kernel "$(GUEST)" \
	  --append 'console=hvc0 earlycon=sbi $(subst ','\'',$(GUEST_APPEND))'

# make bench: the guest's boot beside the native one, on QEMU and mtemu (tests/bench/bench_guest.sh).
.PHONY: bench_guest
bench_guest: $(BIN)/mtemu $(VMM_ELF)
	@BIN=$(BIN) FWBUILD=$(FWBUILD) tests/bench/bench_guest.sh
BENCH_STEPS += bench_guest
