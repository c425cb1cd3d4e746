# libmetatrace: the access-event type, the trace unit's C reference model, the packet decoder and
# the .mtr container.  Everything else links against $(MT_A).
MT_SRCS := $(wildcard lib/*.c)
MT_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(MT_SRCS))
MT_A    := $(BUILD)/lib/libmetatrace.a
ALL_TARGETS += $(MT_A)

$(MT_A): $(MT_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

# `make bench` step: compression (bytes/sample vs the seed's 6 B / 4 B) and decoder throughput
# next to `zstd -d` on the same container, measured in the same run.
BENCH_LIB := $(BUILD)/tests/bench_lib
$(BENCH_LIB): $(OBJ)/tests/bench/bench_lib.o $(MT_A)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS)

.PHONY: bench_lib
bench_lib: $(BENCH_LIB)
	@mkdir -p $(BUILD)/bench && nice -n 10 $(BENCH_LIB) $(BUILD)/bench
BENCH_STEPS += bench_lib

# The version header (VERSION -> MT_VERSION_STRING), for mt_version() and both --version texts.
$(GEN)/mt_version.h: VERSION
	@mkdir -p $(@D)
	printf '/* Generated from VERSION by lib/module.mk: do not edit. */\n#ifndef MT_VERSION_H\n#define MT_VERSION_H\n#define MT_VERSION_STRING "%s"\n#define MT_VERSION_MAJOR %s\n#endif\n' \
	    '$(MT_VERSION)' '$(MT_VERSION_MAJOR)' >$@
$(OBJ)/lib/mt_reader.o $(OBJ)/emu/main.o $(OBJ)/host/main.o $(OBJ)/tests/unit/test_lib_reader.o: $(GEN)/mt_version.h

# The public API, installed as include/metatrace/*.h: the container reader/writer, the packet
# decoder and packet layer, the access-event type, the register map, the chunked sample reader and
# the version; with every header they include (mk/public-headers.sh lists the closure), so each
# compiles alone (tests/install/install.sh checks). mt_paths.h and mt_sched.h stay private.
MT_PUBLIC_H := lib/mt_mtr.h lib/mt_dec.h lib/mt_pkt.h lib/mt_event.h lib/mt_regs.h lib/mt_reader.h
MT_HEADERS_CMD = CC=$(CC) mk/public-headers.sh $(GEN)/mt_version.h $(MT_PUBLIC_H)

# libmetatrace.so.$(MT_VERSION) (soname libmetatrace.so.$(MT_VERSION_MAJOR)): the same sources,
# position-independent and never sanitized (a program or Python's ctypes loads it without the
# sanitizer runtime), exporting only the functions the installed headers declare (the version
# script mk/exports.sh writes); everything else is local.
MT_SONAME   := libmetatrace.so.$(MT_VERSION_MAJOR)
MT_SO       := $(BUILD)/lib/libmetatrace.so.$(MT_VERSION)
MT_PIC_OBJS := $(patsubst %.c,$(BUILD)/pic/%.o,$(MT_SRCS))
MT_MAP      := $(BUILD)/lib/libmetatrace.map
PIC_CFLAGS   = $(filter-out $(SAN_FLAGS),$(CFLAGS)) -fPIC
ALL_TARGETS += $(MT_SO)

$(BUILD)/pic/lib/%.o: lib/%.c
	@mkdir -p $(@D)
	$(CC) $(PIC_CFLAGS) -c $< -o $@
$(BUILD)/pic/lib/mt_reader.o: $(GEN)/mt_version.h

$(MT_MAP): $(MT_PIC_OBJS) $(MT_PUBLIC_H) $(GEN)/mt_version.h mk/exports.sh mk/public-headers.sh
	@mkdir -p $(@D)
	mk/exports.sh "METATRACE_$(MT_VERSION_MAJOR)" "$$($(MT_HEADERS_CMD))" $(MT_PIC_OBJS) >$@.tmp && mv $@.tmp $@

$(MT_SO): $(MT_PIC_OBJS) $(MT_MAP)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,$(MT_SONAME) -Wl,--version-script=$(MT_MAP) -Wl,-z,defs \
	    $(MT_PIC_OBJS) -o $@ -lzstd -lm
	ln -sf $(notdir $@) $(@D)/$(MT_SONAME)
	ln -sf $(MT_SONAME) $(@D)/libmetatrace.so
