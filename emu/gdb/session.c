/* The command handlers of the GDB remote protocol (the subset QEMU's stub answers for RISC-V).
 * Every reply is built in a bounded buffer; a malformed packet gets `E01` (or the empty reply
 * for an unknown one, which tells gdb "not supported"), never a crash. */
#include "emu/gdb/session.h"

#include <stdio.h>
#include <string.h>

/* the reply being built */
typedef struct {
    char *buf;
    size_t len, cap;
} reply;

static void put(reply *r, const char *s)
{
    size_t n = strlen(s);
    if (n > r->cap - r->len)
        n = r->cap - r->len;
    memcpy(r->buf + r->len, s, n);
    r->len += n;
}

static void put_hex64_le(reply *r, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    if (r->cap - r->len >= 16) {
        rsp_hex_encode(r->buf + r->len, b, 8);
        r->len += 16;
    }
}

static void put_hex_num(reply *r, uint64_t v)
{
    char tmp[20];
    snprintf(tmp, sizeof tmp, "%llx", (unsigned long long)v);
    put(r, tmp);
}

/* Frames data[0..n) as `$...#cc` into the output (escaping `#$}*`), after an optional ack. */
static void send_packet(gdb_session *s, const char *data, size_t n)
{
    char *o = s->last_reply;
    size_t k = 0;
    uint8_t sum = 0;
    o[k++] = '$';
    for (size_t i = 0; i < n && k < GDB_OUT_MAX - 8; i++) {
        char c = data[i];
        if (c == '#' || c == '$' || c == '}' || c == '*') {
            o[k++] = '}';
            sum = (uint8_t)(sum + '}');
            c ^= 0x20;
        }
        o[k++] = c;
        sum = (uint8_t)(sum + (uint8_t)c);
    }
    k += (size_t)snprintf(o + k, 4, "#%02x", sum);
    s->last_reply_len = k;
    if (k <= GDB_OUT_MAX - s->out_len) {
        memcpy(s->out + s->out_len, o, k);
        s->out_len += k;
    }
}

static void send_str(gdb_session *s, const char *str) { send_packet(s, str, strlen(str)); }

static void out_byte(gdb_session *s, char c)
{
    if (s->out_len < GDB_OUT_MAX)
        s->out[s->out_len++] = c;
}

void gdb_session_init(gdb_session *s, const gdb_target *t)
{
    memset(s, 0, sizeof *s);
    s->t = *t;
    rsp_parser_init(&s->parser);
    s->stop_thread = 1;
    snprintf(s->last_stop, sizeof s->last_stop, "T05thread:1;");
}

static unsigned nthreads(gdb_session *s) { return s->t.nthreads(s->t.ctx); }

/* A thread id of H, T, vCont: 1..N; 0 and -1 (any / all) mean the default thread. */
static bool parse_thread(gdb_session *s, const char **p, unsigned *tid)
{
    if ((*p)[0] == '-' && (*p)[1] == '1') {
        *p += 2;
        *tid = 0;
        return true;
    }
    uint64_t v;
    if (!rsp_parse_hex(p, &v) || v > nthreads(s))
        return false;
    *tid = (unsigned)v;
    return true;
}

static unsigned thread_or_stopped(gdb_session *s, unsigned t) { return t ? t : s->stop_thread; }

bool gdb_session_breakpoint_at(const gdb_session *s, uint64_t pc)
{
    for (unsigned i = 0; i < s->nbp; i++)
        if (s->bp[i] == pc)
            return true;
    return false;
}

const gdb_watchpoint *gdb_session_watch_hit(const gdb_session *s, uint64_t addr, unsigned len, bool write)
{
    for (unsigned i = 0; i < s->nwp; i++) {
        const gdb_watchpoint *w = &s->wp[i];
        bool kind = w->type == GDB_WATCH_ACCESS || (write ? w->type == GDB_WATCH_WRITE : w->type == GDB_WATCH_READ);
        if (kind && addr < w->addr + w->len && w->addr < addr + len)
            return w;
    }
    return NULL;
}

void gdb_session_stopped(gdb_session *s, unsigned thread, int sig, int watch_type, uint64_t watch_addr)
{
    s->stop_thread = thread;
    s->g_thread = s->c_thread = 0; /* both follow the stopped thread, as gdb expects */
    static const char *const watch_name[] = {[GDB_WATCH_WRITE] = "watch", [GDB_WATCH_READ] = "rwatch",
                                             [GDB_WATCH_ACCESS] = "awatch"};
    if (watch_type >= GDB_WATCH_WRITE && watch_type <= GDB_WATCH_ACCESS)
        snprintf(s->last_stop, sizeof s->last_stop, "T%02x%s:%llx;thread:%x;", sig & 0xff, watch_name[watch_type],
                 (unsigned long long)watch_addr, thread);
    else
        snprintf(s->last_stop, sizeof s->last_stop, "T%02xthread:%x;", sig & 0xff, thread);
    if (s->running) {
        s->running = false;
        send_str(s, s->last_stop);
    }
}

void gdb_session_exited(gdb_session *s, int code)
{
    char w[8];
    snprintf(w, sizeof w, "W%02x", code & 0xff);
    if (s->running) {
        s->running = false;
        send_str(s, w);
    }
}

/* ---- the packets ----------------------------------------------------------------------- */

static const char *const E01 = "E01", *const E14 = "E14", *const OK = "OK";

/* m addr,len */
static void cmd_read_mem(gdb_session *s, const char *p, reply *r)
{
    uint64_t addr, len;
    if (!rsp_parse_hex(&p, &addr) || *p++ != ',' || !rsp_parse_hex(&p, &len) || *p) {
        put(r, E01);
        return;
    }
    size_t max = (r->cap - r->len) / 2;
    if (len > max)
        len = max;
    uint8_t buf[RSP_PACKET_MAX / 2];
    if (len > sizeof buf)
        len = sizeof buf;
    if (len == 0)
        return; /* the empty reply: nothing read */
    size_t got = s->t.read_mem(s->t.ctx, thread_or_stopped(s, s->g_thread), addr, buf, (size_t)len, s->phys_mode);
    if (got == 0) {
        put(r, E14);
        return;
    }
    rsp_hex_encode(r->buf + r->len, buf, got);
    r->len += 2 * got;
}

/* M addr,len:hex and X addr,len:binary */
static void cmd_write_mem(gdb_session *s, const char *p, size_t n, bool binary, reply *r)
{
    const char *end = p + n;
    uint64_t addr, len;
    if (!rsp_parse_hex(&p, &addr) || *p++ != ',' || !rsp_parse_hex(&p, &len) || *p++ != ':' || p > end) {
        put(r, E01);
        return;
    }
    uint8_t buf[RSP_PACKET_MAX];
    size_t have = (size_t)(end - p);
    if (binary) {
        size_t got = rsp_unescape(buf, p, have);
        if (got != len) {
            put(r, E01);
            return;
        }
    } else if (len > sizeof buf / 2 || have != 2 * len || !rsp_hex_decode(buf, p, (size_t)len)) {
        put(r, E01);
        return;
    }
    if (len == 0) { /* X's probe */
        put(r, OK);
        return;
    }
    size_t done = s->t.write_mem(s->t.ctx, thread_or_stopped(s, s->g_thread), addr, buf, (size_t)len, s->phys_mode);
    put(r, done == len ? OK : E14);
}

static void cmd_read_regs(gdb_session *s, reply *r)
{
    unsigned t = thread_or_stopped(s, s->g_thread);
    for (unsigned i = 0; i < GDB_G_REGS; i++) {
        uint64_t v = 0;
        s->t.read_reg(s->t.ctx, t, i, &v);
        put_hex64_le(r, v);
    }
}

static bool hex_le64(const char *p, uint64_t *v)
{
    uint8_t b[8];
    if (!rsp_hex_decode(b, p, 8))
        return false;
    *v = 0;
    for (int i = 7; i >= 0; i--)
        *v = *v << 8 | b[i];
    return true;
}

static void cmd_write_regs(gdb_session *s, const char *p, size_t n, reply *r)
{
    unsigned t = thread_or_stopped(s, s->g_thread);
    if (n % 16 != 0 || n / 16 > GDB_G_REGS) {
        put(r, E01);
        return;
    }
    uint64_t v[GDB_G_REGS];
    for (size_t i = 0; i < n / 16; i++)
        if (!hex_le64(p + 16 * i, &v[i])) {
            put(r, E01);
            return;
        }
    for (size_t i = 0; i < n / 16; i++)
        s->t.write_reg(s->t.ctx, t, (unsigned)i, v[i]);
    put(r, OK);
}

/* p n / P n=value */
static void cmd_reg(gdb_session *s, const char *p, bool write, reply *r)
{
    uint64_t regno, v;
    unsigned t = thread_or_stopped(s, s->g_thread);
    if (!rsp_parse_hex(&p, &regno) || regno > 0xffff) {
        put(r, E01);
        return;
    }
    if (!write) {
        if (*p || !s->t.read_reg(s->t.ctx, t, (unsigned)regno, &v))
            put(r, E01);
        else
            put_hex64_le(r, v);
        return;
    }
    if (*p++ != '=' || strlen(p) != 16 || !hex_le64(p, &v) || !s->t.write_reg(s->t.ctx, t, (unsigned)regno, v))
        put(r, E01);
    else
        put(r, OK);
}

/* Z/z type,addr,kind[;cond...] */
static void cmd_point(gdb_session *s, const char *p, bool insert, reply *r)
{
    uint64_t type, addr, kind;
    if (!rsp_parse_hex(&p, &type) || *p++ != ',' || !rsp_parse_hex(&p, &addr) || *p++ != ',' ||
        !rsp_parse_hex(&p, &kind) || (*p && *p != ';')) {
        put(r, E01);
        return;
    }
    if (type > 4)
        return; /* not supported: the empty reply */
    if (type <= 1) { /* software and hardware breakpoints are the same check here */
        unsigned i = 0;
        while (i < s->nbp && s->bp[i] != addr)
            i++;
        if (insert) {
            if (i == s->nbp) {
                if (s->nbp == GDB_MAX_BREAKPOINTS) {
                    put(r, E01);
                    return;
                }
                s->bp[s->nbp++] = addr;
            }
        } else if (i < s->nbp) {
            s->bp[i] = s->bp[--s->nbp];
        }
        put(r, OK);
        return;
    }
    if (kind == 0 || kind > 1024) {
        put(r, E01);
        return;
    }
    unsigned i = 0;
    while (i < s->nwp && !(s->wp[i].addr == addr && s->wp[i].len == kind && s->wp[i].type == (int)type))
        i++;
    if (insert) {
        if (i == s->nwp) {
            if (s->nwp == GDB_MAX_WATCHPOINTS) {
                put(r, E01);
                return;
            }
            s->wp[s->nwp++] = (gdb_watchpoint){.addr = addr, .len = kind, .type = (int)type};
        }
    } else if (i < s->nwp) {
        s->wp[i] = s->wp[--s->nwp];
    }
    put(r, OK);
}

/* qXfer:features:read:ANNEX:offset,length */
static void cmd_xfer_features(gdb_session *s, const char *p, reply *r)
{
    static const char annex[] = "target.xml:";
    uint64_t off, len;
    if (strncmp(p, annex, sizeof annex - 1) != 0) {
        put(r, "E00");
        return;
    }
    p += sizeof annex - 1;
    if (!rsp_parse_hex(&p, &off) || *p++ != ',' || !rsp_parse_hex(&p, &len) || *p) {
        put(r, E01);
        return;
    }
    size_t xlen;
    const char *xml = s->t.tdesc(s->t.ctx, &xlen);
    if (off >= xlen) {
        put(r, "l");
        return;
    }
    size_t room = r->cap - r->len - 1;
    if (len > room)
        len = room;
    size_t n = xlen - (size_t)off < len ? xlen - (size_t)off : (size_t)len;
    put(r, off + n >= xlen ? "l" : "m");
    memcpy(r->buf + r->len, xml + off, n);
    r->len += n;
}

static void cmd_thread_list(gdb_session *s, reply *r)
{
    put(r, "m");
    for (unsigned t = 1; t <= nthreads(s); t++) {
        if (t > 1)
            put(r, ",");
        put_hex_num(r, t);
    }
}

/* vCont;action[:thread]...  Returns the action: the thread that steps (0 none). */
static gdb_action cmd_vcont(gdb_session *s, const char *p, reply *r)
{
    unsigned step = 0;
    bool any = false;
    while (*p == ';') {
        p++;
        char a = *p++;
        if (a == 'C' || a == 'S') { /* the signal is not passed to the guest */
            uint64_t sig;
            if (!rsp_parse_hex(&p, &sig)) {
                put(r, E01);
                return GDB_ACT_NONE;
            }
        } else if (a != 'c' && a != 's') {
            put(r, E01);
            return GDB_ACT_NONE;
        }
        unsigned tid = 0;
        if (*p == ':') {
            p++;
            if (!parse_thread(s, &p, &tid)) {
                put(r, E01);
                return GDB_ACT_NONE;
            }
        }
        if ((a == 's' || a == 'S') && !step)
            step = thread_or_stopped(s, tid ? tid : s->c_thread);
        any = true;
    }
    if (*p || !any) {
        put(r, E01);
        return GDB_ACT_NONE;
    }
    s->step_thread = step;
    return GDB_ACT_RESUME;
}

/* c/s/C/S [sig;][addr] */
static gdb_action cmd_resume(gdb_session *s, const char *p, bool step, bool sig, reply *r)
{
    unsigned t = thread_or_stopped(s, s->c_thread);
    uint64_t v;
    if (sig) {
        if (!rsp_parse_hex(&p, &v)) {
            put(r, E01);
            return GDB_ACT_NONE;
        }
        if (*p == ';')
            p++;
        else if (*p) {
            put(r, E01);
            return GDB_ACT_NONE;
        }
    }
    if (*p) {
        if (!rsp_parse_hex(&p, &v) || *p) {
            put(r, E01);
            return GDB_ACT_NONE;
        }
        s->t.write_reg(s->t.ctx, t, 32, v); /* resume at addr: the pc */
    }
    s->step_thread = step ? t : 0;
    return GDB_ACT_RESUME;
}

static bool prefix(const char *p, const char *pre) { return strncmp(p, pre, strlen(pre)) == 0; }

/* Handles one packet; the reply (possibly empty) goes out unless the action resumes. */
static gdb_action dispatch(gdb_session *s, const char *p, size_t n)
{
    reply r = {.buf = s->reply_buf, .len = 0, .cap = RSP_PACKET_MAX};
    gdb_action act = GDB_ACT_NONE;
    bool no_reply = false;
    switch (p[0]) {
    case '?': put(&r, s->last_stop); break;
    case 'g': if (n == 1) cmd_read_regs(s, &r); else put(&r, E01); break;
    case 'G': cmd_write_regs(s, p + 1, n - 1, &r); break;
    case 'p': cmd_reg(s, p + 1, false, &r); break;
    case 'P': cmd_reg(s, p + 1, true, &r); break;
    case 'm': cmd_read_mem(s, p + 1, &r); break;
    case 'M': cmd_write_mem(s, p + 1, n - 1, false, &r); break;
    case 'X': cmd_write_mem(s, p + 1, n - 1, true, &r); break;
    case 'Z': cmd_point(s, p + 1, true, &r); break;
    case 'z': cmd_point(s, p + 1, false, &r); break;
    case 'c': case 's': case 'C': case 'S':
        act = cmd_resume(s, p + 1, p[0] == 's' || p[0] == 'S', p[0] == 'C' || p[0] == 'S', &r);
        no_reply = act == GDB_ACT_RESUME;
        break;
    case 'D': put(&r, OK); act = GDB_ACT_DETACH; break;
    case 'k': act = GDB_ACT_KILL; no_reply = true; break;
    case 'H': {
        const char *q = p + 2;
        unsigned tid;
        if ((p[1] != 'g' && p[1] != 'c') || !parse_thread(s, &q, &tid) || *q) {
            put(&r, E01);
            break;
        }
        if (p[1] == 'g')
            s->g_thread = tid;
        else
            s->c_thread = tid;
        put(&r, OK);
        break;
    }
    case 'T': {
        const char *q = p + 1;
        unsigned tid;
        put(&r, parse_thread(s, &q, &tid) && !*q && tid ? OK : E01);
        break;
    }
    case 'q':
        if (prefix(p, "qSupported"))
            put(&r, "PacketSize=4000;qXfer:features:read+;QStartNoAckMode+;vContSupported+");
        else if (prefix(p, "qXfer:features:read:"))
            cmd_xfer_features(s, p + strlen("qXfer:features:read:"), &r);
        else if (strcmp(p, "qfThreadInfo") == 0)
            cmd_thread_list(s, &r);
        else if (strcmp(p, "qsThreadInfo") == 0)
            put(&r, "l");
        else if (strcmp(p, "qC") == 0) {
            put(&r, "QC");
            put_hex_num(&r, thread_or_stopped(s, s->g_thread));
        } else if (prefix(p, "qAttached"))
            put(&r, "1");
        else if (prefix(p, "qThreadExtraInfo,")) {
            const char *q = p + strlen("qThreadExtraInfo,");
            unsigned tid;
            if (!parse_thread(s, &q, &tid) || *q || !tid)
                put(&r, E01);
            else {
                char name[32];
                int k = snprintf(name, sizeof name, "hart %u", tid - 1);
                rsp_hex_encode(r.buf + r.len, (const uint8_t *)name, (size_t)k);
                r.len += 2 * (size_t)k;
            }
        } else if (strcmp(p, "qqemu.PhyMemMode") == 0)
            put(&r, s->phys_mode ? "1" : "0");
        else if (prefix(p, "qSymbol"))
            put(&r, OK);
        break; /* anything else: the empty reply (not supported) */
    case 'Q':
        if (strcmp(p, "QStartNoAckMode") == 0) {
            send_str(s, OK); /* acknowledged in ack mode, then no more acks */
            s->no_ack = true;
            return GDB_ACT_NONE;
        }
        if (strcmp(p, "Qqemu.PhyMemMode:1") == 0 || strcmp(p, "Qqemu.PhyMemMode:0") == 0) {
            s->phys_mode = p[strlen(p) - 1] == '1';
            put(&r, OK);
        }
        break;
    case 'v':
        if (strcmp(p, "vCont?") == 0)
            put(&r, "vCont;c;C;s;S");
        else if (prefix(p, "vCont;")) {
            act = cmd_vcont(s, p + 5, &r);
            no_reply = act == GDB_ACT_RESUME;
        } else if (prefix(p, "vKill")) {
            put(&r, OK);
            act = GDB_ACT_KILL;
        }
        break; /* vMustReplyEmpty and the rest: the empty reply */
    default: break;
    }
    if (act == GDB_ACT_RESUME)
        s->running = true;
    if (!no_reply)
        send_packet(s, r.buf, r.len);
    return act;
}

gdb_action gdb_session_input(gdb_session *s, const uint8_t *in, size_t n, size_t *used)
{
    size_t i = 0;
    gdb_action act = GDB_ACT_NONE;
    while (i < n && act == GDB_ACT_NONE) {
        rsp_event e = rsp_feed(&s->parser, in[i++]);
        if (e == RSP_PACKET) {
            if (!s->no_ack)
                out_byte(s, '+');
            if (s->parser.len == 0)
                send_str(s, ""); /* an empty packet: nothing to do, the empty reply */
            else
                act = dispatch(s, s->parser.buf, s->parser.len);
            break; /* one reply per call: the caller sends it before the next */
        } else if (e == RSP_BAD) {
            if (!s->no_ack)
                out_byte(s, '-');
            break;
        } else if (e == RSP_NAK) {
            if (!s->no_ack && s->last_reply_len <= GDB_OUT_MAX - s->out_len) {
                memcpy(s->out + s->out_len, s->last_reply, s->last_reply_len);
                s->out_len += s->last_reply_len;
            }
            break;
        } else if (e == RSP_INTERRUPT) {
            s->interrupt = true;
        }
    }
    *used = i;
    return act;
}
