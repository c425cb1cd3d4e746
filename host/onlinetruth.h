/* The meta-pager's online counts as ground truth for `metatrace compare`.
 *
 * `mtemu --metapage-sim SPEC --stats-json F` evaluates every configuration of SPEC exactly, from
 * every guest access of the run (docs/metapaging.md), without writing an every-access trace: for
 * a 100 s run the trace would be tens of GB, the JSON is a few KB.  This reads F's "online" list
 * into policy rows (LRU, FIFO and CLOCK; RANDOM has no counterpart in `metatrace policy` and is
 * left out), keeping those of the configuration asked for (sizes, budgets, policies), and the
 * run's guest access count ("run": {"accesses": N}), which plays the part of an every-access
 * trace's sample count when OTHER's counts are scaled. */
#ifndef HOST_ONLINETRUTH_H
#define HOST_ONLINETRUTH_H

#include <stddef.h>
#include <stdint.h>

#include "host/policy.h"

/* 1 when the file looks like mtemu's --stats-json (its first non-blank byte is '{'), else 0. */
int online_truth_is_json(const char *path);

/* The guest RAM the online counts cover ("ram_base", "ram_bytes" of F): the meta-pager sees only
 * RAM, so an every-access trace compared with them is read over this range.  bytes is 0 when F
 * does not give it (an older mtemu's file). */
typedef struct {
    uint64_t base, bytes;
} online_truth_ram;

/* Fills `out` (rows ranked with policy_rank; samples = the run's accesses) and, when `ram` is not
 * NULL, the RAM range.  0, or -1 with a message naming the file and the problem (not mtemu's JSON,
 * no "online" list, no row of the configuration asked for, no "run" access count). */
int online_truth_load(const char *path, const policy_config *cfg, policy_result *out,
                      online_truth_ram *ram, char *err, size_t errlen);

#endif
