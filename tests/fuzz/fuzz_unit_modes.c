/* libFuzzer target: fuzz_unit's harness and checks with the unit's SPATIAL and REDUCE registers
 * among the writes it makes (docs/trace-unit.md section 1), so a session may run either front
 * end: lazy against per-cycle clocking, the decoder's verdict, and the schedule's copy against
 * every access (a front end hears every access: the copy must step aside). */
#define FUZZ_UNIT_MODES 1
#include "fuzz_unit.c"
