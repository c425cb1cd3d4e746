# metatrace — the one entry point.  GNU make, out-of-tree into build/.
#
#   make            build everything (libmetatrace, mtemu, metatrace, firmware when its toolchain is there)
#   make test       make deps, build, run every test; ends with "N passed, M failed"
#   make SAN=1 test the same under AddressSanitizer + UndefinedBehaviorSanitizer (objects in build/san)
#   make demo       the main job end to end on built-in defaults
#   make bench      speed figures as ratios against references measured in the same run
#   make deps       install missing Debian packages (root) or print the apt-get line
#   make install    PREFIX=/usr/local DESTDIR= (binaries, libmetatrace .so/.a, headers, metatrace.pc,
#                   man pages, docs, the Python package; mk/install.mk)
#
# Each component adds itself through its own module.mk (lib/, emu/, host/, tests/, firmware/,
# rtl_model/), so the parts stay small and independent.

SHELL       := /bin/bash
.DEFAULT_GOAL := all
ROOT        := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))

ifeq ($(SAN),1)
BUILD       ?= build/san
SAN_FLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
OPT         ?= -O1
else
BUILD       ?= build
SAN_FLAGS   :=
OPT         ?= -O2
endif
# Cross-built guest code is never sanitized: one copy serves both builds.
FWBUILD     := build/firmware
BIN         := $(BUILD)/bin
OBJ         := $(BUILD)/obj

# The one version number (VERSION): mtemu/metatrace --version, mt_version(), the shared library's
# soname (libmetatrace.so.MAJOR) and metatrace.pc take it from there, through $(GEN)/mt_version.h.
MT_VERSION       := $(shell cat $(ROOT)/VERSION)
MT_VERSION_MAJOR := $(firstword $(subst ., ,$(MT_VERSION)))
GEN         := $(BUILD)/gen

CC          := gcc
CXX         := g++
AR          := ar
WARN        := -Wall -Wextra -Werror
CFLAGS      := -std=c17 $(OPT) -g $(WARN) -D_GNU_SOURCE -MMD -MP $(SAN_FLAGS) -I$(ROOT) -I$(ROOT)/lib -I$(GEN) $(EXTRA_CFLAGS)
CXXFLAGS    := -std=c++17 $(OPT) -g -Wall -Wextra -MMD -MP $(SAN_FLAGS)
# -no-pie: the interpreter is compiled position-dependent (emu/module.mk)
LDFLAGS     := $(SAN_FLAGS) -no-pie $(EXTRA_LDFLAGS)
LDLIBS      := -lzstd -lfdt -lm -pthread
CMOCKA_LIBS := -lcmocka

PREFIX      ?= /usr/local
DESTDIR     ?=
LIBDIR      ?= $(PREFIX)/lib
INCLUDEDIR  ?= $(PREFIX)/include
MANDIR      ?= $(PREFIX)/share/man
DOCDIR      ?= $(PREFIX)/share/doc/metatrace
# Debian's place for version-independent Python packages (pure Python + ctypes: no extension module
# tied to one Python 3.x). On sys.path for PREFIX=/usr; for another prefix set PYTHONPATH, or
# PYTHONDIR=$(PREFIX)/lib/python3.11/dist-packages (on Debian's path for /usr/local).
PYTHONDIR   ?= $(LIBDIR)/python3/dist-packages

# Filled in by the module.mk files.
ALL_TARGETS :=
TEST_BINS   :=
TEST_SCRIPTS :=
TEST_DEPS   :=
INSTALL_BINS :=
BENCH_STEPS :=
CLEAN_EXTRA :=

# Compile rule shared by every C module: build/obj/<path>.o from <path>.c
$(OBJ)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

# Sorted, so tests/ (which links the component archives) comes after lib/, emu/ and host/.
-include $(sort $(wildcard */module.mk) $(wildcard */*/module.mk))

.PHONY: all test deps demo bench clean install fuzz
all: $(ALL_TARGETS)

deps:
	@mk/deps.sh

# `make test`: deps first (a no-op when all is there), then build and run everything.
test: deps
	@$(MAKE) --no-print-directory all $(TEST_BINS) $(TEST_DEPS)
	@BUILD=$(BUILD) BIN=$(BIN) FWBUILD=$(FWBUILD) SAN=$(SAN) mk/run-tests.sh $(TEST_BINS) $(TEST_SCRIPTS)

# `make demo`: the main job end to end on built-in defaults (mk/demo.sh says what it shows).
demo: deps
	@$(MAKE) --no-print-directory all
	@BIN=$(BIN) FWBUILD=$(FWBUILD) mk/demo.sh

bench: deps
	@$(MAKE) --no-print-directory all
	@set -e; for step in $(BENCH_STEPS); do $(MAKE) --no-print-directory $$step; done

# `make install`: mk/install.mk (read after every module.mk, whose variables it installs).
include mk/install.mk

clean:
	rm -rf build $(CLEAN_EXTRA)

# Header dependencies of our own objects only (not the kernel's .d files under build/linux), and
# of the objects Verilator's make builds under build/rtl -- but not its *__ver.d files: each names
# itself a target of the netlist it was made from, so make would remake that netlist (a yosys run
# for the gate-level one) before any goal, even under -n, to bring the included makefile up to date.
-include $(shell find $(OBJ) $(BUILD)/pic build/rtl -type f -name '*.d' ! -name '*__ver.d' 2>/dev/null)
