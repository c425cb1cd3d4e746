/* diff.h: the tiny runtime of the differential-test programs (no libc): console output on the
 * 16550 UART at 0x1000_0000, exit through the SiFive test finisher at 0x10_0000, CSR access. */
#ifndef DIFF_H
#define DIFF_H
#include <stdint.h>
#include <stddef.h>

#define UART_BASE 0x10000000UL
#define FINISHER_BASE 0x100000UL
#define CLINT_MSIP 0x2000000UL
#define CLINT_MTIMECMP 0x2004000UL
#define CLINT_MTIME 0x200bff8UL

#define csr_read(name) ({ uint64_t v_; __asm__ volatile("csrr %0, " #name : "=r"(v_)); v_; })
#define csr_write(name, v) __asm__ volatile("csrw " #name ", %0" ::"r"((uint64_t)(v)))
#define csr_set(name, v) __asm__ volatile("csrs " #name ", %0" ::"r"((uint64_t)(v)))
#define csr_clear(name, v) __asm__ volatile("csrc " #name ", %0" ::"r"((uint64_t)(v)))

static inline void mmio_write32(uintptr_t a, uint32_t v) { *(volatile uint32_t *)a = v; }
static inline uint32_t mmio_read32(uintptr_t a) { return *(volatile uint32_t *)a; }
static inline void mmio_write64(uintptr_t a, uint64_t v) { *(volatile uint64_t *)a = v; }
static inline uint64_t mmio_read64(uintptr_t a) { return *(volatile uint64_t *)a; }

void putch(char c);
void puts_(const char *s);
void put_dec(int64_t v);
void put_udec(uint64_t v);
void put_hex(uint64_t v);   /* 0x + 16 digits */
void put_kv(const char *key, uint64_t v);   /* "key=0x...\n" */
__attribute__((noreturn)) void diff_exit(int code);
/* trap frame: [0] = mepc (writable), [1..31] = x1..x31 (x2 is not saved) */
void diff_trap(uint64_t *frame);

/* xorshift64: a generator whose sequence is the same on every machine (random programs, operands) */
static inline uint64_t xorshift64(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
#endif
