#include "emu/gdb/rsp.h"

void rsp_parser_init(rsp_parser *p)
{
    p->state = RSP_IDLE;
    p->overflow = false;
    p->len = 0;
    p->sum = p->given = 0;
    p->buf[0] = 0;
}

rsp_event rsp_feed(rsp_parser *p, uint8_t b)
{
    switch (p->state) {
    case RSP_IDLE:
        if (b == '$') {
            p->state = RSP_DATA;
            p->len = 0;
            p->sum = 0;
            p->overflow = false;
            return RSP_NONE;
        }
        if (b == 0x03)
            return RSP_INTERRUPT;
        if (b == '+')
            return RSP_ACK;
        if (b == '-')
            return RSP_NAK;
        return RSP_NONE; /* noise between packets is ignored, as gdb does */
    case RSP_DATA:
        if (b == '#') {
            p->state = RSP_SUM1;
            return RSP_NONE;
        }
        if (b == '$') { /* a new packet starts: the unfinished one is dropped */
            p->len = 0;
            p->sum = 0;
            p->overflow = false;
            return RSP_NONE;
        }
        p->sum = (uint8_t)(p->sum + b);
        if (p->len < RSP_PACKET_MAX)
            p->buf[p->len++] = (char)b;
        else
            p->overflow = true;
        return RSP_NONE;
    case RSP_SUM1: {
        int d = rsp_hex_digit((char)b);
        p->given = (uint8_t)((d < 0 ? 0 : d) << 4);
        p->state = d < 0 ? RSP_IDLE : RSP_SUM2;
        return d < 0 ? RSP_BAD : RSP_NONE;
    }
    case RSP_SUM2: {
        int d = rsp_hex_digit((char)b);
        p->state = RSP_IDLE;
        p->buf[p->len] = 0;
        if (d < 0 || p->overflow || (uint8_t)(p->given | d) != p->sum)
            return RSP_BAD;
        return RSP_PACKET;
    }
    }
    return RSP_NONE;
}

int rsp_hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool rsp_parse_hex(const char **s, uint64_t *out)
{
    const char *p = *s;
    uint64_t v = 0;
    int n = 0;
    for (int d; (d = rsp_hex_digit(*p)) >= 0; p++) {
        if (++n > 16)
            return false;
        v = v << 4 | (uint64_t)d;
    }
    if (n == 0)
        return false;
    *s = p;
    *out = v;
    return true;
}

void rsp_hex_encode(char *dst, const uint8_t *src, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        dst[2 * i] = digits[src[i] >> 4];
        dst[2 * i + 1] = digits[src[i] & 15];
    }
}

bool rsp_hex_decode(uint8_t *dst, const char *src, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int hi = rsp_hex_digit(src[2 * i]), lo = hi < 0 ? -1 : rsp_hex_digit(src[2 * i + 1]);
        if (lo < 0)
            return false;
        dst[i] = (uint8_t)(hi << 4 | lo);
    }
    return true;
}

size_t rsp_unescape(uint8_t *dst, const char *src, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (src[i] == '}') {
            if (++i == n)
                return (size_t)-1;
            dst[o++] = (uint8_t)(src[i] ^ 0x20);
        } else {
            dst[o++] = (uint8_t)src[i];
        }
    }
    return o;
}
