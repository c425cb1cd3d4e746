/* Unit tests for emu/cpu/softfp: hand-checked vectors (the derivation of each non-obvious one is
 * in its comment), plus a randomized comparison against the host FPU on x86-64, whose SSE
 * arithmetic is IEEE 754 with tininess detected after rounding, as RISC-V specifies. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "emu/cpu/softfp.h"

#if defined(__x86_64__)
#include <fenv.h>
#include <math.h>
#endif

enum { RNE = SF_RNE, RTZ = SF_RTZ, RDN = SF_RDN, RUP = SF_RUP, RMM = SF_RMM };
enum { NX = SF_NX, UF = SF_UF, OF = SF_OF, DZ = SF_DZ, NV = SF_NV };

/* Expected result and flags for each rounding mode RNE, RTZ, RDN, RUP, RMM. */
typedef struct {
    uint64_t r[5];
    unsigned f[5];
} per_mode;

#define CHECK32(call_rm_fl, exp)                                                                   \
    do {                                                                                           \
        for (int rm = 0; rm < 5; rm++) {                                                           \
            unsigned fl = 0;                                                                       \
            uint32_t got = call_rm_fl;                                                             \
            if (got != (uint32_t)(exp).r[rm] || fl != (exp).f[rm])                                 \
                fail_msg("%s rm=%d: got %08x/%02x want %08x/%02x", #call_rm_fl, rm, got, fl,       \
                         (uint32_t)(exp).r[rm], (exp).f[rm]);                                      \
        }                                                                                          \
    } while (0)
#define CHECK64(call_rm_fl, exp)                                                                   \
    do {                                                                                           \
        for (int rm = 0; rm < 5; rm++) {                                                           \
            unsigned fl = 0;                                                                       \
            uint64_t got = call_rm_fl;                                                             \
            if (got != (exp).r[rm] || fl != (exp).f[rm])                                           \
                fail_msg("%s rm=%d: got %016llx/%02x want %016llx/%02x", #call_rm_fl, rm,          \
                         (unsigned long long)got, fl, (unsigned long long)(exp).r[rm], (exp).f[rm]); \
        }                                                                                          \
    } while (0)
/* the same result and flags in every mode */
#define ALL5(v, fl) {{v, v, v, v, v}, {fl, fl, fl, fl, fl}}

static void test_basic_and_directed_rounding(void **state)
{
    (void)state;
    /* 1 + 2 = 3 exactly */
    per_mode three = ALL5(0x40400000, 0);
    CHECK32(sf_add32(0x3f800000, 0x40000000, rm, &fl), three);
    /* 1/3 = 0.0101..b: binary32 significand 1.0101..01|0101.. -> below half: RNE/RTZ/RDN
     * truncate (0x3eaaaaaa), RUP increments; the round bit is 1 with sticky so RNE rounds up:
     * 1/3 = 1.01010101010101010101010|1010... x 2^-2 -> round bit 1, sticky 1 -> up. */
    per_mode third = {{0x3eaaaaab, 0x3eaaaaaa, 0x3eaaaaaa, 0x3eaaaaab, 0x3eaaaaab}, {NX, NX, NX, NX, NX}};
    CHECK32(sf_div32(0x3f800000, 0x40400000, rm, &fl), third);
    per_mode mthird = {{0xbeaaaaab, 0xbeaaaaaa, 0xbeaaaaab, 0xbeaaaaaa, 0xbeaaaaab}, {NX, NX, NX, NX, NX}};
    CHECK32(sf_div32(0xbf800000, 0x40400000, rm, &fl), mthird);
    /* binary64 1/3: 52 fraction bits 0101..0101 then 0101.. -> round bit 0: only RUP goes up */
    per_mode third64 = {{0x3fd5555555555555, 0x3fd5555555555555, 0x3fd5555555555555, 0x3fd5555555555556,
                         0x3fd5555555555555},
                        {NX, NX, NX, NX, NX}};
    CHECK64(sf_div64(0x3ff0000000000000, 0x4008000000000000, rm, &fl), third64);
    /* sqrt(2) = 1.0110101000001001111001100110011111110011101111001100|1001... (binary64) */
    per_mode sqrt2 = {{0x3ff6a09e667f3bcd, 0x3ff6a09e667f3bcc, 0x3ff6a09e667f3bcc, 0x3ff6a09e667f3bcd,
                       0x3ff6a09e667f3bcd},
                      {NX, NX, NX, NX, NX}};
    CHECK64(sf_sqrt64(0x4000000000000000, rm, &fl), sqrt2);
    per_mode two = ALL5(0x40000000, 0);
    CHECK32(sf_sqrt32(0x40800000, rm, &fl), two);
    /* x - x = +0 in every mode but RDN, where it is -0 */
    per_mode zero = {{0, 0, 0x80000000, 0, 0}, {0, 0, 0, 0, 0}};
    CHECK32(sf_sub32(0x3fc00000, 0x3fc00000, rm, &fl), zero);
    per_mode zero64 = {{0, 0, 0x8000000000000000, 0, 0}, {0, 0, 0, 0, 0}};
    CHECK64(sf_add64(0x8000000000000000, 0x0000000000000000, rm, &fl), zero64);
    per_mode negzero = ALL5(0x80000000, 0);
    CHECK32(sf_add32(0x80000000, 0x80000000, rm, &fl), negzero);
}

static void test_halfway_cases(void **state)
{
    (void)state;
    /* 1 + 2^-24 lies exactly halfway between 1 and 1+2^-23: even is 1, away is 1+2^-23 */
    per_mode h1 = {{0x3f800000, 0x3f800000, 0x3f800000, 0x3f800001, 0x3f800001}, {NX, NX, NX, NX, NX}};
    CHECK32(sf_add32(0x3f800000, 0x33800000, rm, &fl), h1);
    /* (1+2^-23) + 2^-24: halfway between ...01 and ...02; even is ...02 */
    per_mode h2 = {{0x3f800002, 0x3f800001, 0x3f800001, 0x3f800002, 0x3f800002}, {NX, NX, NX, NX, NX}};
    CHECK32(sf_add32(0x3f800001, 0x33800000, rm, &fl), h2);
    /* negative: -(1 + 2^-24) */
    per_mode h3 = {{0xbf800000, 0xbf800000, 0xbf800001, 0xbf800000, 0xbf800001}, {NX, NX, NX, NX, NX}};
    CHECK32(sf_add32(0xbf800000, 0xb3800000, rm, &fl), h3);
    /* 2^53 + 1 -> binary64: halfway between 2^53 and 2^53 + 2 */
    per_mode h4 = {{0x4340000000000000, 0x4340000000000000, 0x4340000000000000, 0x4340000000000001,
                    0x4340000000000001},
                   {NX, NX, NX, NX, NX}};
    CHECK64(sf_i64_to_f64((INT64_C(1) << 53) + 1, rm, &fl), h4);
    /* 2^24 + 1 -> binary32 */
    per_mode h5 = {{0x4b800000, 0x4b800000, 0x4b800000, 0x4b800001, 0x4b800001}, {NX, NX, NX, NX, NX}};
    CHECK32(sf_i64_to_f32((1 << 24) + 1, rm, &fl), h5);
    /* 2.5 -> integer: 2 (even), 3 (away) */
    per_mode c25 = {{2, 2, 2, 3, 3}, {NX, NX, NX, NX, NX}};
    CHECK32((uint32_t)sf_f32_to_i32(0x40200000, rm, &fl), c25);
    per_mode cm25 = {{(uint32_t)-2, (uint32_t)-2, (uint32_t)-3, (uint32_t)-2, (uint32_t)-3}, {NX, NX, NX, NX, NX}};
    CHECK32((uint32_t)sf_f32_to_i32(0xc0200000, rm, &fl), cm25);
    /* binary64 -> binary32 exactly halfway: 1 + 2^-24 */
    CHECK32(sf_f64_to_f32(0x3ff0000010000000, rm, &fl), h1);
}

static void test_overflow_per_mode(void **state)
{
    (void)state;
    /* max + max: overflows in every mode; directed modes towards zero give max finite */
    per_mode pos = {{0x7f800000, 0x7f7fffff, 0x7f7fffff, 0x7f800000, 0x7f800000},
                    {OF | NX, OF | NX, OF | NX, OF | NX, OF | NX}};
    CHECK32(sf_add32(0x7f7fffff, 0x7f7fffff, rm, &fl), pos);
    per_mode neg = {{0xff800000, 0xff7fffff, 0xff800000, 0xff7fffff, 0xff800000},
                    {OF | NX, OF | NX, OF | NX, OF | NX, OF | NX}};
    CHECK32(sf_add32(0xff7fffff, 0xff7fffff, rm, &fl), neg);
    /* max + half an ulp (2^103): a tie; RNE rounds to the even neighbour 2^128 -> overflow;
     * RTZ/RDN round to max, which is not an overflow (only inexact) */
    per_mode tie = {{0x7f800000, 0x7f7fffff, 0x7f7fffff, 0x7f800000, 0x7f800000},
                    {OF | NX, NX, NX, OF | NX, OF | NX}};
    CHECK32(sf_add32(0x7f7fffff, 0x73000000, rm, &fl), tie);
    per_mode pos64 = {{0x7ff0000000000000, 0x7fefffffffffffff, 0x7fefffffffffffff, 0x7ff0000000000000,
                       0x7ff0000000000000},
                      {OF | NX, OF | NX, OF | NX, OF | NX, OF | NX}};
    CHECK64(sf_mul64(0x7fefffffffffffff, 0x4000000000000000, rm, &fl), pos64);
    /* binary64 max -> binary32 */
    CHECK32(sf_f64_to_f32(0x7fefffffffffffff, rm, &fl), pos);
}

static void test_tininess_after_rounding(void **state)
{
    (void)state;
    /* 2^-126 * (1 - 2^-24) = 2^-126 - 2^-150 = 1.11..1 (24 ones) x 2^-127: exact with an
     * unbounded exponent, so tiny in every mode; as a subnormal it is halfway between
     * 0x007fffff and 0x00800000. */
    per_mode a = {{0x00800000, 0x007fffff, 0x007fffff, 0x00800000, 0x00800000},
                  {UF | NX, UF | NX, UF | NX, UF | NX, UF | NX}};
    CHECK32(sf_mul32(0x00800000, 0x3f7fffff, rm, &fl), a);
    /* 2^-126 - 2^-151 (from binary64): rounded to 24 bits with unbounded exponent it becomes
     * 2^-126 in RNE/RUP/RMM (not tiny: no UF), stays below in RTZ/RDN (tiny: UF). */
    per_mode b = {{0x00800000, 0x007fffff, 0x007fffff, 0x00800000, 0x00800000},
                  {NX, UF | NX, UF | NX, NX, NX}};
    CHECK32(sf_f64_to_f32(0x380ffffff0000000, rm, &fl), b);
    /* the same in binary64: 2^-1022 * (1 - 2^-53) */
    per_mode c = {{0x0010000000000000, 0x000fffffffffffff, 0x000fffffffffffff, 0x0010000000000000,
                   0x0010000000000000},
                  {UF | NX, UF | NX, UF | NX, UF | NX, UF | NX}};
    CHECK64(sf_mul64(0x0010000000000000, 0x3fefffffffffffff, rm, &fl), c);
    /* an exact subnormal result raises nothing */
    per_mode d = ALL5(0x00400000, 0);
    CHECK32(sf_mul32(0x00800000, 0x3f000000, rm, &fl), d);
    /* 2^-150: halfway between 0 and the smallest subnormal */
    per_mode e = {{0, 0, 0, 1, 1}, {UF | NX, UF | NX, UF | NX, UF | NX, UF | NX}};
    CHECK32(sf_mul32(0x00000001, 0x3f000000, rm, &fl), e);
    per_mode f = {{0x80000000, 0x80000000, 0x80000001, 0x80000000, 0x80000001},
                  {UF | NX, UF | NX, UF | NX, UF | NX, UF | NX}};
    CHECK32(sf_mul32(0x80000001, 0x3f000000, rm, &fl), f);
    /* subnormal + subnormal is exact: no flags */
    per_mode g = ALL5(0x00000003, 0);
    CHECK32(sf_add32(0x00000001, 0x00000002, rm, &fl), g);
}

static void test_fma_single_rounding(void **state)
{
    (void)state;
    /* (1+2^-52)(1-2^-53) - 1 = 2^-53 - 2^-105, exactly representable (0x3c9ffffffffffffe);
     * rounding the product first would give 1 - 1 = 0. */
    per_mode a = ALL5(0x3c9ffffffffffffe, 0);
    CHECK64(sf_fma64(0x3ff0000000000001, 0x3fefffffffffffff, 0xbff0000000000000, false, false, rm, &fl), a);
    /* the same in binary32: (1+2^-23)(1-2^-24) - 1 = 2^-24 - 2^-47 = 0x337ffffe */
    per_mode b = ALL5(0x337ffffe, 0);
    CHECK32(sf_fma32(0x3f800001, 0x3f7fffff, 0xbf800000, false, false, rm, &fl), b);
    /* fmsub with c = 1 gives the same; fnmadd / fnmsub negate */
    CHECK32(sf_fma32(0x3f800001, 0x3f7fffff, 0x3f800000, false, true, rm, &fl), b);
    per_mode bn = ALL5(0xb37ffffe, 0);
    CHECK32(sf_fma32(0x3f800001, 0x3f7fffff, 0x3f800000, true, false, rm, &fl), bn);
    /* 1*x + tiny where the sum is a tie only when the product is rounded first:
     * 1 * (1+2^-23) + (-2^-24 - 2^-47): exact sum 1 + 2^-24 - 2^-47 is just below the tie */
    per_mode c = {{0x3f800000, 0x3f800000, 0x3f800000, 0x3f800001, 0x3f800000}, {NX, NX, NX, NX, NX}};
    CHECK32(sf_fma32(0x3f800000, 0x3f800001, 0xb3800001, false, false, rm, &fl), c);
    /* signs of zero: 1*(+0) + (-0) = +0 (-0 in RDN); -(1*0) - 0 = -0 */
    per_mode z = {{0, 0, 0x80000000, 0, 0}, {0, 0, 0, 0, 0}};
    CHECK32(sf_fma32(0x3f800000, 0, 0x80000000, false, false, rm, &fl), z);
    per_mode nz = ALL5(0x80000000, 0);
    CHECK32(sf_fma32(0x3f800000, 0, 0, true, true, rm, &fl), nz);
    CHECK32(sf_fma32(0x3f800000, 0, 0, false, true, rm, &fl), z);
    /* invalid: inf*0 even with a quiet NaN addend; inf - inf */
    per_mode inv = ALL5(SF_CANONICAL_NAN32, NV);
    CHECK32(sf_fma32(0x7f800000, 0, 0x7fc00000, false, false, rm, &fl), inv);
    CHECK32(sf_fma32(0x7f800000, 0x3f800000, 0xff800000, false, false, rm, &fl), inv);
    CHECK32(sf_fma32(0x3f800000, 0x3f800000, 0x7f800001, false, false, rm, &fl), inv);
    per_mode qnan = ALL5(SF_CANONICAL_NAN32, 0);
    CHECK32(sf_fma32(0x7fc00001, 0x3f800000, 0x3f800000, false, false, rm, &fl), qnan);
    /* overflow of the exact sum */
    per_mode of = {{0x7f800000, 0x7f7fffff, 0x7f7fffff, 0x7f800000, 0x7f800000},
                   {OF | NX, OF | NX, OF | NX, OF | NX, OF | NX}};
    per_mode max = ALL5(0x7f7fffff, 0); /* max*2 - max = max, exactly: no overflow */
    CHECK32(sf_fma32(0x7f7fffff, 0x40000000, 0xff7fffff, false, false, rm, &fl), max);
    CHECK32(sf_fma32(0x7f7fffff, 0x40000000, 0x7f7fffff, false, false, rm, &fl), of);
}

static void test_nan_and_specials(void **state)
{
    (void)state;
    per_mode canon = ALL5(SF_CANONICAL_NAN32, 0);
    per_mode canon_nv = ALL5(SF_CANONICAL_NAN32, NV);
    per_mode canon64_nv = ALL5(SF_CANONICAL_NAN64, NV);
    CHECK32(sf_add32(0xffc12345, 0x3f800000, rm, &fl), canon); /* payload and sign dropped */
    CHECK32(sf_add32(0x7f800001, 0x3f800000, rm, &fl), canon_nv);
    CHECK32(sf_add32(0x7f800000, 0xff800000, rm, &fl), canon_nv);
    CHECK32(sf_mul32(0x7f800000, 0x80000000, rm, &fl), canon_nv);
    CHECK32(sf_div32(0, 0x80000000, rm, &fl), canon_nv);
    CHECK32(sf_div32(0x7f800000, 0xff800000, rm, &fl), canon_nv);
    CHECK64(sf_sqrt64(0xbff0000000000000, rm, &fl), canon64_nv);
    CHECK64(sf_sqrt64(0xfff0000000000000, rm, &fl), canon64_nv);
    per_mode dz = ALL5(0x7f800000, DZ), mdz = ALL5(0xff800000, DZ);
    CHECK32(sf_div32(0x3f800000, 0, rm, &fl), dz);
    CHECK32(sf_div32(0x3f800000, 0x80000000, rm, &fl), mdz);
    per_mode mz = ALL5(0x8000000000000000, 0), inf = ALL5(0x7ff0000000000000, 0);
    CHECK64(sf_sqrt64(0x8000000000000000, rm, &fl), mz);
    CHECK64(sf_sqrt64(0x7ff0000000000000, rm, &fl), inf);
    per_mode zdiv = ALL5(0x80000000, 0);
    CHECK32(sf_div32(0x3f800000, 0xff800000, rm, &fl), zdiv);
    /* NaN-boxing */
    assert_int_equal(sf_unbox32(UINT64_C(0xffffffff3f800000)), 0x3f800000);
    assert_int_equal(sf_unbox32(UINT64_C(0x000000003f800000)), SF_CANONICAL_NAN32);
    assert_int_equal(sf_unbox32(UINT64_C(0xfffffffe3f800000)), SF_CANONICAL_NAN32);
    assert_true(sf_box32(0x12345678) == UINT64_C(0xffffffff12345678));
}

static void test_min_max_compare_class(void **state)
{
    (void)state;
    unsigned fl = 0;
    assert_int_equal(sf_min32(0x80000000, 0x00000000, &fl), 0x80000000);
    assert_int_equal(sf_min32(0x00000000, 0x80000000, &fl), 0x80000000);
    assert_int_equal(sf_max32(0x80000000, 0x00000000, &fl), 0x00000000);
    assert_int_equal(sf_max32(0xbf800000, 0xc0000000, &fl), 0xbf800000);
    assert_int_equal(sf_min32(0x7fc00000, 0x3f800000, &fl), 0x3f800000);
    assert_int_equal(sf_max32(0x3f800000, 0xffc00001, &fl), 0x3f800000);
    assert_int_equal(sf_min32(0x7fc00005, 0xffc00000, &fl), SF_CANONICAL_NAN32);
    assert_int_equal(fl, 0);
    assert_int_equal(sf_min32(0x7f800001, 0x3f800000, &fl), 0x3f800000); /* sNaN: the number, NV */
    assert_int_equal(fl, NV);
    fl = 0;
    assert_true(sf_max64(0x7ff0000000000001, 0x7ff4000000000000, &fl) == SF_CANONICAL_NAN64);
    assert_int_equal(fl, NV);

    fl = 0;
    assert_true(sf_eq32(0x80000000, 0, &fl));
    assert_false(sf_lt32(0x80000000, 0, &fl));
    assert_true(sf_le32(0x80000000, 0, &fl));
    assert_true(sf_lt64(0xbff0000000000000, 0x8000000000000000, &fl));
    assert_false(sf_eq32(0x7fc00000, 0x7fc00000, &fl)); /* quiet: no flag */
    assert_int_equal(fl, 0);
    assert_false(sf_eq32(0x7f800001, 0x3f800000, &fl)); /* sNaN: NV */
    assert_int_equal(fl, NV);
    fl = 0;
    assert_false(sf_lt32(0x7fc00000, 0x3f800000, &fl)); /* signalling on any NaN */
    assert_int_equal(fl, NV);
    fl = 0;
    assert_false(sf_le64(0x3ff0000000000000, 0x7ff8000000000000, &fl));
    assert_int_equal(fl, NV);

    assert_int_equal(sf_class32(0xff800000), SF_CLASS_NEG_INF);
    assert_int_equal(sf_class32(0xbf800000), SF_CLASS_NEG_NORMAL);
    assert_int_equal(sf_class32(0x80000001), SF_CLASS_NEG_SUBNORMAL);
    assert_int_equal(sf_class32(0x80000000), SF_CLASS_NEG_ZERO);
    assert_int_equal(sf_class32(0x00000000), SF_CLASS_POS_ZERO);
    assert_int_equal(sf_class32(0x007fffff), SF_CLASS_POS_SUBNORMAL);
    assert_int_equal(sf_class32(0x00800000), SF_CLASS_POS_NORMAL);
    assert_int_equal(sf_class32(0x7f800000), SF_CLASS_POS_INF);
    assert_int_equal(sf_class32(0x7f800001), SF_CLASS_SNAN);
    assert_int_equal(sf_class32(0xffc00000), SF_CLASS_QNAN);
    assert_int_equal(sf_class64(0x000fffffffffffff), SF_CLASS_POS_SUBNORMAL);
    assert_int_equal(sf_class64(0x7ff4000000000000), SF_CLASS_SNAN);
}

static void test_float_to_int_saturation(void **state)
{
    (void)state;
    per_mode max64 = ALL5(INT64_MAX, NV), min64_nv = ALL5((uint64_t)INT64_MIN, NV);
    per_mode min64 = ALL5((uint64_t)INT64_MIN, 0), umax64 = ALL5(UINT64_MAX, NV), u0 = ALL5(0, NV);
    CHECK64((uint64_t)sf_f64_to_i64(0x43e0000000000000, rm, &fl), max64);    /* 2^63 */
    CHECK64((uint64_t)sf_f64_to_i64(0xc3e0000000000000, rm, &fl), min64);    /* -2^63 exact */
    CHECK64((uint64_t)sf_f64_to_i64(0xc3e0000000000001, rm, &fl), min64_nv); /* -2^63-2048 */
    CHECK64((uint64_t)sf_f64_to_i64(0x7ff8000000000000, rm, &fl), max64);    /* NaN -> max */
    CHECK64((uint64_t)sf_f64_to_i64(0xfff0000000000000, rm, &fl), min64_nv);
    CHECK64(sf_f64_to_u64(0x7ff4000000000000, rm, &fl), umax64);
    CHECK64(sf_f64_to_u64(0x43f0000000000000, rm, &fl), umax64); /* 2^64 */
    CHECK64(sf_f64_to_u64(0xbff0000000000000, rm, &fl), u0);     /* -1 */
    per_mode big = ALL5(0x7ffffffffffffc00, 0);
    CHECK64((uint64_t)sf_f64_to_i64(0x43dfffffffffffff, rm, &fl), big);
    /* -0.5 to unsigned: rounds to -0 (fine, NX) or to -1 (invalid) */
    per_mode mhalf = {{0, 0, 0, 0, 0}, {NX, NX, NV, NX, NV}};
    CHECK64(sf_f64_to_u64(0xbfe0000000000000, rm, &fl), mhalf);
    /* -2^31 - 0.5 to int32: RNE/RTZ/RUP give -2^31 (NX); RDN/RMM give -2^31-1: invalid */
    per_mode edge = {{0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000}, {NX, NX, NV, NX, NV}};
    CHECK32((uint32_t)sf_f64_to_i32(0xc1e0000000100000, rm, &fl), edge);
    /* 2^31 - 0.5: RNE ties to even 2^31 (invalid), RTZ/RDN 2^31-1 */
    per_mode top = {{0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff}, {NV, NX, NX, NV, NV}};
    CHECK32((uint32_t)sf_f64_to_i32(0x41dfffffffe00000, rm, &fl), top);
    /* 2^32 - 0.5 to uint32 */
    per_mode utop = {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {NV, NX, NX, NV, NV}};
    CHECK32(sf_f64_to_u32(0x41effffffff00000, rm, &fl), utop);
    per_mode f32nan = ALL5(0x7fffffff, NV), f32unan = ALL5(0xffffffff, NV);
    CHECK32((uint32_t)sf_f32_to_i32(0xffc00000, rm, &fl), f32nan);
    CHECK32(sf_f32_to_u32(0x7f800001, rm, &fl), f32unan);
    per_mode tiny = {{0, 0, (uint32_t)-1, 0, 0}, {NX, NX, NX, NX, NX}};
    CHECK32((uint32_t)sf_f32_to_i32(0x80000001, rm, &fl), tiny);
    per_mode one = {{0, 0, 0, 1, 0}, {NX, NX, NX, NX, NX}};
    CHECK32(sf_f32_to_u32(0x00000001, rm, &fl), one);
}

static void test_int_to_float_and_formats(void **state)
{
    (void)state;
    /* 2^63 - 1 -> binary32: 2^63 except when rounding towards zero / down */
    per_mode imax = {{0x5f000000, 0x5effffff, 0x5effffff, 0x5f000000, 0x5f000000}, {NX, NX, NX, NX, NX}};
    CHECK32(sf_i64_to_f32(INT64_MAX, rm, &fl), imax);
    per_mode imin = ALL5(0xdf000000, 0);
    CHECK32(sf_i64_to_f32(INT64_MIN, rm, &fl), imin);
    per_mode umax = {{0x43f0000000000000, 0x43efffffffffffff, 0x43efffffffffffff, 0x43f0000000000000,
                      0x43f0000000000000},
                     {NX, NX, NX, NX, NX}};
    CHECK64(sf_u64_to_f64(UINT64_MAX, rm, &fl), umax);
    per_mode zero = ALL5(0, 0);
    CHECK64(sf_i64_to_f64(0, rm, &fl), zero);
    per_mode m1 = ALL5(0xbff0000000000000, 0);
    CHECK64(sf_i64_to_f64(-1, rm, &fl), m1);

    unsigned fl = 0;
    assert_true(sf_f32_to_f64(0x00000001, &fl) == UINT64_C(0x36a0000000000000)); /* 2^-149 */
    assert_true(sf_f32_to_f64(0xff800000, &fl) == UINT64_C(0xfff0000000000000));
    assert_true(sf_f32_to_f64(0x80000000, &fl) == UINT64_C(0x8000000000000000));
    assert_true(sf_f32_to_f64(0xffc12345, &fl) == SF_CANONICAL_NAN64);
    assert_int_equal(fl, 0);
    assert_true(sf_f32_to_f64(0x7f800001, &fl) == SF_CANONICAL_NAN64);
    assert_int_equal(fl, NV);
    per_mode third = {{0x3eaaaaab, 0x3eaaaaaa, 0x3eaaaaaa, 0x3eaaaaab, 0x3eaaaaab}, {NX, NX, NX, NX, NX}};
    CHECK32(sf_f64_to_f32(0x3fd5555555555555, rm, &fl), third);
    per_mode snan = ALL5(SF_CANONICAL_NAN32, NV);
    CHECK32(sf_f64_to_f32(0x7ff0000000000001, rm, &fl), snan);
    /* smallest binary64 subnormal -> binary32: underflows to 0 or the smallest subnormal */
    per_mode tiny = {{0, 0, 0, 1, 0}, {UF | NX, UF | NX, UF | NX, UF | NX, UF | NX}};
    CHECK32(sf_f64_to_f32(0x0000000000000001, rm, &fl), tiny);
}

#if defined(__x86_64__)
/* SSE arithmetic is IEEE 754 with tininess after rounding: an independent oracle for
 * RNE/RTZ/RDN/RUP on non-NaN results (x86 propagates NaN payloads; RISC-V does not). */
static uint64_t xs;
static uint64_t next(void)
{
    xs ^= xs << 13;
    xs ^= xs >> 7;
    xs ^= xs << 17;
    return xs;
}
static uint64_t rand_f64(void)
{
    uint64_t r = next(), sign_frac = next() & UINT64_C(0x800fffffffffffff);
    switch (r % 6) {
    case 0: return next();
    case 1: return sign_frac | ((r >> 8) % 4) << 52;           /* subnormal and tiny */
    case 2: return sign_frac | (1023 - 32 + (r >> 8) % 64) << 52;
    case 3: return sign_frac | (2046 - (r >> 8) % 3) << 52;    /* huge */
    default: return sign_frac | (1000 + (r >> 8) % 48) << 52;
    }
}
static unsigned host_flags(void)
{
    int e = fetestexcept(FE_ALL_EXCEPT);
    return ((e & FE_INEXACT) ? NX : 0) | ((e & FE_UNDERFLOW) ? UF : 0) | ((e & FE_OVERFLOW) ? OF : 0) |
           ((e & FE_DIVBYZERO) ? DZ : 0) | ((e & FE_INVALID) ? NV : 0);
}

static void test_against_host_fpu(void **state)
{
    (void)state;
    static const int host_mode[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
    xs = UINT64_C(0x9e3779b97f4a7c15);
    long mismatches = 0;
    for (int i = 0; i < 200000; i++) {
        uint64_t a = rand_f64(), b = rand_f64(), c = rand_f64();
        int rm = i % 4, op = (i / 4) % 5;
        volatile double da, db, dc, dr;
        memcpy((void *)&da, &a, 8);
        memcpy((void *)&db, &b, 8);
        memcpy((void *)&dc, &c, 8);
        unsigned fl = 0;
        uint64_t got;
        fesetround(host_mode[rm]);
        feclearexcept(FE_ALL_EXCEPT);
        switch (op) {
        case 0: dr = da + db; got = sf_add64(a, b, rm, &fl); break;
        case 1: dr = da * db; got = sf_mul64(a, b, rm, &fl); break;
        case 2: dr = da / db; got = sf_div64(a, b, rm, &fl); break;
        case 3: dr = sqrt(da); got = sf_sqrt64(a, rm, &fl); break;
        default: dr = fma(da, db, dc); got = sf_fma64(a, b, c, false, false, rm, &fl); break;
        }
        unsigned hf = host_flags();
        fesetround(FE_TONEAREST);
        uint64_t want;
        double r = dr;
        memcpy(&want, &r, 8);
        if (isnan(r))
            want = SF_CANONICAL_NAN64;
        if (want != got || hf != fl) {
            if (mismatches++ < 5)
                print_error("op %d rm %d %016llx %016llx %016llx: host %016llx/%02x soft %016llx/%02x\n", op, rm,
                            (unsigned long long)a, (unsigned long long)b, (unsigned long long)c,
                            (unsigned long long)want, hf, (unsigned long long)got, fl);
        }
    }
    assert_int_equal(mismatches, 0);
}
#endif

#define CHECK16(call_rm_fl, exp)                                                                   \
    do {                                                                                           \
        for (int rm = 0; rm < 5; rm++) {                                                           \
            unsigned fl = 0;                                                                       \
            uint64_t got = call_rm_fl;                                                             \
            if (got != (exp).r[rm] || fl != (exp).f[rm])                                           \
                fail_msg("%s rm=%d: got %04llx/%02x want %04llx/%02x", #call_rm_fl, rm,            \
                         (unsigned long long)got, fl, (unsigned long long)(exp).r[rm], (exp).f[rm]); \
        }                                                                                          \
    } while (0)

/* binary16 (Zfh), worked out by hand: p = 11, emax = 15, 1 = 0x3c00, max 65504 = 0x7bff,
 * min normal 2^-14 = 0x0400, min subnormal 2^-24 = 0x0001. */
static void test_binary16(void **state)
{
    (void)state;
    const unsigned NX = SF_NX, UF = SF_UF | SF_NX, OF = SF_OF | SF_NX;
    /* 1 + 2^-11: exactly halfway between 0x3c00 and 0x3c01 */
    per_mode half = {{0x3c00, 0x3c00, 0x3c00, 0x3c01, 0x3c01}, {NX, NX, NX, NX, NX}};
    CHECK16(sf_add16(0x3c00, 0x1000, rm, &fl), half);
    /* ... and a double just above it */
    per_mode above = {{0x3c01, 0x3c00, 0x3c00, 0x3c01, 0x3c01}, {NX, NX, NX, NX, NX}};
    CHECK16(sf_f64_to_f16(UINT64_C(0x3ff0020000001000), rm, &fl), above);
    /* 65504 * 2 and -65504 * 2: infinity or the largest finite, per mode and sign */
    per_mode ovf = {{0x7c00, 0x7bff, 0x7bff, 0x7c00, 0x7c00}, {OF, OF, OF, OF, OF}};
    CHECK16(sf_mul16(0x7bff, 0x4000, rm, &fl), ovf);
    per_mode novf = {{0xfc00, 0xfbff, 0xfc00, 0xfbff, 0xfc00}, {OF, OF, OF, OF, OF}};
    CHECK16(sf_mul16(0xfbff, 0x4000, rm, &fl), novf);
    /* 65520 = halfway between 65504 and 2^16: overflows only where it rounds up (rounded
     * toward zero with an unbounded exponent it is 65504, which is no overflow) */
    per_mode halfway_max = {{0x7c00, 0x7bff, 0x7bff, 0x7c00, 0x7c00}, {OF, NX, NX, OF, OF}};
    CHECK16(sf_u64_to_f16(65520, rm, &fl), halfway_max);
    /* 2^-14 (1 - 2^-12): tiny after rounding only where it rounds down to 0x03ff */
    per_mode tiny = {{0x0400, 0x03ff, 0x03ff, 0x0400, 0x0400}, {NX, UF, UF, NX, NX}};
    CHECK16(sf_f32_to_f16(0x387ff000, rm, &fl), tiny);
    /* 2^-24 * 0.5: halfway between 0 and the smallest subnormal */
    per_mode sub = {{0x0000, 0x0000, 0x0000, 0x0001, 0x0001}, {UF, UF, UF, UF, UF}};
    CHECK16(sf_mul16(0x0001, 0x3800, rm, &fl), sub);
    /* 2.5 to an integer */
    per_mode ties = {{2, 2, 2, 3, 3}, {NX, NX, NX, NX, NX}};
    CHECK16((uint64_t)sf_f16_to_i32(0x4100, rm, &fl), ties);
    per_mode exact = ALL5(0x4200, 0);
    CHECK16(sf_sqrt16(0x4880, rm, &fl), exact); /* sqrt(9) */
    unsigned fl = 0;
    assert_int_equal(sf_f16_to_f64(0x7c01, &fl), 0x7ff8000000000000); /* sNaN: canonical, NV */
    assert_int_equal(fl, SF_NV);
    fl = 0;
    assert_int_equal(sf_f16_to_f32(0x0001, &fl), 0x33800000); /* 2^-24, exact */
    assert_int_equal(fl, 0);
    assert_int_equal(sf_unbox16(UINT64_C(0xffffffff00003c00)), SF_CANONICAL_NAN16);
    assert_int_equal(sf_unbox16(UINT64_C(0xffffffffffff3c00)), 0x3c00);
    assert_int_equal(sf_class16(0x0001), SF_CLASS_POS_SUBNORMAL);
    assert_int_equal(sf_class16(0xfc00), SF_CLASS_NEG_INF);
    assert_int_equal(sf_class16(0x7d00), SF_CLASS_SNAN);
    fl = 0;
    assert_int_equal(sf_min16(0x7c01, 0x3c00, &fl), 0x3c00);
    assert_int_equal(fl, SF_NV);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic_and_directed_rounding),
        cmocka_unit_test(test_halfway_cases),
        cmocka_unit_test(test_overflow_per_mode),
        cmocka_unit_test(test_tininess_after_rounding),
        cmocka_unit_test(test_fma_single_rounding),
        cmocka_unit_test(test_nan_and_specials),
        cmocka_unit_test(test_min_max_compare_class),
        cmocka_unit_test(test_float_to_int_saturation),
        cmocka_unit_test(test_int_to_float_and_formats),
        cmocka_unit_test(test_binary16),
#if defined(__x86_64__)
        cmocka_unit_test(test_against_host_fpu),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
