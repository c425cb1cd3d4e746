/* exec_fp — the RV64F, RV64D and Zfh instructions for mtemu (see exec_fp.h).
 *
 * The decoder hands every LOAD-FP, STORE-FP, FMADD/FMSUB/FNMSUB/FNMADD and OP-FP instruction
 * here in its 32-bit form (C.FLD, C.FSD, C.FLDSP and C.FSDSP arrive already expanded).  The
 * arithmetic is emu/cpu/softfp (integer code, bit-exact whatever the host); this file adds the
 * ISA's rules around it: decoding and reserved encodings, rounding-mode resolution (static
 * rm, dynamic via frm, reserved values illegal), NaN-boxing of halves and singles in the 64-bit
 * f registers, sign extension of 32-bit integer results, fflags accrual and mstatus.FS.
 */
#include "emu/cpu/exec_fp.h"

#include "emu/cpu/cpu.h"
#include "emu/cpu/softfp.h"

enum {
    OPC_LOAD_FP = 0x07, OPC_STORE_FP = 0x27, OPC_FMADD = 0x43, OPC_FMSUB = 0x47,
    OPC_FNMSUB = 0x4b, OPC_FNMADD = 0x4f, OPC_OP_FP = 0x53,
};

static uint64_t sext32(uint32_t v) { return (uint64_t)(int64_t)(int32_t)v; }

/* The effective rounding mode of an instruction, or -1 when its encoding is illegal
 * (rm 5 and 6 are reserved; dynamic rounding with frm holding 5, 6 or 7 is illegal). */
static int resolve_rm(const mt_cpu *cpu, unsigned rm_field)
{
    unsigned rm = rm_field == 7 ? cpu->frm : rm_field;
    return rm <= SF_RMM ? (int)rm : -1;
}

static void write_f(mt_cpu *cpu, unsigned rd, uint64_t v)
{
    cpu->f[rd] = v;
    cpu_fp_set_dirty(cpu);
}

static void write_x(mt_cpu *cpu, unsigned rd, uint64_t v)
{
    if (rd != 0)
        cpu->x[rd] = v;
}

static void accrue(mt_cpu *cpu, unsigned flags)
{
    if (flags) {
        cpu->fflags |= flags;
        cpu_fp_set_dirty(cpu);
    }
}

static int exec_load(mt_cpu *cpu, uint32_t insn, unsigned rd, unsigned f3, unsigned rs1)
{
    if (f3 < 1 || f3 > 3) /* flh (Zfh), flw, fld */
        return EXC_ILLEGAL;
    uint64_t va = cpu->x[rs1] + (uint64_t)(int64_t)((int32_t)insn >> 20);
    uint64_t v;
    int ex = cpu_load(cpu, va, 1u << f3, &v);
    if (ex != EXC_NONE) {
        cpu->fp_tval = va;
        return ex;
    }
    write_f(cpu, rd, f3 == 1 ? sf_box16((uint16_t)v) : f3 == 2 ? sf_box32((uint32_t)v) : v);
    return EXC_NONE;
}

static int exec_store(mt_cpu *cpu, uint32_t insn, unsigned f3, unsigned rs1, unsigned rs2)
{
    if (f3 < 1 || f3 > 3) /* fsh (Zfh), fsw, fsd */
        return EXC_ILLEGAL;
    int32_t imm = ((int32_t)insn >> 25) * 32 + (int32_t)((insn >> 7) & 31);
    uint64_t va = cpu->x[rs1] + (uint64_t)(int64_t)imm;
    /* FSH/FSW transfer the low 16/32 bits unmodified, whether or not they are properly boxed */
    unsigned size = 1u << f3;
    int ex = cpu_store(cpu, va, size, size == 8 ? cpu->f[rs2] : cpu->f[rs2] & ((UINT64_C(1) << (8 * size)) - 1));
    if (ex != EXC_NONE) {
        cpu->fp_tval = va;
        return ex;
    }
    return EXC_NONE;
}

static int exec_fma(mt_cpu *cpu, uint32_t insn, unsigned opc, unsigned rd, unsigned f3, unsigned rs1, unsigned rs2)
{
    unsigned fmt = (insn >> 25) & 3, rs3 = insn >> 27;
    int rm = resolve_rm(cpu, f3);
    if (fmt == 3 || rm < 0) /* fmt 3 is Q */
        return EXC_ILLEGAL;
    bool neg_prod = opc == OPC_FNMSUB || opc == OPC_FNMADD;
    bool neg_add = opc == OPC_FMSUB || opc == OPC_FNMADD;
    unsigned fl = 0;
    uint64_t r;
    if (fmt == 1)
        r = sf_fma64(cpu->f[rs1], cpu->f[rs2], cpu->f[rs3], neg_prod, neg_add, rm, &fl);
    else if (fmt == 2)
        r = sf_box16(sf_fma16(sf_unbox16(cpu->f[rs1]), sf_unbox16(cpu->f[rs2]), sf_unbox16(cpu->f[rs3]), neg_prod,
                              neg_add, rm, &fl));
    else
        r = sf_box32(sf_fma32(sf_unbox32(cpu->f[rs1]), sf_unbox32(cpu->f[rs2]), sf_unbox32(cpu->f[rs3]), neg_prod,
                              neg_add, rm, &fl));
    accrue(cpu, fl);
    write_f(cpu, rd, r);
    return EXC_NONE;
}

/* OP-FP with fmt = H (Zfh): the same rules as for S, on halves boxed in bits 63..16. */
static int exec_op_h(mt_cpu *cpu, unsigned f7, unsigned rd, unsigned f3, unsigned rs1, unsigned rs2)
{
    const uint16_t a = sf_unbox16(cpu->f[rs1]), b = sf_unbox16(cpu->f[rs2]);
    unsigned fl = 0;
    int rm;
    uint64_t r;
    switch (f7 >> 2) {
    case 0x00: /* fadd.h */
    case 0x01: /* fsub.h */
    case 0x02: /* fmul.h */
    case 0x03: /* fdiv.h */
    case 0x0b: /* fsqrt.h (rs2 = 0) */
        if ((rm = resolve_rm(cpu, f3)) < 0 || ((f7 >> 2) == 0x0b && rs2 != 0))
            return EXC_ILLEGAL;
        switch (f7 >> 2) {
        case 0x00: r = sf_add16(a, b, rm, &fl); break;
        case 0x01: r = sf_sub16(a, b, rm, &fl); break;
        case 0x02: r = sf_mul16(a, b, rm, &fl); break;
        case 0x03: r = sf_div16(a, b, rm, &fl); break;
        default: r = sf_sqrt16(a, rm, &fl); break;
        }
        break;
    case 0x04: /* fsgnj.h, fsgnjn.h, fsgnjx.h */
        if (f3 > 2)
            return EXC_ILLEGAL;
        r = (a & 0x7fffu) | ((f3 == 0 ? b : f3 == 1 ? ~b : (a ^ b)) & 0x8000u);
        break;
    case 0x05: /* fmin.h, fmax.h */
        if (f3 > 1)
            return EXC_ILLEGAL;
        r = f3 ? sf_max16(a, b, &fl) : sf_min16(a, b, &fl);
        break;
    case 0x08: /* fcvt.h.s (rs2 0), fcvt.h.d (rs2 1) */
        if ((rm = resolve_rm(cpu, f3)) < 0 || rs2 > 1)
            return EXC_ILLEGAL;
        r = rs2 == 0 ? sf_f32_to_f16(sf_unbox32(cpu->f[rs1]), rm, &fl) : sf_f64_to_f16(cpu->f[rs1], rm, &fl);
        break;
    case 0x14: /* feq.h (f3 2), flt.h (1), fle.h (0) */
        if (f3 > 2)
            return EXC_ILLEGAL;
        r = f3 == 2 ? sf_eq16(a, b, &fl) : f3 == 1 ? sf_lt16(a, b, &fl) : sf_le16(a, b, &fl);
        accrue(cpu, fl);
        write_x(cpu, rd, r);
        return EXC_NONE;
    case 0x18: /* fcvt.{w,wu,l,lu}.h */
        if (rs2 > 3 || (rm = resolve_rm(cpu, f3)) < 0)
            return EXC_ILLEGAL;
        switch (rs2) {
        case 0: r = sext32((uint32_t)sf_f16_to_i32(a, rm, &fl)); break;
        case 1: r = sext32(sf_f16_to_u32(a, rm, &fl)); break;
        case 2: r = (uint64_t)sf_f16_to_i64(a, rm, &fl); break;
        default: r = sf_f16_to_u64(a, rm, &fl); break;
        }
        accrue(cpu, fl);
        write_x(cpu, rd, r);
        return EXC_NONE;
    case 0x1a: { /* fcvt.h.{w,wu,l,lu} */
        if (rs2 > 3 || (rm = resolve_rm(cpu, f3)) < 0)
            return EXC_ILLEGAL;
        const uint64_t x = cpu->x[rs1];
        switch (rs2) {
        case 0: r = sf_i64_to_f16((int32_t)(uint32_t)x, rm, &fl); break;
        case 1: r = sf_u64_to_f16((uint32_t)x, rm, &fl); break;
        case 2: r = sf_i64_to_f16((int64_t)x, rm, &fl); break;
        default: r = sf_u64_to_f16(x, rm, &fl); break;
        }
        break;
    }
    case 0x1c: /* fmv.x.h (f3 0: raw bits 15..0, sign-extended), fclass.h (f3 1) */
        if (rs2 != 0 || f3 > 1)
            return EXC_ILLEGAL;
        write_x(cpu, rd, f3 == 0 ? (uint64_t)(int64_t)(int16_t)cpu->f[rs1] : sf_class16(a));
        return EXC_NONE;
    case 0x1e: /* fmv.h.x */
        if (rs2 != 0 || f3 != 0)
            return EXC_ILLEGAL;
        r = (uint16_t)cpu->x[rs1];
        break;
    default:
        return EXC_ILLEGAL;
    }
    accrue(cpu, fl);
    write_f(cpu, rd, sf_box16((uint16_t)r));
    return EXC_NONE;
}

/* OP-FP with fmt = S (funct7 bit 0 clear) or D (set); H goes to exec_op_h, Q is illegal. */
static int exec_op_fp(mt_cpu *cpu, uint32_t insn, unsigned rd, unsigned f3, unsigned rs1, unsigned rs2)
{
    const unsigned f7 = insn >> 25;
    if ((f7 & 3) == 2)
        return exec_op_h(cpu, f7, rd, f3, rs1, rs2);
    const bool dbl = f7 & 1;
    const uint64_t a64 = cpu->f[rs1], b64 = cpu->f[rs2];
    const uint32_t a32 = sf_unbox32(a64), b32 = sf_unbox32(b64);
    unsigned fl = 0;
    int rm;

    switch (f7 >> 2) {
    case 0x00: /* fadd */
    case 0x01: /* fsub */
    case 0x02: /* fmul */
    case 0x03: /* fdiv */
    case 0x0b: /* fsqrt (rs2 = 0) */ {
        if ((f7 & 2) || (rm = resolve_rm(cpu, f3)) < 0 || ((f7 >> 2) == 0x0b && rs2 != 0))
            return EXC_ILLEGAL;
        uint64_t r;
        switch (f7 >> 2) {
        case 0x00: r = dbl ? sf_add64(a64, b64, rm, &fl) : sf_box32(sf_add32(a32, b32, rm, &fl)); break;
        case 0x01: r = dbl ? sf_sub64(a64, b64, rm, &fl) : sf_box32(sf_sub32(a32, b32, rm, &fl)); break;
        case 0x02: r = dbl ? sf_mul64(a64, b64, rm, &fl) : sf_box32(sf_mul32(a32, b32, rm, &fl)); break;
        case 0x03: r = dbl ? sf_div64(a64, b64, rm, &fl) : sf_box32(sf_div32(a32, b32, rm, &fl)); break;
        default: r = dbl ? sf_sqrt64(a64, rm, &fl) : sf_box32(sf_sqrt32(a32, rm, &fl)); break;
        }
        accrue(cpu, fl);
        write_f(cpu, rd, r);
        return EXC_NONE;
    }
    case 0x04: { /* fsgnj, fsgnjn, fsgnjx */
        if ((f7 & 2) || f3 > 2)
            return EXC_ILLEGAL;
        uint64_t sign_bit = dbl ? UINT64_C(1) << 63 : UINT64_C(1) << 31;
        uint64_t a = dbl ? a64 : a32, b = dbl ? b64 : b32;
        uint64_t sign = f3 == 0 ? (b & sign_bit) : f3 == 1 ? (~b & sign_bit) : ((a ^ b) & sign_bit);
        uint64_t r = (a & ~sign_bit) | sign;
        write_f(cpu, rd, dbl ? r : sf_box32((uint32_t)r));
        return EXC_NONE;
    }
    case 0x05: { /* fmin, fmax */
        if ((f7 & 2) || f3 > 1)
            return EXC_ILLEGAL;
        uint64_t r;
        if (dbl)
            r = f3 ? sf_max64(a64, b64, &fl) : sf_min64(a64, b64, &fl);
        else
            r = sf_box32(f3 ? sf_max32(a32, b32, &fl) : sf_min32(a32, b32, &fl));
        accrue(cpu, fl);
        write_f(cpu, rd, r);
        return EXC_NONE;
    }
    case 0x08: { /* fcvt.s.d (f7 0x20, rs2 1), fcvt.d.s (f7 0x21, rs2 0), fcvt.{s,d}.h (rs2 2) */
        if ((f7 & 2) || (rm = resolve_rm(cpu, f3)) < 0)
            return EXC_ILLEGAL;
        uint64_t r;
        if (!dbl && rs2 == 1)
            r = sf_box32(sf_f64_to_f32(a64, rm, &fl));
        else if (dbl && rs2 == 0)
            r = sf_f32_to_f64(a32, &fl);
        else if (rs2 == 2) /* exact: rm only has to be valid */
            r = dbl ? sf_f16_to_f64(sf_unbox16(a64), &fl) : sf_box32(sf_f16_to_f32(sf_unbox16(a64), &fl));
        else
            return EXC_ILLEGAL;
        accrue(cpu, fl);
        write_f(cpu, rd, r);
        return EXC_NONE;
    }
    case 0x14: { /* feq (f3 2), flt (1), fle (0) */
        if ((f7 & 2) || f3 > 2)
            return EXC_ILLEGAL;
        bool r;
        if (f3 == 2)
            r = dbl ? sf_eq64(a64, b64, &fl) : sf_eq32(a32, b32, &fl);
        else if (f3 == 1)
            r = dbl ? sf_lt64(a64, b64, &fl) : sf_lt32(a32, b32, &fl);
        else
            r = dbl ? sf_le64(a64, b64, &fl) : sf_le32(a32, b32, &fl);
        accrue(cpu, fl);
        write_x(cpu, rd, r);
        return EXC_NONE;
    }
    case 0x18: { /* fcvt.{w,wu,l,lu}.{s,d} */
        if ((f7 & 2) || rs2 > 3 || (rm = resolve_rm(cpu, f3)) < 0)
            return EXC_ILLEGAL;
        uint64_t r;
        switch (rs2) {
        case 0: r = sext32((uint32_t)(dbl ? sf_f64_to_i32(a64, rm, &fl) : sf_f32_to_i32(a32, rm, &fl))); break;
        case 1: r = sext32(dbl ? sf_f64_to_u32(a64, rm, &fl) : sf_f32_to_u32(a32, rm, &fl)); break;
        case 2: r = (uint64_t)(dbl ? sf_f64_to_i64(a64, rm, &fl) : sf_f32_to_i64(a32, rm, &fl)); break;
        default: r = dbl ? sf_f64_to_u64(a64, rm, &fl) : sf_f32_to_u64(a32, rm, &fl); break;
        }
        accrue(cpu, fl);
        write_x(cpu, rd, r);
        return EXC_NONE;
    }
    case 0x1a: { /* fcvt.{s,d}.{w,wu,l,lu} */
        if ((f7 & 2) || rs2 > 3 || (rm = resolve_rm(cpu, f3)) < 0)
            return EXC_ILLEGAL;
        const uint64_t x = cpu->x[rs1];
        uint64_t r;
        switch (rs2) { /* w and wu use the low 32 bits of rs1 */
        case 0: r = dbl ? sf_i64_to_f64((int32_t)(uint32_t)x, rm, &fl) : sf_box32(sf_i64_to_f32((int32_t)(uint32_t)x, rm, &fl)); break;
        case 1: r = dbl ? sf_u64_to_f64((uint32_t)x, rm, &fl) : sf_box32(sf_u64_to_f32((uint32_t)x, rm, &fl)); break;
        case 2: r = dbl ? sf_i64_to_f64((int64_t)x, rm, &fl) : sf_box32(sf_i64_to_f32((int64_t)x, rm, &fl)); break;
        default: r = dbl ? sf_u64_to_f64(x, rm, &fl) : sf_box32(sf_u64_to_f32(x, rm, &fl)); break;
        }
        accrue(cpu, fl);
        write_f(cpu, rd, r);
        return EXC_NONE;
    }
    case 0x1c: /* fmv.x.{w,d} (f3 0), fclass (f3 1) */
        if ((f7 & 2) || rs2 != 0 || f3 > 1)
            return EXC_ILLEGAL;
        if (f3 == 0) /* raw bits, no unboxing; fmv.x.w sign-extends */
            write_x(cpu, rd, dbl ? a64 : sext32((uint32_t)a64));
        else
            write_x(cpu, rd, dbl ? sf_class64(a64) : sf_class32(a32));
        return EXC_NONE;
    case 0x1e: /* fmv.{w,d}.x */
        if ((f7 & 2) || rs2 != 0 || f3 != 0)
            return EXC_ILLEGAL;
        write_f(cpu, rd, dbl ? cpu->x[rs1] : sf_box32((uint32_t)cpu->x[rs1]));
        return EXC_NONE;
    default:
        return EXC_ILLEGAL;
    }
}

int exec_fp(mt_cpu *cpu, uint32_t insn)
{
    if (!cpu_fp_enabled(cpu)) /* mstatus.FS = Off: every FP instruction is illegal */
        return EXC_ILLEGAL;
    const unsigned opc = insn & 0x7f, rd = (insn >> 7) & 31, f3 = (insn >> 12) & 7;
    const unsigned rs1 = (insn >> 15) & 31, rs2 = (insn >> 20) & 31;
    switch (opc) {
    case OPC_LOAD_FP: return exec_load(cpu, insn, rd, f3, rs1);
    case OPC_STORE_FP: return exec_store(cpu, insn, f3, rs1, rs2);
    case OPC_FMADD:
    case OPC_FMSUB:
    case OPC_FNMSUB:
    case OPC_FNMADD: return exec_fma(cpu, insn, opc, rd, f3, rs1, rs2);
    case OPC_OP_FP: return exec_op_fp(cpu, insn, rd, f3, rs1, rs2);
    default: return EXC_ILLEGAL;
    }
}
