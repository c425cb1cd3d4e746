/* A growable u64 array backed by an unlinked temporary file through mmap: it can be far larger
 * than RAM (the kernel pages it out), which is how OPT's next-use array (8 bytes per access per
 * metapage size) stays out of the process's resident memory. */
#ifndef HOST_SPILL_H
#define HOST_SPILL_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t *v;
    size_t n, cap;
    int fd;
} spill_vec;

/* dir: where the temporary file lives ($TMPDIR or /tmp when NULL).  0 ok, -1 error. */
int spill_init(spill_vec *s, const char *dir);
int spill_push(spill_vec *s, uint64_t x);  /* 0 ok, -1 (disk full, ...) */
void spill_free(spill_vec *s);
/* How many spill_vecs were alive at once at most since the last reset (the bound callers such
 * as host/policy_opt.c promise; tests check it).  Not thread-safe. */
size_t spill_peak_live(void);
void spill_reset_peak(void);

#endif
