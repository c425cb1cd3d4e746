# libmetatrace: the access-event type, the trace unit's C reference model, the packet decoder and
# the .mtr container.  Everything else links against $(MT_A).
MT_SRCS := $(wildcard lib/*.c)
MT_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(MT_SRCS))
MT_A    := $(BUILD)/lib/libmetatrace.a
ALL_TARGETS += $(MT_A)

$(MT_A): $(MT_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^
