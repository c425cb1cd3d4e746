/* Synthetic access streams with a known structure, for demos, benchmarks and tests.
 *
 * Patterns (addresses in [base, base + size), `elem`-byte accesses):
 *   seq      a sequential sweep, wrapping at size
 *   random   uniform random elements
 *   stride   base + (i * stride) mod size
 *   mixed    a program-like mix with a drifting working set: a hot window of `ws` bytes whose
 *            start moves by `drift` bytes every `phase` accesses; inside it 60% sequential
 *            streaming (64-byte steps), 30% uniform; 10% uniform over the whole area.
 * Every pattern: a write with probability write_frac; `gap` cycles between accesses on average
 * (uniform in [1, 2*gap - 1]); every `idle_every` accesses an idle stretch of `idle_cycles`.
 * Deterministic for a given seed (xorshift64*). */
#ifndef HOST_GEN_H
#define HOST_GEN_H

#include <stdint.h>

#include "mt_event.h"

typedef enum { GEN_SEQ = 0, GEN_RANDOM, GEN_STRIDE, GEN_MIXED, GEN_COUNT } gen_pattern;

typedef struct {
    gen_pattern pattern;
    uint64_t accesses;
    uint64_t base, size;
    uint64_t elem, stride;
    uint64_t ws, drift, phase;
    double write_frac;
    uint64_t gap;
    uint64_t idle_every, idle_cycles;
    uint64_t seed;
    uint64_t start_cycle;
} gen_params;

typedef struct {
    gen_params p;
    uint64_t i, cycle, rng, stream;
} gen_state;

const char *gen_pattern_name(gen_pattern p);
int gen_parse_pattern(const char *s, gen_pattern *out);
void gen_defaults(gen_params *p);
/* 0 ok, -1 with a reason */
int gen_check(const gen_params *p, const char **why);
void gen_init(gen_state *g, const gen_params *p);
/* 1 with the next access, 0 when all were generated. */
int gen_next(gen_state *g, mt_access *a);

#endif
