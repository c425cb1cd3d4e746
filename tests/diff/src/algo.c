/* algo: ordinary integer workloads (CRC-32, a prime sieve, an insertion sort, string handling,
 * a small recursive function), compressed and uncompressed code mixed as GCC emits it; the CRC
 * of "123456789" must be 0xcbf43926. */
#include "diff.h"

static uint32_t crc32(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    while (n--) {
        c ^= *p++;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & -(c & 1));
    }
    return ~c;
}

static uint8_t sieve[100000];
static int32_t arr[2000];

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main(void)
{
    uint32_t crc = crc32((const uint8_t *)"123456789", 9);
    put_kv("crc32", crc);

    int primes = 0;
    uint64_t psum = 0;
    for (int i = 2; i < (int)sizeof sieve; i++) {
        if (sieve[i])
            continue;
        primes++;
        psum += (uint64_t)i;
        for (int j = 2 * i; j < (int)sizeof sieve; j += i)
            sieve[j] = 1;
    }
    puts_("primes below 100000: ");
    put_dec(primes);
    putch('\n');
    put_kv("prime sum", psum);

    uint32_t s = 12345;
    for (int i = 0; i < 2000; i++) {
        s = s * 1103515245u + 12345u;
        arr[i] = (int32_t)s >> 3;
    }
    for (int i = 1; i < 2000; i++) {
        int32_t v = arr[i];
        int j = i - 1;
        while (j >= 0 && arr[j] > v) {
            arr[j + 1] = arr[j];
            j--;
        }
        arr[j + 1] = v;
    }
    int sorted = 1;
    for (int i = 1; i < 2000; i++)
        sorted &= arr[i - 1] <= arr[i];
    put_kv("sorted", (uint64_t)sorted);
    put_kv("sorted crc", crc32((const uint8_t *)arr, sizeof arr));

    char buf[64];
    const char *words[] = {"meta", "trace", "rv64", "sv39", "clint"};
    size_t len = 0;
    for (int i = 0; i < 5; i++) {
        size_t l = strlen(words[i]);
        memcpy(buf + len, words[i], l);
        len += l;
        buf[len++] = '-';
    }
    buf[len - 1] = '\n';
    buf[len] = 0;
    puts_(buf);
    put_kv("fib(24)", (uint64_t)fib(24));
    return crc == 0xcbf43926u && primes == 9592 && sorted ? 0 : 1;
}
