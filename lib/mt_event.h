/* The bus-access event: the contract between the emulator (producer) and the trace unit
 * (consumer), see DESIGN.md "Contracts".  One event per physical bus access, after every
 * stage of address translation. */
#ifndef MT_EVENT_H
#define MT_EVENT_H

#include <stdint.h>

/* What kind of access; the trace unit's kind filter is a bit mask of (1u << kind). */
typedef enum {
    MT_KIND_FETCH = 0, /* instruction fetch */
    MT_KIND_LOAD = 1,  /* data load (incl. LR) */
    MT_KIND_STORE = 2, /* data store (incl. SC that succeeds) */
    MT_KIND_AMO = 3,   /* atomic read-modify-write */
    MT_KIND_PTW = 4,   /* page-table walk: PTE read or A/D update */
    MT_KIND_COUNT
} mt_kind;

/* Where on the memory path the access was observed. */
typedef enum {
    MT_TAP_CORE = 0, /* every access the hart makes */
    MT_TAP_DRAM = 1, /* what reaches DRAM after the modelled caches: line fills and write-backs */
    MT_TAP_COUNT
} mt_tap;

#define MT_PADDR_BITS 56
#define MT_PADDR_MASK ((UINT64_C(1) << MT_PADDR_BITS) - 1)

typedef struct {
    uint64_t cycle; /* reference-clock cycle (1 GHz) at which the access is on the bus */
    uint64_t addr;  /* physical (host-physical under two-stage translation) byte address, 56 bits */
    uint8_t write;  /* 1 = write (store, AMO, PTE A/D update, write-back), 0 = read */
    uint8_t size;   /* bytes: 1, 2, 4, 8 (or the line size on the dram tap) */
    uint8_t kind;   /* mt_kind */
    uint8_t tap;    /* mt_tap */
} mt_access;

/* An access as a batch holds it (the every-access recorder: emu/cpu/cpu.h mt_access_buf,
 * mt_swenc_samples): its cycle, and its address with the write bit in bit 63; 16 bytes. */
typedef struct {
    uint64_t cycle;
    uint64_t addr_rw;
} mt_access_rec;
#define MT_ACCESS_REC_WRITE (UINT64_C(1) << 63)
/* Set on an instruction fetch's record by the producers (the hooked interpreter, the device's
 * listener, the recorder): only the runs stream (mt_swenc_runs) looks at it; every other writer
 * takes the 56 address bits and bit 63. */
#define MT_ACCESS_REC_FETCH (UINT64_C(1) << 62)

#endif
