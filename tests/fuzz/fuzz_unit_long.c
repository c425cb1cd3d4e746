/* libFuzzer target: fuzz_unit_modes without the 1 KB stream budget (OUT_BUDGET in fuzz_unit.c),
 * for the states only a long busy session reaches: a SYNC starved for 16 KB of SECTIONs (its byte
 * count saturated), the emulator's batched output handing its stage over, an OVERFLOW for 128
 * drops or more, the decoder's SYNC check on such a stream (docs/robustness.md, seventh session).
 * fuzz_unit and fuzz_unit_modes cut an input where its stream passes the budget, which keeps
 * their rate at 10k execs per CPU second on corpora that found busy sessions; this target runs
 * such inputs whole, a few hundred to a few thousand a second: the rate a busy session allows. */
#define FUZZ_UNIT_MODES 1
#define OUT_BUDGET ((size_t)1 << 40) /* no input's stream comes near: never cut */
#include "fuzz_unit.c"
