# cmocka unit tests: every tests/unit/test_<name>.c becomes $(BUILD)/tests/test_<name>, one
# binary per module under test, linked against every component library that exists.
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
TEST_BINS += $(UNIT_BINS)
# Component archives, most dependent first (host uses lib, emu uses lib).
UNIT_LINK := $(HOST_A) $(EMU_A) $(MT_A)

$(BUILD)/tests/%: $(OBJ)/tests/unit/%.o $(UNIT_LINK)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(CMOCKA_LIBS) $(LDLIBS)
