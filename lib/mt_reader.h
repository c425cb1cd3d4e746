/* A trace reader for other languages (Python's ctypes, a C program linked against the installed
 * libmetatrace): open a trace (.mtr, .mtp or zstd stream), read its header as "key=value" text,
 * and decode its samples a chunk at a time into the caller's array of fixed-layout records.
 * Plain types only (no library structs cross this interface), so a binding needs no mirror of
 * mt_file_header or mt_dec_event. The samples are the ones `metatrace decode --samples-only`
 * prints, in the same order, with the same address and value. */
#ifndef MT_READER_H
#define MT_READER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One sample, 40 bytes, no padding inside (numpy dtype: see python/metatrace/__init__.py). */
typedef struct {
    uint64_t cycle;   /* sample point (reference-clock cycle) */
    uint64_t address; /* lowest byte address of the part the format reports (56 bits) */
    uint64_t value;   /* as `metatrace decode` prints it: the 48/32-bit word (with its R/W bit),
                       * the line number (line), the address (full) */
    uint64_t skip;    /* intervals without a sample just before this one */
    uint8_t write;    /* 1 = write */
    uint8_t section;  /* 0 = burst, 1 = span */
    uint8_t format;   /* MT_FMT_48, MT_FMT_32, MT_FMT_FULL, MT_FMT_LINE */
    uint8_t reserved[5];
} mt_sample_rec;

/* What a reader has seen so far (after the last sample it returned). */
typedef struct {
    uint64_t samples;       /* samples returned */
    uint64_t writes;        /* of which writes */
    uint64_t markers;       /* MARKER packets */
    uint64_t dropped;       /* samples the trace unit dropped (OVERFLOW packets) */
    uint64_t losses;        /* decoder losses (corrupt or missing bytes; it resynchronised) */
    uint64_t bytes_lost;    /* bytes skipped by those losses */
    uint64_t bad_frames;    /* corrupt zstd frames the container reader skipped */
    uint64_t truncated;     /* 1: the last frame was cut short (writer killed) */
} mt_reader_stats;

typedef struct mt_reader mt_reader;

/* The library's version ("MAJOR.MINOR.PATCH", the VERSION file of the source tree). */
const char *mt_version(void);

/* NULL on failure, with "PATH: problem" in err. */
mt_reader *mt_reader_open(const char *path, char *err, size_t errlen);
/* The header as "key=value\n" lines (container, ref_hz, has_index, frames, index_samples, the
 * trace unit's configuration when the file has one, then the producer's own info lines). Writes
 * at most cap bytes with a terminating NUL; returns the full length (snprintf's convention). */
size_t mt_reader_header(const mt_reader *r, char *buf, size_t cap);
/* Decodes up to cap samples into out. Returns how many (0 at the end of the trace), or -1 on an
 * error (mt_reader_error says what). With strict set, a decoder loss (corrupt or missing bytes) is
 * an error; without, it is counted in the stats and decoding goes on as `metatrace decode` does. */
long mt_reader_next(mt_reader *r, mt_sample_rec *out, size_t cap, int strict);
void mt_reader_get_stats(const mt_reader *r, mt_reader_stats *st);
/* "PATH: problem" after a failed call, "" before one. */
const char *mt_reader_error(const mt_reader *r);
/* Back to the first sample (stats restart). 0 or -1. */
int mt_reader_rewind(mt_reader *r);
void mt_reader_close(mt_reader *r);

#ifdef __cplusplus
}
#endif

#endif
