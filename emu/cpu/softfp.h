/* softfp — IEEE 754-2008/2019 binary16, binary32 and binary64 arithmetic in integer code, with
 * the RISC-V "F"/"D"/"Zfh" conventions (canonical NaN, no NaN payload propagation, tininess detected
 * after rounding, saturating float->integer conversions).
 *
 * Why integer code: results and exception flags must be bit-exact whatever the host FPU
 * and compiler do, and the host has no round-to-nearest-max-magnitude (RMM) mode.
 *
 * Values are raw bit patterns: a binary16 is a uint16_t, a binary32 a uint32_t, a binary64 a
 * uint64_t.  Every operation takes the rounding mode (SF_RNE..SF_RMM; any other value is a
 * caller bug and is treated as RNE) and ORs the exception flags it raises into *fflags,
 * using the RISC-V fflags bit layout.  No function keeps state; all are thread-safe.
 *
 * NaN-boxing of halves and singles inside 64-bit registers is the caller's business (see
 * sf_unbox16, sf_unbox32).
 */
#ifndef EMU_SOFTFP_H
#define EMU_SOFTFP_H

#include <stdbool.h>
#include <stdint.h>

/* Rounding modes, numbered as in the RISC-V rm field / frm CSR. */
enum sf_round {
    SF_RNE = 0, /* to nearest, ties to even */
    SF_RTZ = 1, /* toward zero */
    SF_RDN = 2, /* toward -infinity */
    SF_RUP = 3, /* toward +infinity */
    SF_RMM = 4, /* to nearest, ties to max magnitude */
};

/* Exception flags, bit positions as in the RISC-V fflags CSR. */
enum sf_flag {
    SF_NX = 1u << 0, /* inexact */
    SF_UF = 1u << 1, /* underflow (tiny after rounding and inexact) */
    SF_OF = 1u << 2, /* overflow */
    SF_DZ = 1u << 3, /* divide by zero */
    SF_NV = 1u << 4, /* invalid operation */
};

#define SF_CANONICAL_NAN16 UINT16_C(0x7e00)
#define SF_CANONICAL_NAN32 UINT32_C(0x7fc00000)
#define SF_CANONICAL_NAN64 UINT64_C(0x7ff8000000000000)

/* A single held in a 64-bit f register is valid only when the upper 32 bits are all ones;
 * otherwise it reads as the canonical NaN. */
static inline uint32_t sf_unbox32(uint64_t reg)
{
    return (reg >> 32) == UINT32_C(0xffffffff) ? (uint32_t)reg : SF_CANONICAL_NAN32;
}
static inline uint64_t sf_box32(uint32_t v) { return UINT64_C(0xffffffff00000000) | v; }
/* The same for a half (Zfh): valid only when bits 63..16 are all ones. */
static inline uint16_t sf_unbox16(uint64_t reg)
{
    return (reg >> 16) == UINT64_C(0xffffffffffff) ? (uint16_t)reg : SF_CANONICAL_NAN16;
}
static inline uint64_t sf_box16(uint16_t v) { return UINT64_C(0xffffffffffff0000) | v; }

/* ---- binary16 (same contracts as binary32 below) ---- */
uint16_t sf_add16(uint16_t a, uint16_t b, int rm, unsigned *fflags);
uint16_t sf_sub16(uint16_t a, uint16_t b, int rm, unsigned *fflags);
uint16_t sf_mul16(uint16_t a, uint16_t b, int rm, unsigned *fflags);
uint16_t sf_div16(uint16_t a, uint16_t b, int rm, unsigned *fflags);
uint16_t sf_sqrt16(uint16_t a, int rm, unsigned *fflags);
uint16_t sf_fma16(uint16_t a, uint16_t b, uint16_t c, bool neg_prod, bool neg_add, int rm, unsigned *fflags);
uint16_t sf_min16(uint16_t a, uint16_t b, unsigned *fflags);
uint16_t sf_max16(uint16_t a, uint16_t b, unsigned *fflags);
bool sf_eq16(uint16_t a, uint16_t b, unsigned *fflags);
bool sf_lt16(uint16_t a, uint16_t b, unsigned *fflags);
bool sf_le16(uint16_t a, uint16_t b, unsigned *fflags);
unsigned sf_class16(uint16_t a);

/* ---- binary32 ---- */
uint32_t sf_add32(uint32_t a, uint32_t b, int rm, unsigned *fflags);
uint32_t sf_sub32(uint32_t a, uint32_t b, int rm, unsigned *fflags);
uint32_t sf_mul32(uint32_t a, uint32_t b, int rm, unsigned *fflags);
uint32_t sf_div32(uint32_t a, uint32_t b, int rm, unsigned *fflags);
uint32_t sf_sqrt32(uint32_t a, int rm, unsigned *fflags);
/* a*b+c with one rounding; neg_prod negates a*b, neg_add negates c, which gives
 * fmadd (0,0), fmsub (0,1), fnmsub (1,0), fnmadd (1,1). */
uint32_t sf_fma32(uint32_t a, uint32_t b, uint32_t c, bool neg_prod, bool neg_add, int rm,
                  unsigned *fflags);
uint32_t sf_min32(uint32_t a, uint32_t b, unsigned *fflags);
uint32_t sf_max32(uint32_t a, uint32_t b, unsigned *fflags);
bool sf_eq32(uint32_t a, uint32_t b, unsigned *fflags); /* quiet: NV only for sNaN */
bool sf_lt32(uint32_t a, uint32_t b, unsigned *fflags); /* signalling: NV for any NaN */
bool sf_le32(uint32_t a, uint32_t b, unsigned *fflags);
unsigned sf_class32(uint32_t a); /* RISC-V fclass one-hot mask */

/* ---- binary64 ---- */
uint64_t sf_add64(uint64_t a, uint64_t b, int rm, unsigned *fflags);
uint64_t sf_sub64(uint64_t a, uint64_t b, int rm, unsigned *fflags);
uint64_t sf_mul64(uint64_t a, uint64_t b, int rm, unsigned *fflags);
uint64_t sf_div64(uint64_t a, uint64_t b, int rm, unsigned *fflags);
uint64_t sf_sqrt64(uint64_t a, int rm, unsigned *fflags);
uint64_t sf_fma64(uint64_t a, uint64_t b, uint64_t c, bool neg_prod, bool neg_add, int rm,
                  unsigned *fflags);
uint64_t sf_min64(uint64_t a, uint64_t b, unsigned *fflags);
uint64_t sf_max64(uint64_t a, uint64_t b, unsigned *fflags);
bool sf_eq64(uint64_t a, uint64_t b, unsigned *fflags);
bool sf_lt64(uint64_t a, uint64_t b, unsigned *fflags);
bool sf_le64(uint64_t a, uint64_t b, unsigned *fflags);
unsigned sf_class64(uint64_t a);

/* ---- conversions between formats ---- */
uint64_t sf_f32_to_f64(uint32_t a, unsigned *fflags);
uint32_t sf_f64_to_f32(uint64_t a, int rm, unsigned *fflags);
uint32_t sf_f16_to_f32(uint16_t a, unsigned *fflags); /* exact */
uint64_t sf_f16_to_f64(uint16_t a, unsigned *fflags); /* exact */
uint16_t sf_f32_to_f16(uint32_t a, int rm, unsigned *fflags);
uint16_t sf_f64_to_f16(uint64_t a, int rm, unsigned *fflags);

/* ---- float -> integer, saturating as RISC-V specifies (NaN -> maximum, out of range ->
 * the nearest bound, both with NV; inexact in-range results raise NX).  The 32-bit forms
 * return the 32-bit result; sign extension to XLEN is the caller's business. ---- */
int32_t sf_f16_to_i32(uint16_t a, int rm, unsigned *fflags);
uint32_t sf_f16_to_u32(uint16_t a, int rm, unsigned *fflags);
int64_t sf_f16_to_i64(uint16_t a, int rm, unsigned *fflags);
uint64_t sf_f16_to_u64(uint16_t a, int rm, unsigned *fflags);
int32_t sf_f32_to_i32(uint32_t a, int rm, unsigned *fflags);
uint32_t sf_f32_to_u32(uint32_t a, int rm, unsigned *fflags);
int64_t sf_f32_to_i64(uint32_t a, int rm, unsigned *fflags);
uint64_t sf_f32_to_u64(uint32_t a, int rm, unsigned *fflags);
int32_t sf_f64_to_i32(uint64_t a, int rm, unsigned *fflags);
uint32_t sf_f64_to_u32(uint64_t a, int rm, unsigned *fflags);
int64_t sf_f64_to_i64(uint64_t a, int rm, unsigned *fflags);
uint64_t sf_f64_to_u64(uint64_t a, int rm, unsigned *fflags);

/* ---- integer -> float ---- */
uint16_t sf_i64_to_f16(int64_t v, int rm, unsigned *fflags);
uint16_t sf_u64_to_f16(uint64_t v, int rm, unsigned *fflags);
uint32_t sf_i64_to_f32(int64_t v, int rm, unsigned *fflags);
uint32_t sf_u64_to_f32(uint64_t v, int rm, unsigned *fflags);
uint64_t sf_i64_to_f64(int64_t v, int rm, unsigned *fflags);
uint64_t sf_u64_to_f64(uint64_t v, int rm, unsigned *fflags);

/* fclass bits */
enum sf_class_bit {
    SF_CLASS_NEG_INF = 1u << 0,
    SF_CLASS_NEG_NORMAL = 1u << 1,
    SF_CLASS_NEG_SUBNORMAL = 1u << 2,
    SF_CLASS_NEG_ZERO = 1u << 3,
    SF_CLASS_POS_ZERO = 1u << 4,
    SF_CLASS_POS_SUBNORMAL = 1u << 5,
    SF_CLASS_POS_NORMAL = 1u << 6,
    SF_CLASS_POS_INF = 1u << 7,
    SF_CLASS_SNAN = 1u << 8,
    SF_CLASS_QNAN = 1u << 9,
};

#endif
