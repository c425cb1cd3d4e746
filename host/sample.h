/* The host's view of a trace: a stream of records, most of them samples.
 *
 * Every analysis in metatrace consumes an ht_source, a pull-style stream, so that it never
 * needs a whole trace in memory and does not care whether the records come from an .mtr
 * container, a CSV file, an HMTT dump or an in-memory array (the unit tests).  The address of a
 * sample is always a byte address; the bits its format does not carry are zero:
 *   full  - all 56 bits          line - bits 55:6 (64-byte lines, as HMTT records)
 *   48    - bits 55:12 (PPN)      32   - bits 55:30 (PPN[2] only: which gigabyte)
 */
#ifndef HOST_SAMPLE_H
#define HOST_SAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum { HT_FMT_FULL = 0, HT_FMT_LINE = 1, HT_FMT_48 = 2, HT_FMT_32 = 3, HT_FMT_COUNT } ht_format;
typedef enum { HT_SEC_BURST = 0, HT_SEC_SPAN = 1, HT_SEC_COUNT } ht_section;

typedef enum {
    HT_REC_SAMPLE = 0,   /* one sampled access */
    HT_REC_SECTION = 1,  /* a burst or span starts at `cycle` (section, format, rate in value) */
    HT_REC_IDLE = 2,     /* `value` sample intervals had no access */
    HT_REC_OVERFLOW = 3, /* the trace unit's FIFO dropped `value` samples */
    HT_REC_MARKER = 4,   /* firmware marker, payload in `value` */
    HT_REC_LOSS = 5,     /* the decoder detected `value` lost bytes/records (sequence gap) */
    HT_REC_COUNT
} ht_record_kind;

typedef struct {
    uint64_t cycle;   /* reference-clock cycle */
    uint64_t addr;    /* byte address, bits below the format's precision are zero */
    uint64_t value;   /* payload of non-sample records (rate for HT_REC_SECTION) */
    uint8_t kind;     /* ht_record_kind */
    uint8_t write;    /* 1 = write */
    uint8_t format;   /* ht_format */
    uint8_t section;  /* ht_section */
} ht_record;

/* A pull stream of records.  next() returns 1 with a record, 0 at the end, -1 on error with a
 * message in err (naming the input).  rewind() restarts at the first record (0 ok, -1 error);
 * analyses that need two passes (OPT's next-use array) use it. */
typedef struct ht_source ht_source;
struct ht_source {
    int (*next)(ht_source *src, ht_record *rec);
    int (*rewind)(ht_source *src);
    void (*close)(ht_source *src); /* frees the source itself */
    /* Optional (may be NULL): prints the container's header/configuration, one item a line. */
    void (*describe)(ht_source *src, FILE *out);
    /* Optional (may be NULL): a hint that only records with cycles in [from, to] are wanted, so
     * the source may skip what lies outside (an .mtr seeks through its index).  Records outside
     * may still come: the caller filters.  Applies to rewind() too.  1: the source skips by
     * index, 0: it cannot (it will be scanned), -1: error (err). */
    int (*restrict_cycles)(ht_source *src, uint64_t from, uint64_t to);
    /* Optional (may be NULL): the container header's key=value info text ("" if none); the
     * trace mode and its parameters live there (host/tracemode.h). */
    const char *(*header_info)(ht_source *src);
    /* Optional (may be NULL): the container trailer's key=value info text ("" if none): what the
     * producer knew only at the end (a trace mode's access counts, docs/trace-format.md 4.1).
     * It describes the whole file: a filtered view (a region of interest) does not pass it on. */
    const char *(*trailer_info)(ht_source *src);
    void *state;
    char name[256];
    char err[512];
};

/* Inputs found damaged while being read (a trace whose writer was killed: frames cut short or
 * never written, corrupt frames skipped).  The reader says what is missing on stderr as it
 * finds it and counts it here; metatrace then exits 1 after the command's output, as gzip does
 * for a truncated file, so that a salvaged result never passes for a complete one. */
void ht_note_damaged_input(void);
unsigned ht_damaged_inputs(void);

static inline int ht_next(ht_source *s, ht_record *r) { return s->next(s, r); }
static inline int ht_rewind(ht_source *s) { return s->rewind(s); }
void ht_close(ht_source *s);

/* Pull the next *sample*, skipping other records; same return convention as next(). */
int ht_next_sample(ht_source *s, ht_record *r);

/* Masks an address down to the precision of a format. */
uint64_t ht_addr_for_format(uint64_t addr, ht_format fmt);

/* The seed's compressed words (section 3.2): 48-bit = R/W at bit 47, PPN[2:0] at 43:0;
 * 32-bit = R/W at bit 31, PPN[2] at 25:0. */
uint64_t ht_encode48(uint64_t addr, int write);
uint64_t ht_decode48_addr(uint64_t word);
uint32_t ht_encode32(uint64_t addr, int write);
uint64_t ht_decode32_addr(uint32_t word);
/* The raw value a format stores for a sample (48/32-bit word, line number, or full address). */
uint64_t ht_format_value(const ht_record *r);

const char *ht_format_name(ht_format f);    /* "full", "line", "48", "32" */
const char *ht_section_name(ht_section s);  /* "burst", "span" */
const char *ht_record_kind_name(ht_record_kind k);
int ht_parse_format(const char *s, ht_format *out);

/* An in-memory array source (tests, small generated traces).  The array is borrowed. */
ht_source *ht_array_source(const ht_record *recs, size_t n, const char *name);

/* Builds sample records: an every-access full-address sample. */
ht_record ht_full_sample(uint64_t cycle, uint64_t addr, int write);

#endif
