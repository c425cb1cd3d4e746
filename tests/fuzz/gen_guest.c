/* gen_guest SEED OUT.elf: a random guest program for tests/fuzz/guest_configs.sh, the same bytes
 * for the same seed. One PT_LOAD of 512 KiB at 0x80000000:
 *   0x0000  prologue: CSRs from the constant pool (trap vectors, scratch = RAM base, PMP open,
 *           medeleg, satp Sv39 or Sv48, and with the H extension hgatp Sv39x4/Sv48x4, vsatp,
 *           hedeleg), then mret into the random code in M, S or U mode, or VS/VU (mstatus.MPV)
 *   0x0100  M-mode handler, 0x0200 S/VS-mode handler: skip the faulting instruction and fold the
 *           return address back into the first 64 KiB, so that a stream keeps going
 *   0x0300  the constant pool
 *   0x1000  60 KiB of random instructions, biased towards real opcodes and the CSRs that matter
 *   0x40000 256 KiB of random bytes with the page tables in them: hgatp's root at 0x40000
 *           (16 KiB; Sv48x4's next level at 0x44000), satp's and vsatp's at 0x48000 (Sv48's next
 *           level at 0x49000), each mapping the gigabyte of RAM at itself (U for U and VU, and for
 *           every G-stage leaf), every other entry random: a stray address faults or lands
 *           somewhere
 * The seed picks the mode, the translation schemes and the delegation (none into a U page). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BASE UINT64_C(0x80000000)
#define SIZE 0x80000u
#define CODE 0x1000u
#define CODE_END 0x10000u
#define TABLES 0x40000u

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t random_insn(uint64_t *s)
{
    static const uint32_t opcodes[] = {0x03, 0x13, 0x17, 0x1b, 0x23, 0x2f, 0x33, 0x37,
                                       0x3b, 0x63, 0x67, 0x6f, 0x73, 0x0f, 0x07, 0x27};
    static const uint16_t csrs[] = {0x300, 0x180, 0x3a0, 0x3b0, 0x305, 0x304, 0x344, 0x100, 0x105, 0x302,
                                    0x303, 0x341, 0xc01, 0x7a0, 0x600, 0x602, 0x680, 0x280, 0x200, 0x14d};
    uint64_t r = next(s);
    if ((r & 3) == 0) /* a compressed pair */
        return (uint32_t)(r >> 8);
    uint32_t w = ((uint32_t)(r >> 16) & ~0x7fu) | opcodes[(r >> 2) % (sizeof opcodes / sizeof opcodes[0])];
    if ((w & 0x7f) == 0x73 && ((r >> 40) & 1))
        w = (w & 0x000fffff) | (uint32_t)csrs[(r >> 41) % (sizeof csrs / sizeof csrs[0])] << 20;
    if ((w & 0x7f) == 0x73 && ((r >> 50) & 7) == 0) /* now and then an xRET, WFI or SFENCE/HFENCE */
        w = ((const uint32_t[]){0x30200073, 0x10200073, 0x10500073, 0x12000073, 0x22000073, 0x62000073})[(r >> 53) % 6];
    return w;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: gen_guest SEED OUT.elf\n");
        return 2;
    }
    uint64_t s = strtoull(argv[1], NULL, 0) * UINT64_C(0x9e3779b97f4a7c15) + 1;
    for (int i = 0; i < 4; i++)
        next(&s);
    uint8_t *img = calloc(1, SIZE);
    if (!img)
        return 1;
    for (uint32_t a = CODE; a < CODE_END; a += 4)
        put_le(img + a, random_insn(&s), 4);
    for (uint32_t a = TABLES; a < SIZE; a += 8)
        put_le(img + a, next(&s), 8);
    /* handlers (tests/unit/test_emu_fuzz.c): csrr t6, xepc; addi t6, t6, 4; slli t6, t6, 48;
     * srli t6, t6, 48; csrr t5, xscratch; add t6, t6, t5; csrw xepc, t6; xret */
    static const uint32_t m_handler[] = {0x34102ff3, 0x004f8f93, 0x030f9f93, 0x030fdf93,
                                         0x34002f73, 0x01ef8fb3, 0x341f9073, 0x30200073};
    static const uint32_t s_handler[] = {0x14102ff3, 0x004f8f93, 0x030f9f93, 0x030fdf93,
                                         0x14002f73, 0x01ef8fb3, 0x141f9073, 0x10200073};
    for (int i = 0; i < 8; i++) {
        put_le(img + 0x100 + 4 * i, m_handler[i], 4);
        put_le(img + 0x200 + 4 * i, s_handler[i], 4);
    }
    uint64_t r = next(&s);
    unsigned mpp = (unsigned)(r & 3) == 2 ? 1 : (unsigned)(r & 3); /* M, S or U (2 is reserved) */
    bool hyp = mpp != 3 && ((r >> 2) & 3) == 0;                   /* a quarter: VS or VU */
    uint64_t sv = (r >> 4) & 1 ? 9 : 8;                           /* Sv48 or Sv39 */
    /* PTE bits: V R W X U A D; a leaf for the gigabyte at BASE (index 2 at the Sv39 level) */
    const uint64_t leaf = (BASE >> 12) << 10 | 0x1 | 0x2 | 0x4 | 0x8 | 0x40 | 0x80;
    const uint64_t user = 0x10;
    uint32_t g_root = TABLES, vs_root = TABLES + 0x8000;
    if (sv == 9) { /* one more level: entry 0 of the root points at the next table */
        put_le(img + g_root, ((BASE + TABLES + 0x4000) >> 12) << 10 | 1, 8);
        put_le(img + TABLES + 0x4000 + 16, leaf | user, 8);
        put_le(img + vs_root, ((BASE + TABLES + 0x9000) >> 12) << 10 | 1, 8);
        put_le(img + TABLES + 0x9000 + 16, leaf | (mpp == 0 ? user : 0), 8);
    } else {
        put_le(img + g_root + 16, leaf | user, 8);
        put_le(img + vs_root + 16, leaf | (mpp == 0 ? user : 0), 8);
    }
    /* Instruction faults stay in M: an S handler that cannot be fetched (a random satp write)
     * would otherwise fault into itself until mtemu calls the hart stuck, after millions of
     * logged traps. Nothing is delegated with a U page: an S handler cannot run from one. */
    uint64_t medeleg = mpp == 0 ? 0 : next(&s) & 0xb3ff & ~(UINT64_C(1) << 1 | UINT64_C(1) << 12);
    const struct {
        uint16_t csr;
        uint64_t val;
    } pool[] = {
        {0x305, BASE + 0x100},                                    /* mtvec */
        {0x105, BASE + 0x200},                                    /* stvec */
        {0x205, BASE + 0x200},                                    /* vstvec */
        {0x340, BASE},                                            /* mscratch */
        {0x140, BASE},                                            /* sscratch */
        {0x240, BASE},                                            /* vsscratch */
        {0x3b0, UINT64_MAX >> 10},                                /* pmpaddr0: all */
        {0x3a0, 0x1f},                                            /* pmpcfg0: NAPOT RWX */
        {0x302, medeleg},                                         /* medeleg */
        {0x602, medeleg & 0xb1ff},                                /* hedeleg */
        {0x180, sv << 60 | (BASE + vs_root) >> 12},               /* satp */
        {0x280, sv << 60 | (BASE + vs_root) >> 12},               /* vsatp */
        {0x680, hyp ? sv << 60 | (BASE + g_root) >> 12 : 0},      /* hgatp: 16 KiB aligned root */
        {0x300, (uint64_t)mpp << 11 | (uint64_t)hyp << 39},       /* mstatus: MPP, MPV */
        {0x341, BASE + CODE},                                     /* mepc */
    };
    const unsigned n = sizeof pool / sizeof pool[0];
    uint32_t pc = 0;
    put_le(img + pc, 0x00000417, 4); /* auipc s0, 0 */
    pc += 4;
    for (unsigned i = 0; i < n; i++) {
        uint32_t off = 0x300 + 8 * i;
        put_le(img + off, pool[i].val, 8);
        put_le(img + pc, off << 20 | 8u << 15 | 3u << 12 | 5u << 7 | 0x03, 4); /* ld t0, off(s0) */
        put_le(img + pc + 4, (uint32_t)pool[i].csr << 20 | 5u << 15 | 1u << 12 | 0x73, 4); /* csrw csr, t0 */
        pc += 8;
    }
    put_le(img + pc, 0x30200073, 4); /* mret */
    uint8_t h[120] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
    put_le(h + 16, 2, 2);
    put_le(h + 18, 243, 2);
    put_le(h + 20, 1, 4);
    put_le(h + 24, BASE, 8);
    put_le(h + 32, 64, 8);
    put_le(h + 52, 64, 2);
    put_le(h + 54, 56, 2);
    put_le(h + 56, 1, 2);
    put_le(h + 64, 1, 4);
    put_le(h + 68, 7, 4);
    put_le(h + 72, sizeof h, 8);
    put_le(h + 80, BASE, 8);
    put_le(h + 88, BASE, 8);
    put_le(h + 96, SIZE, 8);
    put_le(h + 104, SIZE, 8);
    put_le(h + 112, 4, 8);
    FILE *f = fopen(argv[2], "wb");
    if (!f || fwrite(h, 1, sizeof h, f) != sizeof h || fwrite(img, 1, SIZE, f) != SIZE || fclose(f) != 0) {
        fprintf(stderr, "gen_guest: %s: cannot write\n", argv[2]);
        return 1;
    }
    free(img);
    return 0;
}
