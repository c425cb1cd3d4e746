/* fpcheck — checks the output of tests/fp/fpdiff (run on QEMU or mtemu) against emu/cpu/softfp
 * (F, D and Zfh).
 *
 *   fpcheck [-q] OUTPUT.txt
 *
 * Every operation line "<op> <rm> <operands> -> <result> <fflags>" is recomputed from its
 * operands with emu/cpu/softfp plus the RISC-V rules for registers (NaN-boxing of halves and singles,
 * sign extension of 32-bit integer results); every probe line (reserved rounding modes,
 * FS=Off, FS dirty tracking, fcsr layout) is checked against what the ISA specifies.
 * Prints each mismatch (up to a limit), then "PASS fp/<op> (n)" or "FAIL fp/<op> (...)"
 * per operation and a summary.  Exit status 0 only when every line matched and the output
 * was complete (its closing "end <count>" line present and consistent).
 */
#include "emu/cpu/softfp.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum op_id {
    FADD, FSUB, FMUL, FDIV, FSQRT, FMADD, FMSUB, FNMSUB, FNMADD,
    CVT_W, CVT_WU, CVT_L, CVT_LU, CVT_F_W, CVT_F_WU, CVT_F_L, CVT_F_LU, CVT_S_D, CVT_D_S,
    SGNJ, SGNJN, SGNJX, FMIN, FMAX, FEQ, FLT, FLE, FCLASS, MV_X_F, MV_F_X, FLW, FSW, FLD, FSD,
    CVT_S_H, CVT_D_H, CVT_H_S, CVT_H_D, FLH, FSH,
};

typedef struct {
    const char *name;
    enum op_id id;
    const char *sig; /* result type, then operand types: H half, S single, D double, X integer */
    bool has_rm;
    long ok, bad;    /* counts while checking */
} op_desc;

#define OPS2(base, id, ss, dd, rm) {base ".s", id, ss, rm, 0, 0}, {base ".d", id, dd, rm, 0, 0}
static op_desc op_table[] = {
    OPS2("fadd", FADD, "SSS", "DDD", true),       OPS2("fsub", FSUB, "SSS", "DDD", true),
    OPS2("fmul", FMUL, "SSS", "DDD", true),       OPS2("fdiv", FDIV, "SSS", "DDD", true),
    OPS2("fsqrt", FSQRT, "SS", "DD", true),       OPS2("fmadd", FMADD, "SSSS", "DDDD", true),
    OPS2("fmsub", FMSUB, "SSSS", "DDDD", true),   OPS2("fnmsub", FNMSUB, "SSSS", "DDDD", true),
    OPS2("fnmadd", FNMADD, "SSSS", "DDDD", true),
    {"fcvt.w.s", CVT_W, "XS", true, 0, 0},        {"fcvt.w.d", CVT_W, "XD", true, 0, 0},
    {"fcvt.wu.s", CVT_WU, "XS", true, 0, 0},      {"fcvt.wu.d", CVT_WU, "XD", true, 0, 0},
    {"fcvt.l.s", CVT_L, "XS", true, 0, 0},        {"fcvt.l.d", CVT_L, "XD", true, 0, 0},
    {"fcvt.lu.s", CVT_LU, "XS", true, 0, 0},      {"fcvt.lu.d", CVT_LU, "XD", true, 0, 0},
    {"fcvt.s.w", CVT_F_W, "SX", true, 0, 0},      {"fcvt.d.w", CVT_F_W, "DX", true, 0, 0},
    {"fcvt.s.wu", CVT_F_WU, "SX", true, 0, 0},    {"fcvt.d.wu", CVT_F_WU, "DX", true, 0, 0},
    {"fcvt.s.l", CVT_F_L, "SX", true, 0, 0},      {"fcvt.d.l", CVT_F_L, "DX", true, 0, 0},
    {"fcvt.s.lu", CVT_F_LU, "SX", true, 0, 0},    {"fcvt.d.lu", CVT_F_LU, "DX", true, 0, 0},
    {"fcvt.s.d", CVT_S_D, "SD", true, 0, 0},      {"fcvt.d.s", CVT_D_S, "DS", true, 0, 0},
    OPS2("fsgnj", SGNJ, "SSS", "DDD", false),     OPS2("fsgnjn", SGNJN, "SSS", "DDD", false),
    OPS2("fsgnjx", SGNJX, "SSS", "DDD", false),   OPS2("fmin", FMIN, "SSS", "DDD", false),
    OPS2("fmax", FMAX, "SSS", "DDD", false),      OPS2("feq", FEQ, "XSS", "XDD", false),
    OPS2("flt", FLT, "XSS", "XDD", false),        OPS2("fle", FLE, "XSS", "XDD", false),
    OPS2("fclass", FCLASS, "XS", "XD", false),
    {"fmv.x.w", MV_X_F, "XS", false, 0, 0},       {"fmv.x.d", MV_X_F, "XD", false, 0, 0},
    {"fmv.w.x", MV_F_X, "SX", false, 0, 0},       {"fmv.d.x", MV_F_X, "DX", false, 0, 0},
    {"flw", FLW, "SX", false, 0, 0},              {"fsw", FSW, "XS", false, 0, 0},
    {"fld", FLD, "DX", false, 0, 0},              {"fsd", FSD, "XD", false, 0, 0},
    {"c.fld", FLD, "DX", false, 0, 0},            {"c.fsd", FSD, "XD", false, 0, 0},
    {"c.fldsp", FLD, "DX", false, 0, 0},          {"c.fsdsp", FSD, "XD", false, 0, 0},
    /* Zfh */
    {"fadd.h", FADD, "HHH", true, 0, 0},          {"fsub.h", FSUB, "HHH", true, 0, 0},
    {"fmul.h", FMUL, "HHH", true, 0, 0},          {"fdiv.h", FDIV, "HHH", true, 0, 0},
    {"fsqrt.h", FSQRT, "HH", true, 0, 0},         {"fmadd.h", FMADD, "HHHH", true, 0, 0},
    {"fmsub.h", FMSUB, "HHHH", true, 0, 0},       {"fnmsub.h", FNMSUB, "HHHH", true, 0, 0},
    {"fnmadd.h", FNMADD, "HHHH", true, 0, 0},
    {"fcvt.w.h", CVT_W, "XH", true, 0, 0},        {"fcvt.wu.h", CVT_WU, "XH", true, 0, 0},
    {"fcvt.l.h", CVT_L, "XH", true, 0, 0},        {"fcvt.lu.h", CVT_LU, "XH", true, 0, 0},
    {"fcvt.h.w", CVT_F_W, "HX", true, 0, 0},      {"fcvt.h.wu", CVT_F_WU, "HX", true, 0, 0},
    {"fcvt.h.l", CVT_F_L, "HX", true, 0, 0},      {"fcvt.h.lu", CVT_F_LU, "HX", true, 0, 0},
    {"fcvt.h.s", CVT_H_S, "HS", true, 0, 0},      {"fcvt.h.d", CVT_H_D, "HD", true, 0, 0},
    {"fcvt.s.h", CVT_S_H, "SH", true, 0, 0},      {"fcvt.d.h", CVT_D_H, "DH", true, 0, 0},
    {"fsgnj.h", SGNJ, "HHH", false, 0, 0},        {"fsgnjn.h", SGNJN, "HHH", false, 0, 0},
    {"fsgnjx.h", SGNJX, "HHH", false, 0, 0},      {"fmin.h", FMIN, "HHH", false, 0, 0},
    {"fmax.h", FMAX, "HHH", false, 0, 0},         {"feq.h", FEQ, "XHH", false, 0, 0},
    {"flt.h", FLT, "XHH", false, 0, 0},           {"fle.h", FLE, "XHH", false, 0, 0},
    {"fclass.h", FCLASS, "XH", false, 0, 0},      {"fmv.x.h", MV_X_F, "XH", false, 0, 0},
    {"fmv.h.x", MV_F_X, "HX", false, 0, 0},       {"flh", FLH, "HX", false, 0, 0},
    {"fsh", FSH, "XH", false, 0, 0},
};
#define N_OPS (sizeof(op_table) / sizeof(op_table[0]))

static uint64_t sext32(uint32_t v) { return (uint64_t)(int64_t)(int32_t)v; }

/* The same for an operation of Zfh (an H in its signature). */
static uint64_t compute_h(const op_desc *op, const uint64_t *arg, int rm, unsigned *fl)
{
    const uint16_t a = sf_unbox16(arg[0]), b = sf_unbox16(arg[1]), c = sf_unbox16(arg[2]);
    switch (op->id) {
    case FADD: return sf_box16(sf_add16(a, b, rm, fl));
    case FSUB: return sf_box16(sf_sub16(a, b, rm, fl));
    case FMUL: return sf_box16(sf_mul16(a, b, rm, fl));
    case FDIV: return sf_box16(sf_div16(a, b, rm, fl));
    case FSQRT: return sf_box16(sf_sqrt16(a, rm, fl));
    case FMADD:
    case FMSUB:
    case FNMSUB:
    case FNMADD: {
        bool np = op->id == FNMSUB || op->id == FNMADD, na = op->id == FMSUB || op->id == FNMADD;
        return sf_box16(sf_fma16(a, b, c, np, na, rm, fl));
    }
    case CVT_W: return sext32((uint32_t)sf_f16_to_i32(a, rm, fl));
    case CVT_WU: return sext32(sf_f16_to_u32(a, rm, fl));
    case CVT_L: return (uint64_t)sf_f16_to_i64(a, rm, fl);
    case CVT_LU: return sf_f16_to_u64(a, rm, fl);
    case CVT_F_W: return sf_box16(sf_i64_to_f16((int32_t)(uint32_t)arg[0], rm, fl));
    case CVT_F_WU: return sf_box16(sf_u64_to_f16((uint32_t)arg[0], rm, fl));
    case CVT_F_L: return sf_box16(sf_i64_to_f16((int64_t)arg[0], rm, fl));
    case CVT_F_LU: return sf_box16(sf_u64_to_f16(arg[0], rm, fl));
    case CVT_H_S: return sf_box16(sf_f32_to_f16(sf_unbox32(arg[0]), rm, fl));
    case CVT_H_D: return sf_box16(sf_f64_to_f16(arg[0], rm, fl));
    case CVT_S_H: return sf_box32(sf_f16_to_f32(a, fl));
    case CVT_D_H: return sf_f16_to_f64(a, fl);
    case SGNJ: return sf_box16((uint16_t)((a & 0x7fff) | (b & 0x8000)));
    case SGNJN: return sf_box16((uint16_t)((a & 0x7fff) | (~b & 0x8000)));
    case SGNJX: return sf_box16((uint16_t)(a ^ (b & 0x8000)));
    case FMIN: return sf_box16(sf_min16(a, b, fl));
    case FMAX: return sf_box16(sf_max16(a, b, fl));
    case FEQ: return sf_eq16(a, b, fl);
    case FLT: return sf_lt16(a, b, fl);
    case FLE: return sf_le16(a, b, fl);
    case FCLASS: return sf_class16(a);
    case MV_X_F: return (uint64_t)(int64_t)(int16_t)arg[0]; /* raw bits, no unboxing */
    case MV_F_X:
    case FLH: return sf_box16((uint16_t)arg[0]);
    case FSH: return (UINT64_C(0x555555555555) << 16) | (uint16_t)arg[0]; /* low half replaced, raw */
    default: return 0;
    }
}

/* The architectural result (register value) of one operation, and its fflags. */
static uint64_t compute(const op_desc *op, const uint64_t *arg, int rm, unsigned *fl)
{
    if (strchr(op->sig, 'H'))
        return compute_h(op, arg, rm, fl);
    const bool dbl = strchr(op->sig, 'D') != NULL; /* the f operands' or result's format */
    /* f-register operands of single-precision operations are read through NaN-unboxing */
    const uint32_t a32 = sf_unbox32(arg[0]), b32 = sf_unbox32(arg[1]), c32 = sf_unbox32(arg[2]);
    const uint64_t a = arg[0], b = arg[1], c = arg[2];
    const uint64_t S64 = UINT64_C(1) << 63;
    const uint32_t S32 = UINT32_C(1) << 31;
    switch (op->id) {
    case FADD: return dbl ? sf_add64(a, b, rm, fl) : sf_box32(sf_add32(a32, b32, rm, fl));
    case FSUB: return dbl ? sf_sub64(a, b, rm, fl) : sf_box32(sf_sub32(a32, b32, rm, fl));
    case FMUL: return dbl ? sf_mul64(a, b, rm, fl) : sf_box32(sf_mul32(a32, b32, rm, fl));
    case FDIV: return dbl ? sf_div64(a, b, rm, fl) : sf_box32(sf_div32(a32, b32, rm, fl));
    case FSQRT: return dbl ? sf_sqrt64(a, rm, fl) : sf_box32(sf_sqrt32(a32, rm, fl));
    case FMADD:
    case FMSUB:
    case FNMSUB:
    case FNMADD: {
        bool np = op->id == FNMSUB || op->id == FNMADD, na = op->id == FMSUB || op->id == FNMADD;
        return dbl ? sf_fma64(a, b, c, np, na, rm, fl) : sf_box32(sf_fma32(a32, b32, c32, np, na, rm, fl));
    }
    case CVT_W:
        return sext32((uint32_t)(op->sig[1] == 'D' ? sf_f64_to_i32(a, rm, fl) : sf_f32_to_i32(a32, rm, fl)));
    case CVT_WU: return sext32(op->sig[1] == 'D' ? sf_f64_to_u32(a, rm, fl) : sf_f32_to_u32(a32, rm, fl));
    case CVT_L: return (uint64_t)(op->sig[1] == 'D' ? sf_f64_to_i64(a, rm, fl) : sf_f32_to_i64(a32, rm, fl));
    case CVT_LU: return op->sig[1] == 'D' ? sf_f64_to_u64(a, rm, fl) : sf_f32_to_u64(a32, rm, fl);
    case CVT_F_W: {
        int64_t v = (int32_t)(uint32_t)a;
        return op->sig[0] == 'D' ? sf_i64_to_f64(v, rm, fl) : sf_box32(sf_i64_to_f32(v, rm, fl));
    }
    case CVT_F_WU: {
        uint64_t v = (uint32_t)a;
        return op->sig[0] == 'D' ? sf_u64_to_f64(v, rm, fl) : sf_box32(sf_u64_to_f32(v, rm, fl));
    }
    case CVT_F_L:
        return op->sig[0] == 'D' ? sf_i64_to_f64((int64_t)a, rm, fl) : sf_box32(sf_i64_to_f32((int64_t)a, rm, fl));
    case CVT_F_LU: return op->sig[0] == 'D' ? sf_u64_to_f64(a, rm, fl) : sf_box32(sf_u64_to_f32(a, rm, fl));
    case CVT_S_D: return sf_box32(sf_f64_to_f32(a, rm, fl));
    case CVT_D_S: return sf_f32_to_f64(a32, fl);
    case SGNJ: return dbl ? (a & ~S64) | (b & S64) : sf_box32((a32 & ~S32) | (b32 & S32));
    case SGNJN: return dbl ? (a & ~S64) | (~b & S64) : sf_box32((a32 & ~S32) | (~b32 & S32));
    case SGNJX: return dbl ? a ^ (b & S64) : sf_box32(a32 ^ (b32 & S32));
    case FMIN: return dbl ? sf_min64(a, b, fl) : sf_box32(sf_min32(a32, b32, fl));
    case FMAX: return dbl ? sf_max64(a, b, fl) : sf_box32(sf_max32(a32, b32, fl));
    case FEQ: return dbl ? sf_eq64(a, b, fl) : sf_eq32(a32, b32, fl);
    case FLT: return dbl ? sf_lt64(a, b, fl) : sf_lt32(a32, b32, fl);
    case FLE: return dbl ? sf_le64(a, b, fl) : sf_le32(a32, b32, fl);
    case FCLASS: return dbl ? sf_class64(a) : sf_class32(a32);
    case MV_X_F: return dbl ? a : sext32((uint32_t)a); /* fmv.x.w does not unbox */
    case MV_F_X: return dbl ? a : sf_box32((uint32_t)a);
    case FLW: return sf_box32((uint32_t)a);
    case FSW: return (UINT64_C(0x55555555) << 32) | (uint32_t)a; /* low word replaced, raw */
    case FLD:
    case FSD: return a; /* 64-bit transfers are raw */
    default: return 0; /* the Zfh ones: compute_h */
    }
    return 0;
}

typedef struct {
    long lines, mismatches, shown;
    int verbose_limit;
} tally;

static void mismatch(tally *t, long lineno, const char *line, const char *why)
{
    t->mismatches++;
    if (t->shown++ < t->verbose_limit)
        printf("line %ld: %s\n    %s\n", lineno, line, why);
}

static bool parse_hex(const char *tok, uint64_t *v, int *digits)
{
    char *end;
    errno = 0;
    *v = strtoull(tok, &end, 16);
    *digits = (int)(end - tok);
    return errno == 0 && *tok && *end == '\0';
}

/* One operation line; returns false when it cannot be parsed. */
static bool check_op_line(tally *t, long lineno, const char *line, char **tok, int ntok)
{
    op_desc *op = NULL;
    for (size_t i = 0; i < N_OPS; i++)
        if (strcmp(op_table[i].name, tok[0]) == 0)
            op = &op_table[i];
    if (!op)
        return false;
    int nargs = (int)strlen(op->sig) - 1;
    if (ntok != 2 + nargs + 3 || strcmp(tok[2 + nargs], "->") != 0)
        return false;
    int rm = 0;
    const char *r = tok[1];
    if (op->has_rm) {
        if (*r == 'd')
            r++;
        if (r[0] < '0' || r[0] > '4' || r[1])
            return false;
        rm = r[0] - '0';
    } else if (strcmp(r, "-") != 0) {
        return false;
    }
    uint64_t arg[3] = {0, 0, 0}, got, got_flags;
    int digits;
    for (int i = 0; i < nargs; i++) {
        if (!parse_hex(tok[2 + i], &arg[i], &digits))
            return false;
        if (op->sig[1 + i] == 'S' && digits == 8)
            arg[i] = sf_box32((uint32_t)arg[i]);
        else if (op->sig[1 + i] == 'H' && digits == 4)
            arg[i] = sf_box16((uint16_t)arg[i]);
        else if (digits != 16)
            return false;
    }
    if (!parse_hex(tok[3 + nargs], &got, &digits))
        return false;
    if (op->sig[0] == 'S' && digits == 8)
        got = sf_box32((uint32_t)got);
    else if (op->sig[0] == 'H' && digits == 4)
        got = sf_box16((uint16_t)got);
    else if (digits != 16)
        return false;
    if (!parse_hex(tok[4 + nargs], &got_flags, &digits) || digits != 2)
        return false;
    unsigned want_flags = 0;
    uint64_t want = compute(op, arg, rm, &want_flags);
    if (want != got || want_flags != got_flags) {
        char why[160];
        snprintf(why, sizeof why, "expected %016" PRIx64 " %02x", want, want_flags);
        mismatch(t, lineno, line, why);
        op->bad++;
    } else {
        op->ok++;
    }
    return true;
}

/* Probe lines: "ill", "fsoff", "fsdirty", "fcsr". */
static bool check_probe_line(tally *t, long lineno, const char *line, char **tok, int ntok, long *probes_ok)
{
    uint64_t v[4];
    int d;
    char why[160] = "";
    if (strcmp(tok[0], "ill") == 0 && ntok == 6) {
        int rm = atoi(tok[2]), frm = atoi(tok[3]);
        if (!parse_hex(tok[5], &v[0], &d))
            return false;
        /* rm 5 and 6 are reserved; 7 (dynamic) is illegal when frm holds 5, 6 or 7 */
        uint64_t want = (rm == 5 || rm == 6 || (rm == 7 && frm >= 5)) ? 2 : 0;
        if (v[0] != want)
            snprintf(why, sizeof why, "expected mcause %" PRIu64, want);
    } else if (strcmp(tok[0], "fsoff") == 0 && ntok == 5) {
        if (!parse_hex(tok[3], &v[0], &d) || !parse_hex(tok[4], &v[1], &d))
            return false;
        if (v[0] != 2 || v[1] != 0)
            snprintf(why, sizeof why, "expected illegal instruction (2) with FS still Off");
    } else if (strcmp(tok[0], "fsdirty") == 0 && ntok == 7) {
        for (int i = 0; i < 4; i++)
            if (!parse_hex(tok[3 + i], &v[i], &d))
                return false;
        if (v[0] != 1 || v[1] != 0 || v[2] != 3 || v[3] != 1)
            snprintf(why, sizeof why, "expected FS Initial/SD 0 before, FS Dirty/SD 1 after");
    } else if (strcmp(tok[0], "fcsr") == 0 && ntok == 6) {
        for (int i = 0; i < 3; i++)
            if (!parse_hex(tok[3 + i], &v[i], &d))
                return false;
        if (v[0] != 0xff || v[1] != 7 || v[2] != 0x1f)
            snprintf(why, sizeof why, "expected fcsr ff, frm 7, fflags 1f");
    } else {
        return false;
    }
    if (why[0])
        mismatch(t, lineno, line, why);
    else
        (*probes_ok)++;
    return true;
}

int main(int argc, char **argv)
{
    bool quiet = false;
    int argi = 1;
    if (argi < argc && strcmp(argv[argi], "-q") == 0) {
        quiet = true;
        argi++;
    }
    if (argi + 1 != argc) {
        fprintf(stderr, "usage: fpcheck [-q] OUTPUT.txt\n");
        return 2;
    }
    const char *path = argv[argi];
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "fpcheck: %s: %s\n", path, strerror(errno));
        return 2;
    }
    tally t = {0, 0, 0, 30};
    long lineno = 0, probes_ok = 0, end_count = -1, unparsed = 0;
    char line[512], copy[512];
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '\0')
            continue;
        if (end_count >= 0) {
            mismatch(&t, lineno, line, "text after the end line");
            continue;
        }
        snprintf(copy, sizeof copy, "%s", line);
        char *tok[12];
        int ntok = 0;
        for (char *s = strtok(copy, " "); s && ntok < 12; s = strtok(NULL, " "))
            tok[ntok++] = s;
        if (ntok == 2 && strcmp(tok[0], "end") == 0) {
            uint64_t n;
            int d;
            if (!parse_hex(tok[1], &n, &d))
                mismatch(&t, lineno, line, "malformed end line");
            end_count = (long)n;
            continue;
        }
        t.lines++;
        if (ntok >= 4 && check_probe_line(&t, lineno, line, tok, ntok, &probes_ok))
            continue;
        if (ntok >= 5 && check_op_line(&t, lineno, line, tok, ntok))
            continue;
        unparsed++;
        mismatch(&t, lineno, line, "cannot parse this line");
    }
    fclose(f);
    long ops_total = 0;
    for (size_t i = 0; i < N_OPS; i++) {
        const op_desc *op = &op_table[i];
        ops_total += op->ok + op->bad;
        if (op->ok + op->bad == 0)
            printf("FAIL fp/%s (never executed)\n", op->name);
        else if (op->bad)
            printf("FAIL fp/%s (%ld of %ld mismatched)\n", op->name, op->bad, op->ok + op->bad);
        else if (!quiet)
            printf("PASS fp/%s (%ld)\n", op->name, op->ok);
    }
    long probes = t.lines - ops_total - unparsed;
    if (probes_ok != probes || probes == 0)
        printf("FAIL fp/probes (%ld of %ld illegal-instruction / FS / fcsr probes wrong)\n", probes - probes_ok, probes);
    else if (!quiet)
        printf("PASS fp/probes (%ld illegal-instruction / FS / fcsr probes)\n", probes);
    bool complete = end_count >= 0 && end_count == t.lines;
    bool fail = t.mismatches > 0 || !complete || probes == 0;
    for (size_t i = 0; i < N_OPS; i++)
        if (op_table[i].ok + op_table[i].bad == 0)
            fail = true;
    if (!complete)
        printf("%s: output incomplete (%s)\n", path, end_count < 0 ? "no end line" : "line count differs from the end line");
    printf("%s: %ld operations and %ld probes checked, %ld mismatches, %ld unparsable lines\n", path, ops_total,
           probes, t.mismatches, unparsed);
    return fail ? 1 : 0;
}
