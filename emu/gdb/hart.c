#include "emu/gdb/hart.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/cpu/cpu.h"
#include "emu/cpu/csr.h"
#include "emu/cpu/mmu.h"
#include "emu/platform/bus.h"

/* ---- memory ----------------------------------------------------------------------------- */

/* A physical read of plain memory (RAM or the boot ROM), unobserved. */
static bool phys_read(struct mt_bus *bus, uint64_t pa, void *dst, size_t len)
{
    if (ram_host_read(bus->ram, pa, dst, len))
        return true;
    if (pa >= ROM_BASE && pa - ROM_BASE < ROM_SIZE && len <= ROM_SIZE - (pa - ROM_BASE)) {
        memcpy(dst, bus->rom + (pa - ROM_BASE), len);
        return true;
    }
    return false;
}

static bool read_pte(struct mt_bus *bus, uint64_t pa, uint64_t *pte) { return phys_read(bus, pa, pte, 8); }

/* One page walk (Sv39/Sv48 or their x4 G-stage forms: `wide` = 2 more root index bits).
 * stage1: each PTE's address goes through stage 2 of hart c. */
static bool walk(struct mt_cpu *c, uint64_t root, int levels, bool wide, bool stage1, uint64_t va, uint64_t *pa);

static bool gstage(struct mt_cpu *c, uint64_t gpa, uint64_t *hpa)
{
    unsigned mode = (unsigned)(c->hyp.hgatp >> SATP_MODE_SHIFT);
    if (!c->hyp.virt || mode == SATP_MODE_BARE) {
        *hpa = gpa;
        return true;
    }
    int levels = mode == HGATP_MODE_SV48X4 ? 4 : 3;
    if (gpa >> (12 + 9 * levels + 2))
        return false;
    return walk(c, (c->hyp.hgatp & SATP_PPN_MASK & ~UINT64_C(3)) << 12, levels, true, false, gpa, hpa);
}

static bool walk(struct mt_cpu *c, uint64_t table, int levels, bool wide, bool stage1, uint64_t va, uint64_t *pa)
{
    for (int level = levels - 1; level >= 0; level--) {
        uint64_t index_mask = wide && level == levels - 1 ? 0x7ff : 0x1ff, pte, pte_pa;
        uint64_t pte_addr = table + ((va >> (12 + 9 * level)) & index_mask) * 8;
        if (stage1 ? !gstage(c, pte_addr, &pte_pa) : (pte_pa = pte_addr, false))
            return false;
        if (!read_pte(c->bus, pte_pa, &pte) || !(pte & PTE_V) || (pte & (PTE_R | PTE_W)) == PTE_W)
            return false;
        uint64_t ppn = (pte >> 10) & ((UINT64_C(1) << 44) - 1);
        if (!(pte & (PTE_R | PTE_X))) {
            table = ppn << 12;
            continue;
        }
        uint64_t low = (UINT64_C(1) << (12 + 9 * level)) - 1;
        uint64_t out = ((ppn << 12) & ~low) | (va & low);
        return stage1 ? gstage(c, out, pa) : (*pa = out, true);
    }
    return false;
}

bool gdb_translate(struct mt_cpu *c, uint64_t va, uint64_t *pa)
{
    unsigned mode = (unsigned)(c->satp >> SATP_MODE_SHIFT); /* with V=1: vsatp (emu/cpu/hyp.h) */
    if (c->priv == PRV_M || mode == SATP_MODE_BARE)
        return gstage(c, va, pa);
    int levels = mode == SATP_MODE_SV48 ? 4 : 3;
    int64_t top = (int64_t)va >> (12 + 9 * levels - 1);
    if (top != 0 && top != -1)
        return false;
    return walk(c, (c->satp & SATP_PPN_MASK) << 12, levels, false, true, va, pa);
}

/* Page by page; returns the bytes done before the first page that fails. */
static size_t access_mem(gdb_harts *h, unsigned thread, uint64_t addr, uint8_t *buf, size_t len, bool phys,
                         bool write)
{
    struct mt_cpu *c = h->harts[thread - 1];
    size_t done = 0;
    while (done < len) {
        uint64_t va = addr + done, pa;
        size_t n = (size_t)(RAM_PAGE_SIZE - (va & (RAM_PAGE_SIZE - 1)));
        if (n > len - done)
            n = len - done;
        if (phys)
            pa = va;
        else if (!gdb_translate(c, va, &pa))
            break;
        if (write) {
            /* RAM only (the ROM is read-only, devices are not touched); every hart's decoded
             * instructions there are dropped: gdb's writes are the guest's to see */
            if (!ram_host_write(h->bus->ram, pa, buf + done, n))
                break;
            for (unsigned i = 0; i < h->nharts; i++)
                cpu_code_written(h->harts[i], pa, n);
        } else if (!phys_read(h->bus, pa, buf + done, n)) {
            break;
        }
        done += n;
    }
    return done;
}

static size_t read_mem(void *ctx, unsigned thread, uint64_t addr, uint8_t *buf, size_t len, bool phys)
{
    return access_mem(ctx, thread, addr, buf, len, phys, false);
}

static size_t write_mem(void *ctx, unsigned thread, uint64_t addr, const uint8_t *buf, size_t len, bool phys)
{
    return access_mem(ctx, thread, addr, (uint8_t *)buf, len, phys, true);
}

/* ---- registers -------------------------------------------------------------------------- */

/* The CSRs offered (those csr_read answers are kept): machine, supervisor, hypervisor and VS,
 * the counters.  fflags/frm/fcsr are in the FPU feature. */
static const struct {
    unsigned num;
    const char *name;
} csr_names[] = {
    {0xc00, "cycle"}, {0xc01, "time"}, {0xc02, "instret"},
    {0x100, "sstatus"}, {0x104, "sie"}, {0x105, "stvec"}, {0x106, "scounteren"}, {0x10a, "senvcfg"},
    {0x140, "sscratch"}, {0x141, "sepc"}, {0x142, "scause"}, {0x143, "stval"}, {0x144, "sip"},
    {0x14d, "stimecmp"}, {0x180, "satp"},
    {0x200, "vsstatus"}, {0x204, "vsie"}, {0x205, "vstvec"}, {0x240, "vsscratch"}, {0x241, "vsepc"},
    {0x242, "vscause"}, {0x243, "vstval"}, {0x244, "vsip"}, {0x24d, "vstimecmp"}, {0x280, "vsatp"},
    {0x600, "hstatus"}, {0x602, "hedeleg"}, {0x603, "hideleg"}, {0x604, "hie"}, {0x605, "htimedelta"},
    {0x606, "hcounteren"}, {0x607, "hgeie"}, {0x60a, "henvcfg"}, {0x643, "htval"}, {0x644, "hip"},
    {0x645, "hvip"}, {0x64a, "htinst"}, {0x680, "hgatp"}, {0xe12, "hgeip"},
    {0xf11, "mvendorid"}, {0xf12, "marchid"}, {0xf13, "mimpid"}, {0xf14, "mhartid"}, {0xf15, "mconfigptr"},
    {0x300, "mstatus"}, {0x301, "misa"}, {0x302, "medeleg"}, {0x303, "mideleg"}, {0x304, "mie"},
    {0x305, "mtvec"}, {0x306, "mcounteren"}, {0x30a, "menvcfg"}, {0x320, "mcountinhibit"},
    {0x340, "mscratch"}, {0x341, "mepc"}, {0x342, "mcause"}, {0x343, "mtval"}, {0x344, "mip"},
    {0x34a, "mtinst"}, {0x34b, "mtval2"},
    {0x3a0, "pmpcfg0"}, {0x3a2, "pmpcfg2"},
    {0x3b0, "pmpaddr0"}, {0x3b1, "pmpaddr1"}, {0x3b2, "pmpaddr2"}, {0x3b3, "pmpaddr3"},
    {0x3b4, "pmpaddr4"}, {0x3b5, "pmpaddr5"}, {0x3b6, "pmpaddr6"}, {0x3b7, "pmpaddr7"},
    {0x3b8, "pmpaddr8"}, {0x3b9, "pmpaddr9"}, {0x3ba, "pmpaddr10"}, {0x3bb, "pmpaddr11"},
    {0x3bc, "pmpaddr12"}, {0x3bd, "pmpaddr13"}, {0x3be, "pmpaddr14"}, {0x3bf, "pmpaddr15"},
    {0xb00, "mcycle"}, {0xb02, "minstret"},
};

static unsigned nthreads(void *ctx) { return ((gdb_harts *)ctx)->nharts; }

static bool csr_offered(unsigned csr)
{
    if (csr >= 1 && csr <= 3)
        return true;
    for (size_t i = 0; i < sizeof csr_names / sizeof csr_names[0]; i++)
        if (csr_names[i].num == csr)
            return true;
    return false;
}

static bool read_reg(void *ctx, unsigned thread, unsigned regno, uint64_t *val)
{
    gdb_harts *h = ctx;
    if (thread < 1 || thread > h->nharts)
        return false;
    struct mt_cpu *c = h->harts[thread - 1];
    if (regno < 32)
        *val = c->x[regno];
    else if (regno == GDB_REG_PC)
        *val = c->pc;
    else if (regno < GDB_REG_F0 + 32)
        *val = c->f[regno - GDB_REG_F0];
    else if (regno == GDB_REG_PRIV)
        *val = (uint64_t)c->priv;
    else if (regno - GDB_REG_CSR0 < 4096 && csr_offered(regno - GDB_REG_CSR0)) {
        unsigned csr = regno - GDB_REG_CSR0;
        if (!csr_read(c, csr, val))
            return false;
        if (csr == 0xb02 || csr == 0xc02) /* csr_read counts the CSR instruction reading it; */
            *val += 1;                    /* between instructions none is running */
    } else
        return false;
    return true;
}

static bool write_reg(void *ctx, unsigned thread, unsigned regno, uint64_t val)
{
    gdb_harts *h = ctx;
    if (thread < 1 || thread > h->nharts)
        return false;
    struct mt_cpu *c = h->harts[thread - 1];
    if (regno < 32) {
        if (regno)
            c->x[regno] = val;
    } else if (regno == GDB_REG_PC) {
        c->pc = val & ~UINT64_C(1);
    } else if (regno < GDB_REG_F0 + 32) {
        c->f[regno - GDB_REG_F0] = val;
    } else if (regno == GDB_REG_PRIV) {
        if (val != PRV_U && val != PRV_S && val != PRV_M)
            return false;
        c->priv = (int)val;
        cpu_update_priv_ctx(c);
    } else if (regno - GDB_REG_CSR0 < 4096 && csr_offered(regno - GDB_REG_CSR0)) {
        return csr_write(c, regno - GDB_REG_CSR0, val);
    } else {
        return false;
    }
    return true;
}

static const char *tdesc(void *ctx, size_t *len)
{
    gdb_harts *h = ctx;
    *len = h->xml_len;
    return h->xml;
}

/* ---- the target description ------------------------------------------------------------- */

static const char *const xreg_names[32] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "fp", "s1", "a0",
                                           "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
                                           "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
static const char *const freg_names[32] = {"ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7",
                                           "fs0", "fs1", "fa0", "fa1", "fa2", "fa3", "fa4", "fa5",
                                           "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7",
                                           "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};

typedef struct {
    char *buf;
    size_t len, cap;
    bool failed;
} sbuf;

static void addf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void addf(sbuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->failed = true;
            return;
        }
        if ((size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        char *nb = realloc(b->buf, b->cap * 2 + (size_t)n);
        if (!nb) {
            b->failed = true;
            return;
        }
        b->buf = nb;
        b->cap = b->cap * 2 + (size_t)n;
    }
}

bool gdb_harts_init(gdb_harts *h, struct mt_cpu **harts, unsigned n, struct mt_bus *bus, gdb_target *t)
{
    memset(h, 0, sizeof *h);
    h->harts = harts;
    h->nharts = n;
    h->bus = bus;
    sbuf b = {.buf = malloc(4096), .cap = 4096};
    if (!b.buf)
        return false;
    b.buf[0] = 0;
    addf(&b, "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n<target version=\"1.0\">\n"
             "<architecture>riscv:rv64</architecture>\n<feature name=\"org.gnu.gdb.riscv.cpu\">\n");
    for (int i = 0; i < 32; i++)
        addf(&b, "  <reg name=\"%s\" bitsize=\"64\" type=\"%s\" regnum=\"%d\"/>\n", xreg_names[i],
             i == 1 ? "code_ptr" : (i >= 2 && i <= 4) || i == 8 ? "data_ptr" : "int", i);
    addf(&b, "  <reg name=\"pc\" bitsize=\"64\" type=\"code_ptr\" regnum=\"32\"/>\n</feature>\n");
    addf(&b, "<feature name=\"org.gnu.gdb.riscv.fpu\">\n  <union id=\"riscv_double\">\n"
             "    <field name=\"float\" type=\"ieee_single\"/>\n    <field name=\"double\" type=\"ieee_double\"/>\n"
             "  </union>\n");
    for (int i = 0; i < 32; i++)
        addf(&b, "  <reg name=\"%s\" bitsize=\"64\" type=\"riscv_double\" regnum=\"%d\"/>\n", freg_names[i],
             GDB_REG_F0 + i);
    addf(&b, "  <reg name=\"fflags\" bitsize=\"64\" type=\"int\" regnum=\"%d\" group=\"float\"/>\n"
             "  <reg name=\"frm\" bitsize=\"64\" type=\"int\" regnum=\"%d\" group=\"float\"/>\n"
             "  <reg name=\"fcsr\" bitsize=\"64\" type=\"int\" regnum=\"%d\" group=\"float\"/>\n</feature>\n",
         GDB_REG_CSR0 + 1, GDB_REG_CSR0 + 2, GDB_REG_CSR0 + 3);
    addf(&b, "<feature name=\"org.gnu.gdb.riscv.csr\">\n");
    for (size_t i = 0; i < sizeof csr_names / sizeof csr_names[0]; i++) {
        uint64_t v;
        if (n && csr_read(harts[0], csr_names[i].num, &v))
            addf(&b, "  <reg name=\"%s\" bitsize=\"64\" type=\"int\" regnum=\"%u\" group=\"csr\"/>\n",
                 csr_names[i].name, GDB_REG_CSR0 + csr_names[i].num);
    }
    addf(&b, "</feature>\n<feature name=\"org.gnu.gdb.riscv.virtual\">\n"
             "  <reg name=\"priv\" bitsize=\"64\" type=\"int\" regnum=\"%d\" group=\"system\"/>\n</feature>\n"
             "</target>\n",
         GDB_REG_PRIV);
    if (b.failed) {
        free(b.buf);
        return false;
    }
    h->xml = b.buf;
    h->xml_len = b.len;
    *t = (gdb_target){.nthreads = nthreads, .read_reg = read_reg, .write_reg = write_reg, .read_mem = read_mem,
                      .write_mem = write_mem, .tdesc = tdesc, .ctx = h};
    return true;
}

void gdb_harts_free(gdb_harts *h)
{
    free(h->xml);
    h->xml = NULL;
}

/* ---- the access an instruction makes (watchpoints) -------------------------------------- */

static int64_t sext(uint64_t v, int bits) { return (int64_t)(v << (64 - bits)) >> (64 - bits); }

bool gdb_insn_access(const struct mt_cpu *c, uint32_t insn, uint64_t *addr, unsigned *size, bool *reads,
                     bool *writes)
{
    const uint64_t *x = c->x;
    *reads = *writes = false;
    if ((insn & 3) != 3) { /* compressed: the loads and stores of quadrants 0 and 2 */
        unsigned q = insn & 3, f3 = (insn >> 13) & 7, rs1p = 8 + ((insn >> 7) & 7);
        uint64_t off;
        if (q == 0) {
            if (f3 == 2 || f3 == 6) /* c.lw / c.sw */
                off = ((insn >> 7) & 0x38) | ((insn >> 4) & 4) | ((insn << 1) & 0x40);
            else if (f3 == 1 || f3 == 3 || f3 == 5 || f3 == 7) /* c.fld c.ld c.fsd c.sd */
                off = ((insn >> 7) & 0x38) | ((insn << 1) & 0xc0);
            else
                return false;
            *addr = x[rs1p] + off;
        } else if (q == 2) {
            if (f3 == 2) /* c.lwsp */
                off = ((insn >> 7) & 0x20) | ((insn >> 2) & 0x1c) | ((insn << 4) & 0xc0);
            else if (f3 == 1 || f3 == 3) /* c.fldsp c.ldsp */
                off = ((insn >> 7) & 0x20) | ((insn >> 2) & 0x18) | ((insn << 4) & 0x1c0);
            else if (f3 == 6) /* c.swsp */
                off = ((insn >> 7) & 0x3c) | ((insn >> 1) & 0xc0);
            else if (f3 == 5 || f3 == 7) /* c.fsdsp c.sdsp */
                off = ((insn >> 7) & 0x38) | ((insn >> 1) & 0x1c0);
            else
                return false;
            *addr = x[2] + off;
        } else {
            return false;
        }
        *size = f3 == 2 || f3 == 6 ? 4 : 8;
        *writes = f3 >= 5;
        *reads = !*writes;
        return true;
    }
    unsigned op = insn & 0x7f, f3 = (insn >> 12) & 7, rs1 = (insn >> 15) & 31;
    switch (op) {
    case 0x03: /* loads */
        if (f3 == 7)
            return false;
        *size = 1u << (f3 & 3);
        *addr = x[rs1] + (uint64_t)sext(insn >> 20, 12);
        *reads = true;
        return true;
    case 0x07: /* flw / fld */
    case 0x27: /* fsw / fsd */
        if (f3 != 2 && f3 != 3)
            return false;
        *size = f3 == 2 ? 4 : 8;
        if (op == 0x07) {
            *addr = x[rs1] + (uint64_t)sext(insn >> 20, 12);
            *reads = true;
        } else {
            *addr = x[rs1] + (uint64_t)sext(((insn >> 20) & 0xfe0) | ((insn >> 7) & 0x1f), 12);
            *writes = true;
        }
        return true;
    case 0x23: /* stores */
        if (f3 > 3)
            return false;
        *size = 1u << f3;
        *addr = x[rs1] + (uint64_t)sext(((insn >> 20) & 0xfe0) | ((insn >> 7) & 0x1f), 12);
        *writes = true;
        return true;
    case 0x2f: { /* LR, SC, AMOs */
        if (f3 != 2 && f3 != 3)
            return false;
        unsigned f5 = insn >> 27;
        *size = f3 == 2 ? 4 : 8;
        *addr = x[rs1];
        *reads = f5 != 3;  /* SC only writes */
        *writes = f5 != 2; /* LR only reads */
        return true;
    }
    default:
        return false;
    }
}
