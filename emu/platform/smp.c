#include "emu/platform/smp.h"

#include "emu/platform/machine.h"
#include "emu/metapaging/mpctl.h"

uint64_t smp_total_instret(const mt_machine *m)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < m->nharts; i++)
        n += m->harts[i]->instret;
    return n;
}

static bool sleeping(const mt_cpu *h) { return h->wfi && !(cpu_mip(h) & h->mie); }

/* Every hart sleeps: the mtime at which the first one wakes, or UINT64_MAX. */
static uint64_t next_timer(const mt_machine *m, uint64_t now)
{
    uint64_t next = UINT64_MAX;
    for (unsigned i = 0; i < m->nharts; i++) {
        uint64_t t = cpu_next_timer(m->harts[i], now);
        if (t < next)
            next = t;
    }
    return next;
}

mt_smp_end smp_run(mt_machine *m)
{
    const uint64_t limit = m->cfg.max_insns ? m->cfg.max_insns : UINT64_MAX;
    uint64_t now = cpu_mtime(m->harts[0]);
    mt_cpu *last = m->harts[0]; /* the hart that ran last: it holds the machine's listener */
    m->smp_time = cpu_time(last);
    for (;;) {
        bool ran = false;
        for (unsigned i = 0; i < m->nharts; i++) {
            mt_cpu *h = m->harts[i];
            if (m->interrupted)
                return SMP_STOPPED;
            cpu_set_mtime(h, now); /* its clock joins the machine's (and its timer is compared) */
            if (sleeping(h))
                continue;
            uint64_t done = smp_total_instret(m);
            if (done >= limit)
                return SMP_LIMIT;
            uint64_t q = limit - done < SMP_QUANTUM ? limit - done : SMP_QUANTUM;
            /* the hart compares insn_limit with instret alone (cpu.c service_events); were it
             * ever to count traps too, this must become instret + trap_count + q, or a hart that
             * took more than q traps would end every turn before its first instruction */
            h->insn_limit = h->instret + q;
            h->trap_limit = h->trap_count + SMP_QUANTUM; /* a trap storm retires nothing */
            h->resv_valid = false; /* others ran since its last turn and may have stored there */
            h->stop = h->limit_hit = false;
            m->clint.cpu = m->finisher.cpu = h; /* mtime and exits belong to the running hart */
            if (m->has_htif)
                m->htif.cpu = h;
            /* its accesses are stamped from where the machine's time is, and the listener (the
             * trace unit, the event hash) moves to it with its due time */
            h->stamp_offset = m->smp_time > h->cycle ? m->smp_time - h->cycle : 0;
            if (h != last)
                cpu_take_listener(h, last);
            if (m->on_turn)
                m->on_turn(m->turn_ctx, h);
            if (m->cfg.metapaging) {
                /* a fault's cycles go to the hart that takes it; and the hart's first access of
                 * the turn is told to the page observer whatever it touched last, since other
                 * harts' faults may have evicted that granule meanwhile (within a turn only this
                 * hart's own accesses evict, so its granule filter stays exact) */
                mp_session_charge_faults_to(m->cfg.metapaging, &h->cycle);
                h->obs_last_unit = UINT64_MAX;
            }
            cpu_update_next_event(h);
            cpu_run(h);
            last = h;
            m->smp_time = cpu_time(h);
            now = cpu_mtime(h);
            ran = true;
            if (m->finisher.finished || (m->has_htif && m->htif.finished))
                return SMP_STOPPED;
            if (h->stop && !h->limit_hit)
                return SMP_STOPPED;
        }
        if (ran)
            continue;
        /* all asleep: skip to the first timer, polling the console at the usual interval */
        uint64_t poll_at = now + BUS_POLL_CYCLES / CYCLES_PER_MTIME_TICK, next = next_timer(m, now);
        if (next == UINT64_MAX && (!m->cpu.idle || !m->cpu.idle(m->cpu.idle_ctx)))
            return SMP_STUCK;
        uint64_t skip_to = next < poll_at ? next : poll_at;
        m->smp_time += (skip_to - now) * CYCLES_PER_MTIME_TICK; /* the sleep passes in the stamps too */
        now = skip_to;
        bus_poll(&m->bus);
        if (m->cpu.on_poll)
            m->cpu.on_poll(m->cpu.poll_ctx);
    }
}
