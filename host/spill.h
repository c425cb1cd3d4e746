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
/* The same with exactly n entries (contents unspecified) and a file of exactly n x 8 bytes. */
int spill_init_size(spill_vec *s, const char *dir, size_t n);
int spill_push(spill_vec *s, uint64_t x);  /* 0 ok, -1 (disk full, ...) */
int spill_append(spill_vec *s, const uint64_t *x, size_t n); /* the same for n entries */
int spill_shrink(spill_vec *s); /* the file to exactly its n entries (the growth's slack goes) */
/* Entries [from, to) are done with for now: their pages leave the process's memory (a shared
 * file mapping: the file keeps them, a later read pages them in again).  Long scans call this
 * behind them, so resident memory stays small however long the array. */
void spill_release(const spill_vec *s, size_t from, size_t to);
void spill_free(spill_vec *s);
/* A temporary file of 32-bit entries read and written in pieces with pread/pwrite rather than
 * mapped: long scans of OPT's run and next-use files then cost a copy from the page cache per
 * piece instead of a page fault (and, when written, a zeroed page) per 4 KiB. */
typedef struct {
    int fd;
    size_t n; /* entries the file holds */
} spill_file;

/* An unlinked temporary file in dir ($TMPDIR or /tmp when NULL) of n entries, its space reserved
 * (contents unspecified until written).  0 ok, -1 error. */
int spill_file_init(spill_file *f, const char *dir, size_t n);
/* Entries [at, at + n) from x: the file grows when they go past its end.  0 ok, -1 (disk full...) */
int spill_file_write(spill_file *f, size_t at, const uint32_t *x, size_t n);
/* Entries [at, at + n) into x (all of them inside the file).  0 ok, -1 error. */
int spill_file_read(const spill_file *f, size_t at, uint32_t *x, size_t n);
void spill_file_free(spill_file *f);

/* How many spill_vecs and spill_files were alive at once at most, and their file bytes at most, since the last
 * reset (the bounds callers such as host/policy_opt.c promise; tests check them).  Callers may
 * create and free arrays from several threads. */
size_t spill_peak_live(void);
size_t spill_peak_bytes(void);
void spill_reset_peak(void);

#endif
