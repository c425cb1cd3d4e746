/* metatrace policy's engine: every (metapage size, budget, policy) over one trace.
 *
 * Pass 1 reads the trace once and feeds, per metapage size, one LRU stack simulation (all
 * budgets) and one FIFO and one CLOCK simulation per budget.  When OPT is asked for, n + 1 more
 * passes (host/policy_opt.h) run one OPT stack simulation per size, with at most two next-use
 * arrays (8 bytes per access each) in temporary files at a time.
 * Samples in the 32-bit format (which name only a gigabyte) cannot place an access in a metapage
 * and are skipped and counted; reconstruct first to use them.
 *
 * Cost model, per configuration (seconds of storage time):
 *   cost = faults * lat_in + bytes_in / bw_in + writebacks * lat_out + bytes_out / bw_out
 * Defaults model a PCIe 3.0 x4 NVMe SSD at queue depth 1: 80 us read latency, 20 us write latency
 * (writes land in the drive's cache), 3.0 GB/s read, 2.0 GB/s write. */
#ifndef HOST_POLICY_H
#define HOST_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "host/paging.h"
#include "host/sample.h"

#define POLICY_MAX_SIZES 32
#define POLICY_MAX_BUDGETS 32
/* A size-masked trace's mask lives in the address's in-page bits (docs/trace-format.md 4.1). */
#define POLICY_MASK_BITS 12

typedef struct {
    double lat_in, lat_out; /* seconds per fault / per write-back */
    double bw_in, bw_out;   /* bytes per second */
} cost_model;

typedef struct {
    uint64_t sizes[POLICY_MAX_SIZES];     /* metapage bytes, multiples of 4 KiB */
    int nsizes;
    uint64_t budgets[POLICY_MAX_BUDGETS]; /* resident memory budgets, bytes */
    int nbudgets;
    uint64_t primary_budget;              /* the budget the recommendation is for */
    int enabled[PG_COUNT];
    cost_model cost;
    const char *tmpdir;                   /* where OPT's next-use arrays spill */
} policy_config;

typedef struct {
    pg_policy policy;
    uint64_t size, budget;
    uint32_t resident;    /* budget / size */
    pg_counts c;
    double cost;          /* seconds */
    int rank;             /* 1 = cheapest within its budget */
    int fidelity;         /* ROW_AS_SAMPLED, ROW_EXACT, ROW_APPROX or ROW_ESTIMATE (host/tracemode.h) */
    double err_rel;       /* ROW_ESTIMATE: half-width of a ~95% interval, relative to the faults
                             (host/tracemode.c says how it is had); < 0: none can be given */
} policy_row;

enum { ROW_AS_SAMPLED = 0, ROW_EXACT = 1, ROW_APPROX = 2, ROW_ESTIMATE = 3 };

typedef struct {
    policy_row *rows;
    size_t n;
    uint64_t samples;      /* samples used */
    uint64_t skipped32;    /* 32-bit samples skipped */
    int recommended;       /* index into rows of the recommendation (-1 none) */
    int opt_bound;         /* index of OPT at the recommended size and budget (-1 none) */
    const char *mode;      /* the trace's mode when rows carry a fidelity label, else NULL */
    /* Work per size (cfg order), set by policy_run (has_stats): the runs its simulations saw,
     * and the CPU seconds of its LRU/FIFO/CLOCK simulations and of its OPT (next-use scan and
     * stack).  Timings vary from run to run: `policy --stats` prints them on stderr only. */
    int has_stats;
    uint64_t runs[POLICY_MAX_SIZES];
    double sim_cpu_s[POLICY_MAX_SIZES], opt_cpu_s[POLICY_MAX_SIZES];
    /* The pass over the trace: CPU seconds of the thread reading it (decoding, the run streams,
     * OPT's run file; the simulations run beside it on two more) and its wall seconds; the wall
     * seconds of OPT's passes after it.  What bounds the time on two idle cores. */
    double read_cpu_s, read_wall_s, opt_wall_s;
} policy_result;

void policy_defaults(policy_config *c);
double cost_of(const cost_model *m, const pg_counts *c, uint64_t size);

/* One-pass engine.  0 ok, -1 error (message naming the input in err). */
int policy_run(ht_source *src, const policy_config *cfg, policy_result *out, char *err,
               size_t errlen);
/* The same for a size-masked trace (a reduce trace): size s sees only the samples whose address
 * has bit mask_bit[s] (< POLICY_MASK_BITS) set, at their page (the in-page bits cleared), as if
 * policy_run ran once per size on that size's samples -- the same rows, each counting its own
 * size's samples as accesses; out->samples is the largest size's count -- with one read of the
 * trace for every size.  0 ok, -1 error (err). */
int policy_run_masked(ht_source *src, const policy_config *cfg, const unsigned *mask_bit,
                      policy_result *out, char *err, size_t errlen);
/* The most budgets one size takes in policy_run_selected (a spatial trace asks each size for
 * up to six capacities per budget: host/tracemode.c). */
#define POLICY_SIZE_MAX_BUDGETS (6 * POLICY_MAX_BUDGETS)
/* One size of a size-masked trace in policy_run_selected: its mask bit and its own budgets. */
typedef struct {
    unsigned mask_bit;       /* < POLICY_MASK_BITS */
    const uint64_t *budgets; /* bytes, 1 .. POLICY_SIZE_MAX_BUDGETS of them */
    int nbudgets;
} policy_size_sel;
/* Of a record's mask (the bits of the sizes asked for that it has), the bits of the sizes that
 * keep it; `page` is its 4 KiB page (the address without its in-page bits). */
typedef unsigned (*policy_mask_filter)(void *ctx, uint64_t page, unsigned mask);
/* policy_run_masked with, per size, its own budgets (sel[s] for cfg->sizes[s]; cfg's budgets
 * are not used) and, when filter is not NULL, only the records filter keeps for that size: the
 * rows of policy_run on each size's kept records at that size's budgets, in cfg's size order,
 * with one read of the trace for every size.  What a spatial trace needs: per size, a sample of
 * its metapages at the size's own rate and capacities (host/tracemode.c).  0 ok, -1 (err). */
int policy_run_selected(ht_source *src, const policy_config *cfg, const policy_size_sel *sel,
                        policy_mask_filter filter, void *filter_ctx, policy_result *out, char *err,
                        size_t errlen);
/* The baseline: one direct simulation (one pass over the trace) per configuration.  Same
 * results (tests check it), only slower. */
int policy_run_baseline(ht_source *src, const policy_config *cfg, policy_result *out, char *err,
                        size_t errlen);
void policy_result_free(policy_result *r);
/* CPU seconds of the calling thread (for the --stats timings). */
double thread_cpu_s(void);

/* Ranks rows within each budget and picks the recommendation: the cheapest configuration at the
 * primary budget among the policies an emulator can implement (LRU, FIFO, CLOCK; OPT needs the
 * future and only bounds what is possible). */
void policy_rank(policy_result *r, const policy_config *cfg);

/* Page number of a sample for a metapage size, or -1 when the sample's format cannot say. */
int policy_page_of(const ht_record *r, uint64_t size, uint64_t *page);

#endif
