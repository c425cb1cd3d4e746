/* How far a sampled or reconstructed trace (OTHER) is from ground truth (TRUTH).
 *
 *  policy     every (policy, metapage size, budget) evaluated on both; OTHER's faults are scaled
 *             by truth samples / other samples (a trace sampled every r-th access sees about
 *             1/r of the faults); relative error = (scaled - truth) / truth.
 *  agreement  whether both recommend the same configuration (and the same metapage size).
 *  pages      the distribution of accesses over pages of `page_size` bytes in each trace:
 *             total variation distance (1/2 sum |p - q|, 0 = identical, 1 = disjoint),
 *             Jensen-Shannon divergence (bits, 0..1), Jaccard index of the touched page sets.
 *  aligned    each OTHER sample against TRUTH's first sample at or after its cycle (what the
 *             trace unit would have sampled there): the fraction naming the same 4 KiB page,
 *             the same 2 MiB region and the same gigabyte, for bursts and spans separately. */
#ifndef HOST_COMPARE_H
#define HOST_COMPARE_H

#include <stdint.h>
#include <stdio.h>

#include "host/policy.h"
#include "host/policy_report.h"

typedef struct {
    policy_config policy;
    uint64_t page_size;
} compare_config;

typedef struct {
    uint64_t n, same_page, same_2m, same_gb;
} aligned_counts;

typedef struct {
    policy_result truth, other;
    double scale;                 /* truth samples / other samples */
    double tvd, jsd, jaccard;
    uint64_t truth_pages, other_pages, common_pages;
    aligned_counts aligned[2];    /* by OTHER's section: burst, span */
    int truth_online;             /* TRUTH was mtemu's online counts: no samples, so no page
                                     distributions and no alignment */
} compare_result;

int compare_run(ht_source *truth, ht_source *other, const compare_config *cfg, compare_result *r,
                char *err, size_t errlen);
/* TRUTH = rows already counted (mtemu's online results, host/onlinetruth.h): only the policy
 * part is compared. */
int compare_run_online(const policy_result *truth, ht_source *other, const compare_config *cfg,
                       compare_result *r, char *err, size_t errlen);
void compare_report(FILE *f, report_format fmt, const char *truth_name, const char *other_name,
                    const compare_config *cfg, const compare_result *r);
void compare_result_free(compare_result *r);

#endif
