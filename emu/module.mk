# mtemu, the RV64 emulator: every emu/*.c except main.c goes into $(EMU_A); main.c is the CLI.
# When the FPU engineer's emu/exec_fp.c exists, the decoder routes F/D opcodes to it (MT_HAVE_FP).
EMU_SRCS := $(filter-out emu/main.c,$(wildcard emu/*.c))
EMU_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(EMU_SRCS))
EMU_A    := $(BUILD)/emu/libmtemu.a
ALL_TARGETS += $(EMU_A) $(BIN)/mtemu
INSTALL_BINS += $(BIN)/mtemu

ifneq ($(wildcard emu/exec_fp.c),)
$(OBJ)/emu/%.o: CFLAGS += -DMT_HAVE_FP=1
endif

$(EMU_A): $(EMU_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

$(BIN)/mtemu: $(OBJ)/emu/main.o $(EMU_A) $(MT_A)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS)
