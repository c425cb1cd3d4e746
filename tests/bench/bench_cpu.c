/* CPU-bound benchmark (CoreMark-like mix): list walking, a small matrix multiply, a state
 * machine over a string, CRC-16 and integer division, repeated ITERATIONS times (about
 * 10^9 instructions at the default).  Prints a checksum so a wrong result is visible. */
#include <stdint.h>

#include "bench_io.h"

#ifndef ITERATIONS
#define ITERATIONS 3000
#endif

#define N 16
#define LIST 64

typedef struct node {
    struct node *next;
    int32_t value;
    int16_t index;
} node;

static node nodes[LIST];
static int32_t ma[N][N], mb[N][N], mc[N][N];
static const char text[] = "5012,1.25e3,-77,0x1f,abc,+3.1415,1e-9,,99999,-0.5e+2,hello,42";

static uint16_t crc16(uint16_t crc, uint8_t data)
{
    crc ^= data;
    for (int i = 0; i < 8; i++)
        crc = (crc & 1) ? (uint16_t)((crc >> 1) ^ 0xa001) : (uint16_t)(crc >> 1);
    return crc;
}

static int32_t list_work(int it)
{
    int32_t sum = 0;
    for (node *p = &nodes[0]; p; p = p->next) {
        sum += p->value ^ it;
        p->value = (p->value * 7 + it) & 0xffff;
    }
    /* reverse the list */
    node *prev = 0, *cur = &nodes[0];
    while (cur) {
        node *n = cur->next;
        cur->next = prev;
        prev = cur;
        cur = n;
    }
    /* and back */
    cur = prev;
    prev = 0;
    while (cur) {
        node *n = cur->next;
        cur->next = prev;
        prev = cur;
        cur = n;
    }
    return sum;
}

static int32_t matrix_work(int it)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int32_t s = 0;
            for (int k = 0; k < N; k++)
                s += ma[i][k] * mb[k][j];
            mc[i][j] = s + it;
        }
    int32_t t = 0;
    for (int i = 0; i < N; i++)
        t += mc[i][i] >> 3;
    return t;
}

static int32_t state_work(void)
{
    int states[4] = {0, 0, 0, 0};
    int st = 0;
    for (const char *p = text; *p; p++) {
        char ch = *p;
        if (ch == ',') {
            states[st]++;
            st = 0;
        } else if (st == 0) {
            st = (ch >= '0' && ch <= '9') ? 1 : (ch == '+' || ch == '-') ? 2 : 3;
        } else if (st == 1 && !(ch >= '0' && ch <= '9')) {
            st = (ch == '.' || ch == 'e') ? 2 : 3;
        }
    }
    return states[0] + 2 * states[1] + 3 * states[2] + 5 * states[3];
}

int main(void)
{
    for (int i = 0; i < LIST; i++) {
        nodes[i].next = i + 1 < LIST ? &nodes[i + 1] : 0;
        nodes[i].value = i * 37;
        nodes[i].index = (int16_t)i;
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            ma[i][j] = i * j + 1;
            mb[i][j] = i - j;
        }
    uint16_t crc = 0;
    uint64_t acc = 0;
    for (int it = 0; it < ITERATIONS; it++) {
        int32_t a = list_work(it), b = matrix_work(it), c = state_work();
        crc = crc16(crc, (uint8_t)a);
        crc = crc16(crc, (uint8_t)b);
        crc = crc16(crc, (uint8_t)c);
        acc += (uint64_t)(a + b + c) / (uint64_t)(it % 13 + 1);
    }
    bench_puts("bench_cpu checksum ");
    bench_puthex(acc ^ crc);
    bench_putc('\n');
    return 0;
}
