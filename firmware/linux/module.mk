# `make linux`: Linux 6.1 + a static busybox initramfs from Debian's source packages, into
# build/linux/Image.  Not part of `all` (5-9 minutes from scratch on 2 cores, needs apt for the
# busybox source); firmware/linux/build.sh caches every step under build/linux keyed on the hashes
# of its inputs, so running it again with nothing changed takes about a second.
LINUX_OUT := build/linux
LINUX_IMAGE := $(LINUX_OUT)/Image

.PHONY: linux
linux:
	@firmware/linux/build.sh $(LINUX_OUT)

# tests/e2e/linux-boot.sh boots it on mtemu (1 hart and -smp 4).  Not enabled yet: mtemu cannot boot
# Linux until F/D, OpenSBI's needs and SMP are in; the lead enables it then by uncommenting:
# TEST_SCRIPTS += tests/e2e/linux-boot.sh
