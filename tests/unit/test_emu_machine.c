/* machine_reset (emu/platform/machine.h): a machine reset to a configuration runs a program
 * exactly as one machine_create made fresh from it does: the same exit code, console output,
 * instructions retired, cycles, registers and RAM, whatever the machine ran before (a program
 * that left RAM dirty, more harts, the cache model, another RAM size). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "emu/platform/machine.h"

#define WORD_ADDR UINT64_C(0x80100000) /* read by one program, written by the other */

enum { ZERO = 0, T0 = 5, T1 = 6, A0 = 10, A1 = 11, A2 = 12 };
static uint32_t i_type(uint32_t opc, uint32_t f3, unsigned rd, unsigned rs1, int32_t imm)
{
    return opc | rd << 7 | f3 << 12 | rs1 << 15 | ((uint32_t)imm & 0xfff) << 20;
}
static uint32_t addi(unsigned rd, unsigned rs1, int32_t imm) { return i_type(0x13, 0, rd, rs1, imm); }
static uint32_t ld(unsigned rd, unsigned rs1, int32_t imm) { return i_type(0x03, 3, rd, rs1, imm); }
static uint32_t lui(unsigned rd, uint32_t imm20) { return 0x37 | rd << 7 | imm20 << 12; }
static uint32_t store(uint32_t f3, unsigned rs2, unsigned rs1, int32_t imm)
{
    uint32_t i = (uint32_t)imm;
    return 0x23 | (i & 0x1f) << 7 | f3 << 12 | rs1 << 15 | rs2 << 20 | ((i >> 5) & 0x7f) << 25;
}
static uint32_t bne_back(unsigned rs1, unsigned rs2, int32_t off) /* off < 0, within 4 KiB */
{
    uint32_t i = (uint32_t)off;
    return 0x63 | ((i >> 11) & 1) << 7 | ((i >> 1) & 0xf) << 8 | 1u << 12 | rs1 << 15 | rs2 << 20 |
           ((i >> 5) & 0x3f) << 25 | ((i >> 12) & 1) << 31;
}

/* Prints 'A' + the word at WORD_ADDR (0 on a clean machine), loops 100 times, stores its sum at
 * WORD_ADDR + 8 and (dirty) writes `poison` at WORD_ADDR, prints 'Z' and exits through the
 * finisher with code 0. */
static size_t program(uint32_t *c, int poison)
{
    size_t n = 0;
    c[n++] = lui(T0, 0x10000); /* UART */
    c[n++] = lui(T1, 0x80100); /* WORD_ADDR, sign-extended: zero-extend it */
    c[n++] = i_type(0x13, 1, T1, T1, 32); /* slli */
    c[n++] = i_type(0x13, 5, T1, T1, 32); /* srli */
    c[n++] = ld(A0, T1, 0);
    c[n++] = addi(A0, A0, 'A');
    c[n++] = store(0, A0, T0, 0); /* sb */
    c[n++] = addi(A1, ZERO, 100);
    c[n++] = addi(A2, ZERO, 0); /* (the boot ROM leaves its fw_dynamic pointer in a2) */
    c[n++] = addi(A2, A2, 3);
    c[n++] = addi(A1, A1, -1);
    c[n++] = bne_back(A1, ZERO, -8);
    c[n++] = store(3, A2, T1, 8); /* sd */
    c[n++] = addi(A0, ZERO, poison);
    c[n++] = store(3, A0, T1, 0);
    c[n++] = addi(A0, ZERO, 'Z');
    c[n++] = store(0, A0, T0, 0);
    c[n++] = lui(T0, 0x100); /* the finisher: 0x5555 is a pass */
    c[n++] = lui(A0, 0x5);
    c[n++] = addi(A0, A0, 0x555);
    c[n++] = store(2, A0, T0, 0); /* sw */
    c[n++] = 0x0000006f; /* j . (not reached) */
    return n;
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The program as a one-segment RV64 ELF at RAM_BASE in a temporary file; its path in `path`. */
static void write_elf(char *path, size_t pathlen, int poison)
{
    uint32_t code[32];
    size_t n = program(code, poison) * 4;
    uint8_t h[120] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
    put_le(h + 16, 2, 2);
    put_le(h + 18, 243, 2);
    put_le(h + 20, 1, 4);
    put_le(h + 24, RAM_BASE, 8);
    put_le(h + 32, 64, 8);
    put_le(h + 52, 64, 2);
    put_le(h + 54, 56, 2);
    put_le(h + 56, 1, 2);
    uint8_t *ph = h + 64;
    put_le(ph, 1, 4);
    put_le(ph + 4, 7, 4);
    put_le(ph + 8, sizeof h, 8);
    put_le(ph + 16, RAM_BASE, 8);
    put_le(ph + 24, RAM_BASE, 8);
    put_le(ph + 32, n, 8);
    put_le(ph + 40, n, 8);
    put_le(ph + 48, 4, 8);
    const char *dir = getenv("TMPDIR");
    snprintf(path, pathlen, "%s/test_emu_machine_XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, h, sizeof h), (ssize_t)sizeof h);
    assert_int_equal(write(fd, code, n), (ssize_t)n);
    close(fd);
}

/* What a run leaves that the program could have changed or observed. */
typedef struct {
    int code;
    char console[64];
    uint64_t instret, cycle, pc, x[32], words[2], dirty, dtb_addr, entry;
} outcome;

static void finish(mt_machine *m, FILE *out, outcome *o)
{
    memset(o, 0, sizeof *o);
    o->code = machine_run(m);
    fflush(out);
    rewind(out);
    size_t got = fread(o->console, 1, sizeof o->console - 1, out);
    o->console[got] = 0;
    o->instret = m->cpu.instret;
    o->cycle = m->cpu.cycle;
    o->pc = m->cpu.pc;
    memcpy(o->x, m->cpu.x, sizeof o->x);
    assert_true(ram_host_read(m->ram, WORD_ADDR, o->words, sizeof o->words));
    o->dirty = ram_dirty_pages(m->ram);
    o->dtb_addr = m->dtb_addr;
    o->entry = m->entry;
}

static mt_machine_config config(const char *prog, FILE *out, uint64_t ram, unsigned harts, mt_timing_mode t)
{
    return (mt_machine_config){.ram_size = ram, .program = prog, .out = out, .in_fd = -1, .harts = harts,
                               .timing = t, .max_insns = 100000};
}

/* The clean program and the one that leaves RAM dirty (write_elf), and an output file for
 * each of the two runs a reset test compares. */
typedef struct {
    char clean[256], dirty[256];
    FILE *o1, *o2;
} clean_dirty;

static void clean_dirty_open(clean_dirty *cd)
{
    write_elf(cd->clean, sizeof cd->clean, 0);
    write_elf(cd->dirty, sizeof cd->dirty, 7);
    cd->o1 = tmpfile();
    cd->o2 = tmpfile();
    assert_non_null(cd->o1);
    assert_non_null(cd->o2);
}

/* A fresh machine's run of the clean program, and the same after a reset from `before`. */
static void check_reset_after(const mt_machine_config *before_cfg, uint64_t ram, unsigned harts, mt_timing_mode t)
{
    clean_dirty cd;
    clean_dirty_open(&cd);
    char *clean = cd.clean, *dirty = cd.dirty, err[256];
    FILE *o1 = cd.o1, *o2 = cd.o2;

    mt_machine_config c = config(clean, o1, ram, harts, t);
    mt_machine *fresh = machine_create(&c, err, sizeof err);
    assert_non_null(fresh);
    outcome a;
    finish(fresh, o1, &a);
    machine_destroy(fresh);
    assert_int_equal(a.code, 0);
    if (harts <= 1) { /* (with more, every hart runs the program) */
        assert_string_equal(a.console, "AZ");
        assert_int_equal(a.words[1], 300);
    }
    assert_int_equal(a.words[0], 0);

    /* a machine that ran the dirty program (RAM word left at 7) and is reset to the clean one */
    mt_machine_config d = *before_cfg;
    d.program = dirty;
    d.out = o2;
    mt_machine *m = machine_create(&d, err, sizeof err);
    assert_non_null(m);
    (void)machine_run(m);
    uint64_t left = 0;
    assert_true(ram_host_read(m->ram, WORD_ADDR, &left, sizeof left));
    assert_int_equal(left, 7); /* the RAM the reset must clear */
    assert_true(fflush(o2) == 0 && ftruncate(fileno(o2), 0) == 0);
    rewind(o2);
    c.out = o2;
    assert_true(machine_reset(m, &c, err, sizeof err));
    outcome b;
    finish(m, o2, &b);
    assert_int_equal(b.code, a.code);
    assert_string_equal(b.console, a.console);
    assert_int_equal(b.instret, a.instret);
    assert_int_equal(b.cycle, a.cycle);
    assert_int_equal(b.pc, a.pc);
    assert_memory_equal(b.x, a.x, sizeof a.x);
    assert_memory_equal(b.words, a.words, sizeof a.words);
    assert_int_equal(b.dirty, a.dirty);
    assert_int_equal(b.dtb_addr, a.dtb_addr);
    assert_int_equal(b.entry, a.entry);
    assert_int_equal(m->nharts, harts ? harts : 1);

    /* and again: a second reset of the same machine */
    assert_true(fflush(o2) == 0 && ftruncate(fileno(o2), 0) == 0);
    rewind(o2);
    assert_true(machine_reset(m, &c, err, sizeof err));
    finish(m, o2, &b);
    assert_int_equal(b.instret, a.instret);
    assert_string_equal(b.console, a.console);
    assert_memory_equal(b.words, a.words, sizeof a.words);
    machine_destroy(m);
    fclose(o1);
    fclose(o2);
    unlink(clean);
    unlink(dirty);
}

#define MIB (UINT64_C(1) << 20)

static void test_reset_same_config(void **state)
{
    (void)state;
    mt_machine_config b = config(NULL, NULL, 8 * MIB, 1, TIMING_NONE);
    check_reset_after(&b, 8 * MIB, 1, TIMING_NONE);
}

static void test_reset_from_smp(void **state)
{
    (void)state;
    mt_machine_config b = config(NULL, NULL, 8 * MIB, 3, TIMING_NONE);
    check_reset_after(&b, 8 * MIB, 1, TIMING_NONE);
}

static void test_reset_to_smp(void **state)
{
    (void)state;
    mt_machine_config b = config(NULL, NULL, 8 * MIB, 1, TIMING_NONE);
    check_reset_after(&b, 8 * MIB, 2, TIMING_NONE);
}

static void test_reset_cache_model(void **state)
{
    (void)state;
    mt_machine_config b = config(NULL, NULL, 8 * MIB, 1, TIMING_CACHE);
    check_reset_after(&b, 8 * MIB, 1, TIMING_CACHE); /* the cycles count the caches: cold again */
    check_reset_after(&b, 8 * MIB, 1, TIMING_NONE);
}

static void test_reset_other_ram_size(void **state)
{
    (void)state;
    mt_machine_config b = config(NULL, NULL, 16 * MIB, 1, TIMING_NONE);
    check_reset_after(&b, 8 * MIB, 1, TIMING_NONE);
}

/* The whole RAM of m, copied out (8 MiB: the tests' size). */
static uint8_t *ram_image(mt_machine *m)
{
    const uint64_t size = ram_size(m->ram);
    uint8_t *img = malloc(size);
    assert_non_null(img);
    assert_true(ram_host_read(m->ram, ram_base(m->ram), img, size));
    return img;
}

/* The reset clears only the pages written since the last one (ram_clear): every byte of RAM a
 * reset machine holds must still be a fresh machine's, whoever wrote it before (the guest
 * through ram_page_for_write, the emulator through ram_host_write), one byte or a range of
 * pages (zeroed, or handed back to the kernel from 64 pages on), at the RAM's first and last
 * byte; and a run after the reset must be a fresh run. */
static void test_reset_clears_every_written_page(void **state)
{
    (void)state;
    clean_dirty cd;
    clean_dirty_open(&cd);
    char *clean = cd.clean, *dirty = cd.dirty, err[256];
    FILE *o1 = cd.o1, *o2 = cd.o2;
    mt_machine_config c = config(clean, o1, 8 * MIB, 1, TIMING_NONE);
    mt_machine *fresh = machine_create(&c, err, sizeof err);
    assert_non_null(fresh);
    uint8_t *want = ram_image(fresh); /* the program and device tree loaded, nothing run */

    mt_machine_config d = config(dirty, o2, 8 * MIB, 1, TIMING_NONE);
    mt_machine *m = machine_create(&d, err, sizeof err);
    assert_non_null(m);
    (void)machine_run(m); /* the guest's own writes */
    const uint64_t base = ram_base(m->ram), size = ram_size(m->ram);
    static uint8_t ones[300 * 4096];
    memset(ones, 0xA5, sizeof ones);
    const struct {
        uint64_t at, len;
    } host[] = {
        {0, 1},                                /* the first byte */
        {size - 1, 1},                         /* the last */
        {3 * MIB + 4095, 2},                   /* two pages by one write */
        {5 * MIB + 100, 63 * 4096},            /* 64 pages: handed back */
        {1 * MIB, 300 * 4096},                 /* 300 */
        {1 * MIB + 300 * 4096 + 4096, 4096},   /* one page after a gap of one */
        {7 * MIB, 63 * 4096},                  /* 63: zeroed */
    };
    for (size_t i = 0; i < sizeof host / sizeof host[0]; i++)
        assert_true(ram_host_write(m->ram, base + host[i].at, ones, host[i].len));
    const uint64_t guest[] = {2 * MIB + 8, 6 * MIB, size - 4096, 64 * 4096 * 3}; /* written through the page */
    for (size_t i = 0; i < sizeof guest / sizeof guest[0]; i++) {
        uint8_t *page = ram_page_for_write(m->ram, base + guest[i]);
        assert_non_null(page);
        page[guest[i] & 4095] = 0x5A;
        page[4095] = 0x5A;
    }

    c.out = o2;
    assert_true(fflush(o2) == 0 && ftruncate(fileno(o2), 0) == 0);
    rewind(o2);
    assert_true(machine_reset(m, &c, err, sizeof err));
    uint8_t *got = ram_image(m);
    assert_memory_equal(got, want, size);
    free(got);

    outcome a, b; /* and the run after it is a fresh run, its RAM too */
    finish(fresh, o1, &a);
    finish(m, o2, &b);
    assert_int_equal(b.code, a.code);
    assert_string_equal(b.console, a.console);
    assert_int_equal(b.instret, a.instret);
    assert_int_equal(b.cycle, a.cycle);
    assert_memory_equal(b.x, a.x, sizeof a.x);
    assert_int_equal(b.dirty, a.dirty);
    free(want);
    want = ram_image(fresh);
    got = ram_image(m);
    assert_memory_equal(got, want, size);
    free(want);
    free(got);
    machine_destroy(fresh);
    machine_destroy(m);
    fclose(o1);
    fclose(o2);
    unlink(clean);
    unlink(dirty);
}

/* A configuration machine_create refuses is refused by machine_reset, with the same message,
 * and the machine can still be destroyed. */
static void test_reset_refused(void **state)
{
    (void)state;
    char prog[256], err1[256] = "", err2[256] = "";
    write_elf(prog, sizeof prog, 0);
    FILE *o = tmpfile();
    assert_non_null(o);
    mt_machine_config c = config(prog, o, 8 * MIB, 1, TIMING_NONE);
    mt_machine *m = machine_create(&c, err1, sizeof err1);
    assert_non_null(m);
    mt_machine_config bad = c;
    bad.harts = 2;
    bad.timing = TIMING_CACHE; /* -smp with the cache model: refused */
    assert_null(machine_create(&bad, err1, sizeof err1));
    assert_false(machine_reset(m, &bad, err2, sizeof err2));
    assert_string_equal(err2, err1);
    machine_destroy(m);

    m = machine_create(&c, err1, sizeof err1);
    assert_non_null(m);
    bad = c;
    bad.ram_size = 1 * MIB;
    assert_null(machine_create(&bad, err1, sizeof err1));
    assert_false(machine_reset(m, &bad, err2, sizeof err2));
    assert_string_equal(err2, err1);
    machine_destroy(m);
    fclose(o);
    unlink(prog);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reset_same_config),  cmocka_unit_test(test_reset_from_smp),
        cmocka_unit_test(test_reset_to_smp),       cmocka_unit_test(test_reset_cache_model),
        cmocka_unit_test(test_reset_other_ram_size), cmocka_unit_test(test_reset_refused),
        cmocka_unit_test(test_reset_clears_every_written_page),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
