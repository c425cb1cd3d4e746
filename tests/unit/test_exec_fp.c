/* Unit tests for emu/cpu/exec_fp: the ISA rules around the arithmetic (decoding, reserved
 * encodings and rounding modes, mstatus.FS, NaN-boxing, sign extension, fflags accrual).
 * Register-only instructions on a bare mt_cpu; loads/stores and the arithmetic itself are
 * covered by tests/fp (the same program on QEMU and mtemu) and test_softfp. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "emu/cpu/cpu.h"
#include "emu/cpu/exec_fp.h"
#include "emu/cpu/softfp.h"

static uint32_t r_type(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rd, unsigned opc)
{
    return (uint32_t)(f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc);
}
#define OP_FP 0x53
enum { RNE = 0, RTZ = 1, DYN = 7 };

static int setup(void **state)
{
    mt_cpu *c = calloc(1, sizeof *c);
    if (!c)
        return -1;
    c->mstatus = (uint64_t)FS_INITIAL << MSTATUS_FS_SHIFT;
    *state = c;
    return 0;
}
static int teardown(void **state)
{
    free(*state);
    return 0;
}

static void test_fs_off_and_dirty(void **state)
{
    mt_cpu *c = *state;
    c->f[1] = sf_box32(0x3f800000);
    c->f[2] = sf_box32(0x40000000);
    uint32_t fadd_s = r_type(0x00, 2, 1, RNE, 3, OP_FP);
    c->mstatus &= ~MSTATUS_FS;
    assert_int_equal(exec_fp(c, fadd_s), EXC_ILLEGAL);
    assert_true(c->f[3] == 0);
    c->mstatus |= (uint64_t)FS_INITIAL << MSTATUS_FS_SHIFT;
    assert_int_equal(exec_fp(c, fadd_s), EXC_NONE);
    assert_true(c->f[3] == sf_box32(0x40400000));
    assert_true((c->mstatus & MSTATUS_FS) == MSTATUS_FS); /* Dirty */
    assert_true(c->mstatus & MSTATUS_SD);
    /* an instruction that writes only an x register and raises nothing leaves FS alone */
    c->mstatus = (uint64_t)FS_CLEAN << MSTATUS_FS_SHIFT;
    assert_int_equal(exec_fp(c, r_type(0x50, 2, 1, 2, 5, OP_FP)), EXC_NONE); /* feq.s x5 */
    assert_int_equal(c->x[5], 0);
    assert_true((c->mstatus & MSTATUS_FS) == (uint64_t)FS_CLEAN << MSTATUS_FS_SHIFT);
    /* ... but accruing a flag dirties it */
    c->f[4] = sf_box32(0x7f800001); /* sNaN */
    assert_int_equal(exec_fp(c, r_type(0x50, 4, 1, 2, 5, OP_FP)), EXC_NONE);
    assert_int_equal(c->fflags, SF_NV);
    assert_true((c->mstatus & MSTATUS_FS) == MSTATUS_FS);
}

static void test_rounding_mode_resolution(void **state)
{
    mt_cpu *c = *state;
    c->f[1] = sf_box32(0x3f800000); /* 1 */
    c->f[2] = sf_box32(0x40400000); /* 3 */
    for (unsigned rm = 5; rm <= 6; rm++)
        assert_int_equal(exec_fp(c, r_type(0x0c, 2, 1, rm, 3, OP_FP)), EXC_ILLEGAL);
    for (unsigned frm = 5; frm <= 7; frm++) {
        c->frm = frm;
        assert_int_equal(exec_fp(c, r_type(0x0c, 2, 1, DYN, 3, OP_FP)), EXC_ILLEGAL);
        /* a static mode works whatever frm holds */
        assert_int_equal(exec_fp(c, r_type(0x0c, 2, 1, RTZ, 3, OP_FP)), EXC_NONE);
        assert_true(c->f[3] == sf_box32(0x3eaaaaaa));
    }
    c->frm = 3; /* RUP */
    assert_int_equal(exec_fp(c, r_type(0x0c, 2, 1, DYN, 3, OP_FP)), EXC_NONE);
    assert_true(c->f[3] == sf_box32(0x3eaaaaab));
    /* exact conversions still decode their rm field */
    assert_int_equal(exec_fp(c, r_type(0x21, 0, 1, 5, 3, OP_FP)), EXC_ILLEGAL); /* fcvt.d.s rm=5 */
    c->frm = 7;
    assert_int_equal(exec_fp(c, r_type(0x69, 0, 1, DYN, 3, OP_FP)), EXC_ILLEGAL); /* fcvt.d.w dyn */
    /* FMA with a reserved rm */
    assert_int_equal(exec_fp(c, (uint32_t)(1u << 27 | 2u << 20 | 1u << 15 | 6u << 12 | 3u << 7 | 0x43)), EXC_ILLEGAL);
}

static void test_nan_boxing_and_moves(void **state)
{
    mt_cpu *c = *state;
    c->f[1] = 0x000000003f800000; /* not boxed: reads as the canonical NaN */
    c->f[2] = sf_box32(0x3f800000);
    assert_int_equal(exec_fp(c, r_type(0x00, 2, 1, RNE, 3, OP_FP)), EXC_NONE);
    assert_true(c->f[3] == sf_box32(SF_CANONICAL_NAN32));
    assert_int_equal(c->fflags, 0); /* a quiet NaN: no flag */
    /* fsgnjn.s of the unboxed value: the canonical NaN with the negated sign of rs2 */
    assert_int_equal(exec_fp(c, r_type(0x10, 2, 1, 1, 3, OP_FP)), EXC_NONE);
    assert_true(c->f[3] == sf_box32(0xffc00000));
    /* fclass.s of it: quiet NaN */
    assert_int_equal(exec_fp(c, r_type(0x70, 0, 1, 1, 5, OP_FP)), EXC_NONE);
    assert_int_equal(c->x[5], SF_CLASS_QNAN);
    /* fmv.x.w does not unbox, and sign-extends bit 31 */
    c->f[6] = 0x1234567880000000;
    assert_int_equal(exec_fp(c, r_type(0x70, 0, 6, 0, 5, OP_FP)), EXC_NONE);
    assert_true(c->x[5] == 0xffffffff80000000);
    /* fmv.w.x boxes the low word; fmv.d.x and fmv.x.d are raw */
    c->x[7] = 0xdeadbeef12345678;
    assert_int_equal(exec_fp(c, r_type(0x78, 0, 7, 0, 8, OP_FP)), EXC_NONE);
    assert_true(c->f[8] == 0xffffffff12345678);
    assert_int_equal(exec_fp(c, r_type(0x79, 0, 7, 0, 8, OP_FP)), EXC_NONE);
    assert_true(c->f[8] == 0xdeadbeef12345678);
    /* single results are boxed */
    c->x[7] = 3;
    assert_int_equal(exec_fp(c, r_type(0x68, 0, 7, RNE, 9, OP_FP)), EXC_NONE); /* fcvt.s.w */
    assert_true(c->f[9] == sf_box32(0x40400000));
}

static void test_integer_results(void **state)
{
    mt_cpu *c = *state;
    c->f[1] = sf_box32(0xbf800000); /* -1 */
    assert_int_equal(exec_fp(c, r_type(0x60, 0, 1, RTZ, 5, OP_FP)), EXC_NONE); /* fcvt.w.s */
    assert_true(c->x[5] == UINT64_MAX);
    c->f[2] = sf_box32(0x4f32d05e); /* 3e9 */
    assert_int_equal(exec_fp(c, r_type(0x60, 1, 2, RTZ, 5, OP_FP)), EXC_NONE); /* fcvt.wu.s */
    assert_true(c->x[5] == 0xffffffffb2d05e00); /* 32-bit result, sign-extended */
    /* fcvt.s.w reads only the low 32 bits of rs1 */
    c->x[7] = 0x00000001ffffffff; /* low word -1 */
    assert_int_equal(exec_fp(c, r_type(0x68, 0, 7, RNE, 9, OP_FP)), EXC_NONE);
    assert_true(c->f[9] == sf_box32(0xbf800000));
    /* writes to x0 are dropped */
    c->x[0] = 0;
    assert_int_equal(exec_fp(c, r_type(0x51, 1, 1, 2, 0, OP_FP)), EXC_NONE); /* feq.d x0 */
    assert_true(c->x[0] == 0);
    /* flags accrue */
    c->fflags = SF_NX;
    c->f[3] = sf_box32(0);
    assert_int_equal(exec_fp(c, r_type(0x0c, 3, 1, RNE, 4, OP_FP)), EXC_NONE); /* -1 / 0 */
    assert_int_equal(c->fflags, SF_NX | SF_DZ);
    assert_true(c->f[4] == sf_box32(0xff800000));
}

static void test_reserved_encodings(void **state)
{
    mt_cpu *c = *state;
    assert_int_equal(exec_fp(c, r_type(0x03, 2, 1, RNE, 3, OP_FP)), EXC_ILLEGAL);  /* fadd.q */
    assert_int_equal(exec_fp(c, r_type(0x2e, 1, 1, RNE, 3, OP_FP)), EXC_ILLEGAL);  /* fsqrt.h rs2!=0 */
    assert_int_equal(exec_fp(c, r_type(0x22, 2, 1, RNE, 3, OP_FP)), EXC_ILLEGAL);  /* fcvt.h.h */
    assert_int_equal(exec_fp(c, r_type(0x22, 3, 1, RNE, 3, OP_FP)), EXC_ILLEGAL);  /* fcvt.h.q */
    assert_int_equal(exec_fp(c, r_type(0x20, 3, 1, RNE, 3, OP_FP)), EXC_ILLEGAL);  /* fcvt.s.q */
    assert_int_equal(exec_fp(c, r_type(0x16, 2, 1, 2, 3, OP_FP)), EXC_ILLEGAL);    /* fmin.h f3=2 */
    assert_int_equal(exec_fp(c, r_type(0x72, 0, 1, 2, 3, OP_FP)), EXC_ILLEGAL);    /* fmv.x.h f3=2 */
    assert_int_equal(exec_fp(c, r_type(0x7a, 0, 1, 1, 3, OP_FP)), EXC_ILLEGAL);    /* fmv.h.x f3=1 */
    assert_int_equal(exec_fp(c, r_type(0x62, 4, 1, RNE, 3, OP_FP)), EXC_ILLEGAL);  /* fcvt.x.h rs2=4 */
    assert_int_equal(exec_fp(c, r_type(0x2c, 1, 1, RNE, 3, OP_FP)), EXC_ILLEGAL);  /* fsqrt rs2!=0 */
    assert_int_equal(exec_fp(c, r_type(0x10, 2, 1, 3, 3, OP_FP)), EXC_ILLEGAL);    /* fsgnj f3=3 */
    assert_int_equal(exec_fp(c, r_type(0x14, 2, 1, 2, 3, OP_FP)), EXC_ILLEGAL);    /* fmin f3=2 */
    assert_int_equal(exec_fp(c, r_type(0x50, 2, 1, 3, 3, OP_FP)), EXC_ILLEGAL);    /* fcmp f3=3 */
    assert_int_equal(exec_fp(c, r_type(0x60, 4, 1, RNE, 3, OP_FP)), EXC_ILLEGAL);  /* fcvt rs2=4 */
    assert_int_equal(exec_fp(c, r_type(0x20, 0, 1, RNE, 3, OP_FP)), EXC_ILLEGAL);  /* fcvt.s.s */
    assert_int_equal(exec_fp(c, r_type(0x70, 0, 1, 2, 3, OP_FP)), EXC_ILLEGAL);    /* fmv.x.w f3=2 */
    assert_int_equal(exec_fp(c, r_type(0x70, 1, 1, 0, 3, OP_FP)), EXC_ILLEGAL);    /* fmv.x.w rs2!=0 */
    assert_int_equal(exec_fp(c, r_type(0x78, 0, 1, 1, 3, OP_FP)), EXC_ILLEGAL);    /* fmv.w.x f3=1 */
    assert_int_equal(exec_fp(c, r_type(0x7c, 0, 1, 0, 3, OP_FP)), EXC_ILLEGAL);    /* unassigned */
    assert_int_equal(exec_fp(c, (uint32_t)(3u << 25 | 0x43)), EXC_ILLEGAL);        /* fmadd.q */
    assert_int_equal(exec_fp(c, (uint32_t)(0u << 12 | 0x07)), EXC_ILLEGAL);        /* load f3=0 */
    assert_int_equal(exec_fp(c, (uint32_t)(4u << 12 | 0x07)), EXC_ILLEGAL);        /* flq: no Q */
    assert_int_equal(exec_fp(c, (uint32_t)(4u << 12 | 0x27)), EXC_ILLEGAL);        /* store f3=4 */
}

/* Zfh: halves boxed in bits 63..16, read through unboxing; fmv.x.h raw and sign-extended */
static void test_zfh_boxing_and_moves(void **state)
{
    mt_cpu *c = *state;
    c->f[1] = sf_box16(0x3c00); /* 1.0 */
    c->f[2] = sf_box16(0x4000); /* 2.0 */
    assert_int_equal(exec_fp(c, r_type(0x02, 2, 1, RNE, 3, OP_FP)), EXC_NONE); /* fadd.h */
    assert_true(c->f[3] == UINT64_C(0xffffffffffff4200));
    c->f[2] = sf_box32(0x4000); /* boxed as a single only: reads as the canonical NaN */
    c->fflags = 0;
    assert_int_equal(exec_fp(c, r_type(0x02, 2, 1, RNE, 3, OP_FP)), EXC_NONE);
    assert_true(c->f[3] == UINT64_C(0xffffffffffff7e00));
    assert_int_equal(c->fflags, 0);
    c->f[4] = UINT64_C(0x123456789abc8001);
    assert_int_equal(exec_fp(c, r_type(0x72, 0, 4, 0, 5, OP_FP)), EXC_NONE); /* fmv.x.h x5 */
    assert_true(c->x[5] == UINT64_C(0xffffffffffff8001));
    c->x[6] = UINT64_C(0x1234567812345678);
    assert_int_equal(exec_fp(c, r_type(0x7a, 0, 6, 0, 7, OP_FP)), EXC_NONE); /* fmv.h.x f7 */
    assert_true(c->f[7] == UINT64_C(0xffffffffffff5678));
    assert_int_equal(exec_fp(c, r_type(0x20, 2, 1, RNE, 8, OP_FP)), EXC_NONE); /* fcvt.s.h */
    assert_true(c->f[8] == sf_box32(0x3f800000));
    assert_int_equal(exec_fp(c, r_type(0x21, 2, 1, RNE, 8, OP_FP)), EXC_NONE); /* fcvt.d.h */
    assert_true(c->f[8] == UINT64_C(0x3ff0000000000000));
    c->x[9] = (uint64_t)-3;
    assert_int_equal(exec_fp(c, r_type(0x6a, 2, 9, RNE, 10, OP_FP)), EXC_NONE); /* fcvt.h.l */
    assert_true(c->f[10] == UINT64_C(0xffffffffffffc200));
    assert_int_equal(exec_fp(c, r_type(0x62, 0, 10, RTZ, 11, OP_FP)), EXC_NONE); /* fcvt.w.h */
    assert_true(c->x[11] == (uint64_t)-3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fs_off_and_dirty, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rounding_mode_resolution, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nan_boxing_and_moves, setup, teardown),
        cmocka_unit_test_setup_teardown(test_integer_results, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reserved_encodings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zfh_boxing_and_moves, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
