#include "emu/gdb/stub.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "emu/gdb/hart.h"
#include "emu/gdb/session.h"
#include "emu/platform/machine.h"

enum { SIGNAL_INT = 2, SIGNAL_TRAP = 5 };

struct gdb_stub {
    int listen_fd, conn_fd;
    int port;
    bool wait_first; /* -S: stop before the first instruction, waiting for gdb */
    struct mt_machine *m;
    gdb_harts harts;
    gdb_target inner;  /* the harts (hart.c) */
    gdb_target target; /* the same, through wrappers that note writes */
    gdb_session sess;
    bool stop_request;
    int stop_sig;
    unsigned step_thread; /* 1..N: stop at that hart's next boundary; 0: none */
    /* a watchpoint the instruction about to run hits: reported at the hart's next boundary
     * when the instruction retired (instret one more), as QEMU reports after the access */
    bool watch_pending;
    unsigned watch_thread;
    uint64_t watch_instret, watch_addr;
    int watch_type;
    /* the hart resumes at this boundary: its first check is skipped (no stop at the breakpoint
     * gdb resumed from, a step runs one instruction) */
    bool skip_once[MT_MAX_HARTS];
    bool wrote; /* gdb wrote registers or memory during this stop */
    bool killed;
    uint8_t in[8192]; /* received, not yet handled */
    size_t in_len, in_pos;
};

/* ---- options ---------------------------------------------------------------------------- */

const char *gdb_options_help(void)
{
    return "  -gdb tcp:[HOST]:PORT gdbstub on this TCP port (0: any free port, printed on stderr)\n"
           "  -s                   -gdb tcp::1234\n"
           "  -S                   halt before the first instruction until gdb continues\n";
}

int gdb_options_extract(gdb_options *o, int *argc, char **argv, char *err, size_t errlen)
{
    int kept = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            while (i < *argc)
                argv[kept++] = argv[i++];
            break;
        }
        if (strcmp(a, "-s") == 0) {
            o->dev = "tcp::1234";
        } else if (strcmp(a, "-S") == 0) {
            o->wait = true;
        } else if (strcmp(a, "-gdb") == 0 || strcmp(a, "--gdb") == 0) {
            if (i + 1 >= *argc) {
                snprintf(err, errlen, "option %s needs a value (tcp::PORT)", a);
                return -1;
            }
            o->dev = argv[++i];
        } else if (strncmp(a, "-gdb=", 5) == 0 || strncmp(a, "--gdb=", 6) == 0) {
            o->dev = strchr(a, '=') + 1;
        } else {
            argv[kept++] = argv[i];
        }
    }
    *argc = kept;
    argv[kept] = NULL;
    if (o->wait && !o->dev) {
        snprintf(err, errlen, "-S: waits for gdb, which needs -s or -gdb tcp::PORT");
        return -1;
    }
    return 0;
}

/* ---- the socket ------------------------------------------------------------------------- */

static bool parse_dev(const char *dev, char *host, size_t hostlen, int *port, char *err, size_t errlen)
{
    const char *p = dev;
    if (strncmp(p, "tcp:", 4) != 0) {
        snprintf(err, errlen, "-gdb %s: not tcp:[HOST]:PORT (only TCP is supported)", dev);
        return false;
    }
    p += 4;
    const char *colon = strrchr(p, ':');
    if (!colon || (size_t)(colon - p) >= hostlen) {
        snprintf(err, errlen, "-gdb %s: not tcp:[HOST]:PORT", dev);
        return false;
    }
    memcpy(host, p, (size_t)(colon - p));
    host[colon - p] = 0;
    char *end;
    errno = 0;
    long v = strtol(colon + 1, &end, 10);
    if (!colon[1] || *end || errno || v < 0 || v > 65535) {
        snprintf(err, errlen, "-gdb %s: port %s is not a number from 0 to 65535", dev, colon + 1);
        return false;
    }
    *port = (int)v;
    return true;
}

static int open_listener(const char *host, int port, int *bound, char *err, size_t errlen)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *res;
    char portstr[8];
    snprintf(portstr, sizeof portstr, "%d", port);
    int rc = getaddrinfo(*host ? host : NULL, portstr, &hints, &res);
    if (rc) {
        snprintf(err, errlen, "-gdb: host %s: %s", host, gai_strerror(rc));
        return -1;
    }
    int fd = -1, last_errno = 0;
    /* with no host: IPv4's any address first (gdb's `target remote :PORT` connects there) */
    for (int pass = 0; pass < 2 && fd < 0; pass++)
        for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
            if ((ai->ai_family == AF_INET) != (pass == 0))
                continue;
            fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
            if (fd < 0) {
                last_errno = errno;
                continue;
            }
            int one = 1;
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
            if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 1) != 0) {
                last_errno = errno;
                close(fd);
                fd = -1;
            }
        }
    freeaddrinfo(res);
    if (fd < 0) {
        snprintf(err, errlen, "-gdb: cannot listen on %s:%d: %s", *host ? host : "*", port, strerror(last_errno));
        return -1;
    }
    struct sockaddr_storage sa;
    socklen_t len = sizeof sa;
    *bound = port;
    if (getsockname(fd, (struct sockaddr *)&sa, &len) == 0)
        *bound = ntohs(sa.ss_family == AF_INET ? ((struct sockaddr_in *)&sa)->sin_port
                                               : ((struct sockaddr_in6 *)&sa)->sin6_port);
    return fd;
}

gdb_stub *gdb_stub_create(const gdb_options *o, char *err, size_t errlen)
{
    char host[256];
    int port;
    if (!parse_dev(o->dev, host, sizeof host, &port, err, errlen))
        return NULL;
    gdb_stub *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "-gdb: out of memory");
        return NULL;
    }
    g->conn_fd = -1;
    g->listen_fd = open_listener(host, port, &g->port, err, errlen);
    if (g->listen_fd < 0) {
        free(g);
        return NULL;
    }
    g->wait_first = o->wait;
    fprintf(stderr, "mtemu: gdbstub listening on tcp:%s:%d%s\n", host, g->port,
            o->wait ? " (halted until gdb continues)" : "");
    return g;
}

static void send_out(gdb_stub *g);

static void drop_connection(gdb_stub *g)
{
    if (g->conn_fd >= 0)
        close(g->conn_fd);
    g->conn_fd = -1;
    g->in_len = g->in_pos = 0;
    gdb_session_init(&g->sess, &g->target); /* no breakpoints, watchpoints or steps remain */
    g->step_thread = 0;
    g->watch_pending = false;
    g->stop_request = false;
}

static void send_out(gdb_stub *g)
{
    size_t len;
    const char *p = gdb_session_output(&g->sess, &len);
    while (len && g->conn_fd >= 0) {
        ssize_t n = send(g->conn_fd, p, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            drop_connection(g);
            break;
        }
        p += n;
        len -= (size_t)n;
    }
    gdb_session_sent(&g->sess);
}

/* false when accept failed (errno says why) */
static bool accept_connection(gdb_stub *g)
{
    int fd = accept(g->listen_fd, NULL, NULL);
    if (fd < 0)
        return false;
    if (g->conn_fd >= 0) { /* one debugger at a time */
        close(fd);
        return true;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    g->conn_fd = fd;
    g->in_len = g->in_pos = 0;
    gdb_session_init(&g->sess, &g->target);
    return true;
}

/* ---- run control ------------------------------------------------------------------------ */

/* Every hart checks its boundaries while anything could stop it. */
static void rearm(gdb_stub *g)
{
    bool any = g->stop_request || g->step_thread || g->watch_pending || g->sess.nbp || g->sess.nwp;
    for (unsigned i = 0; i < g->m->nharts; i++)
        any = any || g->skip_once[i];
    for (unsigned i = 0; i < g->m->nharts; i++) {
        g->m->harts[i]->debug = any;
        cpu_update_next_event(g->m->harts[i]);
    }
}

/* gdb's `k`: the run ends (as a guest poweroff with code 0, so outputs are finished). */
static void kill_run(gdb_stub *g, mt_cpu *c)
{
    g->killed = true;
    drop_connection(g);
    g->m->finisher.finished = true;
    g->m->finisher.exit_code = 0;
    for (unsigned i = 0; i < g->m->nharts; i++) {
        g->m->harts[i]->wfi = false; /* a sleeping hart (a stop from the poll) must see the stop */
        cpu_request_stop(g->m->harts[i]);
    }
    cpu_request_stop(c);
}

/* Stopped at a boundary of `thread`: serves gdb until it resumes, detaches or kills. */
static gdb_action serve(gdb_stub *g, unsigned thread, int sig, int watch_type, uint64_t watch_addr)
{
    g->stop_request = false;
    g->step_thread = 0;
    g->watch_pending = false;
    if (g->conn_fd < 0) { /* -S: wait for gdb here */
        if (g->listen_fd < 0)
            return GDB_ACT_DETACH;
        fprintf(stderr, "mtemu: waiting for gdb on port %d\n", g->port);
        while (g->conn_fd < 0)
            if (!accept_connection(g) && errno == EINTR)
                return GDB_ACT_DETACH; /* a signal (SIGTERM...): the run goes on to its stop */
    }
    gdb_session_stopped(&g->sess, thread, sig, watch_type, watch_addr);
    send_out(g);
    for (;;) {
        if (g->conn_fd < 0)
            return GDB_ACT_DETACH; /* gdb went away: the guest runs on */
        if (g->in_pos == g->in_len) {
            /* a signal (EINTR: SIGTERM, `timeout`) ends the wait as a detach; the machine's
             * next device poll then stops the run as without gdb */
            ssize_t n = recv(g->conn_fd, g->in, sizeof g->in, 0);
            if (n <= 0) {
                drop_connection(g);
                return GDB_ACT_DETACH;
            }
            g->in_len = (size_t)n;
            g->in_pos = 0;
        }
        size_t used;
        gdb_action act = gdb_session_input(&g->sess, g->in + g->in_pos, g->in_len - g->in_pos, &used);
        g->in_pos += used;
        send_out(g);
        if (act != GDB_ACT_NONE)
            return act;
    }
}

/* A stop of hart c (thread): serves gdb, then sets up the resume.  True when the interpreter
 * must leave its page loop (gdb changed state, or killed the run). */
static bool stop_at(gdb_stub *g, mt_cpu *c, unsigned thread, int sig, int watch_type, uint64_t watch_addr)
{
    g->wrote = false;
    gdb_action act = serve(g, thread, sig, watch_type, watch_addr);
    switch (act) {
    case GDB_ACT_KILL:
        kill_run(g, c);
        return true;
    case GDB_ACT_DETACH:
        drop_connection(g);
        break;
    case GDB_ACT_RESUME:
        g->step_thread = g->sess.step_thread;
        break;
    case GDB_ACT_NONE:
        break;
    }
    return g->wrote;
}

static unsigned thread_of(const gdb_stub *g, const mt_cpu *c)
{
    for (unsigned i = 0; i < g->m->nharts; i++)
        if (g->m->harts[i] == c)
            return i + 1;
    return 1;
}

/* Before the instruction at pc: will it access a watched location? */
static void check_watch(gdb_stub *g, mt_cpu *c, unsigned thread, uint64_t pc)
{
    uint64_t pa, addr;
    uint16_t parcel[2] = {0, 0};
    if (!gdb_translate(c, pc, &pa) || !ram_host_read(g->m->bus.ram, pa, &parcel[0], 2))
        return;
    if ((parcel[0] & 3) == 3 && (!gdb_translate(c, pc + 2, &pa) || !ram_host_read(g->m->bus.ram, pa, &parcel[1], 2)))
        return;
    unsigned size;
    bool reads, writes;
    if (!gdb_insn_access(c, (uint32_t)parcel[0] | (uint32_t)parcel[1] << 16, &addr, &size, &reads, &writes))
        return;
    const gdb_watchpoint *w = writes ? gdb_session_watch_hit(&g->sess, addr, size, true) : NULL;
    if (!w && reads)
        w = gdb_session_watch_hit(&g->sess, addr, size, false);
    if (!w)
        return;
    g->watch_pending = true;
    g->watch_thread = thread;
    g->watch_instret = c->instret;
    g->watch_type = w->type;
    g->watch_addr = addr > w->addr ? addr : w->addr; /* inside the watched range, as gdb checks */
}

static bool on_boundary(void *ctx, mt_cpu *c, uint64_t pc)
{
    gdb_stub *g = ctx;
    unsigned t = thread_of(g, c);
    bool leave = false;
    /* the usual boundary with only breakpoints set: not one of them, nothing changes */
    if (!g->wait_first && !g->stop_request && !g->step_thread && !g->watch_pending && !g->sess.nwp &&
        !g->skip_once[t - 1] && !gdb_session_breakpoint_at(&g->sess, pc))
        return false;
    if (g->wait_first) { /* -S */
        g->wait_first = false;
        g->stop_request = true;
        g->stop_sig = SIGNAL_TRAP;
    }
    if (g->skip_once[t - 1]) {
        g->skip_once[t - 1] = false;
    } else {
        int sig = 0, wtype = 0;
        uint64_t waddr = 0;
        if (g->watch_pending && g->watch_thread == t) {
            g->watch_pending = false;
            if (c->instret == g->watch_instret + 1) { /* it retired: the access was made */
                sig = SIGNAL_TRAP;
                wtype = g->watch_type;
                waddr = g->watch_addr;
            }
        }
        if (!sig && g->step_thread == t)
            sig = SIGNAL_TRAP;
        if (!sig && g->stop_request)
            sig = g->stop_sig;
        if (!sig && g->conn_fd >= 0 && gdb_session_breakpoint_at(&g->sess, pc))
            sig = SIGNAL_TRAP;
        if (sig && stop_at(g, c, t, sig, wtype, waddr)) {
            if (!g->killed)
                g->skip_once[t - 1] = true; /* the boundary is taken again at the new pc */
            leave = true;
        }
    }
    if (!leave && g->sess.nwp && g->conn_fd >= 0)
        check_watch(g, c, t, pc);
    rearm(g);
    return leave;
}

/* The machine's device poll: a new connection, or gdb's Ctrl-C while the guest runs. */
static void on_poll(void *ctx)
{
    gdb_stub *g = ctx;
    if (g->killed)
        return;
    if (g->conn_fd < 0) {
        struct pollfd pfd = {.fd = g->listen_fd, .events = POLLIN};
        if (g->listen_fd >= 0 && poll(&pfd, 1, 0) > 0) {
            accept_connection(g);
            if (g->conn_fd >= 0) { /* the guest stops for gdb, as QEMU's does */
                g->stop_request = true;
                g->stop_sig = SIGNAL_TRAP;
            }
        }
    } else {
        /* all-stop: while the guest runs gdb sends only the interrupt byte; anything else
         * waits for the next stop */
        for (;;) {
            if (g->in_pos == g->in_len)
                g->in_pos = g->in_len = 0;
            if (g->in_len == sizeof g->in)
                break;
            ssize_t n = recv(g->conn_fd, g->in + g->in_len, sizeof g->in - g->in_len, MSG_DONTWAIT);
            if (n == 0) {
                drop_connection(g); /* gdb went away: as a detach */
                break;
            }
            if (n < 0)
                break;
            for (ssize_t i = 0; i < n; i++)
                if (g->in[g->in_len + (size_t)i] == 0x03) {
                    g->stop_request = true;
                    g->stop_sig = SIGNAL_INT;
                }
            g->in_len += (size_t)n;
        }
    }
    if (!g->stop_request)
        return;
    /* Every hart sleeps in WFI (no boundary will come until an interrupt): stop here, where
     * all of them are between instructions. */
    bool all_asleep = true;
    for (unsigned i = 0; i < g->m->nharts; i++)
        all_asleep = all_asleep && g->m->harts[i]->wfi;
    if (all_asleep) {
        stop_at(g, g->m->harts[0], 1, g->stop_sig, 0, 0);
        g->skip_once[0] = !g->killed; /* a step or a breakpoint there counts from its wake-up */
    }
    rearm(g);
}

/* ---- the target, noting writes ---------------------------------------------------------- */

static unsigned t_nthreads(void *ctx) { return ((gdb_stub *)ctx)->harts.nharts; }

static bool t_read_reg(void *ctx, unsigned t, unsigned r, uint64_t *v)
{
    gdb_stub *g = ctx;
    return g->inner.read_reg(g->inner.ctx, t, r, v);
}

static bool t_write_reg(void *ctx, unsigned t, unsigned r, uint64_t v)
{
    gdb_stub *g = ctx;
    g->wrote = true;
    return g->inner.write_reg(g->inner.ctx, t, r, v);
}

static size_t t_read_mem(void *ctx, unsigned t, uint64_t a, uint8_t *b, size_t n, bool phys)
{
    gdb_stub *g = ctx;
    return g->inner.read_mem(g->inner.ctx, t, a, b, n, phys);
}

static size_t t_write_mem(void *ctx, unsigned t, uint64_t a, const uint8_t *b, size_t n, bool phys)
{
    gdb_stub *g = ctx;
    g->wrote = true;
    return g->inner.write_mem(g->inner.ctx, t, a, b, n, phys);
}

static const char *t_tdesc(void *ctx, size_t *len)
{
    gdb_stub *g = ctx;
    return g->inner.tdesc(g->inner.ctx, len);
}

bool gdb_stub_attach(gdb_stub *g, struct mt_machine *m, char *err, size_t errlen)
{
    g->m = m;
    if (!gdb_harts_init(&g->harts, m->harts, m->nharts, &m->bus, &g->inner)) {
        snprintf(err, errlen, "-gdb: out of memory");
        return false;
    }
    g->target = (gdb_target){.nthreads = t_nthreads, .read_reg = t_read_reg, .write_reg = t_write_reg,
                             .read_mem = t_read_mem, .write_mem = t_write_mem, .tdesc = t_tdesc, .ctx = g};
    gdb_session_init(&g->sess, &g->target);
    for (unsigned i = 0; i < m->nharts; i++) {
        m->harts[i]->debug_hook = on_boundary;
        m->harts[i]->debug_ctx = g;
    }
    m->debug_poll = on_poll;
    m->debug_poll_ctx = g;
    if (g->wait_first) { /* the first boundary of hart 0 stops and waits for gdb */
        for (unsigned i = 0; i < m->nharts; i++)
            m->harts[i]->debug = true;
    }
    return true;
}

void gdb_stub_finish(gdb_stub *g, int code)
{
    if (!g || g->conn_fd < 0)
        return;
    gdb_session_exited(&g->sess, code);
    send_out(g);
    drop_connection(g);
}

bool gdb_stub_killed(const gdb_stub *g) { return g && g->killed; }

void gdb_stub_destroy(gdb_stub *g)
{
    if (!g)
        return;
    if (g->conn_fd >= 0)
        close(g->conn_fd);
    if (g->listen_fd >= 0)
        close(g->listen_fd);
    gdb_harts_free(&g->harts);
    free(g);
}
