# Debian's unmodified firmware and Linux on mtemu (docs/boot.md): OpenSBI's banner (fw_jump and
# fw_dynamic), U-Boot's prompt as M-mode --bios and as S-mode payload behind OpenSBI, with typed
# commands.  Each run is a few seconds.
TEST_SCRIPTS += tests/e2e/boot-opensbi.sh tests/e2e/boot-uboot-m.sh tests/e2e/boot-uboot-s.sh
