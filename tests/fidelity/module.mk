# Trace fidelity (issue 22): `make fidelity` runs every firmware workload and the Linux workload
# (build/linux/Image, mt.script=worksets.sh mt.scale=$(FIDELITY_LINUX_SCALE), about 100 emulated
# seconds at 35) against the online truth (OPT: the exact reduce trace) and writes the tables into
# docs/results.md.  Many hours of host CPU (docs/results.md gives the estimate from a
# --linux-scale 1 run); a stopped run's measurements stay in $(BUILD)/fidelity and still give
# tables: tests/fidelity/fidelity.sh --tables-from build/fidelity --doc docs/results.md, or go on
# where it stopped: tests/fidelity/fidelity.sh --resume build/fidelity --doc docs/results.md (the
# runs and analyses it finished are reused).  `make test` runs the short
# variant (tests/fidelity/short.sh, seconds).
FIDELITY_LINUX_SCALE ?= 35
.PHONY: fidelity
fidelity: $(BIN)/mtemu $(BIN)/metatrace $(FW_ELFS)
	BUILD=$(BUILD) BIN=$(BIN) FWBUILD=$(FWBUILD) nice tests/fidelity/fidelity.sh \
	    --linux-scale $(FIDELITY_LINUX_SCALE) --keep $(BUILD)/fidelity --doc docs/results.md

TEST_SCRIPTS += tests/fidelity/short.sh
