# `make linux`: Linux 6.1 + a static busybox initramfs from Debian's source packages, into
# build/linux/Image.  Not part of `all` (5-9 minutes from scratch on 2 cores, needs apt for the
# busybox source); firmware/linux/build.sh caches every step under build/linux keyed on the hashes
# of its inputs, so running it again with nothing changed takes about a second.
LINUX_OUT := build/linux
LINUX_IMAGE := $(LINUX_OUT)/Image

.PHONY: linux
linux:
	@firmware/linux/build.sh $(LINUX_OUT)

# The boots themselves are tests/e2e/boot-linux.sh, enabled from tests/boot/module.mk.
