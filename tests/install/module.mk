# make install, used as a user would (install.sh: layout, soname, exports, headers alone, a
# decoder built with pkg-config, the Python package) and the man pages kept true to --help (man.sh).
TEST_SCRIPTS += tests/install/install.sh tests/install/man.sh tests/install/make-dry-run.sh
TEST_DEPS    += $(BIN)/mtemu $(BIN)/metatrace $(FWBUILD)/emu/hello.elf
