/* op_pairs: the most frequent consecutive pairs of decoded ops in a Spike-style commit log
 * (mtemu --log-commits), per hart, as mtemu's decoder sees them (compressed instructions as their
 * 32-bit ops).  This is how the fused pairs of emu/cpu/decode.h (MT_PAIR_OPS) were chosen:
 *   mtemu --log-commits PROGRAM 2>&1 >/dev/null | build/tests/op_pairs [TOP]
 * prints "percent first second count" lines, most frequent first, and the instruction count on
 * stderr.  A trap line ends the pair that it interrupts.
 *   ... | build/tests/op_pairs --branch-triples [TOP]
 * counts instead the triples of two straight ops and a conditional branch (how decode.h's
 * MT_TRIPLE_BRANCH_OPS were chosen): "percent first second branch count". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/cpu/decode.h"

static unsigned long long pairs[OP_COUNT][OP_COUNT];
/* [first][second][branch - OP_BEQ] */
static unsigned long long triples[OP_COUNT][OP_COUNT][6];

static int is_cond_branch(int op) { return op >= OP_BEQ && op <= OP_BGEU; }
static int is_straight(int op) { return op_compressed_twin((unsigned)op) != (unsigned)op || op >= OP_ADD_UW; }

static void print_triples(int top, unsigned long long total)
{
    for (int k = 0; k < top; k++) {
        unsigned long long best = 0;
        int a = 0, b = 0, br = 0;
        for (int i = 0; i < OP_COUNT; i++)
            for (int j = 0; j < OP_COUNT; j++)
                for (int l = 0; l < 6; l++)
                    if (triples[i][j][l] > best) {
                        best = triples[i][j][l];
                        a = i;
                        b = j;
                        br = l;
                    }
        if (!best)
            break;
        printf("%6.2f%% %-8s %-8s %-8s %llu\n", 100.0 * (double)best / (double)total, op_name((unsigned)a),
               op_name((unsigned)b), op_name((unsigned)(OP_BEQ + br)), best);
        triples[a][b][br] = 0;
    }
}

int main(int argc, char **argv)
{
    int want_triples = argc > 1 && strcmp(argv[1], "--branch-triples") == 0;
    int top = argc > 1 + want_triples ? atoi(argv[1 + want_triples]) : 60;
    if (argc > 2 + want_triples || top <= 0) {
        fprintf(stderr, "usage: op_pairs [--branch-triples] [TOP] < commit-log\n");
        return 2;
    }
    int prev[MT_MAX_HARTS], prev2[MT_MAX_HARTS];
    for (int i = 0; i < MT_MAX_HARTS; i++)
        prev[i] = prev2[i] = -1;
    unsigned long long total = 0;
    char line[512];
    while (fgets(line, sizeof line, stdin)) {
        int hart;
        unsigned priv, bits;
        unsigned long long pc;
        if (sscanf(line, "core %d: %u 0x%llx (0x%x)", &hart, &priv, &pc, &bits) != 4) {
            if (sscanf(line, "core %d:", &hart) == 1 && hart >= 0 && hart < MT_MAX_HARTS)
                prev[hart] = prev2[hart] = -1; /* an exception line */
            continue;
        }
        if (hart < 0 || hart >= MT_MAX_HARTS)
            continue;
        mt_dinsn d;
        memset(&d, 0, sizeof d);
        decode_insn(bits, &d);
        int op = (int)op_uncompressed(d.op);
        total++;
        if (prev[hart] >= 0)
            pairs[prev[hart]][op]++;
        if (prev2[hart] >= 0 && is_cond_branch(op) && is_straight(prev2[hart]) && is_straight(prev[hart]))
            triples[prev2[hart]][prev[hart]][op - OP_BEQ]++;
        prev2[hart] = prev[hart];
        prev[hart] = op;
    }
    if (want_triples) {
        print_triples(top, total);
        fprintf(stderr, "%llu instructions\n", total);
        return 0;
    }
    for (int k = 0; k < top; k++) {
        unsigned long long best = 0;
        int a = 0, b = 0;
        for (int i = 0; i < OP_COUNT; i++)
            for (int j = 0; j < OP_COUNT; j++)
                if (pairs[i][j] > best) {
                    best = pairs[i][j];
                    a = i;
                    b = j;
                }
        if (!best)
            break;
        printf("%6.2f%% %-8s %-8s %llu\n", 100.0 * (double)best / (double)total, op_name((unsigned)a), op_name((unsigned)b), best);
        pairs[a][b] = 0;
    }
    fprintf(stderr, "%llu instructions\n", total);
    return 0;
}
