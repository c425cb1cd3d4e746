# Golden vectors: gen_golden regenerates the expected files from the C model (make golden);
# tests/unit/test_lib_golden checks the model and the decoder against the checked-in ones.
GEN_GOLDEN := $(BUILD)/tests/gen_golden
GOLDEN_VECS := $(wildcard tests/golden/*.vec)

$(GEN_GOLDEN): $(OBJ)/tests/golden/gen_golden.o $(MT_A)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS)

.PHONY: golden
golden: $(GEN_GOLDEN)
	python3 tests/golden/make_vectors.py tests/golden
	@for v in tests/golden/*.vec; do $(GEN_GOLDEN) $$v $${v%.vec}.exp $${v%.vec}.dec || exit 1; done
	@echo "golden: regenerated $$(ls tests/golden/*.vec | wc -l) vectors; review the diff before committing"
