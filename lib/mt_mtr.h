/* The .mtr container (docs/trace-format.md section 4): a zstd skippable frame with the header,
 * zstd frames of the packet stream each starting at a SYNC, a skippable frame with the index,
 * and a skippable footer that locates the index. `zstd -d file.mtr` prints the raw stream.
 * The reader also accepts raw packet streams (.mtp) and plain zstd-compressed streams. */
#ifndef MT_MTR_H
#define MT_MTR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "mt_swenc.h"
#include "mt_unit.h"

#define MT_MTR_MAGIC_HDR  0x184D2A50u
#define MT_MTR_MAGIC_IDX  0x184D2A51u
#define MT_MTR_MAGIC_FOOT 0x184D2A52u
#define MT_MTR_MAGIC_TRL  0x184D2A53u /* trailer: what a producer knows only at the end */
#define MT_MTR_TRAILER_MAX 1024
#define MT_MTR_INFO_MAX   8192
#define MT_MTR_FRAME_MAX  ((uint64_t)256 << 20) /* largest data frame a reader accepts (bytes of stream) */

typedef struct {
    uint64_t ref_hz;
    int has_unit_cfg; /* cfg/fifo_* describe the trace unit that produced the stream */
    mt_unit_cfg cfg;
    uint32_t fifo_depth, fifo_drain;
    char info[MT_MTR_INFO_MAX]; /* "key=value" lines: producer, memory map, command line... */
    /* filled in by the reader */
    int raw;        /* 1: .mtp, 2: plain zstd stream, 0: .mtr */
    int has_index;  /* 1: the index is usable (seeks use it) */
    int header_checked; /* 1: the header's checksum matched; 0: an older file without one */
    int index_state;    /* MT_INDEX_* */
    char index_note[200]; /* MT_INDEX_BAD: why it was set aside */
    /* The trailer's info text ("key=value" lines the producer knew only at the end, e.g. the
     * accesses a trace mode's filter saw; docs/trace-format.md section 4), "" when the file has
     * none or no usable index (the trailer is found through it), or its checksum fails. */
    char trailer[MT_MTR_TRAILER_MAX];
} mt_file_header;

/* What the reader made of the index (mt_file_header.index_state). */
enum {
    MT_INDEX_NONE = 0,  /* no footer: the writer did not finish (or a raw stream) */
    MT_INDEX_CHECKED,   /* checksum matched and every entry agrees with the frame it points at */
    MT_INDEX_UNCHECKED, /* an older file without checksums: entries agree with their frames */
    MT_INDEX_BAD,       /* damaged (index_note says how): set aside, the frames are read in order */
};

typedef struct {
    uint64_t file_offset, comp_size;   /* the zstd frame in the file */
    uint64_t stream_offset, stream_bytes;
    uint64_t first_cycle, last_cycle;  /* first SYNC's cycle, last sample's sample point */
    uint64_t samples;
} mt_frame_index;

typedef struct {
    const char *producer;     /* e.g. "mtemu 1.0 --trace-unit=model" */
    const char *info;         /* extra key=value lines (may be NULL) */
    uint64_t ref_hz;          /* 0: 1e9 */
    uint32_t sync_period;     /* for the sample API; 0: 4096 */
    int level;                /* zstd level; 0: 3 */
    size_t frame_bytes;       /* uncompressed bytes per frame before cutting at a SYNC; 0: 1 MiB */
    const mt_unit_cfg *unit_cfg; /* NULL unless the stream comes from the trace unit */
    uint32_t fifo_depth, fifo_drain;
    int tail_ms;              /* bounded loss on kill: the stream up to its last SYNC reaches the
                               * file at least this often (host time); 0: 1000, < 0: never */
} mt_writer_config;

typedef struct mt_writer mt_writer;

mt_writer *mt_writer_create(const char *path, const mt_writer_config *cfg, char *err, size_t errlen);
/* Raw packet bytes (the trace unit's output), in order, in pieces of any size. */
int mt_writer_raw(mt_writer *w, const uint8_t *p, size_t n);
/* Explicit samples through an mt_swenc (do not mix with mt_writer_raw in one file). */
int mt_writer_section(mt_writer *w, unsigned span, unsigned fmt, uint32_t rate, uint64_t cycle);
int mt_writer_sample(mt_writer *w, uint64_t cycle, uint64_t addr, unsigned rw);
/* mt_writer_sample for n samples in order (mt_swenc_samples: the same bytes as n calls). */
int mt_writer_samples(mt_writer *w, const mt_access_rec *r, size_t n);
/* The runs stream (mt_swenc_runs; before the first section): the header's info must name it
 * (trace.mode=every-access-runs, trace.runs_format=1, trace.all_sync_period=P: mt_runs.h), so
 * that readers rebuild the records stream it stands for. */
void mt_writer_runs(mt_writer *w);
int mt_writer_marker(mt_writer *w, uint32_t value);
int mt_writer_overflow(mt_writer *w, uint32_t dropped);
/* Ends the session (sample API), writes the last frame, the index and the footer; frees w.
 * Returns 0, or -1 after any error (then the partial file is removed). */
int mt_writer_close(mt_writer *w); /* (prints the error on stderr) */
/* mt_writer_close with the error ("PATH: write failed: ...") in err instead of on stderr. The
 * file is written as PATH.partial and renamed to PATH here, on success only. */
int mt_writer_finish(mt_writer *w, char *err, size_t errlen);
void mt_writer_abort(mt_writer *w); /* removes the partial file; frees w */
const char *mt_writer_error(const mt_writer *w);
/* Bytes of finished frames in the file so far (header and compressed frames; not the tail or
 * the stream not yet in a frame): what a progress line shows of the trace's size. */
uint64_t mt_writer_file_bytes(const mt_writer *w);
/* Info text for the trailer (docs/trace-format.md section 4), written by mt_writer_finish between
 * the last data frame and the index; at most MT_MTR_TRAILER_MAX - 1 bytes (longer: -1). The last
 * call before finishing wins. */
int mt_writer_trailer(mt_writer *w, const char *info);
/* A sink for mt_unit (ctx = the writer). */
void mt_writer_sink(void *ctx, const uint8_t *p, size_t n);
/* The producer's knowledge for the index (an mt_unit_mark_fn, ctx = the writer): give it every
 * SYNC as it is emitted (mt_unit_on_sync) and, before mt_writer_close, the end of the stream
 * (mt_unit_mark_now after mt_unit_stop). A frame with a mark at both ends (its SYNC and the next
 * frame's SYNC or the end) takes its index entry from the marks instead of decoding the frame:
 * the same entry, far cheaper (the decoder expands every RUN). Frames without marks at both ends
 * are decoded as before. Marks must come in stream order, one per offset, before or after their
 * bytes, but before the frame they end is cut (a SYNC mark is emitted with its packet). */
void mt_writer_mark(void *ctx, const mt_unit_mark *m);
/* A killed writer loses at most frame_bytes of stream (frames are written whole) or tail_ms of
 * host time, whichever is less: when tail_ms has passed since the last frame, the stream up to
 * its last SYNC is written as a *tail* frame where the next frame will go. The next frame (or the
 * index) replaces it, so the finished file is the same bytes with or without tails (frame
 * boundaries never depend on host time); a killed writer's file ends with its last tail, which
 * readers take as an ordinary last frame. mt_writer_raw checks the time; a producer that may be
 * silent for long calls mt_writer_poll now and then (cheap: one clock read). */
void mt_writer_poll(mt_writer *w);
uint64_t mt_writer_tails(const mt_writer *w); /* tails written so far (tests) */
/* Frames indexed from marks so far (tests). */
uint64_t mt_writer_marked_frames(const mt_writer *w);

typedef struct mt_file mt_file;

mt_file *mt_file_open(const char *path, char *err, size_t errlen);
const mt_file_header *mt_file_header_get(const mt_file *f);
/* Next decompressed bytes of the packet stream: >0 bytes, 0 at the end, -1 on an I/O error.
 * A corrupt frame is skipped and counted; a truncated last frame ends the stream. */
ssize_t mt_file_read(mt_file *f, uint8_t *buf, size_t cap);
int mt_file_rewind(mt_file *f);
/* Random access through the index: positions the reader at a frame boundary (frames begin at a
 * SYNC, so a fresh mt_dec can start there) such that everything the stream holds at or after
 * `cycle` is still ahead, skipping (without decompressing) whole frames that end before it.
 * A few records before `cycle` may follow: filter them. Returns 1 when positioned through the
 * index, 0 when the file has none (.mtp, plain zstd, or a killed writer): then it is rewound
 * to the start and the caller must scan; -1 on an I/O error. */
int mt_file_seek_cycle(mt_file *f, uint64_t cycle);
/* With an index, ends the stream (mt_file_read returns 0) at the first frame that follows a
 * sample after `cycle` (the stream's cycles never decrease, so nothing at or before `cycle` is
 * left). UINT64_MAX (the default) removes the limit. Without an index it has no effect. Kept
 * across mt_file_rewind and mt_file_seek_cycle. */
void mt_file_stop_after(mt_file *f, uint64_t cycle);
/* Frame index: NULL with *n = 0 when the file has none. */
const mt_frame_index *mt_file_index(const mt_file *f, size_t *n);
int mt_file_truncated(const mt_file *f);     /* the last frame was cut short (writer killed) */
/* The file ends inside its index or footer (the writer was stopped while finishing): every data
 * frame is whole, nothing of the stream is lost. */
int mt_file_index_cut(const mt_file *f);
uint64_t mt_file_bad_frames(const mt_file *f); /* corrupt frames skipped */
const char *mt_file_error(const mt_file *f);
void mt_file_close(mt_file *f);

#endif
