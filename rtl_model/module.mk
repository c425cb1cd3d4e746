# rtl_model: the trace unit in SystemVerilog, its Verilator build with a plain C API, the RTL
# testbench and co-simulation, and the yosys/nextpnr flow for the iCE40 UP5K.
#
#   make rtl        Verilated model + C shim + lockstep comparator -> $(RTL_A)
#                   (link C code with $(RTL_A) $(MT_A) $(RTL_LIBS))
#   make rtl-fst    the same with FST waveforms (--trace-fst) -> $(RTL_FST_A)
#   make rtl-lint   verilator --lint-only -Wall
#   make synth      yosys + nextpnr-ice40 (UP5K, sg48), the full and the minimal build
#                   -> build/synth/summary.txt, build/synth/builds.md
#
# The Verilated C++ is compiled without sanitizers even under SAN=1: it is generated code, its
# build dominates the time, and ASan/UBSan in the C callers still see every byte they handle.

# The package first: both tools want it defined before its users.
RTL_SRCS    := rtl_model/rtl/mt_tu_pkg.sv $(filter-out %_pkg.sv,$(sort $(wildcard rtl_model/rtl/*.sv)))
RTL_TOP     := mt_tu
RTL_OUT     := $(BUILD)/rtl
# What carries no sanitizer (the Verilated C++, the C++ shim, the gate netlist) is the same in both
# builds: built once, under build/rtl, and shared by make SAN=1 (which before built all of it again:
# seven Verilator builds and a yosys run).  Only the libraries and programs that link the C parts
# (sanitized under SAN=1) are per build.  $(call rtl_vl,DIR): DIR's shared twin.
RTL_VL_OUT  := build/rtl
rtl_vl       = $(patsubst $(RTL_OUT)%,$(RTL_VL_OUT)%,$(1))
RTL_A       := $(RTL_OUT)/libmtrtl.a
RTL_FST_A   := $(RTL_OUT)/fst/libmtrtl.a
RTL_LIBS    := -lstdc++ -lpthread
RTL_FST_LIBS := $(RTL_LIBS) -lz
VERILATOR   ?= verilator
VL_ROOT     := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)
# The simulation library is the largest unit (65536-byte FIFO storage, 8-byte output port),
# strapped at run time to the depth and drain the caller asks for (mt_rtl_create).
RTL_VFLAGS  := --cc -Wall --top-module $(RTL_TOP) -O3 --x-assign 0 --x-initial 0 --no-timing
RTL_PARAMS  := -GDepth=65536 -GDrain=8 -GReduce=1   # (the gate netlist has Depth and Drain built in: gate_netlist.sh; Reduce only here)
RTL_OPT     := OPT_FAST=-O2 OPT_GLOBAL=-O2 OPT_SLOW=-O1
RTL_CXXFLAGS := -std=c++17 -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter \
                -I$(VL_ROOT)/include -I$(VL_ROOT)/include/vltstd -Irtl_model/sim -Ilib
# A clean environment for Verilator's own make: the caller's command-line variables (SAN=1,
# OPT=...) must not leak into the generated makefile.
RTL_ENV     := env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES

# C parts of the library (compiled like every C module, sanitizers included under SAN=1):
# the lockstep comparator and the packet-context printer it shares with the testbenches.
RTL_C_OBJS  := $(OBJ)/rtl_model/sim/mt_lockstep.o $(OBJ)/rtl_model/sim/pktctx.o

# $(call rtl_build,outdir,extra verilator flags,extra shim defines[,sources: the RTL by default])
# (the Verilated objects and mt_rtl.o in $(call rtl_vl,outdir), the library in outdir)
define rtl_build
# (a fresh -Mdir each time: Verilator's files are numbered by content, so a changed RTL leaves the
# last build's objects behind, and the library below, which takes every V*.o, linked both)
$(call rtl_vl,$(1))/obj/V$(RTL_TOP)__ALL.a: $(or $(4),$(RTL_SRCS)) rtl_model/module.mk
	@rm -rf $(call rtl_vl,$(1))/obj && mkdir -p $(call rtl_vl,$(1))/obj
	$(RTL_ENV) $(VERILATOR) $(RTL_VFLAGS) $(if $(4),,$(RTL_PARAMS)) $(2) -Mdir $(call rtl_vl,$(1))/obj $(or $(4),$(RTL_SRCS)) --build -j 2 \
	  -MAKEFLAGS "$(RTL_OPT)" >$(call rtl_vl,$(1))/verilator.log 2>&1 || { cat $(call rtl_vl,$(1))/verilator.log; exit 1; }
	$(RTL_ENV) make -s -C $(call rtl_vl,$(1))/obj -f V$(RTL_TOP).mk $(RTL_OPT) verilated.o verilated_threads.o \
	  $(if $(findstring fst,$(2)),verilated_fst_c.o)

$(call rtl_vl,$(1))/mt_rtl.o: rtl_model/sim/mt_rtl.cpp rtl_model/sim/mt_rtl.h $(call rtl_vl,$(1))/obj/V$(RTL_TOP)__ALL.a
	g++ $(RTL_CXXFLAGS) $(3) -I$(call rtl_vl,$(1))/obj -c $$< -o $$@

$(1)/libmtrtl.a: $(call rtl_vl,$(1))/mt_rtl.o $(call rtl_vl,$(1))/obj/V$(RTL_TOP)__ALL.a $(RTL_C_OBJS)
	@mkdir -p $(1)
	rm -f $$@ && $(AR) rcs $$@ $(call rtl_vl,$(1))/mt_rtl.o $(RTL_C_OBJS) \
	  $$$$(ls $(call rtl_vl,$(1))/obj/V$(RTL_TOP)__ALL.o 2>/dev/null || ls $(call rtl_vl,$(1))/obj/V$(RTL_TOP)*.o) $(call rtl_vl,$(1))/obj/verilated.o \
	  $(call rtl_vl,$(1))/obj/verilated_threads.o $(if $(findstring fst,$(2)),$(call rtl_vl,$(1))/obj/verilated_fst_c.o)
endef

$(eval $(call rtl_build,$(RTL_OUT),,))
$(eval $(call rtl_build,$(RTL_OUT)/fst,--trace-fst --trace-structs,-DVM_TRACE=1 -DVM_TRACE_FST=1))

# The iCE40 variant (MT_TU_ICE40: the SB_RAM40_4K and SB_MAC16 instances that synthesis sees)
# simulated with yosys' own models of those primitives (cells_sim.v), so that the netlist's
# configuration RAMs and DSP counters are checked against the C model too (test_rtl_ice40.sh).
# MT_TU_SIMCHECK gives mt_tu_awram a behavioural shadow for reg_rdata_now_o.  Built with the
# synthesis harness's FIFO (Depth 4096, Drain 4: the 4-byte write port), so that the full build
# as `make synth` places it is simulated too (the plain and gate builds cover D > 4096, N > 4).
YOSYS_DATDIR := $(or $(shell yosys-config --datdir 2>/dev/null),$(abspath $(dir $(shell command -v yosys 2>/dev/null))../share/yosys))
RTL_ICE40_PRIMS := $(RTL_VL_OUT)/ice40/prims.v
$(RTL_ICE40_PRIMS): $(YOSYS_DATDIR)/ice40/cells_sim.v rtl_model/module.mk
	@mkdir -p $(@D)
	{ echo '`define NO_ICE40_DEFAULT_ASSIGNMENTS'; sed -n '/^`ifndef NO_ICE40_DEFAULT_ASSIGNMENTS/,/^`endif/p' $<; \
	  awk '/^module SB_RAM40_4K /,/^endmodule/' $<; awk '/^module SB_MAC16 /,/^endmodule/' $<; \
	  awk '/^module SB_LUT4 /,/^endmodule/' $<; awk '/^module SB_SPRAM256KA /,/^endmodule/' $<; } >$@
$(RTL_VL_OUT)/ice40/obj/V$(RTL_TOP)__ALL.a: $(RTL_ICE40_PRIMS)
$(eval $(call rtl_build,$(RTL_OUT)/ice40,-DMT_TU_ICE40 -DMT_TU_SIMCHECK -Wno-fatal -Wno-lint -Wno-style -GDepth=4096 -GDrain=4 $(RTL_ICE40_PRIMS),-DMT_RTL_BUILT_DRAIN=4 -DMT_RTL_BUILT_DEPTH=4096))
$(RTL_OUT)/ice40/mt_cosim: $(OBJ)/rtl_model/tb/mt_cosim.o $(RTL_OUT)/ice40/libmtrtl.a $(MT_A)
	$(CC) $(LDFLAGS) $^ -o $@ $(RTL_LIBS) $(LDLIBS)
$(RTL_OUT)/ice40/mt_rtl_tb: $(OBJ)/rtl_model/tb/mt_rtl_tb.o $(RTL_OUT)/ice40/libmtrtl.a $(MT_A)
	$(CC) $(LDFLAGS) $^ -o $@ $(RTL_LIBS) $(LDLIBS)

# The gate-level variant: the netlist of the synthesis flow (synth/gate_netlist.sh), simulated
# with yosys' models of every iCE40 cell in it (flip-flops power up at 0, as the FPGA's do), so
# that what synthesis makes of the RTL is checked against the C model (test_rtl_gate.sh).
RTL_GATE    := $(RTL_OUT)/gate
RTL_GATE_V  := $(RTL_VL_OUT)/gate/mt_tu_gate.v
RTL_GATE_PRIMS := $(RTL_VL_OUT)/gate/prims.v
$(RTL_GATE_V): $(RTL_SRCS) rtl_model/synth/gate_netlist.sh rtl_model/synth/flow.sh
	rtl_model/synth/gate_netlist.sh $@ $(RTL_SRCS)
$(RTL_GATE_PRIMS): $(YOSYS_DATDIR)/ice40/cells_sim.v rtl_model/module.mk
	@mkdir -p $(@D)
	{ echo '`define SB_DFF_INIT initial Q = 0;'; echo '`define NO_ICE40_DEFAULT_ASSIGNMENTS'; \
	  sed -n '/^`ifndef NO_ICE40_DEFAULT_ASSIGNMENTS/,/^`endif/p' $<; \
	  awk '/^module (SB_LUT4|SB_CARRY|SB_DFF[A-Z]*|SB_RAM40_4K|SB_MAC16) /,/^endmodule/' $<; } >$@
$(eval $(call rtl_build,$(RTL_GATE),-Wno-fatal -Wno-lint -Wno-style,,$(RTL_GATE_V) $(RTL_GATE_PRIMS)))
$(RTL_GATE)/mt_cosim: $(OBJ)/rtl_model/tb/mt_cosim.o $(RTL_GATE)/libmtrtl.a $(MT_A)
	$(CC) $(LDFLAGS) $^ -o $@ $(RTL_LIBS) $(LDLIBS)
$(RTL_GATE)/mt_rtl_tb: $(OBJ)/rtl_model/tb/mt_rtl_tb.o $(RTL_GATE)/libmtrtl.a $(MT_A)
	$(CC) $(LDFLAGS) $^ -o $@ $(RTL_LIBS) $(LDLIBS)

# The minimal build (FullFmt = 0: the seed's unit, the 48-bit and 32-bit formats only and no
# compressor, as `make synth`'s minimal build), co-simulated against the C model without
# compression for the configurations it supports (test_rtl_minimal.sh).  Built as the synthesis
# harness has it, a 4096-byte FIFO with a 4-byte output port (Depth = 4096, Drain = 4: depths up
# to 4096, drains 1..4), so that the FIFO's 4-byte write port and 4 banks and its flags at that
# depth's width (mt_tu_fifo) are what is compared with the model here.
$(eval $(call rtl_build,$(RTL_OUT)/minimal,-GFullFmt=0 -GDepth=4096 -GDrain=4,-DMT_RTL_BUILT_DRAIN=4 -DMT_RTL_BUILT_DEPTH=4096))
$(RTL_OUT)/minimal/mt_cosim: $(OBJ)/rtl_model/tb/mt_cosim.o $(RTL_OUT)/minimal/libmtrtl.a $(MT_A)
	$(CC) $(LDFLAGS) $^ -o $@ $(RTL_LIBS) $(LDLIBS)
$(RTL_OUT)/minimal/mt_rtl_tb: $(OBJ)/rtl_model/tb/mt_rtl_tb.o $(RTL_OUT)/minimal/libmtrtl.a $(MT_A)
	$(CC) $(LDFLAGS) $^ -o $@ $(RTL_LIBS) $(LDLIBS)

ALL_TARGETS += $(RTL_A)

# Testbench and co-simulation tools (C, linked with the model and one RTL build each).
RTL_COSIM   := $(RTL_OUT)/mt_cosim

$(RTL_COSIM): $(OBJ)/rtl_model/tb/mt_cosim.o $(RTL_A) $(MT_A)
	$(CC) $(LDFLAGS) $^ -o $@ $(RTL_LIBS) $(LDLIBS)

RTL_TB      := $(RTL_OUT)/mt_rtl_tb
$(RTL_TB): $(OBJ)/rtl_model/tb/mt_rtl_tb.o $(RTL_A) $(MT_A)
	$(CC) $(LDFLAGS) $^ -o $@ $(RTL_LIBS) $(LDLIBS)
# The same testbench with FST waveforms: mt_rtl_tb_fst VECTOR [EXPECTED] --fst out.fst
$(RTL_OUT)/mt_rtl_tb_fst: $(OBJ)/rtl_model/tb/mt_rtl_tb.o $(RTL_FST_A) $(MT_A)
	$(CC) $(LDFLAGS) $^ -o $@ $(RTL_FST_LIBS) $(LDLIBS)

TEST_DEPS    += $(RTL_COSIM) $(RTL_TB) $(RTL_OUT)/mt_rtl_tb_fst $(RTL_OUT)/ice40/mt_cosim $(RTL_OUT)/ice40/mt_rtl_tb \
                $(RTL_GATE)/mt_cosim $(RTL_GATE)/mt_rtl_tb $(RTL_OUT)/minimal/mt_cosim $(RTL_OUT)/minimal/mt_rtl_tb \
                $(BUILD)/tests/gen_golden   # (test_rtl_minimal.sh: the plain expected output)
TEST_SCRIPTS += rtl_model/tb/test_rtl_lint.sh rtl_model/tb/test_rtl_golden.sh rtl_model/tb/test_rtl_cosim.sh \
                rtl_model/tb/test_rtl_fst.sh rtl_model/tb/test_rtl_ice40.sh rtl_model/tb/test_rtl_gate.sh \
                rtl_model/tb/test_rtl_minimal.sh rtl_model/tb/test_rtl_spatial.sh rtl_model/tb/test_rtl_unit_reduce.sh \
                rtl_model/tb/test_rtl_synth_summary.sh

# The reduce path's filter (mt_tu_reduce, issue 23; not yet inside mt_tu) co-simulated clock for
# clock against lib/mt_unit_reduce.c by rtl_model/tb/mt_reduce_cosim.cpp, Verilated with the
# testbench as its main: a small window (W 16, Q 4: forced keeps and lost accesses all the time)
# and a larger one (W 64, Q 8).  test_rtl_reduce.sh runs both.  As for the other Verilated builds,
# the C++ is compiled without sanitizers under SAN=1 (the link takes them for the model's library).
# $(call rtl_reduce_build,name,LgW,LgQ)
define rtl_reduce_build
$(RTL_OUT)/reduce-$(1)/obj/mt_reduce_cosim: rtl_model/rtl/mt_tu_reduce.sv rtl_model/rtl/mt_tu_spram.sv rtl_model/tb/mt_reduce_cosim.cpp $(MT_A) rtl_model/module.mk
	@mkdir -p $(RTL_OUT)/reduce-$(1)/obj
	$(RTL_ENV) $(VERILATOR) --cc --exe --build -Wall --top-module mt_tu_reduce -GLgW=$(2) -GLgQ=$(3) -O3 \
	  --x-assign 0 --x-initial 0 --no-timing -Mdir $(RTL_OUT)/reduce-$(1)/obj -o mt_reduce_cosim \
	  -CFLAGS "-std=c++17 -O2 -I$(CURDIR)/lib -DCOSIM_LGW=$(2) -DCOSIM_LGQ=$(3)" \
	  -LDFLAGS "$(abspath $(MT_A)) $(LDFLAGS) $(LDLIBS)" $(abspath rtl_model/rtl/mt_tu_reduce.sv) $(abspath rtl_model/rtl/mt_tu_spram.sv) \
	  $(abspath rtl_model/tb/mt_reduce_cosim.cpp) -j 2 -MAKEFLAGS "$(RTL_OPT)" \
	  >$(RTL_OUT)/reduce-$(1)/verilator.log 2>&1 || { cat $(RTL_OUT)/reduce-$(1)/verilator.log; exit 1; }
TEST_DEPS += $(RTL_OUT)/reduce-$(1)/obj/mt_reduce_cosim
endef
$(eval $(call rtl_reduce_build,w16,4,2))
$(eval $(call rtl_reduce_build,w64,6,3))
TEST_SCRIPTS += rtl_model/tb/test_rtl_reduce.sh

# The section count-down (mt_tu_cntdown: two halves with a registered borrow) clock for clock
# against a plain 40-bit count-down (rtl_model/tb/mt_cntdown_tb.cpp, Verilated as its main):
# random sections cross the borrow in a few clocks, so only this test reaches the high half.
$(RTL_OUT)/cntdown/obj/mt_cntdown_tb: rtl_model/rtl/mt_tu_cntdown.sv rtl_model/tb/mt_cntdown_tb.cpp rtl_model/module.mk
	@rm -rf $(RTL_OUT)/cntdown/obj && mkdir -p $(RTL_OUT)/cntdown/obj
	$(RTL_ENV) $(VERILATOR) --cc --exe --build -Wall --top-module mt_tu_cntdown -O3 \
	  --x-assign 0 --x-initial 0 --no-timing -Mdir $(RTL_OUT)/cntdown/obj -o mt_cntdown_tb \
	  -CFLAGS "-std=c++17 -O2" $(abspath rtl_model/rtl/mt_tu_cntdown.sv) \
	  $(abspath rtl_model/tb/mt_cntdown_tb.cpp) -j 2 -MAKEFLAGS "$(RTL_OPT)" \
	  >$(RTL_OUT)/cntdown/verilator.log 2>&1 || { cat $(RTL_OUT)/cntdown/verilator.log; exit 1; }
TEST_DEPS += $(RTL_OUT)/cntdown/obj/mt_cntdown_tb
TEST_SCRIPTS += rtl_model/tb/test_rtl_cntdown.sh

# The RTL's unit tests link the RTL library and the C++ runtime (overrides tests/unit's rule).
$(BUILD)/tests/test_rtl_api: $(OBJ)/tests/unit/test_rtl_api.o $(RTL_A) $(MT_A)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(CMOCKA_LIBS) $(RTL_LIBS) $(LDLIBS)
$(BUILD)/tests/test_rtl_lockstep: $(OBJ)/tests/unit/test_rtl_lockstep.o $(RTL_A) $(MT_A)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(CMOCKA_LIBS) $(RTL_LIBS) $(LDLIBS)

BENCH_STEPS += bench-rtl
.PHONY: bench-rtl
bench-rtl: $(RTL_COSIM)
	@$(RTL_COSIM) --bench 2000000

.PHONY: rtl rtl-fst rtl-lint synth
rtl: $(RTL_A)
rtl-fst: $(RTL_FST_A) $(RTL_OUT)/mt_rtl_tb_fst
rtl-lint:
	$(VERILATOR) --lint-only -Wall --top-module $(RTL_TOP) $(RTL_SRCS)

synth:
	rtl_model/synth/run_synth.sh build/synth $(RTL_SRCS)

# The generated C++ must exist before the shim and the C tools that include mt_rtl.h compile.
$(OBJ)/rtl_model/tb/mt_cosim.o $(OBJ)/rtl_model/tb/mt_rtl_tb.o $(OBJ)/rtl_model/sim/mt_lockstep.o: rtl_model/sim/mt_rtl.h
