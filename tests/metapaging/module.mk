# Meta-paging: the equality test script and the bench.  (The unit tests test_metapager and
# test_mpsim are built by tests/unit/module.mk; emu/metapager.o and emu/mpsim.o are in $(EMU_A).)
