/* The gdbstub's hart side (emu/gdb/hart.c) and protocol (emu/gdb/session.c) on a bare hart:
 * the access an instruction is about to make (watchpoints: every load/store form, compressed
 * included), the side-effect-free page walk (no A/D bits set), and packets end to end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cpu_fixture.h"
#include "emu/cpu/mmu.h"
#include "emu/gdb/hart.h"
#include "emu/gdb/session.h"

static int setup(void **state) { return fixture_setup(state, UINT64_C(1) << 20); }

static void test_insn_access(void **state)
{
    mt_cpu *c = &((fixture *)*state)->cpu;
    for (int i = 1; i < 32; i++)
        c->x[i] = UINT64_C(0x10000) * (uint64_t)i;
    static const struct {
        uint32_t insn;
        int base; /* x register */
        int64_t off;
        unsigned size;
        bool r, w;
    } cases[] = {
        {0x415c, 10, 4, 4, true, false},      /* c.lw a5, 4(a0) */
        {0x6588, 11, 8, 8, true, false},      /* c.ld a0, 8(a1) */
        {0xc2b0, 13, 64, 4, false, true},     /* c.sw a2, 64(a3) */
        {0xfce0, 9, 248, 8, false, true},     /* c.sd s0, 248(s1) */
        {0x2a08, 12, 16, 8, true, false},     /* c.fld fa0, 16(a2) */
        {0x4532, 2, 12, 4, true, false},      /* c.lwsp a0, 12(sp) */
        {0x70fe, 2, 504, 8, true, false},     /* c.ldsp ra, 504(sp) */
        {0xdfae, 2, 252, 4, false, true},     /* c.swsp a1, 252(sp) */
        {0xe226, 2, 256, 8, false, true},     /* c.sdsp s1, 256(sp) */
        {0xa0a2, 2, 64, 8, false, true},      /* c.fsdsp fs0, 64(sp) */
        {0xfff5c503, 11, -1, 1, true, false}, /* lbu a0, -1(a1) */
        {0x80531023, 6, -2048, 2, false, true}, /* sh t0, -2048(t1) */
        {0x7ff13503, 2, 2047, 8, true, false},  /* ld a0, 2047(sp) */
        {0x00a52627, 10, 12, 4, false, true},   /* fsw fa0, 12(a0) */
        {0xffc5a587, 11, -4, 4, true, false},   /* flw fa1, -4(a1) */
        {0x00b6252f, 12, 0, 4, true, true},     /* amoadd.w a0, a1, (a2) */
        {0x1005b52f, 11, 0, 8, true, false},    /* lr.d a0, (a1) */
        {0x18b6252f, 12, 0, 4, false, true},    /* sc.w a0, a1, (a2) */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t addr = 0;
        unsigned size = 0;
        bool r, w;
        assert_true(gdb_insn_access(c, cases[i].insn, &addr, &size, &r, &w));
        assert_int_equal(addr, c->x[cases[i].base] + (uint64_t)cases[i].off);
        assert_int_equal(size, cases[i].size);
        assert_int_equal(r, cases[i].r);
        assert_int_equal(w, cases[i].w);
    }
    uint64_t addr;
    unsigned size;
    bool r, w;
    assert_false(gdb_insn_access(c, 0x00c58533, &addr, &size, &r, &w)); /* add */
    assert_false(gdb_insn_access(c, 0x952e, &addr, &size, &r, &w));     /* c.add */
}

/* Sv39: root at +0x10000, one 4 KiB page va 0x40001000 -> pa base+0x20000, and a 2 MiB
 * superpage va 0x40200000 -> pa base+0x200000 (level 1 leaf). */
static void build_tables(fixture *f, uint64_t *leaf_pte)
{
    const uint64_t base = FIXTURE_RAM_BASE, root = base + 0x10000, l1 = base + 0x11000, l0 = base + 0x12000;
    uint64_t pte;
    pte = (l1 >> 12) << 10 | PTE_V;
    ram_host_write(f->ram, root + 1 * 8, &pte, 8); /* va[38:30] = 1 */
    pte = (l0 >> 12) << 10 | PTE_V;
    ram_host_write(f->ram, l1 + 0 * 8, &pte, 8); /* va[29:21] = 0 */
    pte = ((base + 0x200000) >> 12) << 10 | PTE_V | PTE_R | PTE_W;
    ram_host_write(f->ram, l1 + 1 * 8, &pte, 8); /* va[29:21] = 1: superpage, no A/D yet */
    *leaf_pte = ((base + 0x20000) >> 12) << 10 | PTE_V | PTE_R | PTE_W | PTE_X;
    ram_host_write(f->ram, l0 + 1 * 8, leaf_pte, 8); /* va[20:12] = 1 */
    f->cpu.satp = (uint64_t)SATP_MODE_SV39 << SATP_MODE_SHIFT | (root >> 12);
}

static void test_translate(void **state)
{
    fixture *f = *state;
    mt_cpu *c = &f->cpu;
    uint64_t leaf, pa, after;
    build_tables(f, &leaf);
    c->priv = PRV_S;
    assert_true(gdb_translate(c, 0x40001234, &pa));
    assert_int_equal(pa, FIXTURE_RAM_BASE + 0x20234);
    assert_true(gdb_translate(c, 0x40212345, &pa));
    assert_int_equal(pa, FIXTURE_RAM_BASE + 0x212345);
    assert_false(gdb_translate(c, 0x40002000, &pa));           /* not mapped */
    assert_false(gdb_translate(c, UINT64_C(0x8000000000), &pa)); /* not sign-extended */
    ram_host_read(f->ram, FIXTURE_RAM_BASE + 0x12008, &after, 8);
    assert_int_equal(after, leaf); /* no A bit set by the debugger's walk */
    c->priv = PRV_M; /* M: physical */
    assert_true(gdb_translate(c, 0x40001234, &pa));
    assert_int_equal(pa, 0x40001234);
}

/* A packet with its checksum. */
static size_t packet(char *dst, const char *data)
{
    unsigned sum = 0;
    for (const char *p = data; *p; p++)
        sum += (unsigned char)*p;
    return (size_t)sprintf(dst, "$%s#%02x", data, sum & 0xff);
}

/* Sends one packet, returns the reply's data (without the ack and framing). */
static const char *ask(gdb_session *s, const char *data, gdb_action *act)
{
    static char in[256], reply[GDB_OUT_MAX + 1];
    size_t n = packet(in, data), used, len;
    *act = gdb_session_input(s, (const uint8_t *)in, n, &used);
    assert_int_equal(used, n);
    const char *out = gdb_session_output(s, &len);
    memcpy(reply, out, len);
    reply[len] = 0;
    gdb_session_sent(s);
    char *start = strchr(reply, '$'), *end = start ? strrchr(start, '#') : NULL;
    if (!start || !end)
        return "";
    *end = 0;
    return start + 1;
}

static void test_session_on_hart(void **state)
{
    fixture *f = *state;
    mt_cpu *c = &f->cpu;
    mt_cpu *harts[1] = {c};
    gdb_harts h;
    gdb_target t;
    uint64_t leaf;
    gdb_action act;
    build_tables(f, &leaf);
    assert_true(gdb_harts_init(&h, harts, 1, &f->bus, &t));
    static gdb_session s;
    gdb_session_init(&s, &t);
    const uint32_t word = 0x11223344;
    ram_host_write(f->ram, FIXTURE_RAM_BASE + 0x20010, &word, 4);
    c->priv = PRV_S;
    assert_string_equal(ask(&s, "m40001010,4", &act), "44332211"); /* virtual */
    assert_string_equal(ask(&s, "M40001010,2:aabb", &act), "OK");
    assert_string_equal(ask(&s, "m40001010,4", &act), "aabb2211");
    assert_string_equal(ask(&s, "m40002000,4", &act), "E14"); /* unmapped */
    assert_string_equal(ask(&s, "Qqemu.PhyMemMode:1", &act), "OK");
    assert_string_equal(ask(&s, "m80020010,4", &act), "aabb2211"); /* physical */
    assert_string_equal(ask(&s, "m10000000,1", &act), "E14");       /* a device: not read */
    c->x[10] = 0x0123456789abcdef;
    assert_string_equal(ask(&s, "pa", &act), "efcdab8967452301");
    assert_string_equal(ask(&s, "P1041=0100000000000000", &act), "OK"); /* priv 4161 = 1 (S) */
    assert_int_equal(c->priv, PRV_S);
    assert_string_equal(ask(&s, "P1041=0200000000000000", &act), "E01"); /* no privilege 2 */
    char mstatus[16];
    snprintf(mstatus, sizeof mstatus, "p%x", GDB_REG_CSR0 + 0x300);
    assert_int_equal(strlen(ask(&s, mstatus, &act)), 16);
    size_t xlen;
    const char *xml = t.tdesc(t.ctx, &xlen);
    assert_non_null(strstr(xml, "<architecture>riscv:rv64</architecture>"));
    assert_non_null(strstr(xml, "name=\"hgatp\""));
    assert_non_null(strstr(xml, "name=\"vsatp\""));
    assert_non_null(strstr(xml, "name=\"mstatus\" bitsize=\"64\" type=\"int\" regnum=\"833\""));
    assert_non_null(strstr(xml, "name=\"priv\""));
    assert_string_equal(ask(&s, "Z2,40001010,4", &act), "OK");
    assert_non_null(gdb_session_watch_hit(&s, 0x40001012, 1, true));
    assert_null(gdb_session_watch_hit(&s, 0x40001012, 1, false)); /* a write watchpoint */
    assert_string_equal(ask(&s, "Z0,80000000,4", &act), "OK");
    assert_true(gdb_session_breakpoint_at(&s, 0x80000000));
    ask(&s, "vCont;s:1;c", &act);
    assert_int_equal(act, GDB_ACT_RESUME);
    assert_int_equal(s.step_thread, 1);
    gdb_harts_free(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_insn_access, setup, teardown),
        cmocka_unit_test_setup_teardown(test_translate, setup, teardown),
        cmocka_unit_test_setup_teardown(test_session_on_hart, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
