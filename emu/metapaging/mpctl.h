/* Meta-paging as mtemu offers it: the command-line options, a session tying the meta-pager
 * (emu/metapaging/metapager.h) and the online simulations (emu/metapaging/mpsim.h) to the guest-RAM page observer, and
 * the statistics report (--stats text, --stats-json FILE).
 *
 * The emulator's part is small: parse options with mp_options_parse(), create a session with the
 * RAM size, hand mp_session_pager() to the RAM (ram_use_metapager), register mp_session_observe
 * as the CPU's page observer when mp_session_needs_observer() says so, point the fault-cycle
 * charge at the CPU's cycle counter, and call mp_session_report() at exit. */
#ifndef EMU_MPCTL_H
#define EMU_MPCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "emu/metapaging/metapager.h"
#include "emu/metapaging/mpsim.h"
#include "emu/platform/ram.h"

struct mp_options {
    uint64_t metapage_bytes; /* --metapage-size (default 4K) */
    uint64_t budget_bytes;   /* --metapage-budget (default 0 = unlimited: flat RAM, no pager) */
    mp_policy policy;        /* --metapage-policy (default lru) */
    uint64_t seed;           /* --metapage-seed (default 1): RANDOM's victims */
    const char *backing;     /* --backing FILE (default: a temporary file removed at exit) */
    uint64_t fault_cycles;   /* --metapage-fault-cycles N (default 0: faults cost no time) */
    const char *sim_spec;    /* --metapage-sim SPEC: configurations evaluated online */
    bool sim_lru_each;       /* --metapage-sim-lru each: one core per LRU configuration (the
                                reference; default stack: one stack pass per size) */
    int sim_thread;          /* --metapage-sim-thread: MP_SIM_THREAD_AUTO (default: on with 2
                                or more CPUs online), _ON (the simulations on a thread of their
                                own, mpsimthread.h) or _OFF (in line, on the emulator's thread) */
    bool stats;              /* the emulator's --stats: report on stderr at exit */
    const char *stats_json;  /* --stats-json FILE */
    bool ram_hash;           /* --ram-hash: a hash of all guest RAM at exit, on stderr */
};

enum { MP_SIM_THREAD_AUTO, MP_SIM_THREAD_ON, MP_SIM_THREAD_OFF };

void mp_options_default(struct mp_options *o);

/* Looks at argv[*i]: when it is one of the options above (as "--opt VALUE" or "--opt=VALUE"),
 * consumes it (advancing *i past its value) and returns 1; returns 0 for any other argument;
 * -1 with one line in err for a bad value or a missing one.  --stats is the emulator's own option
 * (it prints the meta-paging statistics too): set `stats` from it. */
int mp_options_parse(struct mp_options *o, int argc, char **argv, int *i, char *err,
                     size_t errlen);

/* Takes every meta-paging option out of argv (argc updated, the rest kept in order) so that the
 * emulator's own parser never sees them.  0, or -1 with err. */
int mp_options_extract(struct mp_options *o, int *argc, char **argv, char *err, size_t errlen);

/* The options' help text (one option per line). */
const char *mp_options_help(void);

struct mp_session;

/* For guest RAM [ram_base, ram_base + ram_bytes).  NULL with err on a bad configuration or a
 * backing file that cannot be created.  Starts the simulations' thread when asked for (should it
 * fail to start, they run in line: the same results). */
struct mp_session *mp_session_create(const struct mp_options *o, uint64_t ram_base,
                                     uint64_t ram_bytes, char *err, size_t errlen);
void mp_session_destroy(struct mp_session *s);

/* The meta-pager, or NULL with an unlimited budget (the RAM stays flat and as fast as ever). */
struct metapager *mp_session_pager(struct mp_session *s);
/* The online simulations, or NULL without --metapage-sim.  With the simulations on their thread
 * this waits until it has taken every report so far; read them before the next report. */
const struct mpsim *mp_session_sim(struct mp_session *s);

/* Puts the pager (if any) behind `ram` and has the simulations told of the emulator's own RAM
 * writes.  Call before anything is loaded into RAM. */
void mp_session_attach(struct mp_session *s, mt_ram *ram);

/* True when the page observer must be registered: with a pager (every policy) or simulations.
 * Not only LRU's recency and CLOCK's reference bits need every page change: the CPU keeps
 * executing decoded instructions of a page whose metapage a load or store just evicted, without
 * asking the RAM again, so only the observer sees that those fetches fault the metapage back in.
 * With an unlimited budget and no simulations: no observer, the fast path as it was. */
bool mp_session_needs_observer(const struct mp_session *s);

/* The page observer (ram_page_observer): pfn = physical address >> 12. */
void mp_session_observe(void *session, uint64_t pfn, bool is_write);
/* The same reports in batches (cpu_set_page_batch), or NULL when they must come one call each
 * (a pager: its faults happen at the access).  Reports per drain of the batch. */
#define MP_BATCH 4096
struct ram_page_batch *mp_session_page_batch(struct mp_session *s);
/* The granule the observer needs reports for (cpu_set_page_observer): log2 of the smallest
 * metapage among the pager and every simulation.  Accesses within one metapage of the smallest
 * size are hits for every configuration after the first (docs/metapaging.md). */
unsigned mp_session_observe_shift(const struct mp_session *s);

/* True when faults cost emulated cycles (--metapage-fault-cycles), so the page observer's calls
 * may move the CPU's cycle count. */
bool mp_session_faults_cost_cycles(const struct mp_session *s);
/* Each fault adds fault_cycles to *counter (the CPU's cycle count); NULL: none. */
void mp_session_charge_faults_to(struct mp_session *s, uint64_t *counter);

/* The emulator's own write to RAM (loaders): the simulations must know those metapages hold data
 * (the real pager learns it from mp_host_write). */
void mp_session_host_write(struct mp_session *s, uint64_t paddr, uint64_t len);

/* Hash of all guest RAM: FNV-1a style over (page index, contents) of every page that is not all
 * zero, so a flat and a meta-paged RAM with the same contents hash alike. */
uint64_t mp_ram_hash(mt_ram *ram);

/* The run's totals for the JSON's "run" object (all harts): instructions, guest accesses of
 * every kind (fetch, load, store, AMO, page-table walk; MMIO included), emulated seconds.  The
 * access count is what `metatrace compare` scales a sampled trace against when this JSON is its
 * ground truth. */
void mp_session_set_run(struct mp_session *s, uint64_t instructions, uint64_t accesses,
                        double emulated_seconds);

/* --stats (to `text`, when the option was given), --ram-hash (to `text`) and --stats-json.  0, or -1 with err (the JSON
 * file could not be written). */
int mp_session_report(struct mp_session *s, FILE *text, char *err, size_t errlen);

#endif
