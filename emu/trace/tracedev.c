#include "emu/trace/tracedev.h"

#include <stddef.h>
#include <string.h>

#include "emu/trace/tracepipe.h"

#include "mt_regs.h"

static bool abuf_drain(mt_access_buf *b);

/* ---- the C model as a backend ---------------------------------------------------------- */

/* The access is the last input of its cycle (a register write of the same instruction came
 * before it, the next instruction is in a later cycle), so completing the cycle at once is
 * exact, and it moves next_due on to the next sample point: one listener call per sample
 * instead of two. */
static bool model_access(void *ctx, const mt_access *a)
{
    mt_unit_access_cycle(ctx, a);
    return true;
}

static bool model_mmio_write(void *ctx, uint64_t cycle, uint32_t off, uint32_t val)
{
    mt_unit_mmio_write(ctx, cycle, off, val);
    return true;
}

static uint32_t model_mmio_read(void *ctx, uint64_t cycle, uint32_t off, bool *ok)
{
    *ok = true;
    return mt_unit_mmio_read(ctx, cycle, off);
}

static uint64_t model_next_due(void *ctx) { return mt_unit_next_due(ctx); }
static uint64_t model_now(void *ctx) { return ((const mt_unit *)ctx)->now; }

static unsigned model_tap_at(void *ctx, uint64_t cycle)
{
    mt_unit_settle(ctx, cycle);
    return mt_unit_tap(ctx);
}

static bool model_stop(void *ctx, uint64_t cycle)
{
    mt_unit_stop(ctx, cycle);
    return true;
}

tracedev_backend tracedev_model_backend(mt_unit *u)
{
    /* The emulator only needs the stream: hand it to the sink in blocks, not a few bytes per
     * sample (mt_unit_stop, in model_stop, flushes the rest). Without memory it stays unbatched,
     * which is slower but the same. */
    (void)mt_unit_batch_output(u, 1);
    return (tracedev_backend){.ctx = u, .access = model_access, .mmio_write = model_mmio_write,
                              .mmio_read = model_mmio_read, .next_due = model_next_due, .now = model_now,
                              .tap_at = model_tap_at, .stop = model_stop};
}

/* ---- the device ------------------------------------------------------------------------- */

void tracedev_init(mt_tracedev *d, const tracedev_backend *be, const tracedev_recorder *rec)
{
    memset(d, 0, sizeof *d);
    d->abuf.drain = abuf_drain;
    d->be = *be;
    if (rec)
        d->rec = *rec;
    if (be->access == model_access)
        d->model = be->ctx;
}

/* The recorder is served by the CPU's page filter (its page changes reach the listener whatever
 * the due cycle). Only on the core tap: the dram tap's transfers do not go through the filter. */
static bool page_filtered(const mt_tracedev *d)
{
    return d->rec.access && d->rec.page_changes && d->rec.tap == MT_TAP_CORE && !d->failed;
}

static uint64_t due(const mt_tracedev *d)
{
    if (d->failed)
        return UINT64_MAX;
    if (d->rec.access && !page_filtered(d))
        return 0; /* the recorder wants every access */
    if (d->pipe)
        return tracepipe_due(d->pipe);
    return d->be.next_due(d->be.ctx);
}

static void fail(mt_tracedev *d)
{
    if (!d->failed) {
        d->failed = true;
        if (d->cpu)
            cpu_request_stop(d->cpu);
    }
}

static uint64_t model_only_listener(void *ctx, const mt_access *a);
static uint64_t recorder_only_listener(void *ctx, const mt_access *a);
static uint64_t every_access_listener(void *ctx, const mt_access *a);
static uint64_t buffered_listener(void *ctx, const mt_access *a);

/* The recorder behind the CPU's page filter with the C model idle (no session, no register write
 * waiting for an access: its next due UINT64_MAX, which only a register write changes, and each
 * write re-arms): tracedev_listener would only hand the access to the recorder and answer
 * UINT64_MAX, so recorder_only_listener does that without the checks for the unit and the other
 * backends (the reduce mode's Linux runs hear a page change every few accesses). */
static bool recorder_alone(const mt_tracedev *d)
{
    return d->model && !d->pipe && page_filtered(d) && mt_unit_next_due(d->model) == UINT64_MAX;
}

/* The recorder wants every access of its kinds (no page filter: --trace-all) and the C model is
 * idle as in recorder_alone: tracedev_listener would hand the access to the recorder, find the unit
 * not due and answer 0 (every access), so every_access_listener does only that. */
static bool every_access_alone(const mt_tracedev *d)
{
    return d->model && !d->pipe && d->rec.access && !d->rec.page_changes && !d->failed &&
           mt_unit_next_due(d->model) == UINT64_MAX;
}

/* The recorder alone (no session of the unit to feed, no register write pending in it): the CPU
 * hands over only the kinds the recorder takes, so a fetch costs a load/store recorder nothing.
 * Checked at every re-arm (a register write) and after the unit takes an access (the one that
 * applies a pending write, such as a MARKER outside a session). */
static void recorder_kinds(mt_tracedev *d)
{
    if (d->cpu && d->rec.access && !d->failed && d->be.next_due(d->be.ctx) == UINT64_MAX)
        cpu_set_listener_kinds(d->cpu, d->rec.kind_mask);
}

/* Hands the buffered accesses to the recorder (mt_access_buf's drain): the one-per-cycle test and
 * the counts of recorder_hears, for the batch. */
static bool abuf_drain(mt_access_buf *b)
{
    mt_tracedev *d = (mt_tracedev *)((char *)b - offsetof(mt_tracedev, abuf));
    const uint32_t n = b->n;
    uint32_t k = 0;
    b->n = 0;
    if (d->failed)
        return false;
    uint64_t last = d->rec_last;
    uint32_t i = 0;
    for (; i < n && b->rec[i].cycle >= last; i++) /* the usual batch: no collision, nothing moves */
        last = b->rec[i].cycle + 1;
    k = i;
    for (; i < n; i++) {
        const mt_access_rec r = b->rec[i];
        if (r.cycle < last) {
            d->collisions++;
            continue;
        }
        last = r.cycle + 1;
        b->rec[k++] = r;
    }
    d->rec_last = last;
    d->rec_accesses += k;
    if (k && !d->rec.access_batch(d->rec.ctx, b->rec, k)) {
        fail(d);
        return false;
    }
    return true;
}

/* every_access_listener with rec.access_batch: the access into the buffer, where the CPU's hooked
 * interpreter puts its fast paths' accesses itself (cpu_set_access_buf). */
static uint64_t buffered_listener(void *ctx, const mt_access *a)
{
    mt_tracedev *d = ctx;
    if (d->failed)
        return UINT64_MAX;
    if (((d->rec.kind_mask >> a->kind) & 1) && a->tap == d->rec.tap) {
        mt_access_buf *b = &d->abuf;
        b->rec[b->n] = (mt_access_rec){.cycle = a->cycle, .addr_rw = a->addr | (a->write ? MT_ACCESS_REC_WRITE : 0) |
                                                                     (a->kind == MT_KIND_FETCH ? MT_ACCESS_REC_FETCH : 0)};
        if (++b->n == MT_ACCESS_BUF_CAP && !abuf_drain(b))
            return UINT64_MAX;
    }
    return 0;
}

/* The CPU's page sink (cpu_set_page_sink) while recorder_alone holds: recorder_only_listener for
 * a run of page changes, the recorder's own batch (rec.page_batch) in one call. */
static uint32_t recorder_page_sink(void *ctx, const uint64_t *stamp, const uint64_t *word, const uint64_t *ord,
                                   uint32_t n, uint64_t pair[2])
{
    mt_tracedev *d = ctx;
    (void)ord; /* (not asked for: CPU_SINK_ORDINALS is the counted sink's) */
    if (d->failed)
        return n;
    uint32_t j = 0; /* one per cycle (recorder_hears); the log's stamps increase */
    while (j < n && stamp[j] < d->rec_last) {
        d->collisions++;
        j++;
    }
    if (j == n)
        return n;
    bool ok = true;
    const uint32_t m = j + d->rec.page_batch(d->rec.ctx, stamp + j, word + j, NULL, NULL, n - j, pair, &ok);
    d->rec_last = stamp[m - 1] + 1;
    d->rec_accesses += m - j;
    if (!ok)
        fail(d);
    return m;
}

static void rec_skipped(mt_tracedev *d, uint64_t ord);

/* The CPU's page sink while recorder_alone holds, for a recorder that counts the repeats kept from
 * it (rec.skipped): recorder_page_sink with each change's ordinal as it came (ord[j],
 * cpu_filter_ordinal then: what recorder_hears would read live), which the recorder's batch uses
 * as rec_skipped would.  The log's stamps increase, so only its first entries can fall in a cycle
 * already used (those are not heard, but their ordinals count, as in recorder_hears).  The
 * recorder arms no pair. */
static uint32_t recorder_counted_sink(void *ctx, const uint64_t *stamp, const uint64_t *word, const uint64_t *ord,
                                      uint32_t n, uint64_t pair[2])
{
    mt_tracedev *d = ctx;
    (void)pair;
    if (d->failed)
        return n;
    uint32_t j = 0;
    while (j < n && stamp[j] < d->rec_last) {
        rec_skipped(d, ord[j]);
        d->collisions++;
        j++;
    }
    if (j == n)
        return n;
    bool ok = true;
    const uint32_t m = j + d->rec.page_batch(d->rec.ctx, stamp + j, word + j, ord + j, &d->rec_ord, n - j, NULL, &ok);
    d->rec_last = stamp[m - 1] + 1;
    d->rec_accesses += m - j;
    if (!ok)
        fail(d);
    return m;
}

void tracedev_rearm(mt_tracedev *d)
{
    if (!d->cpu)
        return;
    if (d->abuf.n) /* before the listener changes: the recorder may get single accesses next */
        abuf_drain(&d->abuf);
    const bool buffered = every_access_alone(d) && d->rec.access_batch;
    if (d->pipe) {
        cpu_set_listener(d->cpu, tracepipe_listener, d->pipe, due(d));
        cpu_set_sampler(d->cpu, tracepipe_sampler(d->pipe));
    } else
        cpu_set_listener(d->cpu, d->model && !d->rec.access && !d->failed ? model_only_listener
                                 : recorder_alone(d)                      ? recorder_only_listener
                                 : buffered                               ? buffered_listener
                                 : every_access_alone(d)                  ? every_access_listener
                                                                          : tracedev_listener,
                         d, due(d));
    uint32_t kinds = page_filtered(d) ? d->rec.kind_mask : 0;
    if (kinds != d->cpu->pf.kinds) {
        cpu_set_page_filter(d->cpu, kinds);
        d->rec_ord = cpu_filter_ordinal(d->cpu) - 1; /* the next access is heard: nothing skipped */
    }
    /* the page log (cpu_set_page_sink) for the recorder alone: never due, it reads no CPU state
     * (with rec.skipped, the accesses' ordinals are logged for it) */
    if (d->rec.page_batch && !d->rec.skipped && !d->pipe && kinds && recorder_alone(d))
        cpu_set_page_sink(d->cpu, recorder_page_sink, d, 0);
    else if (d->rec.page_batch && d->rec.skipped && !d->pipe && kinds && recorder_alone(d))
        cpu_set_page_sink(d->cpu, recorder_counted_sink, d, CPU_SINK_ORDINALS | CPU_SINK_NO_PAIR);
    recorder_kinds(d);
    if (buffered && !d->pipe)
        cpu_set_access_buf(d->cpu, &d->abuf);
}

void tracedev_page_pair(mt_tracedev *d, uint64_t last, uint64_t other)
{
    if (d->cpu && page_filtered(d))
        cpu_page_filter_pair(d->cpu, last, other);
}

/* The recorder hears an access of ordinal `ord` (cpu_filter_ordinal): the accesses between it and
 * the last one it heard were repeats of the page, kept back by the CPU's page filter. */
static void rec_skipped(mt_tracedev *d, uint64_t ord)
{
    uint64_t n = ord - d->rec_ord - 1;
    d->rec_ord = ord;
    if (n)
        d->rec.skipped(d->rec.ctx, n);
}

/* The common case, the C model without a recorder, without indirect calls: the CPU only calls
 * the listener at or after next_due, so there is no due check to repeat. */
static inline __attribute__((always_inline)) uint64_t model_listener(mt_tracedev *d, const mt_access *a)
{
    mt_unit *u = d->model;
    mt_unit_settle(u, a->cycle); /* a pending write (TAP, ENABLE) applied before the tap test */
    if (a->tap == mt_unit_tap(u)) {
        if (a->cycle < d->last_cycle || a->cycle < u->now) {
            d->collisions++;
        } else {
            d->last_cycle = a->cycle + 1;
            d->unit_accesses++;
            mt_unit_access_cycle(u, a); /* see model_access */
        }
    }
    return mt_unit_next_due(u);
}

/* tracedev_listener for the C model without a recorder (what tracedev_rearm installs then): the
 * same decisions, without the checks that cannot apply (recorder, failure, other backends). */
static uint64_t model_only_listener(void *ctx, const mt_access *a)
{
    mt_tracedev *d = ctx;
    mt_unit *u = d->model;
    if (a->cycle >= mt_unit_next_due(u))
        return model_listener(d, a);
    return mt_unit_next_due(u);
}

/* The recorder's part of tracedev_listener: one access of its kinds and tap, one per cycle. */
static inline void recorder_hears(mt_tracedev *d, const mt_access *a)
{
    if (d->rec.skipped && page_filtered(d)) /* what the page filter kept back since the last */
        rec_skipped(d, cpu_filter_ordinal(d->cpu));
    if (a->cycle < d->rec_last) {
        d->collisions++;
    } else {
        d->rec_last = a->cycle + 1;
        d->rec_accesses++;
        if (!d->rec.access(d->rec.ctx, a))
            fail(d);
    }
}

/* tracedev_listener when recorder_alone holds (what tracedev_rearm installs then): the unit is not
 * due (UINT64_MAX) and stays so until a register write re-arms; the page filter stays armed. */
static uint64_t recorder_only_listener(void *ctx, const mt_access *a)
{
    mt_tracedev *d = ctx;
    if (!d->failed && ((d->rec.kind_mask >> a->kind) & 1) && a->tap == d->rec.tap)
        recorder_hears(d, a);
    return UINT64_MAX;
}

/* tracedev_listener when every_access_alone holds (what tracedev_rearm installs then): the unit
 * stays idle until a register write re-arms, so the answer is the recorder's, every access (0),
 * until it fails. */
static uint64_t every_access_listener(void *ctx, const mt_access *a)
{
    mt_tracedev *d = ctx;
    if (d->failed)
        return UINT64_MAX;
    if (((d->rec.kind_mask >> a->kind) & 1) && a->tap == d->rec.tap) {
        if (a->cycle < d->rec_last) {
            d->collisions++;
        } else {
            d->rec_last = a->cycle + 1;
            d->rec_accesses++;
            if (!d->rec.access(d->rec.ctx, a)) {
                fail(d);
                return UINT64_MAX;
            }
        }
    }
    return 0;
}

uint64_t tracedev_listener(void *ctx, const mt_access *a)
{
    mt_tracedev *d = ctx;
    if (d->pipe) /* what tracedev_rearm installs then (a caller may call this one) */
        return tracepipe_listener(d->pipe, a);
    if (d->model && !d->rec.access && a->cycle >= mt_unit_next_due(d->model))
        return model_listener(d, a);
    if (d->failed)
        return UINT64_MAX;
    if (d->rec.access && ((d->rec.kind_mask >> a->kind) & 1) && a->tap == d->rec.tap)
        recorder_hears(d, a);
    /* The unit takes one access per cycle, of its own tap: filtering the tap here keeps a core
     * access and the DRAM transfer it causes (same cycle) from both claiming that cycle. */
    if (a->cycle >= d->be.next_due(d->be.ctx) && a->tap == d->be.tap_at(d->be.ctx, a->cycle) &&
        a->cycle >= d->be.next_due(d->be.ctx)) { /* (tap_at may apply a pending write: due again) */
        if (a->cycle < d->last_cycle || a->cycle < d->be.now(d->be.ctx)) {
            d->collisions++;
        } else {
            d->last_cycle = a->cycle + 1;
            d->unit_accesses++;
            if (!d->be.access(d->be.ctx, a))
                fail(d);
            recorder_kinds(d);
        }
    }
    return due(d);
}

static bool dev_read(void *ctx, uint64_t off, unsigned size, uint64_t *val)
{
    mt_tracedev *d = ctx;
    *val = 0;
    if (size != 4 || (off & 3) || d->failed) { /* docs/trace-unit.md: reads 0 */
        d->bad_mmio++;
        return true;
    }
    bool ok = true;
    d->mmio_reads++;
    if (d->pipe)
        tracepipe_sync(d->pipe); /* the model must have taken every access before this cycle */
    *val = d->be.mmio_read(d->be.ctx, cpu_time(d->cpu), (uint32_t)off, &ok);
    if (d->pipe)
        tracepipe_resume(d->pipe);
    if (!ok)
        fail(d);
    return true;
}

static bool dev_write(void *ctx, uint64_t off, unsigned size, uint64_t val)
{
    mt_tracedev *d = ctx;
    if (size != 4 || (off & 3) || d->failed) { /* ignored */
        d->bad_mmio++;
        return true;
    }
    if (d->abuf.n) /* the accesses before the write, a MARKER's place in the recorder's stream */
        abuf_drain(&d->abuf);
    uint64_t cycle = cpu_time(d->cpu);
    d->mmio_writes++;
    if (d->pipe)
        tracepipe_sync(d->pipe);
    if (off == MT_REG_MARKER && d->rec.marker && !d->rec.marker(d->rec.ctx, cycle, (uint32_t)val))
        fail(d);
    if (!d->be.mmio_write(d->be.ctx, cycle, (uint32_t)off, (uint32_t)val))
        fail(d);
    /* a write may start or stop a session or change what is due */
    if (d->pipe)
        tracepipe_resume(d->pipe);
    tracedev_rearm(d);
    return true;
}

mt_device tracedev_device(mt_tracedev *d)
{
    return (mt_device){.name = "trace-unit", .base = MT_REGS_BASE, .size = MT_REGS_SIZE, .ctx = d,
                       .read = dev_read, .write = dev_write};
}

void tracedev_use_thread(mt_tracedev *d, bool on) { d->want_thread = on; }

void tracedev_attach(mt_tracedev *d, mt_cpu *cpu)
{
    d->cpu = cpu;
    /* The C model alone is fed through the pipe, on a thread of its own or in line (without a
     * thread, or when none can be had: the same stream), so that the CPU samples with the
     * unit's schedule itself (cpu_sampler). */
    if (d->model && !d->rec.access && !d->failed && !d->pipe) {
        d->pipe = d->want_thread ? tracepipe_create(d->model, d->last_cycle, true) : NULL;
        if (!d->pipe)
            d->pipe = tracepipe_create(d->model, d->last_cycle, false);
    }
    tracedev_rearm(d);
}

void tracedev_set_hart(mt_tracedev *d, mt_cpu *cpu)
{
    if (d->cpu)
        d->cpu = cpu;
}

void tracedev_release(mt_tracedev *d)
{
    if (!d->pipe)
        return;
    if (d->cpu)
        cpu_set_sampler(d->cpu, NULL); /* the pipe's schedule goes with it */
    tracepipe_stop(d->pipe);
    tracepipe_stats st = tracepipe_counts(d->pipe);
    d->unit_accesses += st.accesses;
    d->collisions += st.collisions;
    if (st.last_cycle > d->last_cycle)
        d->last_cycle = st.last_cycle;
    d->pipe_queued = st.queued;
    d->pipe_waits = st.waits;
    d->pipe_seconds = st.consumer_seconds;
    d->pipe_fast += st.fast;
    d->pipe_taken_back += st.taken_back;
    d->pipe_data_ahead += st.data_ahead;
    d->pipe_used = d->pipe_used || tracepipe_threaded(d->pipe);
    tracepipe_destroy(d->pipe);
    d->pipe = NULL;
}

bool tracedev_finish(mt_tracedev *d)
{
    if (d->abuf.n)
        abuf_drain(&d->abuf);
    if (d->cpu) /* the alternation steps the CPU's page filter still holds */
        cpu_page_filter_flush(d->cpu);
    if (d->cpu && d->rec.skipped && page_filtered(d)) /* the repeats since the last one heard */
        rec_skipped(d, cpu_filter_ordinal(d->cpu));
    if (d->pipe) { /* the model has every access, and is the emulator's thread's again */
        tracedev_release(d);
        tracedev_rearm(d);
    }
    if (d->failed)
        return false;
    uint64_t cycle = d->cpu ? cpu_time(d->cpu) : 0;
    uint64_t now = d->be.now(d->be.ctx);
    if (!d->be.stop(d->be.ctx, cycle > now ? cycle : now))
        d->failed = true;
    return !d->failed;
}
