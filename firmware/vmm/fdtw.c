#include "fdtw.h"

#include <string.h>

enum {
    FDTW_MAGIC = 0xd00dfeed,
    FDTW_BEGIN_NODE = 1,
    FDTW_END_NODE = 2,
    FDTW_PROP = 3,
    FDTW_END = 9,
    FDTW_HEADER = 40,
    FDTW_RSVMAP = 16, /* one all-zero entry: no reserved memory */
};

static void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void emit(struct fdtw *w, const void *data, size_t len)
{
    if (w->overflow || len > w->cap - w->pos) {
        w->overflow = true;
        return;
    }
    memcpy(w->buf + w->pos, data, len);
    w->pos += len;
}

static void emit_u32(struct fdtw *w, uint32_t v)
{
    uint8_t b[4];
    put_be32(b, v);
    emit(w, b, 4);
}

/* zero padding to the next 4-byte boundary, as every token is aligned */
static void align4(struct fdtw *w)
{
    static const uint8_t zeros[4];
    emit(w, zeros, (4 - (w->pos & 3)) & 3);
}

/* offset of `name` in the strings block, added when new */
static uint32_t string_offset(struct fdtw *w, const char *name)
{
    size_t len = strlen(name) + 1;
    for (size_t off = 0; off < w->strings_len; off += strlen(w->strings + off) + 1)
        if (strcmp(w->strings + off, name) == 0)
            return (uint32_t)off;
    if (len > sizeof w->strings - w->strings_len) {
        w->overflow = true;
        return 0;
    }
    memcpy(w->strings + w->strings_len, name, len);
    w->strings_len += len;
    return (uint32_t)(w->strings_len - len);
}

void fdtw_begin(struct fdtw *w, void *buf, size_t cap)
{
    *w = (struct fdtw){.buf = buf, .cap = cap};
    if (cap < FDTW_HEADER + FDTW_RSVMAP) {
        w->overflow = true;
        return;
    }
    memset(buf, 0, FDTW_HEADER + FDTW_RSVMAP);
    w->pos = FDTW_HEADER + FDTW_RSVMAP;
}

void fdtw_node(struct fdtw *w, const char *name)
{
    emit_u32(w, FDTW_BEGIN_NODE);
    emit(w, name, strlen(name) + 1);
    align4(w);
    w->depth++;
}

void fdtw_end_node(struct fdtw *w)
{
    emit_u32(w, FDTW_END_NODE);
    w->depth--;
}

void fdtw_prop(struct fdtw *w, const char *name, const void *value, size_t len)
{
    emit_u32(w, FDTW_PROP);
    emit_u32(w, (uint32_t)len);
    emit_u32(w, string_offset(w, name));
    emit(w, value, len);
    align4(w);
}

void fdtw_prop_u32(struct fdtw *w, const char *name, uint32_t v)
{
    uint8_t b[4];
    put_be32(b, v);
    fdtw_prop(w, name, b, 4);
}

void fdtw_prop_str(struct fdtw *w, const char *name, const char *s) { fdtw_prop(w, name, s, strlen(s) + 1); }

void fdtw_prop_reg64(struct fdtw *w, const char *name, uint64_t base, uint64_t size)
{
    uint8_t b[16];
    put_be32(b, (uint32_t)(base >> 32));
    put_be32(b + 4, (uint32_t)base);
    put_be32(b + 8, (uint32_t)(size >> 32));
    put_be32(b + 12, (uint32_t)size);
    fdtw_prop(w, name, b, sizeof b);
}

size_t fdtw_finish(struct fdtw *w)
{
    emit_u32(w, FDTW_END);
    size_t struct_end = w->pos;
    emit(w, w->strings, w->strings_len);
    if (w->overflow || w->depth != 0)
        return 0;
    uint8_t *h = w->buf;
    put_be32(h + 0, FDTW_MAGIC);
    put_be32(h + 4, (uint32_t)w->pos);                       /* totalsize */
    put_be32(h + 8, FDTW_HEADER + FDTW_RSVMAP);                /* off_dt_struct */
    put_be32(h + 12, (uint32_t)struct_end);                  /* off_dt_strings */
    put_be32(h + 16, FDTW_HEADER);                            /* off_mem_rsvmap */
    put_be32(h + 20, 17);                                    /* version */
    put_be32(h + 24, 16);                                    /* last_comp_version */
    put_be32(h + 28, 0);                                     /* boot_cpuid_phys */
    put_be32(h + 32, (uint32_t)w->strings_len);              /* size_dt_strings */
    put_be32(h + 36, (uint32_t)(struct_end - FDTW_HEADER - FDTW_RSVMAP)); /* size_dt_struct */
    return w->pos;
}
