# End-to-end tests of tracing in mtemu (emu/tracedev, emu/tracectl) and RowScope, reproduced.
#   make rowscope   the full RowScope sweep -> build/results/rowscope.csv and rowscope.png

# mtemu links the RTL for --trace-unit=rtl|both (see emu/module.mk).
$(BIN)/mtemu: $(RTL_A) $(MT_A)
