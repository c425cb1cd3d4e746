/* mtemu's --stats-json as ground truth (see header). */
#include "host/onlinetruth.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int online_truth_is_json(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    int c;
    while ((c = fgetc(f)) == ' ' || c == '\n' || c == '\t' || c == '\r')
        ;
    fclose(f);
    return c == '{';
}

static char *slurp(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            snprintf(err, errlen, "out of memory");
            fclose(f);
            return NULL;
        }
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        char *grown = realloc(buf, cap * 2);
        if (!grown)
            free(buf);
        buf = grown;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        snprintf(err, errlen, "%s: read error", path);
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    return buf;
}

/* The number after "key": within [s, end); -1 when absent or not a number. */
static int field_u64(const char *s, const char *end, const char *key, uint64_t *out)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    size_t plen = strlen(pat);
    for (const char *p = s; p + plen <= end; p++) {
        if (memcmp(p, pat, plen) != 0)
            continue;
        p += plen;
        while (p < end && *p == ' ')
            p++;
        if (p >= end || *p < '0' || *p > '9')
            return -1;
        char *stop;
        errno = 0;
        unsigned long long v = strtoull(p, &stop, 10);
        if (errno || stop > end)
            return -1;
        *out = v;
        return 0;
    }
    return -1;
}

static int field_str(const char *s, const char *end, const char *key, char *out, size_t outlen)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": \"", key);
    size_t plen = strlen(pat);
    for (const char *p = s; p + plen <= end; p++) {
        if (memcmp(p, pat, plen) != 0)
            continue;
        p += plen;
        const char *q = memchr(p, '"', (size_t)(end - p));
        if (!q || (size_t)(q - p) >= outlen)
            return -1;
        memcpy(out, p, (size_t)(q - p));
        out[q - p] = 0;
        return 0;
    }
    return -1;
}

static int wanted(const policy_config *cfg, pg_policy p, uint64_t size, uint64_t budget)
{
    if (!cfg->enabled[p])
        return 0;
    int s_ok = 0, b_ok = 0;
    for (int i = 0; i < cfg->nsizes; i++)
        s_ok |= cfg->sizes[i] == size;
    for (int i = 0; i < cfg->nbudgets; i++)
        b_ok |= cfg->budgets[i] == budget;
    return s_ok && b_ok;
}

/* The two keys are top-level fields ahead of "online" (emu/metapaging/mpctl.c). */
static void ram_range(const char *text, const char *online, online_truth_ram *ram)
{
    if (field_u64(text, online, "ram_base", &ram->base) ||
        field_u64(text, online, "ram_bytes", &ram->bytes))
        ram->base = ram->bytes = 0;
}

int online_truth_load(const char *path, const policy_config *cfg, policy_result *out,
                      online_truth_ram *ram, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (ram)
        ram->base = ram->bytes = 0;
    out->recommended = out->opt_bound = -1;
    char *text = slurp(path, err, errlen);
    if (!text)
        return -1;
    int rc = -1;
    const char *end = text + strlen(text);
    const char *online = strstr(text, "\"online\":");
    const char *run = strstr(text, "\"run\":");
    if (!online) {
        snprintf(err, errlen, "%s: no \"online\" list (is it mtemu --metapage-sim ... "
                              "--stats-json output?)", path);
        goto done;
    }
    uint64_t accesses;
    const char *run_end = run ? strchr(run, '}') : NULL;
    if (!run || !run_end || field_u64(run, run_end, "accesses", &accesses) != 0 || !accesses) {
        snprintf(err, errlen, "%s: no \"run\": {\"accesses\": N} (written by this mtemu's "
                              "--stats-json; an older mtemu's file lacks it)", path);
        goto done;
    }
    const char *list_end = strchr(online, ']');
    if (!list_end)
        list_end = end;
    size_t cap = 0;
    for (const char *o = strchr(online, '{'); o && o < list_end; o = strchr(o + 1, '{')) {
        const char *oe = strchr(o, '}');
        if (!oe || oe > list_end) {
            snprintf(err, errlen, "%s: unterminated entry in \"online\"", path);
            goto done;
        }
        char pname[16];
        uint64_t size, budget, resident, faults, writebacks, acc;
        if (field_u64(o, oe, "metapage_bytes", &size) || field_u64(o, oe, "budget_bytes", &budget) ||
            field_str(o, oe, "policy", pname, sizeof pname) ||
            field_u64(o, oe, "resident_metapages", &resident) ||
            field_u64(o, oe, "faults", &faults) || field_u64(o, oe, "writebacks", &writebacks) ||
            field_u64(o, oe, "accesses", &acc)) {
            snprintf(err, errlen, "%s: an \"online\" entry lacks a field (metapage_bytes, "
                                  "budget_bytes, policy, resident_metapages, accesses, faults, "
                                  "writebacks)", path);
            goto done;
        }
        pg_policy p;
        if (pg_parse_policy(pname, &p) != 0 || p == PG_OPT)
            continue; /* random: no counterpart on the host */
        if (!wanted(cfg, p, size, budget))
            continue;
        if (out->n == cap) {
            cap = cap ? cap * 2 : 64;
            policy_row *rows = realloc(out->rows, cap * sizeof *rows);
            if (!rows) {
                snprintf(err, errlen, "out of memory");
                goto done;
            }
            out->rows = rows;
        }
        policy_row *row = &out->rows[out->n++];
        memset(row, 0, sizeof *row);
        row->policy = p;
        row->size = size;
        row->budget = budget;
        row->resident = (uint32_t)resident;
        row->c.accesses = acc;
        row->c.faults = faults;
        row->c.writebacks = writebacks;
        row->cost = cost_of(&cfg->cost, &row->c, size);
    }
    if (!out->n) {
        snprintf(err, errlen, "%s: no online configuration among the sizes, budgets and policies "
                              "asked for (run mtemu with e.g. --metapage-sim 4K..2M:1M..64M:lru/fifo/clock)",
                 path);
        goto done;
    }
    out->samples = accesses;
    policy_rank(out, cfg);
    if (ram)
        ram_range(text, online, ram);
    rc = 0;
done:
    if (rc)
        policy_result_free(out);
    free(text);
    return rc;
}
