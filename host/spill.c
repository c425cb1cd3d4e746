#include "host/spill.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t live, peak_live;

size_t spill_peak_live(void)
{
    return peak_live;
}

void spill_reset_peak(void)
{
    peak_live = live;
}

int spill_init(spill_vec *s, const char *dir)
{
    char path[4096];
    if (!dir)
        dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/metatrace-spill-XXXXXX", dir && *dir ? dir : "/tmp");
    s->fd = mkstemp(path);
    if (s->fd < 0)
        return -1;
    unlink(path); /* gone when closed, even if we are killed */
    s->cap = 1 << 16;
    s->n = 0;
    if (posix_fallocate(s->fd, 0, (off_t)(s->cap * sizeof *s->v)) != 0) {
        close(s->fd);
        return -1;
    }
    s->v = mmap(NULL, s->cap * sizeof *s->v, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
    if (s->v == MAP_FAILED) {
        close(s->fd);
        s->v = NULL;
        return -1;
    }
    if (++live > peak_live)
        peak_live = live;
    return 0;
}

int spill_push(spill_vec *s, uint64_t x)
{
    if (s->n == s->cap) {
        size_t cap = s->cap * 2;
        if (posix_fallocate(s->fd, 0, (off_t)(cap * sizeof *s->v)) != 0) /* space reserved: no SIGBUS later */
            return -1;
        void *p = mremap(s->v, s->cap * sizeof *s->v, cap * sizeof *s->v, MREMAP_MAYMOVE);
        if (p == MAP_FAILED)
            return -1;
        s->v = p;
        s->cap = cap;
    }
    s->v[s->n++] = x;
    return 0;
}

void spill_free(spill_vec *s)
{
    if (s->v) {
        munmap(s->v, s->cap * sizeof *s->v);
        live--;
    }
    if (s->fd >= 0)
        close(s->fd);
    s->v = NULL;
    s->fd = -1;
    s->n = s->cap = 0;
}
