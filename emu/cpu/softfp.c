/* softfp — IEEE 754 binary16/binary32/binary64 in integer arithmetic (see softfp.h).
 *
 * One generic core serves the three formats: an operand is unpacked into sign, class and an
 * exact value sig * 2^exp with an integer significand; every operation computes its exact
 * result (or an exact result plus a "sticky" bit for what lies below) in a 128-bit
 * integer, and a single round_pack() rounds it once, deciding overflow, tininess (after
 * rounding, as RISC-V requires), underflow and inexact.  Keeping one rounding routine is
 * what makes "single rounding" (FMA, conversions) true by construction.
 */
#include "emu/cpu/softfp.h"

#include <stddef.h>

typedef unsigned __int128 u128;

/* A binary interchange format: precision p (significand bits including the hidden one)
 * and emax; emin = 1 - emax, bias = emax, exponent field width ebits. */
typedef struct {
    int p;
    int emax;
    int ebits;
} fp_format;

static const fp_format FMT16 = {11, 15, 5};
static const fp_format FMT32 = {24, 127, 8};
static const fp_format FMT64 = {53, 1023, 11};

enum fp_kind { K_ZERO, K_FINITE, K_INF, K_QNAN, K_SNAN };

typedef struct {
    enum fp_kind kind;
    bool sign;
    int exp;      /* value = sig * 2^exp for K_FINITE */
    uint64_t sig; /* non-zero for K_FINITE; the significand includes the hidden bit */
} unpacked;

static int sign_pos(const fp_format *f) { return f->p - 1 + f->ebits; }
static int emin_of(const fp_format *f) { return 1 - f->emax; }
static uint64_t inf_bits(const fp_format *f, bool sign)
{
    return ((uint64_t)sign << sign_pos(f)) | ((((uint64_t)1 << f->ebits) - 1) << (f->p - 1));
}
/* positive, quiet, only the fraction's top bit set: 0x7e00, 0x7fc00000, 0x7ff8000000000000 */
static uint64_t canonical_nan(const fp_format *f) { return inf_bits(f, false) | (uint64_t)1 << (f->p - 2); }
static uint64_t max_finite_bits(const fp_format *f, bool sign) { return inf_bits(f, sign) - 1; }
static uint64_t zero_bits(const fp_format *f, bool sign) { return (uint64_t)sign << sign_pos(f); }

static unpacked unpack(const fp_format *f, uint64_t bits)
{
    unpacked u;
    uint64_t frac = bits & (((uint64_t)1 << (f->p - 1)) - 1);
    uint64_t emask = ((uint64_t)1 << f->ebits) - 1;
    uint64_t e = (bits >> (f->p - 1)) & emask;
    u.sign = (bits >> sign_pos(f)) & 1;
    u.exp = 0;
    u.sig = 0;
    if (e == emask) {
        if (frac == 0)
            u.kind = K_INF;
        else
            u.kind = (frac >> (f->p - 2)) & 1 ? K_QNAN : K_SNAN;
    } else if (e == 0) {
        u.kind = frac ? K_FINITE : K_ZERO;
        u.sig = frac;
        u.exp = emin_of(f) - (f->p - 1);
    } else {
        u.kind = K_FINITE;
        u.sig = frac | ((uint64_t)1 << (f->p - 1));
        u.exp = (int)e - f->emax - (f->p - 1);
    }
    return u;
}

static bool is_nan(const unpacked *u) { return u->kind == K_QNAN || u->kind == K_SNAN; }

static int msb128(u128 v) /* v != 0 */
{
    uint64_t hi = (uint64_t)(v >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)v);
}

/* sig >> s (s >= 1), rounded per rm for a number of the given sign; *inexact set when any
 * discarded bit was non-zero.  The result may carry into one more bit. */
static u128 round_shift(u128 sig, int s, bool sign, int rm, bool *inexact)
{
    u128 m;
    bool round_bit, sticky;
    if (s >= 129) {
        m = 0;
        round_bit = false;
        sticky = sig != 0;
    } else if (s == 128) {
        m = 0;
        round_bit = (sig >> 127) & 1;
        sticky = (sig << 1) != 0;
    } else {
        m = sig >> s;
        round_bit = (sig >> (s - 1)) & 1;
        sticky = (sig & (((u128)1 << (s - 1)) - 1)) != 0;
    }
    *inexact = round_bit || sticky;
    bool inc;
    switch (rm) {
    case SF_RTZ: inc = false; break;
    case SF_RDN: inc = *inexact && sign; break;
    case SF_RUP: inc = *inexact && !sign; break;
    case SF_RMM: inc = round_bit; break;
    default: inc = round_bit && (sticky || (m & 1)); break; /* RNE */
    }
    return m + inc;
}

/* Round the exact value (-1)^sign * sig * 2^exp (sig != 0; its bit 0 may be a sticky bit
 * provided the rounding position lies at least two bits above it) to format f. */
static uint64_t round_pack(const fp_format *f, bool sign, int exp, u128 sig, int rm, unsigned *fflags)
{
    const int p = f->p, emin = emin_of(f);
    int msb = msb128(sig);
    int e_top = exp + msb; /* exponent of the leading bit before rounding */
    int lsb_exp = (e_top < emin ? emin : e_top) - (p - 1);
    int s = lsb_exp - exp;
    u128 m;
    bool inexact = false;
    if (s <= 0)
        m = sig << -s;
    else
        m = round_shift(sig, s, sign, rm, &inexact);
    if (m >> p) { /* rounding carried into a new leading bit */
        m >>= 1;
        lsb_exp++;
    }
    if ((m >> (p - 1)) && lsb_exp + p - 1 > f->emax) {
        *fflags |= SF_OF | SF_NX;
        bool to_inf = rm == SF_RNE || rm == SF_RMM || (rm == SF_RDN && sign) || (rm == SF_RUP && !sign);
        return to_inf ? inf_bits(f, sign) : max_finite_bits(f, sign);
    }
    if (inexact) {
        *fflags |= SF_NX;
        if (e_top < emin) {
            /* Tiny after rounding: would the result, rounded to p bits with an unbounded
             * exponent range, still be below 2^emin? */
            bool tiny = true;
            int s2 = msb - (p - 1);
            if (e_top == emin - 1 && s2 > 0) {
                bool dummy;
                u128 m2 = round_shift(sig, s2, sign, rm, &dummy);
                tiny = (m2 >> p) == 0;
            }
            if (tiny)
                *fflags |= SF_UF;
        }
    }
    /* m < 2^p; the hidden bit, when present, adds one to the exponent field. */
    return ((uint64_t)sign << sign_pos(f)) + ((uint64_t)(lsb_exp + p - 1 + f->emax - 1) << (p - 1)) +
           (uint64_t)m;
}

/* NaN operand handling shared by the arithmetic operations: the result is the canonical
 * NaN, and a signalling NaN raises NV. */
static uint64_t nan_result(const fp_format *f, const unpacked *a, const unpacked *b, unsigned *fflags)
{
    if (a->kind == K_SNAN || (b && b->kind == K_SNAN))
        *fflags |= SF_NV;
    return canonical_nan(f);
}

static uint64_t invalid(const fp_format *f, unsigned *fflags)
{
    *fflags |= SF_NV;
    return canonical_nan(f);
}

/* Sum of two non-zero finite values, each given exactly as m * 2^e with m < 2^107. */
static uint64_t add_finite(const fp_format *f, bool sa, int ea, u128 ma, bool sb, int eb, u128 mb, int rm,
                           unsigned *fflags)
{
    /* Put both leading bits at bit 125: two bits of headroom for the carry, and (as the
     * inputs have at most 107 significant bits) zeros at the bottom, so a sticky bit
     * jammed into bit 0 of the smaller operand keeps the rounding exact. */
    int na = 125 - msb128(ma), nb = 125 - msb128(mb);
    ma <<= na;
    ea -= na;
    mb <<= nb;
    eb -= nb;
    if (ea < eb || (ea == eb && ma < mb)) {
        bool ts = sa; sa = sb; sb = ts;
        int te = ea; ea = eb; eb = te;
        u128 tm = ma; ma = mb; mb = tm;
    }
    int d = ea - eb;
    if (d >= 127)
        mb = 1;
    else if (d > 0)
        mb = (mb >> d) | ((mb & (((u128)1 << d) - 1)) != 0);
    u128 r;
    if (sa == sb) {
        r = ma + mb;
    } else {
        r = ma - mb;
        if (r == 0) /* exact cancellation: +0, except -0 when rounding down */
            return zero_bits(f, rm == SF_RDN);
    }
    return round_pack(f, sa, ea, r, rm, fflags);
}

static uint64_t gen_add(const fp_format *f, uint64_t abits, uint64_t bbits, bool negate_b, int rm,
                        unsigned *fflags)
{
    unpacked a = unpack(f, abits), b = unpack(f, bbits);
    if (is_nan(&a) || is_nan(&b))
        return nan_result(f, &a, &b, fflags);
    b.sign ^= negate_b;
    if (a.kind == K_INF) {
        if (b.kind == K_INF && a.sign != b.sign)
            return invalid(f, fflags);
        return inf_bits(f, a.sign);
    }
    if (b.kind == K_INF)
        return inf_bits(f, b.sign);
    if (a.kind == K_ZERO && b.kind == K_ZERO)
        return zero_bits(f, a.sign == b.sign ? a.sign : rm == SF_RDN);
    if (a.kind == K_ZERO)
        return round_pack(f, b.sign, b.exp, b.sig, rm, fflags);
    if (b.kind == K_ZERO)
        return round_pack(f, a.sign, a.exp, a.sig, rm, fflags);
    return add_finite(f, a.sign, a.exp, a.sig, b.sign, b.exp, b.sig, rm, fflags);
}

static uint64_t gen_mul(const fp_format *f, uint64_t abits, uint64_t bbits, int rm, unsigned *fflags)
{
    unpacked a = unpack(f, abits), b = unpack(f, bbits);
    if (is_nan(&a) || is_nan(&b))
        return nan_result(f, &a, &b, fflags);
    bool sign = a.sign ^ b.sign;
    if (a.kind == K_INF || b.kind == K_INF) {
        if (a.kind == K_ZERO || b.kind == K_ZERO)
            return invalid(f, fflags);
        return inf_bits(f, sign);
    }
    if (a.kind == K_ZERO || b.kind == K_ZERO)
        return zero_bits(f, sign);
    return round_pack(f, sign, a.exp + b.exp, (u128)a.sig * b.sig, rm, fflags);
}

static uint64_t gen_fma(const fp_format *f, uint64_t abits, uint64_t bbits, uint64_t cbits, bool neg_prod,
                        bool neg_add, int rm, unsigned *fflags)
{
    unpacked a = unpack(f, abits), b = unpack(f, bbits), c = unpack(f, cbits);
    bool inf_times_zero = (a.kind == K_INF && b.kind == K_ZERO) || (a.kind == K_ZERO && b.kind == K_INF);
    if (is_nan(&a) || is_nan(&b) || is_nan(&c)) {
        /* RISC-V: inf * 0 is invalid even when the addend is a quiet NaN. */
        if (inf_times_zero || c.kind == K_SNAN)
            *fflags |= SF_NV;
        return nan_result(f, &a, &b, fflags);
    }
    if (inf_times_zero)
        return invalid(f, fflags);
    bool sp = a.sign ^ b.sign ^ neg_prod;
    bool sc = c.sign ^ neg_add;
    if (a.kind == K_INF || b.kind == K_INF) {
        if (c.kind == K_INF && sc != sp)
            return invalid(f, fflags);
        return inf_bits(f, sp);
    }
    if (c.kind == K_INF)
        return inf_bits(f, sc);
    if (a.kind == K_ZERO || b.kind == K_ZERO) {
        if (c.kind == K_ZERO)
            return zero_bits(f, sp == sc ? sp : rm == SF_RDN);
        return round_pack(f, sc, c.exp, c.sig, rm, fflags); /* exact: c itself */
    }
    u128 prod = (u128)a.sig * b.sig; /* exact, at most 106 bits */
    if (c.kind == K_ZERO)
        return round_pack(f, sp, a.exp + b.exp, prod, rm, fflags);
    return add_finite(f, sp, a.exp + b.exp, prod, sc, c.exp, c.sig, rm, fflags);
}

static uint64_t gen_div(const fp_format *f, uint64_t abits, uint64_t bbits, int rm, unsigned *fflags)
{
    unpacked a = unpack(f, abits), b = unpack(f, bbits);
    if (is_nan(&a) || is_nan(&b))
        return nan_result(f, &a, &b, fflags);
    bool sign = a.sign ^ b.sign;
    if (a.kind == K_INF) {
        if (b.kind == K_INF)
            return invalid(f, fflags);
        return inf_bits(f, sign);
    }
    if (b.kind == K_INF)
        return zero_bits(f, sign);
    if (b.kind == K_ZERO) {
        if (a.kind == K_ZERO)
            return invalid(f, fflags);
        *fflags |= SF_DZ;
        return inf_bits(f, sign);
    }
    if (a.kind == K_ZERO)
        return zero_bits(f, sign);
    /* Dividend at bit 125, divisor below 2^53: the quotient has >= 72 bits, far more than
     * p + 2, so the remainder can be folded into a sticky bit. */
    int na = 125 - msb128(a.sig);
    u128 num = (u128)a.sig << na;
    u128 q = num / b.sig;
    q |= (num % b.sig) != 0;
    return round_pack(f, sign, a.exp - na - b.exp, q, rm, fflags);
}

/* floor(sqrt(v)) and whether the remainder is non-zero; digit-by-digit, 2 bits a step. */
static u128 isqrt128(u128 v, bool *rem_nonzero)
{
    u128 res = 0, bit = (u128)1 << 126;
    while (bit > v)
        bit >>= 2;
    while (bit) {
        if (v >= res + bit) {
            v -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    *rem_nonzero = v != 0;
    return res;
}

static uint64_t gen_sqrt(const fp_format *f, uint64_t abits, int rm, unsigned *fflags)
{
    unpacked a = unpack(f, abits);
    if (is_nan(&a))
        return nan_result(f, &a, NULL, fflags);
    if (a.kind == K_ZERO)
        return abits; /* sqrt(-0) = -0 */
    if (a.sign)
        return invalid(f, fflags);
    if (a.kind == K_INF)
        return abits;
    /* Shift the significand to bit 124 or 125 so that the remaining exponent is even;
     * the integer root then has >= 62 bits. */
    int k = 124 - msb128(a.sig);
    if ((a.exp - k) & 1)
        k++;
    bool rem;
    u128 r = isqrt128((u128)a.sig << k, &rem);
    return round_pack(f, false, (a.exp - k) / 2, r | rem, rm, fflags);
}

static uint64_t gen_minmax(const fp_format *f, uint64_t abits, uint64_t bbits, bool want_max, unsigned *fflags)
{
    unpacked a = unpack(f, abits), b = unpack(f, bbits);
    if (a.kind == K_SNAN || b.kind == K_SNAN)
        *fflags |= SF_NV;
    if (is_nan(&a) && is_nan(&b))
        return canonical_nan(f);
    if (is_nan(&a))
        return bbits;
    if (is_nan(&b))
        return abits;
    /* Total order of non-NaN values with -0 < +0. */
    uint64_t mag_mask = ((uint64_t)1 << sign_pos(f)) - 1;
    bool a_less;
    if (a.sign != b.sign)
        a_less = a.sign;
    else if (a.sign)
        a_less = (abits & mag_mask) > (bbits & mag_mask);
    else
        a_less = (abits & mag_mask) < (bbits & mag_mask);
    return a_less == want_max ? bbits : abits;
}

/* Returns -1 (unordered), 0 (equal), 1 (a < b), 2 (a > b); raises NV per `signalling`. */
static int gen_compare(const fp_format *f, uint64_t abits, uint64_t bbits, bool signalling, unsigned *fflags)
{
    unpacked a = unpack(f, abits), b = unpack(f, bbits);
    if (is_nan(&a) || is_nan(&b)) {
        if (signalling || a.kind == K_SNAN || b.kind == K_SNAN)
            *fflags |= SF_NV;
        return -1;
    }
    uint64_t mag_mask = ((uint64_t)1 << sign_pos(f)) - 1;
    uint64_t ma = abits & mag_mask, mb = bbits & mag_mask;
    if (ma == 0 && mb == 0)
        return 0;
    if (abits == bbits)
        return 0;
    bool a_less;
    if (a.sign != b.sign)
        a_less = a.sign;
    else
        a_less = a.sign ? ma > mb : ma < mb;
    return a_less ? 1 : 2;
}

static unsigned gen_class(const fp_format *f, uint64_t bits)
{
    unpacked a = unpack(f, bits);
    switch (a.kind) {
    case K_QNAN: return SF_CLASS_QNAN;
    case K_SNAN: return SF_CLASS_SNAN;
    case K_INF: return a.sign ? SF_CLASS_NEG_INF : SF_CLASS_POS_INF;
    case K_ZERO: return a.sign ? SF_CLASS_NEG_ZERO : SF_CLASS_POS_ZERO;
    default: break;
    }
    bool sub = (a.sig >> (f->p - 1)) == 0;
    if (a.sign)
        return sub ? SF_CLASS_NEG_SUBNORMAL : SF_CLASS_NEG_NORMAL;
    return sub ? SF_CLASS_POS_SUBNORMAL : SF_CLASS_POS_NORMAL;
}

/* Float -> integer of `width` bits (32 or 64), signed or not, saturating; returns the
 * two's-complement result in the low `width` bits. */
static uint64_t gen_to_int(const fp_format *f, uint64_t bits, int rm, bool is_signed, int width, unsigned *fflags)
{
    unpacked a = unpack(f, bits);
    const uint64_t umax = width == 64 ? UINT64_MAX : (((uint64_t)1 << width) - 1);
    const uint64_t smax = umax >> 1, smin = smax + 1; /* smin as a width-bit pattern */
    const uint64_t hi_bound = is_signed ? smax : umax, lo_bound = is_signed ? smin : 0;
    if (is_nan(&a)) {
        *fflags |= SF_NV;
        return hi_bound;
    }
    if (a.kind == K_INF) {
        *fflags |= SF_NV;
        return a.sign ? lo_bound : hi_bound;
    }
    if (a.kind == K_ZERO)
        return 0;
    u128 mag;
    bool inexact = false;
    if (a.exp >= 0) {
        if (a.exp > 64) {
            *fflags |= SF_NV;
            return a.sign ? lo_bound : hi_bound;
        }
        mag = (u128)a.sig << a.exp;
    } else {
        mag = round_shift(a.sig, -a.exp, a.sign, rm, &inexact);
    }
    bool in_range;
    if (is_signed)
        in_range = a.sign ? mag <= (u128)smin : mag <= (u128)smax;
    else
        in_range = a.sign ? mag == 0 : mag <= (u128)umax;
    if (!in_range) {
        *fflags |= SF_NV;
        return a.sign ? lo_bound : hi_bound;
    }
    if (inexact)
        *fflags |= SF_NX;
    uint64_t v = (uint64_t)mag;
    if (a.sign)
        v = (uint64_t)0 - v;
    return v & umax;
}

static uint64_t gen_from_int(const fp_format *f, bool sign, uint64_t mag, int rm, unsigned *fflags)
{
    if (mag == 0)
        return 0;
    return round_pack(f, sign, 0, mag, rm, fflags);
}

/* ---- public binary32 API ---- */
uint32_t sf_add32(uint32_t a, uint32_t b, int rm, unsigned *fl) { return (uint32_t)gen_add(&FMT32, a, b, false, rm, fl); }
uint32_t sf_sub32(uint32_t a, uint32_t b, int rm, unsigned *fl) { return (uint32_t)gen_add(&FMT32, a, b, true, rm, fl); }
uint32_t sf_mul32(uint32_t a, uint32_t b, int rm, unsigned *fl) { return (uint32_t)gen_mul(&FMT32, a, b, rm, fl); }
uint32_t sf_div32(uint32_t a, uint32_t b, int rm, unsigned *fl) { return (uint32_t)gen_div(&FMT32, a, b, rm, fl); }
uint32_t sf_sqrt32(uint32_t a, int rm, unsigned *fl) { return (uint32_t)gen_sqrt(&FMT32, a, rm, fl); }
uint32_t sf_fma32(uint32_t a, uint32_t b, uint32_t c, bool np, bool na, int rm, unsigned *fl)
{
    return (uint32_t)gen_fma(&FMT32, a, b, c, np, na, rm, fl);
}
uint32_t sf_min32(uint32_t a, uint32_t b, unsigned *fl) { return (uint32_t)gen_minmax(&FMT32, a, b, false, fl); }
uint32_t sf_max32(uint32_t a, uint32_t b, unsigned *fl) { return (uint32_t)gen_minmax(&FMT32, a, b, true, fl); }
bool sf_eq32(uint32_t a, uint32_t b, unsigned *fl) { return gen_compare(&FMT32, a, b, false, fl) == 0; }
bool sf_lt32(uint32_t a, uint32_t b, unsigned *fl) { return gen_compare(&FMT32, a, b, true, fl) == 1; }
bool sf_le32(uint32_t a, uint32_t b, unsigned *fl)
{
    int c = gen_compare(&FMT32, a, b, true, fl);
    return c == 0 || c == 1;
}
unsigned sf_class32(uint32_t a) { return gen_class(&FMT32, a); }

/* ---- public binary16 API ---- */
uint16_t sf_add16(uint16_t a, uint16_t b, int rm, unsigned *fl) { return (uint16_t)gen_add(&FMT16, a, b, false, rm, fl); }
uint16_t sf_sub16(uint16_t a, uint16_t b, int rm, unsigned *fl) { return (uint16_t)gen_add(&FMT16, a, b, true, rm, fl); }
uint16_t sf_mul16(uint16_t a, uint16_t b, int rm, unsigned *fl) { return (uint16_t)gen_mul(&FMT16, a, b, rm, fl); }
uint16_t sf_div16(uint16_t a, uint16_t b, int rm, unsigned *fl) { return (uint16_t)gen_div(&FMT16, a, b, rm, fl); }
uint16_t sf_sqrt16(uint16_t a, int rm, unsigned *fl) { return (uint16_t)gen_sqrt(&FMT16, a, rm, fl); }
uint16_t sf_fma16(uint16_t a, uint16_t b, uint16_t c, bool np, bool na, int rm, unsigned *fl)
{
    return (uint16_t)gen_fma(&FMT16, a, b, c, np, na, rm, fl);
}
uint16_t sf_min16(uint16_t a, uint16_t b, unsigned *fl) { return (uint16_t)gen_minmax(&FMT16, a, b, false, fl); }
uint16_t sf_max16(uint16_t a, uint16_t b, unsigned *fl) { return (uint16_t)gen_minmax(&FMT16, a, b, true, fl); }
bool sf_eq16(uint16_t a, uint16_t b, unsigned *fl) { return gen_compare(&FMT16, a, b, false, fl) == 0; }
bool sf_lt16(uint16_t a, uint16_t b, unsigned *fl) { return gen_compare(&FMT16, a, b, true, fl) == 1; }
bool sf_le16(uint16_t a, uint16_t b, unsigned *fl)
{
    int c = gen_compare(&FMT16, a, b, true, fl);
    return c == 0 || c == 1;
}
unsigned sf_class16(uint16_t a) { return gen_class(&FMT16, a); }

/* ---- public binary64 API ---- */
uint64_t sf_add64(uint64_t a, uint64_t b, int rm, unsigned *fl) { return gen_add(&FMT64, a, b, false, rm, fl); }
uint64_t sf_sub64(uint64_t a, uint64_t b, int rm, unsigned *fl) { return gen_add(&FMT64, a, b, true, rm, fl); }
uint64_t sf_mul64(uint64_t a, uint64_t b, int rm, unsigned *fl) { return gen_mul(&FMT64, a, b, rm, fl); }
uint64_t sf_div64(uint64_t a, uint64_t b, int rm, unsigned *fl) { return gen_div(&FMT64, a, b, rm, fl); }
uint64_t sf_sqrt64(uint64_t a, int rm, unsigned *fl) { return gen_sqrt(&FMT64, a, rm, fl); }
uint64_t sf_fma64(uint64_t a, uint64_t b, uint64_t c, bool np, bool na, int rm, unsigned *fl)
{
    return gen_fma(&FMT64, a, b, c, np, na, rm, fl);
}
uint64_t sf_min64(uint64_t a, uint64_t b, unsigned *fl) { return gen_minmax(&FMT64, a, b, false, fl); }
uint64_t sf_max64(uint64_t a, uint64_t b, unsigned *fl) { return gen_minmax(&FMT64, a, b, true, fl); }
bool sf_eq64(uint64_t a, uint64_t b, unsigned *fl) { return gen_compare(&FMT64, a, b, false, fl) == 0; }
bool sf_lt64(uint64_t a, uint64_t b, unsigned *fl) { return gen_compare(&FMT64, a, b, true, fl) == 1; }
bool sf_le64(uint64_t a, uint64_t b, unsigned *fl)
{
    int c = gen_compare(&FMT64, a, b, true, fl);
    return c == 0 || c == 1;
}
unsigned sf_class64(uint64_t a) { return gen_class(&FMT64, a); }

/* ---- between formats ---- */
/* a in format `from` to format `to`: exact when `to` is the wider one */
static uint64_t convert(const fp_format *to, const fp_format *from, uint64_t a, int rm, unsigned *fl)
{
    unpacked u = unpack(from, a);
    switch (u.kind) {
    case K_QNAN:
    case K_SNAN: return nan_result(to, &u, NULL, fl);
    case K_INF: return inf_bits(to, u.sign);
    case K_ZERO: return zero_bits(to, u.sign);
    default: return round_pack(to, u.sign, u.exp, u.sig, rm, fl);
    }
}
uint64_t sf_f32_to_f64(uint32_t a, unsigned *fl) { return convert(&FMT64, &FMT32, a, SF_RNE, fl); }
uint32_t sf_f64_to_f32(uint64_t a, int rm, unsigned *fl) { return (uint32_t)convert(&FMT32, &FMT64, a, rm, fl); }
uint32_t sf_f16_to_f32(uint16_t a, unsigned *fl) { return (uint32_t)convert(&FMT32, &FMT16, a, SF_RNE, fl); }
uint64_t sf_f16_to_f64(uint16_t a, unsigned *fl) { return convert(&FMT64, &FMT16, a, SF_RNE, fl); }
uint16_t sf_f32_to_f16(uint32_t a, int rm, unsigned *fl) { return (uint16_t)convert(&FMT16, &FMT32, a, rm, fl); }
uint16_t sf_f64_to_f16(uint64_t a, int rm, unsigned *fl) { return (uint16_t)convert(&FMT16, &FMT64, a, rm, fl); }

/* ---- float -> integer ---- */
int32_t sf_f32_to_i32(uint32_t a, int rm, unsigned *fl) { return (int32_t)(uint32_t)gen_to_int(&FMT32, a, rm, true, 32, fl); }
uint32_t sf_f32_to_u32(uint32_t a, int rm, unsigned *fl) { return (uint32_t)gen_to_int(&FMT32, a, rm, false, 32, fl); }
int64_t sf_f32_to_i64(uint32_t a, int rm, unsigned *fl) { return (int64_t)gen_to_int(&FMT32, a, rm, true, 64, fl); }
uint64_t sf_f32_to_u64(uint32_t a, int rm, unsigned *fl) { return gen_to_int(&FMT32, a, rm, false, 64, fl); }
int32_t sf_f64_to_i32(uint64_t a, int rm, unsigned *fl) { return (int32_t)(uint32_t)gen_to_int(&FMT64, a, rm, true, 32, fl); }
uint32_t sf_f64_to_u32(uint64_t a, int rm, unsigned *fl) { return (uint32_t)gen_to_int(&FMT64, a, rm, false, 32, fl); }
int64_t sf_f64_to_i64(uint64_t a, int rm, unsigned *fl) { return (int64_t)gen_to_int(&FMT64, a, rm, true, 64, fl); }
uint64_t sf_f64_to_u64(uint64_t a, int rm, unsigned *fl) { return gen_to_int(&FMT64, a, rm, false, 64, fl); }

int32_t sf_f16_to_i32(uint16_t a, int rm, unsigned *fl) { return (int32_t)(uint32_t)gen_to_int(&FMT16, a, rm, true, 32, fl); }
uint32_t sf_f16_to_u32(uint16_t a, int rm, unsigned *fl) { return (uint32_t)gen_to_int(&FMT16, a, rm, false, 32, fl); }
int64_t sf_f16_to_i64(uint16_t a, int rm, unsigned *fl) { return (int64_t)gen_to_int(&FMT16, a, rm, true, 64, fl); }
uint64_t sf_f16_to_u64(uint16_t a, int rm, unsigned *fl) { return gen_to_int(&FMT16, a, rm, false, 64, fl); }

/* ---- integer -> float ---- */
static uint64_t abs_i64(int64_t v) { return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v; }
uint32_t sf_i64_to_f32(int64_t v, int rm, unsigned *fl) { return (uint32_t)gen_from_int(&FMT32, v < 0, abs_i64(v), rm, fl); }
uint32_t sf_u64_to_f32(uint64_t v, int rm, unsigned *fl) { return (uint32_t)gen_from_int(&FMT32, false, v, rm, fl); }
uint64_t sf_i64_to_f64(int64_t v, int rm, unsigned *fl) { return gen_from_int(&FMT64, v < 0, abs_i64(v), rm, fl); }
uint64_t sf_u64_to_f64(uint64_t v, int rm, unsigned *fl) { return gen_from_int(&FMT64, false, v, rm, fl); }
uint16_t sf_i64_to_f16(int64_t v, int rm, unsigned *fl) { return (uint16_t)gen_from_int(&FMT16, v < 0, abs_i64(v), rm, fl); }
uint16_t sf_u64_to_f16(uint64_t v, int rm, unsigned *fl) { return (uint16_t)gen_from_int(&FMT16, false, v, rm, fl); }
