/* fpdiff — bare-metal RV64GC+Zfh program for differential testing of F, D and Zfh.
 *
 * For a deterministic pseudo-random stream of operands, rich in special values (signed
 * zeros, infinities, quiet and signalling NaNs, subnormals, the extremes of the normal
 * range, values next to integer-conversion bounds, halfway cases), it executes every F/D
 * operation in every rounding mode, both static (rm field) and dynamic (frm), and prints
 *
 *     <op> <rm> <operand>... -> <result> <fflags>
 *
 * in hex on the UART, one line per operation.  rm is 0..4 for a static rounding mode,
 * d0..d4 for the dynamic mode with frm set to that value, and "-" for operations without
 * a rounding mode.  Single-precision values are printed as 8 hex digits when correctly
 * NaN-boxed in their 64-bit register and as 16 otherwise, halves as 4 digits when boxed and as
 * 16 otherwise; doubles and integers as 16.
 * A few further lines probe illegal-instruction rules (reserved rounding modes, FS=Off) and
 * mstatus.FS tracking.  The last line is "end <number of lines before it>".
 *
 * The same binary runs on QEMU and on mtemu; tests/fp/fpcheck recomputes every line with
 * emu/cpu/softfp, and the two outputs can be compared line by line.
 *
 * Build-time parameters: SEED (operand stream), PER_MODE (operations per op and rounding mode),
 * PER_MODE_H (the same for the half-precision ops).
 */
#include <stdint.h>

#ifndef SEED
#define SEED 0x243f6a8885a308d3ull
#endif
#ifndef PER_MODE
#define PER_MODE 1000
#endif
#ifndef PER_MODE_H
#define PER_MODE_H (PER_MODE / 2)
#endif

/* Freestanding: the compiler may still emit calls to memset/memcpy. */
void *memset(void *d, int c, unsigned long n);
void *memset(void *d, int c, unsigned long n)
{
    unsigned char *p = d;
    while (n--)
        *p++ = (unsigned char)c;
    return d;
}
void *memcpy(void *d, const void *s, unsigned long n);
void *memcpy(void *d, const void *s, unsigned long n)
{
    unsigned char *p = d;
    const unsigned char *q = s;
    while (n--)
        *p++ = *q++;
    return d;
}

/* ---------------------------------------------------------------- UART */
#define UART_BASE 0x10000000ul
static void putc_uart(char c)
{
    volatile uint8_t *uart = (volatile uint8_t *)UART_BASE;
    while (!(uart[5] & 0x20)) /* LSR.THRE */
        ;
    uart[0] = (uint8_t)c;
}

/* Output is staged in a line buffer: one tight loop per line. */
typedef struct {
    char buf[160];
    int len;
} line_t;

static void lput(line_t *l, char c) { l->buf[l->len++] = c; }
static void lstr(line_t *l, const char *s)
{
    while (*s)
        lput(l, *s++);
}
static void lhex(line_t *l, uint64_t v, int digits)
{
    for (int i = digits - 1; i >= 0; i--)
        lput(l, "0123456789abcdef"[(v >> (4 * i)) & 15]);
}
static void lflush(line_t *l)
{
    lput(l, '\n');
    for (int i = 0; i < l->len; i++)
        putc_uart(l->buf[i]);
    l->len = 0;
}

/* ---------------------------------------------------------------- PRNG (xorshift64*) */
typedef struct {
    uint64_t s;
} rng_t;
static uint64_t rnd(rng_t *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545f4914f6cdd1dull;
}
static uint64_t below(rng_t *r, uint64_t n) { return (rnd(r) >> 16) % n; }

/* ---------------------------------------------------------------- operand generators */
static const uint64_t special64[] = {
    0x0000000000000000ull, 0x8000000000000000ull, /* +-0 */
    0x7ff0000000000000ull, 0xfff0000000000000ull, /* +-inf */
    0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff8000000000123ull, /* qNaN */
    0x7ff0000000000001ull, 0xfff4000000000000ull, 0x7ff7ffffffffffffull, /* sNaN */
    0x0000000000000001ull, 0x800fffffffffffffull, 0x0008000000000000ull, /* subnormal */
    0x0010000000000000ull, 0x8010000000000000ull, 0x001fffffffffffffull, /* min normal */
    0x7fefffffffffffffull, 0xffefffffffffffffull, 0x7fe0000000000000ull, /* max normal */
    0x3ff0000000000000ull, 0xbff0000000000000ull, 0x3fe0000000000000ull, /* 1, -1, 0.5 */
    0x3ff8000000000000ull, 0x4004000000000000ull, 0xbfe0000000000000ull, /* 1.5 2.5 -.5 */
    0x41dfffffffc00000ull, 0x41e0000000000000ull, 0xc1e0000000000000ull, /* 2^31-1, +-2^31 */
    0x41dfffffffe00000ull, 0xc1e0000000100000ull, 0x41efffffffe00000ull, /* 2^31-.5 ... */
    0x41f0000000000000ull, 0x41effffffff00000ull, 0xbfefffffffffffffull, /* 2^32, 2^32-.5 */
    0x43e0000000000000ull, 0xc3e0000000000000ull, 0x43dfffffffffffffull, /* 2^63 */
    0xc3e0000000000001ull, 0x43f0000000000000ull, 0x43efffffffffffffull, /* 2^64 */
    0x4340000000000000ull, 0x4340000000000001ull, 0x433fffffffffffffull, /* 2^53 */
    0x36a0000000000000ull, 0x3690000000000000ull, 0x380fffffffffffffull, /* f32 tiny */
    0x47efffffe0000000ull, 0x47effffff0000000ull, 0x47f0000000000000ull, /* f32 max */
};
static const uint32_t special32[] = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000,             /* +-0 +-inf */
    0x7fc00000, 0xffc00000, 0x7fc00123,                         /* qNaN */
    0x7f800001, 0xffa00000, 0x7fbfffff,                         /* sNaN */
    0x00000001, 0x807fffff, 0x00400000,                         /* subnormal */
    0x00800000, 0x80800000, 0x00ffffff,                         /* min normal */
    0x7f7fffff, 0xff7fffff, 0x7f000000,                         /* max normal */
    0x3f800000, 0xbf800000, 0x3f000000, 0x3fc00000, 0x40200000, /* 1 -1 .5 1.5 2.5 */
    0xbf000000, 0xbfc00000, 0x4effffff, 0x4f000000, 0xcf000000, /* 2^31 */
    0xcf000001, 0x4f7fffff, 0x4f800000, 0x5effffff, 0x5f000000, /* 2^32, 2^63 */
    0xdf000000, 0xdf000001, 0x5f7fffff, 0x5f800000, 0x4b800000, /* 2^64, 2^24 */
    0x4b7fffff, 0x4b800001, 0x33800000, 0x33000000, 0x0c000000, /* 2^24, tiny */
};
static const uint16_t special16[] = {
    0x0000, 0x8000, 0x7c00, 0xfc00,                 /* +-0 +-inf */
    0x7e00, 0xfe00, 0x7e12, 0x7c01, 0xfd00, 0x7dff, /* qNaN, sNaN */
    0x0001, 0x83ff, 0x0200, 0x0400, 0x8400, 0x07ff, /* subnormal, min normal */
    0x7bff, 0xfbff, 0x7800, 0x3c00, 0xbc00, 0x3800, /* max normal, 1 -1 .5 */
    0x3e00, 0x4100, 0xb800, 0x6800, 0x67ff, 0x6801, /* 1.5 2.5 -.5 2^11 */
    0x1400, 0x1000, 0x0c00, 0x7bfe, 0xf800, 0x5bff, /* tiny, large */
};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A value with a random exponent field (given range) and fraction. */
static uint64_t make64(rng_t *r, uint64_t exp, uint64_t frac) { return (rnd(r) & (1ull << 63)) | (exp << 52) | frac; }
static uint32_t make32(rng_t *r, uint32_t exp, uint32_t frac) { return ((uint32_t)rnd(r) & 0x80000000u) | (exp << 23) | frac; }

/* fraction with few significant bits, so that halfway and exact cases are frequent */
static uint64_t sparse_frac(rng_t *r, int fbits)
{
    int keep = (int)below(r, (uint64_t)fbits + 1);
    uint64_t f = rnd(r) & ((1ull << fbits) - 1);
    return keep >= fbits ? f : f & ~((1ull << (fbits - keep)) - 1);
}

static uint64_t gen_f64(rng_t *r, uint64_t prev)
{
    uint64_t fr = rnd(r) & 0xfffffffffffffull;
    switch (below(r, 16)) {
    case 0: case 1: case 2: return special64[below(r, COUNT(special64))];
    case 3: return rnd(r);
    case 4: return make64(r, 0, fr);                                  /* subnormal */
    case 5: return make64(r, 1 + below(r, 3), fr);                     /* tiny normal */
    case 6: case 7: return make64(r, 1023 - 8 + below(r, 16), fr);    /* near 1 */
    case 8: return make64(r, 2046 - below(r, 3), fr);                  /* huge */
    case 9: return make64(r, 1023 + below(r, 66), sparse_frac(r, 52)); /* integers, halves */
    case 10: return make64(r, 1023 - 30 + below(r, 60), sparse_frac(r, 52));
    case 11: /* f32 rounding boundaries: low 29 bits near the halfway point */
        return make64(r, 1023 - 150 + below(r, 300), (fr & ~0x1fffffffull) | (0x10000000ull + below(r, 3) - 1));
    case 12: return prev ^ (1ull << below(r, 64));                     /* neighbour */
    case 13: return prev ^ (1ull << 63);                                /* negation */
    case 14: return prev + below(r, 5) - 2;                             /* ulps away */
    default: return make64(r, below(r, 2048), sparse_frac(r, 52));
    }
}

static uint32_t gen_f32(rng_t *r, uint32_t prev)
{
    uint32_t fr = (uint32_t)rnd(r) & 0x7fffff;
    switch (below(r, 16)) {
    case 0: case 1: case 2: return special32[below(r, COUNT(special32))];
    case 3: return (uint32_t)rnd(r);
    case 4: return make32(r, 0, fr);
    case 5: return make32(r, 1 + (uint32_t)below(r, 3), fr);
    case 6: case 7: return make32(r, 127 - 8 + (uint32_t)below(r, 16), fr);
    case 8: return make32(r, 254 - (uint32_t)below(r, 3), fr);
    case 9: return make32(r, 127 + (uint32_t)below(r, 66), (uint32_t)sparse_frac(r, 23));
    case 10: return make32(r, 127 - 30 + (uint32_t)below(r, 60), (uint32_t)sparse_frac(r, 23));
    case 11: return make32(r, (uint32_t)below(r, 40), (uint32_t)sparse_frac(r, 23)); /* subnormal results */
    case 12: return prev ^ (1u << below(r, 32));
    case 13: return prev ^ 0x80000000u;
    case 14: return prev + (uint32_t)below(r, 5) - 2;
    default: return make32(r, (uint32_t)below(r, 256), (uint32_t)sparse_frac(r, 23));
    }
}

static uint16_t make16(rng_t *r, uint32_t exp, uint32_t frac) { return (uint16_t)(((uint32_t)rnd(r) & 0x8000u) | (exp << 10) | frac); }
static uint16_t gen_f16(rng_t *r, uint16_t prev)
{
    uint32_t fr = (uint32_t)rnd(r) & 0x3ff;
    switch (below(r, 16)) {
    case 0: case 1: case 2: return special16[below(r, COUNT(special16))];
    case 3: return (uint16_t)rnd(r);
    case 4: return make16(r, 0, fr);
    case 5: return make16(r, 1 + (uint32_t)below(r, 3), fr);
    case 6: case 7: return make16(r, 15 - 4 + (uint32_t)below(r, 8), fr);
    case 8: return make16(r, 30 - (uint32_t)below(r, 3), fr);
    case 9: return make16(r, 15 + (uint32_t)below(r, 16), (uint32_t)sparse_frac(r, 10));
    case 10: return make16(r, (uint32_t)below(r, 12), (uint32_t)sparse_frac(r, 10)); /* subnormal results */
    case 11: return (uint16_t)(prev ^ (1u << below(r, 16)));
    case 12: return (uint16_t)(prev ^ 0x8000u);
    case 13: return (uint16_t)(prev + below(r, 5) - 2);
    default: return make16(r, (uint32_t)below(r, 32), (uint32_t)sparse_frac(r, 10));
    }
}
/* A half in a 64-bit register: boxed in bits 63..16, sometimes not (reads as 0x7e00). */
static uint64_t box16(rng_t *r, uint16_t v)
{
    switch (below(r, 40)) {
    case 0: return v;
    case 1: return (rnd(r) << 16) | v;
    case 2: return 0xffffffff7fff0000ull | v;  /* one bit short */
    case 3: return 0xffffffff00000000ull | v;  /* boxed as a single, not as a half */
    default: return 0xffffffffffff0000ull | v;
    }
}

/* A single in a 64-bit register: almost always NaN-boxed, sometimes not (must read as the
 * canonical NaN). */
static uint64_t box32(rng_t *r, uint32_t v)
{
    switch (below(r, 40)) {
    case 0: return v;                                   /* upper half zero */
    case 1: return (rnd(r) << 32) | v;                  /* random upper half */
    case 2: return 0x7fffffff00000000ull | v;           /* one bit short */
    default: return 0xffffffff00000000ull | v;
    }
}

static uint64_t gen_int(rng_t *r, uint64_t prev)
{
    int len = (int)below(r, 65);
    uint64_t v = len == 64 ? rnd(r) : rnd(r) & ((1ull << len) - 1);
    switch (below(r, 12)) {
    case 0: return v;
    case 1: return (uint64_t)0 - v;
    case 2: { /* exactly or nearly halfway for f32 / f64 rounding */
        static const int precisions[] = {11, 24, 53};
        int p = precisions[below(r, 3)];
        int l = p + 1 + (int)below(r, 64 - p);
        uint64_t x = (1ull << (l - 1)) | (rnd(r) & ((1ull << (l - 1)) - 1));
        uint64_t half = 1ull << (l - p - 1);
        x = (x & ~((half << 1) - 1)) | half;
        x += below(r, 3) - 1;
        return below(r, 2) ? x : (uint64_t)0 - x;
    }
    case 3: { /* bounds */
        static const uint64_t b[] = {0, 1, ~0ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                     0x7fffffff, 0x80000000ull, 0xffffffffull, 0xffffffff80000000ull,
                                     0x1000001, 0x20000000000001ull, 0xffffff7fffffffffull};
        return b[below(r, COUNT(b))];
    }
    case 4: return prev + below(r, 3) - 1;
    case 5: return (uint64_t)(int64_t)(int32_t)v; /* sign-extended 32-bit */
    case 6: return v << below(r, 64);
    default: return rnd(r) >> below(r, 64);
    }
}

/* ---------------------------------------------------------------- the operations */
typedef uint64_t (*op_fn)(uint64_t a, uint64_t b, uint64_t c);

#define LOAD3 "fmv.d.x ft0,%1\n\tfmv.d.x ft1,%2\n\tfmv.d.x ft2,%3\n\t"
#define DEF(name, body)                                                                             \
    static uint64_t name(uint64_t a, uint64_t b, uint64_t c)                                       \
    {                                                                                               \
        uint64_t res;                                                                               \
        __asm__ volatile(LOAD3 body : "=&r"(res) : "r"(a), "r"(b), "r"(c) : "ft0", "ft1", "ft2", "ft3"); \
        return res;                                                                                 \
    }
/* bodies by signature: f = f op f, etc.; RM is the rounding-mode operand text */
#define B_FFF_R(insn, RM) insn " ft3,ft0,ft1," RM "\n\tfmv.x.d %0,ft3"
#define B_FF_R(insn, RM) insn " ft3,ft0," RM "\n\tfmv.x.d %0,ft3"
#define B_FFFF_R(insn, RM) insn " ft3,ft0,ft1,ft2," RM "\n\tfmv.x.d %0,ft3"
#define B_XF_R(insn, RM) insn " %0,ft0," RM
#define B_FX_R(insn, RM) insn " ft3,%1," RM "\n\tfmv.x.d %0,ft3"
#define B_FFF(insn) insn " ft3,ft0,ft1\n\tfmv.x.d %0,ft3"
#define B_XFF(insn) insn " %0,ft0,ft1"
#define B_XF(insn) insn " %0,ft0"
#define B_FX(insn) insn " ft3,%1\n\tfmv.x.d %0,ft3"

#define DEF_RM(name, insn, B)                                                                      \
    DEF(name##_0, B(insn, "rne")) DEF(name##_1, B(insn, "rtz")) DEF(name##_2, B(insn, "rdn"))      \
    DEF(name##_3, B(insn, "rup")) DEF(name##_4, B(insn, "rmm")) DEF(name##_7, B(insn, "dyn"))
/* binutils 2.40 rejects an rm operand on exact conversions; encode those with .insn
 * (func7 and rs2 given in `tail`). */
#define B_INSN(tail, RM) ".insn r 0x53, " RM ", " tail "\n\tfmv.x.d %0,ft3"
#define DEF_RMN(name, tail)                                                                        \
    DEF(name##_0, B_INSN(tail, "0")) DEF(name##_1, B_INSN(tail, "1")) DEF(name##_2, B_INSN(tail, "2")) \
    DEF(name##_3, B_INSN(tail, "3")) DEF(name##_4, B_INSN(tail, "4")) DEF(name##_7, B_INSN(tail, "7"))
#define FNS(name) {name##_0, name##_1, name##_2, name##_3, name##_4, name##_7}

DEF_RM(fadd_s, "fadd.s", B_FFF_R)   DEF_RM(fadd_d, "fadd.d", B_FFF_R)
DEF_RM(fsub_s, "fsub.s", B_FFF_R)   DEF_RM(fsub_d, "fsub.d", B_FFF_R)
DEF_RM(fmul_s, "fmul.s", B_FFF_R)   DEF_RM(fmul_d, "fmul.d", B_FFF_R)
DEF_RM(fdiv_s, "fdiv.s", B_FFF_R)   DEF_RM(fdiv_d, "fdiv.d", B_FFF_R)
DEF_RM(fsqrt_s, "fsqrt.s", B_FF_R)  DEF_RM(fsqrt_d, "fsqrt.d", B_FF_R)
DEF_RM(fmadd_s, "fmadd.s", B_FFFF_R)   DEF_RM(fmadd_d, "fmadd.d", B_FFFF_R)
DEF_RM(fmsub_s, "fmsub.s", B_FFFF_R)   DEF_RM(fmsub_d, "fmsub.d", B_FFFF_R)
DEF_RM(fnmsub_s, "fnmsub.s", B_FFFF_R) DEF_RM(fnmsub_d, "fnmsub.d", B_FFFF_R)
DEF_RM(fnmadd_s, "fnmadd.s", B_FFFF_R) DEF_RM(fnmadd_d, "fnmadd.d", B_FFFF_R)
DEF_RM(fcvt_w_s, "fcvt.w.s", B_XF_R)   DEF_RM(fcvt_w_d, "fcvt.w.d", B_XF_R)
DEF_RM(fcvt_wu_s, "fcvt.wu.s", B_XF_R) DEF_RM(fcvt_wu_d, "fcvt.wu.d", B_XF_R)
DEF_RM(fcvt_l_s, "fcvt.l.s", B_XF_R)   DEF_RM(fcvt_l_d, "fcvt.l.d", B_XF_R)
DEF_RM(fcvt_lu_s, "fcvt.lu.s", B_XF_R) DEF_RM(fcvt_lu_d, "fcvt.lu.d", B_XF_R)
DEF_RM(fcvt_s_w, "fcvt.s.w", B_FX_R)   DEF_RMN(fcvt_d_w, "0x69, ft3, %1, x0")
DEF_RM(fcvt_s_wu, "fcvt.s.wu", B_FX_R) DEF_RMN(fcvt_d_wu, "0x69, ft3, %1, x1")
DEF_RM(fcvt_s_l, "fcvt.s.l", B_FX_R)   DEF_RM(fcvt_d_l, "fcvt.d.l", B_FX_R)
DEF_RM(fcvt_s_lu, "fcvt.s.lu", B_FX_R) DEF_RM(fcvt_d_lu, "fcvt.d.lu", B_FX_R)
DEF_RM(fcvt_s_d, "fcvt.s.d", B_FF_R)   DEF_RMN(fcvt_d_s, "0x21, ft3, ft0, x0")

/* Zfh */
DEF_RM(fadd_h, "fadd.h", B_FFF_R)      DEF_RM(fsub_h, "fsub.h", B_FFF_R)
DEF_RM(fmul_h, "fmul.h", B_FFF_R)      DEF_RM(fdiv_h, "fdiv.h", B_FFF_R)
DEF_RM(fsqrt_h, "fsqrt.h", B_FF_R)     DEF_RM(fmadd_h, "fmadd.h", B_FFFF_R)
DEF_RM(fmsub_h, "fmsub.h", B_FFFF_R)   DEF_RM(fnmsub_h, "fnmsub.h", B_FFFF_R)
DEF_RM(fnmadd_h, "fnmadd.h", B_FFFF_R)
DEF_RM(fcvt_w_h, "fcvt.w.h", B_XF_R)   DEF_RM(fcvt_wu_h, "fcvt.wu.h", B_XF_R)
DEF_RM(fcvt_l_h, "fcvt.l.h", B_XF_R)   DEF_RM(fcvt_lu_h, "fcvt.lu.h", B_XF_R)
DEF_RM(fcvt_h_w, "fcvt.h.w", B_FX_R)   DEF_RM(fcvt_h_wu, "fcvt.h.wu", B_FX_R)
DEF_RM(fcvt_h_l, "fcvt.h.l", B_FX_R)   DEF_RM(fcvt_h_lu, "fcvt.h.lu", B_FX_R)
DEF_RM(fcvt_h_s, "fcvt.h.s", B_FF_R)   DEF_RM(fcvt_h_d, "fcvt.h.d", B_FF_R)
DEF_RMN(fcvt_s_h, "0x20, ft3, ft0, x2") DEF_RMN(fcvt_d_h, "0x21, ft3, ft0, x2")
DEF(fsgnj_h, B_FFF("fsgnj.h"))   DEF(fsgnjn_h, B_FFF("fsgnjn.h")) DEF(fsgnjx_h, B_FFF("fsgnjx.h"))
DEF(fmin_h, B_FFF("fmin.h"))     DEF(fmax_h, B_FFF("fmax.h"))
DEF(feq_h, B_XFF("feq.h"))       DEF(flt_h, B_XFF("flt.h"))       DEF(fle_h, B_XFF("fle.h"))
DEF(fclass_h, B_XF("fclass.h"))  DEF(fmv_x_h, B_XF("fmv.x.h"))    DEF(fmv_h_x, B_FX("fmv.h.x"))

DEF(fsgnj_s, B_FFF("fsgnj.s"))   DEF(fsgnj_d, B_FFF("fsgnj.d"))
DEF(fsgnjn_s, B_FFF("fsgnjn.s")) DEF(fsgnjn_d, B_FFF("fsgnjn.d"))
DEF(fsgnjx_s, B_FFF("fsgnjx.s")) DEF(fsgnjx_d, B_FFF("fsgnjx.d"))
DEF(fmin_s, B_FFF("fmin.s"))     DEF(fmin_d, B_FFF("fmin.d"))
DEF(fmax_s, B_FFF("fmax.s"))     DEF(fmax_d, B_FFF("fmax.d"))
DEF(feq_s, B_XFF("feq.s"))       DEF(feq_d, B_XFF("feq.d"))
DEF(flt_s, B_XFF("flt.s"))       DEF(flt_d, B_XFF("flt.d"))
DEF(fle_s, B_XFF("fle.s"))       DEF(fle_d, B_XFF("fle.d"))
DEF(fclass_s, B_XF("fclass.s"))  DEF(fclass_d, B_XF("fclass.d"))
DEF(fmv_x_w, B_XF("fmv.x.w"))    DEF(fmv_x_d, B_XF("fmv.x.d"))
DEF(fmv_w_x, B_FX("fmv.w.x"))    DEF(fmv_d_x, B_FX("fmv.d.x"))

/* loads and stores: flw must NaN-box, fsw must store the low 32 bits untouched */
static uint64_t flw_op(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b, (void)c;
    volatile uint32_t mem = (uint32_t)a;
    uint64_t res;
    __asm__ volatile("flw ft3,0(%1)\n\tfmv.x.d %0,ft3" : "=r"(res) : "r"(&mem) : "ft3", "memory");
    return res;
}
static uint64_t fsw_op(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b, (void)c;
    volatile uint64_t mem = 0x5555555555555555ull;
    __asm__ volatile("fmv.d.x ft0,%1\n\tfsw ft0,0(%0)" : : "r"(&mem), "r"(a) : "ft0", "memory");
    return mem;
}
/* flh must NaN-box, fsh must store the low 16 bits untouched */
static uint64_t flh_op(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b, (void)c;
    volatile uint16_t mem = (uint16_t)a;
    uint64_t res;
    __asm__ volatile("flh ft3,0(%1)\n\tfmv.x.d %0,ft3" : "=r"(res) : "r"(&mem) : "ft3", "memory");
    return res;
}
static uint64_t fsh_op(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b, (void)c;
    volatile uint64_t mem = 0x5555555555555555ull;
    __asm__ volatile("fmv.d.x ft0,%1\n\tfsh ft0,0(%0)" : : "r"(&mem), "r"(a) : "ft0", "memory");
    return mem;
}
static uint64_t fld_op(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b, (void)c;
    volatile uint64_t mem = a;
    uint64_t res;
    __asm__ volatile("fld ft3,0(%1)\n\tfmv.x.d %0,ft3" : "=r"(res) : "r"(&mem) : "ft3", "memory");
    return res;
}

static uint64_t fsd_op(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b, (void)c;
    volatile uint64_t mem = 0x5555555555555555ull;
    __asm__ volatile("fmv.d.x ft0,%1\n\tfsd ft0,0(%0)" : : "r"(&mem), "r"(a) : "ft0", "memory");
    return mem;
}
/* The compressed forms, written explicitly: C.FLD/C.FSD need x8-x15 and f8-f15, and
 * C.FLDSP/C.FSDSP address a slot the asm reserves below sp itself. */
static uint64_t c_fld_op(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b, (void)c;
    volatile uint64_t mem[2] = {0, a};
    register volatile uint64_t *p __asm__("a5") = mem;
    uint64_t res;
    __asm__ volatile("c.fld fa0,8(%1)\n\tfmv.x.d %0,fa0" : "=r"(res) : "r"(p) : "fa0", "memory");
    return res;
}
static uint64_t c_fsd_op(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b, (void)c;
    volatile uint64_t mem[2] = {0, 0x5555555555555555ull};
    register volatile uint64_t *p __asm__("a5") = mem;
    __asm__ volatile("fmv.d.x fa0,%1\n\tc.fsd fa0,8(%0)" : : "r"(p), "r"(a) : "fa0", "memory");
    return mem[1];
}
static uint64_t c_fldsp_op(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b, (void)c;
    uint64_t res;
    __asm__ volatile("addi sp,sp,-16\n\tsd %1,8(sp)\n\tc.fldsp ft3,8(sp)\n\taddi sp,sp,16\n\tfmv.x.d %0,ft3"
                     : "=r"(res) : "r"(a) : "ft3", "memory");
    return res;
}
static uint64_t c_fsdsp_op(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b, (void)c;
    uint64_t res;
    __asm__ volatile("fmv.d.x ft3,%1\n\taddi sp,sp,-16\n\tsd zero,8(sp)\n\tc.fsdsp ft3,8(sp)\n\tld %0,8(sp)\n\taddi sp,sp,16"
                     : "=&r"(res) : "r"(a) : "ft3", "memory");
    return res;
}

/* Signature letters: result then operands.  H = half, S = single in an f register, D = double,
 * X = integer register (printed as 64 bits), M = memory word (x register operand). */
typedef struct {
    const char *name;
    const char *sig;
    int has_rm;
    op_fn fn[6]; /* rm 0..4, dyn; ops without rm use fn[0] */
} op_t;

static const op_t ops[] = {
    {"fadd.s", "SSS", 1, FNS(fadd_s)},       {"fadd.d", "DDD", 1, FNS(fadd_d)},
    {"fsub.s", "SSS", 1, FNS(fsub_s)},       {"fsub.d", "DDD", 1, FNS(fsub_d)},
    {"fmul.s", "SSS", 1, FNS(fmul_s)},       {"fmul.d", "DDD", 1, FNS(fmul_d)},
    {"fdiv.s", "SSS", 1, FNS(fdiv_s)},       {"fdiv.d", "DDD", 1, FNS(fdiv_d)},
    {"fsqrt.s", "SS", 1, FNS(fsqrt_s)},      {"fsqrt.d", "DD", 1, FNS(fsqrt_d)},
    {"fmadd.s", "SSSS", 1, FNS(fmadd_s)},    {"fmadd.d", "DDDD", 1, FNS(fmadd_d)},
    {"fmsub.s", "SSSS", 1, FNS(fmsub_s)},    {"fmsub.d", "DDDD", 1, FNS(fmsub_d)},
    {"fnmsub.s", "SSSS", 1, FNS(fnmsub_s)},  {"fnmsub.d", "DDDD", 1, FNS(fnmsub_d)},
    {"fnmadd.s", "SSSS", 1, FNS(fnmadd_s)},  {"fnmadd.d", "DDDD", 1, FNS(fnmadd_d)},
    {"fcvt.w.s", "XS", 1, FNS(fcvt_w_s)},    {"fcvt.w.d", "XD", 1, FNS(fcvt_w_d)},
    {"fcvt.wu.s", "XS", 1, FNS(fcvt_wu_s)},  {"fcvt.wu.d", "XD", 1, FNS(fcvt_wu_d)},
    {"fcvt.l.s", "XS", 1, FNS(fcvt_l_s)},    {"fcvt.l.d", "XD", 1, FNS(fcvt_l_d)},
    {"fcvt.lu.s", "XS", 1, FNS(fcvt_lu_s)},  {"fcvt.lu.d", "XD", 1, FNS(fcvt_lu_d)},
    {"fcvt.s.w", "SX", 1, FNS(fcvt_s_w)},    {"fcvt.d.w", "DX", 1, FNS(fcvt_d_w)},
    {"fcvt.s.wu", "SX", 1, FNS(fcvt_s_wu)},  {"fcvt.d.wu", "DX", 1, FNS(fcvt_d_wu)},
    {"fcvt.s.l", "SX", 1, FNS(fcvt_s_l)},    {"fcvt.d.l", "DX", 1, FNS(fcvt_d_l)},
    {"fcvt.s.lu", "SX", 1, FNS(fcvt_s_lu)},  {"fcvt.d.lu", "DX", 1, FNS(fcvt_d_lu)},
    {"fcvt.s.d", "SD", 1, FNS(fcvt_s_d)},    {"fcvt.d.s", "DS", 1, FNS(fcvt_d_s)},
    {"fsgnj.s", "SSS", 0, {fsgnj_s}},        {"fsgnj.d", "DDD", 0, {fsgnj_d}},
    {"fsgnjn.s", "SSS", 0, {fsgnjn_s}},      {"fsgnjn.d", "DDD", 0, {fsgnjn_d}},
    {"fsgnjx.s", "SSS", 0, {fsgnjx_s}},      {"fsgnjx.d", "DDD", 0, {fsgnjx_d}},
    {"fmin.s", "SSS", 0, {fmin_s}},          {"fmin.d", "DDD", 0, {fmin_d}},
    {"fmax.s", "SSS", 0, {fmax_s}},          {"fmax.d", "DDD", 0, {fmax_d}},
    {"feq.s", "XSS", 0, {feq_s}},            {"feq.d", "XDD", 0, {feq_d}},
    {"flt.s", "XSS", 0, {flt_s}},            {"flt.d", "XDD", 0, {flt_d}},
    {"fle.s", "XSS", 0, {fle_s}},            {"fle.d", "XDD", 0, {fle_d}},
    {"fclass.s", "XS", 0, {fclass_s}},       {"fclass.d", "XD", 0, {fclass_d}},
    {"fmv.x.w", "XS", 0, {fmv_x_w}},         {"fmv.x.d", "XD", 0, {fmv_x_d}},
    {"fmv.w.x", "SX", 0, {fmv_w_x}},         {"fmv.d.x", "DX", 0, {fmv_d_x}},
    {"flw", "SX", 0, {flw_op}},              {"fsw", "XS", 0, {fsw_op}},
    {"fld", "DX", 0, {fld_op}},              {"fsd", "XD", 0, {fsd_op}},
    {"c.fld", "DX", 0, {c_fld_op}},          {"c.fsd", "XD", 0, {c_fsd_op}},
    {"c.fldsp", "DX", 0, {c_fldsp_op}},      {"c.fsdsp", "XD", 0, {c_fsdsp_op}},
    /* Zfh */
    {"fadd.h", "HHH", 1, FNS(fadd_h)},       {"fsub.h", "HHH", 1, FNS(fsub_h)},
    {"fmul.h", "HHH", 1, FNS(fmul_h)},       {"fdiv.h", "HHH", 1, FNS(fdiv_h)},
    {"fsqrt.h", "HH", 1, FNS(fsqrt_h)},      {"fmadd.h", "HHHH", 1, FNS(fmadd_h)},
    {"fmsub.h", "HHHH", 1, FNS(fmsub_h)},    {"fnmsub.h", "HHHH", 1, FNS(fnmsub_h)},
    {"fnmadd.h", "HHHH", 1, FNS(fnmadd_h)},
    {"fcvt.w.h", "XH", 1, FNS(fcvt_w_h)},    {"fcvt.wu.h", "XH", 1, FNS(fcvt_wu_h)},
    {"fcvt.l.h", "XH", 1, FNS(fcvt_l_h)},    {"fcvt.lu.h", "XH", 1, FNS(fcvt_lu_h)},
    {"fcvt.h.w", "HX", 1, FNS(fcvt_h_w)},    {"fcvt.h.wu", "HX", 1, FNS(fcvt_h_wu)},
    {"fcvt.h.l", "HX", 1, FNS(fcvt_h_l)},    {"fcvt.h.lu", "HX", 1, FNS(fcvt_h_lu)},
    {"fcvt.h.s", "HS", 1, FNS(fcvt_h_s)},    {"fcvt.h.d", "HD", 1, FNS(fcvt_h_d)},
    {"fcvt.s.h", "SH", 1, FNS(fcvt_s_h)},    {"fcvt.d.h", "DH", 1, FNS(fcvt_d_h)},
    {"fsgnj.h", "HHH", 0, {fsgnj_h}},        {"fsgnjn.h", "HHH", 0, {fsgnjn_h}},
    {"fsgnjx.h", "HHH", 0, {fsgnjx_h}},      {"fmin.h", "HHH", 0, {fmin_h}},
    {"fmax.h", "HHH", 0, {fmax_h}},          {"feq.h", "XHH", 0, {feq_h}},
    {"flt.h", "XHH", 0, {flt_h}},            {"fle.h", "XHH", 0, {fle_h}},
    {"fclass.h", "XH", 0, {fclass_h}},       {"fmv.x.h", "XH", 0, {fmv_x_h}},
    {"fmv.h.x", "HX", 0, {fmv_h_x}},         {"flh", "HX", 0, {flh_op}},
    {"fsh", "XH", 0, {fsh_op}},
};

/* ---------------------------------------------------------------- CSR helpers */
static void set_frm(uint64_t v) { __asm__ volatile("csrw frm, %0" : : "r"(v)); }
static void clear_fflags(void) { __asm__ volatile("csrw fflags, zero"); }
static uint64_t read_fflags(void)
{
    uint64_t v;
    __asm__ volatile("csrr %0, fflags" : "=r"(v));
    return v;
}

static void put_value(line_t *l, char type, uint64_t v)
{
    lput(l, ' ');
    if (type == 'S' && (v >> 32) == 0xffffffffull)
        lhex(l, v, 8);
    else if (type == 'H' && (v >> 16) == 0xffffffffffffull)
        lhex(l, v, 4);
    else
        lhex(l, v, 16);
}

static uint64_t gen_operand(rng_t *r, char type, uint64_t prev)
{
    switch (type) {
    case 'H': return box16(r, gen_f16(r, (uint16_t)prev));
    case 'S': return box32(r, gen_f32(r, (uint32_t)prev));
    case 'D': return gen_f64(r, prev);
    default: return gen_int(r, prev);
    }
}

/* FMA addends that (nearly) cancel the product test the single rounding hardest. */
static uint64_t cancelling_addend(rng_t *r, const op_t *op, uint64_t a, uint64_t b)
{
    char t = op->sig[0];
    uint64_t p = t == 'H' ? fmul_h_1(a, b, 0) : t == 'S' ? fmul_s_1(a, b, 0) : fmul_d_1(a, b, 0);
    int neg = op->name[1] == 'n' ? op->name[3] == 'a' /* fnmadd */ : op->name[2] == 'a'; /* fmadd */
    uint64_t sign = t == 'H' ? 0x8000ull : t == 'S' ? 0x80000000ull : 0x8000000000000000ull;
    if (neg)
        p ^= sign;
    return p + below(r, 5) - 2;
}

/* A second operand that puts a*b (or a/b) within a few ulps of the underflow or overflow
 * threshold: where tininess-after-rounding and overflow-per-rounding-mode are decided. */
static uint64_t near_threshold(rng_t *r, const op_t *op, uint64_t a)
{
    if (op->sig[0] == 'H') {
        static const uint64_t th[] = {0x0400, 0x7bff, 0x03ff, 0x03fe};
        uint64_t t = 0xffffffffffff0000ull | th[below(r, 4)] | (below(r, 2) ? 0x8000 : 0);
        uint64_t b = op->name[1] == 'd' ? fdiv_h_1(a, t, 0) : fdiv_h_1(t, a, 0);
        return 0xffffffffffff0000ull | (uint16_t)(b + below(r, 9) - 4);
    }
    int single = op->sig[0] == 'S';
    uint64_t t;
    switch (below(r, 3)) {
    case 0: t = single ? 0x00800000ull : 0x0010000000000000ull; break;       /* min normal */
    case 1: t = single ? 0x7f7fffffull : 0x7fefffffffffffffull; break;       /* max finite */
    default: t = single ? 0x00800000ull - below(r, 4) : 0x0010000000000000ull - below(r, 4);
    }
    t |= below(r, 2) ? (single ? 0x80000000ull : 0x8000000000000000ull) : 0;
    int is_div = op->name[1] == 'd';
    uint64_t b;
    if (single) {
        t |= 0xffffffff00000000ull;
        b = is_div ? fdiv_s_1(a, t, 0) : fdiv_s_1(t, a, 0);
        return 0xffffffff00000000ull | (uint32_t)(b + below(r, 9) - 4);
    }
    b = is_div ? fdiv_d_1(a, t, 0) : fdiv_d_1(t, a, 0);
    return b + below(r, 9) - 4;
}

static long run_op(line_t *l, rng_t *r, const op_t *op, int rm_index)
{
    int nargs = 0;
    while (op->sig[1 + nargs])
        nargs++;
    uint64_t arg[3] = {0, 0, 0};
    uint64_t prev = 0;
    for (int i = 0; i < nargs; i++) {
        arg[i] = gen_operand(r, op->sig[1 + i], prev);
        prev = arg[i];
    }
    int mul_or_div = op->name[1] == 'm' || op->name[1] == 'd' || op->name[1] == 'n'; /* fmul fdiv fma */
    if (nargs >= 2 && mul_or_div && op->sig[1] != 'X' && below(r, 4) == 0)
        arg[1] = near_threshold(r, op, arg[0]);
    if (nargs == 3 && below(r, 3) == 0)
        arg[2] = cancelling_addend(r, op, arg[0], arg[1]);
    int dynamic = op->has_rm && (below(r, 2) == 0);
    op_fn fn = op->fn[op->has_rm ? (dynamic ? 5 : rm_index) : 0];
    if (dynamic)
        set_frm((uint64_t)rm_index);
    else
        set_frm(below(r, 8)); /* static modes ignore frm, even an invalid one */
    clear_fflags();
    uint64_t res = fn(arg[0], arg[1], arg[2]);
    uint64_t flags = read_fflags();

    lstr(l, op->name);
    lput(l, ' ');
    if (!op->has_rm) {
        lput(l, '-');
    } else {
        if (dynamic)
            lput(l, 'd');
        lput(l, (char)('0' + rm_index));
    }
    for (int i = 0; i < nargs; i++)
        put_value(l, op->sig[1 + i], arg[i]);
    lstr(l, " ->");
    put_value(l, op->sig[0], res);
    lput(l, ' ');
    lhex(l, flags, 2);
    lflush(l);
    return 1;
}

/* ---------------------------------------------------------------- trap probes */
/* Each probe executes one instruction and returns mcause (0 when it did not trap). */
#define PROBE(name, word)                                                                          \
    static uint64_t name(void)                                                                     \
    {                                                                                              \
        register uint64_t a0 __asm__("a0") = 0;                                                    \
        __asm__ volatile(".4byte " #word : "+r"(a0) : : "a1", "ft0", "memory");                    \
        return a0;                                                                                 \
    }
/* rd = rs1 = rs2 = ft0 (f0), rm in bits 14:12 */
PROBE(p_fadd_s_rm5, 0x00005053)
PROBE(p_fadd_s_rm6, 0x00006053)
PROBE(p_fadd_s_dyn, 0x00007053)
PROBE(p_fadd_d_rm5, 0x02005053)
PROBE(p_fadd_d_dyn, 0x02007053)
PROBE(p_fmadd_d_rm6, 0x02006043)
PROBE(p_fmadd_s_dyn, 0x00007043)
PROBE(p_fsqrt_d_rm5, 0x5a005053)
PROBE(p_fcvt_d_s_rm5, 0x42005053) /* exact, but the rm field is still decoded */
PROBE(p_fcvt_d_s_dyn, 0x42007053)
PROBE(p_fcvt_w_d_rm6, 0xc2006053) /* fcvt.w.d x0, f0 */
PROBE(p_fcvt_s_l_dyn, 0xd0207053) /* fcvt.s.l f0, x0 */
PROBE(p_fadd_s_rne, 0x00000053)
PROBE(p_fadd_h_rne, 0x04000053)   /* Zfh: fadd.h f0, f0, f0 */
PROBE(p_fadd_h_rm5, 0x04005053)
PROBE(p_fadd_h_dyn, 0x04007053)
PROBE(p_fcvt_s_h_rm6, 0x40206053) /* fcvt.s.h: exact, the rm field still decoded */
PROBE(p_fcvt_d_h_dyn, 0x42207053)
PROBE(p_fmadd_h_rm5, 0x04005043)
PROBE(p_flh, 0x00011007)          /* flh f0, 0(sp) */
PROBE(p_fsgnj_d, 0x22000053)
PROBE(p_fmv_x_d, 0xe2000053)  /* fmv.x.d x0, f0 */
PROBE(p_fld, 0x00013007)      /* fld f0, 0(sp) */
PROBE(p_csrr_fcsr, 0x00302073) /* csrr x0, fcsr */
PROBE(p_csrr_frm, 0x00202073)  /* csrr x0, frm */
PROBE(p_csrr_fflags, 0x00102073) /* csrr x0, fflags */
/* c.fldsp f0, 0(sp), then c.nop: the trap handler skips 4 bytes */
static uint64_t p_c_fldsp(void)
{
    register uint64_t a0 __asm__("a0") = 0;
    __asm__ volatile(".2byte 0x2002\n\t.2byte 0x0001" : "+r"(a0) : : "a1", "ft0", "memory");
    return a0;
}

typedef struct {
    const char *name;
    int rm; /* the instruction's rm field (7 = dynamic), -1 = none */
    uint64_t (*fn)(void);
} probe_t;

static const probe_t rm_probes[] = {
    {"fadd.s", 5, p_fadd_s_rm5},     {"fadd.s", 6, p_fadd_s_rm6},     {"fadd.s", 7, p_fadd_s_dyn},
    {"fadd.d", 5, p_fadd_d_rm5},     {"fadd.d", 7, p_fadd_d_dyn},     {"fmadd.d", 6, p_fmadd_d_rm6},
    {"fmadd.s", 7, p_fmadd_s_dyn},   {"fsqrt.d", 5, p_fsqrt_d_rm5},   {"fcvt.d.s", 5, p_fcvt_d_s_rm5},
    {"fcvt.d.s", 7, p_fcvt_d_s_dyn}, {"fcvt.w.d", 6, p_fcvt_w_d_rm6}, {"fcvt.s.l", 7, p_fcvt_s_l_dyn},
    {"fadd.s", 0, p_fadd_s_rne},
    {"fadd.h", 5, p_fadd_h_rm5},     {"fadd.h", 7, p_fadd_h_dyn},     {"fcvt.s.h", 6, p_fcvt_s_h_rm6},
    {"fcvt.d.h", 7, p_fcvt_d_h_dyn}, {"fmadd.h", 5, p_fmadd_h_rm5},
};

static const probe_t fs_off_probes[] = {
    {"fadd.s", 0, p_fadd_s_rne}, {"fsgnj.d", -1, p_fsgnj_d},   {"fmv.x.d", -1, p_fmv_x_d},
    {"fld", -1, p_fld},          {"flh", -1, p_flh},          {"fadd.h", 0, p_fadd_h_rne},
    {"c.fldsp", -1, p_c_fldsp},  {"csrr.fcsr", -1, p_csrr_fcsr}, {"csrr.frm", -1, p_csrr_frm},
    {"csrr.fflags", -1, p_csrr_fflags},
};

static uint64_t read_mstatus(void)
{
    uint64_t v;
    __asm__ volatile("csrr %0, mstatus" : "=r"(v));
    return v;
}
static void set_fs(uint64_t fs)
{
    __asm__ volatile("csrc mstatus, %0" : : "r"(3ull << 13));
    __asm__ volatile("csrs mstatus, %0" : : "r"(fs << 13));
}

static long run_probes(line_t *l)
{
    long lines = 0;
    /* reserved static rounding modes, and dynamic with every frm value */
    for (unsigned i = 0; i < COUNT(rm_probes); i++) {
        const probe_t *p = &rm_probes[i];
        for (int frm = 0; frm < 8; frm++) {
            if (p->rm != 7 && frm != 0 && frm != 5)
                continue;
            set_frm((uint64_t)frm); /* csrw frm takes any 3-bit value */
            uint64_t cause = p->fn();
            set_frm(0);
            lstr(l, "ill ");
            lstr(l, p->name);
            lput(l, ' ');
            lhex(l, (uint64_t)p->rm, 1);
            lput(l, ' ');
            lhex(l, (uint64_t)frm, 1);
            lstr(l, " ->");
            put_value(l, 'X', cause);
            lflush(l);
            lines++;
        }
    }
    /* FS = Off: every FP instruction and every FP CSR access is illegal */
    for (unsigned i = 0; i < COUNT(fs_off_probes); i++) {
        set_fs(0);
        uint64_t cause = fs_off_probes[i].fn();
        uint64_t st = read_mstatus();
        set_fs(1);
        lstr(l, "fsoff ");
        lstr(l, fs_off_probes[i].name);
        lstr(l, " ->");
        put_value(l, 'X', cause);
        put_value(l, 'X', (st >> 13) & 3);
        lflush(l);
        lines++;
    }
    /* FS = Initial, then an instruction writing an f register: FS becomes Dirty, SD set */
    set_fs(1);
    uint64_t before = read_mstatus();
    p_fsgnj_d();
    uint64_t after = read_mstatus();
    lstr(l, "fsdirty fsgnj.d ->");
    put_value(l, 'X', (before >> 13) & 3);
    put_value(l, 'X', before >> 63);
    put_value(l, 'X', (after >> 13) & 3);
    put_value(l, 'X', after >> 63);
    lflush(l);
    /* ... and one writing only fflags (fcsr accrual) */
    set_fs(1);
    clear_fflags();
    set_fs(1);
    before = read_mstatus();
    __asm__ volatile("csrwi fflags, 1");
    after = read_mstatus();
    lstr(l, "fsdirty csrwi.fflags ->");
    put_value(l, 'X', (before >> 13) & 3);
    put_value(l, 'X', before >> 63);
    put_value(l, 'X', (after >> 13) & 3);
    put_value(l, 'X', after >> 63);
    lflush(l);
    /* fcsr layout: frm in 7:5, fflags in 4:0, upper bits read as zero */
    uint64_t fcsr;
    __asm__ volatile("csrw fcsr, %1\n\tcsrr %0, fcsr" : "=r"(fcsr) : "r"(0xffffull));
    uint64_t frm, fflags;
    __asm__ volatile("csrr %0, frm" : "=r"(frm));
    __asm__ volatile("csrr %0, fflags" : "=r"(fflags));
    lstr(l, "fcsr ffff ->");
    put_value(l, 'X', fcsr);
    put_value(l, 'X', frm);
    put_value(l, 'X', fflags);
    lflush(l);
    __asm__ volatile("csrw fcsr, zero");
    return lines + 3;
}

/* a Zfh op: a half among its result and operands */
static int is_half_op(const op_t *op)
{
    for (const char *c = op->sig; *c; c++)
        if (*c == 'H')
            return 1;
    return 0;
}

int main(void)
{
    rng_t rng = {SEED};
    line_t line = {.len = 0};
    long lines = 0;
    lines += run_probes(&line);
    for (unsigned i = 0; i < COUNT(ops); i++) {
        const op_t *op = &ops[i];
        int modes = op->has_rm ? 5 : 1;
        int per_mode = is_half_op(op) ? PER_MODE_H : PER_MODE;
        for (int rm = 0; rm < modes; rm++)
            for (int n = 0; n < per_mode; n++)
                lines += run_op(&line, &rng, op, rm);
    }
    lstr(&line, "end ");
    lhex(&line, (uint64_t)lines, 8);
    lflush(&line);
    return 0;
}
