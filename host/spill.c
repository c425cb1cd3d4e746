#include "host/spill.h"

#include "mt_fullio.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Live arrays and their file bytes, and the peaks of both: OPT's workers allocate from two
 * threads, hence the lock (taken only when an array is created, grown or freed). */
static pthread_mutex_t peak_lock = PTHREAD_MUTEX_INITIALIZER;
static size_t live, peak_live, bytes, peak_bytes;

static void account(int arrays, size_t add, size_t sub)
{
    pthread_mutex_lock(&peak_lock);
    live += (size_t)arrays;
    bytes += add;
    bytes -= sub;
    if (live > peak_live)
        peak_live = live;
    if (bytes > peak_bytes)
        peak_bytes = bytes;
    pthread_mutex_unlock(&peak_lock);
}

size_t spill_peak_live(void)
{
    pthread_mutex_lock(&peak_lock);
    size_t p = peak_live;
    pthread_mutex_unlock(&peak_lock);
    return p;
}

size_t spill_peak_bytes(void)
{
    pthread_mutex_lock(&peak_lock);
    size_t p = peak_bytes;
    pthread_mutex_unlock(&peak_lock);
    return p;
}

void spill_reset_peak(void)
{
    pthread_mutex_lock(&peak_lock);
    peak_live = live;
    peak_bytes = bytes;
    pthread_mutex_unlock(&peak_lock);
}

/* A temporary file of cap entries, mapped. */
static int open_sized(spill_vec *s, const char *dir, size_t cap)
{
    char path[4096];
    if (!dir)
        dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/metatrace-spill-XXXXXX", dir && *dir ? dir : "/tmp");
    s->fd = mkstemp(path);
    s->v = NULL;
    if (s->fd < 0)
        return -1;
    unlink(path); /* gone when closed, even if we are killed */
    s->cap = cap ? cap : 1;
    s->n = 0;
    if (posix_fallocate(s->fd, 0, (off_t)(s->cap * sizeof *s->v)) != 0) {
        close(s->fd);
        s->fd = -1;
        return -1;
    }
    s->v = mmap(NULL, s->cap * sizeof *s->v, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
    if (s->v == MAP_FAILED) {
        close(s->fd);
        s->fd = -1;
        s->v = NULL;
        return -1;
    }
    account(1, s->cap * sizeof *s->v, 0);
    return 0;
}

int spill_init(spill_vec *s, const char *dir)
{
    return open_sized(s, dir, 1 << 16);
}

int spill_init_size(spill_vec *s, const char *dir, size_t n)
{
    if (open_sized(s, dir, n) != 0)
        return -1;
    s->n = n;
    return 0;
}

/* Capacity to exactly cap entries (the file grows first: space reserved, no SIGBUS later). */
static int set_cap(spill_vec *s, size_t cap)
{
    if (cap > s->cap && posix_fallocate(s->fd, 0, (off_t)(cap * sizeof *s->v)) != 0)
        return -1;
    void *p = mremap(s->v, s->cap * sizeof *s->v, cap * sizeof *s->v, MREMAP_MAYMOVE);
    if (p == MAP_FAILED)
        return -1;
    if (cap < s->cap && ftruncate(s->fd, (off_t)(cap * sizeof *s->v)) != 0)
        return -1;
    account(0, cap * sizeof *s->v, s->cap * sizeof *s->v);
    s->v = p;
    s->cap = cap;
    return 0;
}

int spill_push(spill_vec *s, uint64_t x)
{
    if (s->n == s->cap && set_cap(s, s->cap * 2) != 0)
        return -1;
    s->v[s->n++] = x;
    return 0;
}

int spill_append(spill_vec *s, const uint64_t *x, size_t n)
{
    if (s->n + n > s->cap) {
        size_t cap = s->cap;
        while (cap < s->n + n)
            cap *= 2;
        if (set_cap(s, cap) != 0)
            return -1;
    }
    memcpy(s->v + s->n, x, n * sizeof *x);
    s->n += n;
    return 0;
}

int spill_shrink(spill_vec *s)
{
    return set_cap(s, s->n ? s->n : 1);
}

void spill_release(const spill_vec *s, size_t from, size_t to)
{
    /* whole pages inside [from, to): the file keeps the data, the process drops the mapping */
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = ((uintptr_t)(s->v + from) + page - 1) / page * page;
    uintptr_t hi = (uintptr_t)(s->v + to) / page * page;
    if (to > from && hi > lo)
        madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

void spill_free(spill_vec *s)
{
    if (s->v) {
        munmap(s->v, s->cap * sizeof *s->v);
        account(-1, 0, s->cap * sizeof *s->v);
    }
    if (s->fd >= 0)
        close(s->fd);
    s->v = NULL;
    s->fd = -1;
    s->n = s->cap = 0;
}

int spill_file_init(spill_file *f, const char *dir, size_t n)
{
    char path[4096];
    if (!dir)
        dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/metatrace-spill-XXXXXX", dir && *dir ? dir : "/tmp");
    f->fd = mkstemp(path);
    f->n = 0;
    if (f->fd < 0)
        return -1;
    unlink(path); /* gone when closed, even if we are killed */
    if (n && posix_fallocate(f->fd, 0, (off_t)(n * sizeof(uint32_t))) != 0) {
        close(f->fd);
        f->fd = -1;
        return -1;
    }
    f->n = n;
    account(1, n * sizeof(uint32_t), 0);
    return 0;
}

int spill_file_write(spill_file *f, size_t at, const uint32_t *x, size_t n)
{
    if (mt_pwrite_full(f->fd, x, n * sizeof *x, (uint64_t)at * sizeof *x) < 0)
        return -1;
    if (at + n > f->n) {
        account(0, (at + n - f->n) * sizeof *x, 0);
        f->n = at + n;
    }
    return 0;
}

int spill_file_read(const spill_file *f, size_t at, uint32_t *x, size_t n)
{
    if (at + n > f->n)
        return -1;
    size_t want = n * sizeof *x;
    if (mt_pread_full(f->fd, x, want, (uint64_t)at * sizeof *x) != (ssize_t)want)
        return -1;
    return 0;
}

void spill_file_free(spill_file *f)
{
    if (f->fd >= 0) {
        close(f->fd);
        account(-1, 0, f->n * sizeof(uint32_t));
    }
    f->fd = -1;
    f->n = 0;
}
