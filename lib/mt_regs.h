/* The trace unit's MMIO register map (docs/trace-unit.md is normative).
 *
 * Plain C, no host-only includes: bare-metal firmware (riscv64-unknown-elf-gcc) includes it.
 * A 4 KiB window of 32-bit registers, little endian; 32-bit accesses only.  The emulator
 * maps it at MT_REGS_BASE, device-tree compatible "metatrace,trace-unit". */
#ifndef MT_REGS_H
#define MT_REGS_H

#define MT_REGS_BASE 0x11000000UL
#define MT_REGS_SIZE 0x1000UL
#define MT_REGS_COMPATIBLE "metatrace,trace-unit"

/* Offsets (bytes from the base). RO = read-only, RW = read/write, WO = write-only (reads 0). */
#define MT_REG_ID          0x000 /* RO  reads MT_ID_VALUE */
#define MT_REG_VERSION     0x004 /* RO  reads MT_VERSION_VALUE (major << 16 | minor) */
#define MT_REG_CTRL        0x008 /* RW  MT_CTRL_* */
#define MT_REG_STATUS      0x00C /* RO  MT_STATUS_* */
#define MT_REG_FIFO_LEVEL  0x010 /* RO  FIFO occupancy in bytes at the start of this cycle */
#define MT_REG_FIFO_INFO   0x014 /* RO  [15:0] depth in bytes (0 = 65536), [23:16] drain bytes/cycle, [31:24] max packet bytes */
#define MT_REG_KIND_MASK   0x018 /* RW  bit k enables mt_kind k (fetch, load, store, AMO, PTW); reset 0x1F */
#define MT_REG_TAP         0x01C /* RW  [0] 0 = core tap, 1 = dram tap; reset 0 */
#define MT_REG_FMT         0x020 /* RW  [1:0] burst format, [5:4] span format (MT_FMT_*); reset 0x10 */
#define MT_REG_SYNC_PERIOD 0x024 /* RW  bytes between SYNCs, [13:0], clamped to 64..8192; reset 4096 */
#define MT_REG_RATE_H      0x028 /* RW  burst cycles/sample, 32 bits, 0 reads back as 1; reset 24 */
#define MT_REG_RATE_L      0x02C /* RW  span cycles/sample; reset 2048 */
#define MT_REG_LEN_H_LO    0x030 /* RW  burst length in cycles [31:0]; reset 1e9 (0x3B9ACA00) */
#define MT_REG_LEN_H_HI    0x034 /* RW  burst length [39:32] in [7:0]; reset 0 */
#define MT_REG_LEN_L_LO    0x038 /* RW  span length in cycles [31:0]; reset 1e10 low (0x540BE400) */
#define MT_REG_LEN_L_HI    0x03C /* RW  span length [39:32] in [7:0]; reset 0x02 */
#define MT_REG_MARKER      0x040 /* WO  write: emit a MARKER packet carrying the 32-bit value */
#define MT_REG_DROPPED     0x044 /* RO  samples dropped since enable (saturates at 0xFFFFFFFF) */
#define MT_REG_SAMPLES_LO  0x048 /* RO  samples reported since enable [31:0] (reading LO latches HI) */
#define MT_REG_SAMPLES_HI  0x04C /* RO  [47:32] in [15:0] */
#define MT_REG_BYTES_LO    0x050 /* RO  packet bytes written into the FIFO since enable [31:0] (latches HI) */
#define MT_REG_BYTES_HI    0x054 /* RO  [47:32] in [15:0] */
#define MT_REG_CYCLE_LO    0x058 /* RO  current cycle [31:0] (reading LO latches HI) */
#define MT_REG_CYCLE_HI    0x05C /* RO  [63:32] */
#define MT_REG_SPATIAL     0x060 /* RW  [0] spatial mode, [12:8] log2 N (0..16, larger reads 16): latched at enable; reset 0 */
#define MT_REG_REDUCE      0x064 /* RW  [0] reduce mode, [12:8] log2 of the budget in 4 KiB pages (0..10, larger reads 10): latched at enable; reset 0 */

#define MT_ID_VALUE      0x4D545455u /* "MTTU" */
#define MT_VERSION_VALUE 0x00010000u /* 1.0 */

/* SPATIAL (docs/trace-unit.md "Spatial mode"; lib/mt_unit_spatial.h) */
#define MT_SPATIAL_EN         (1u << 0)
#define MT_SPATIAL_LG2N_SHIFT 8
#define MT_SPATIAL_LG2N_MAX   16u

/* REDUCE (docs/trace-unit.md "Reduce mode"; lib/mt_unit_reduce.h): B = 4 KiB << LGK */
#define MT_REDUCE_EN        (1u << 0)
#define MT_REDUCE_LGK_SHIFT 8
#define MT_REDUCE_LGK_MAX   10u

/* CTRL */
#define MT_CTRL_ENABLE   (1u << 0) /* 1: start a session (accepted only when STATUS.BUSY = 0); 0: stop */

/* STATUS */
#define MT_STATUS_ACTIVE      (1u << 0) /* sampling (between enable and disable) */
#define MT_STATUS_BUSY        (1u << 1) /* session not finished: ACTIVE, or END not yet written */
#define MT_STATUS_FIFO_EMPTY  (1u << 2)
#define MT_STATUS_OVERFLOWED  (1u << 3) /* sticky: a sample was dropped since enable */
#define MT_STATUS_MARKER_BUSY (1u << 4) /* a MARKER is pending; a MARKER write now is lost */
#define MT_STATUS_MARKER_LOST (1u << 5) /* sticky: a MARKER write was ignored since enable */
#define MT_STATUS_ERR_ORDER   (1u << 6) /* sticky (model only): an access broke the one-per-cycle, in-order contract */
#define MT_STATUS_SPAN        (1u << 7) /* current section: 0 burst, 1 span */

/* Formats (FMT register fields, SECTION packet) */
#define MT_FMT_48   0u /* seed 48-bit: R/W at 47, PPN[2:0] (addr[55:12]) at 43:0 */
#define MT_FMT_32   1u /* seed 32-bit: R/W at 31, PPN[2] (addr[55:30]) at 25:0 */
#define MT_FMT_FULL 2u /* 56-bit byte address + R/W */
#define MT_FMT_LINE 3u /* addr[55:6] (64-byte line) + R/W */

#define MT_FMT_H_SHIFT 0
#define MT_FMT_L_SHIFT 4
#define MT_FMT_FIELD_MASK 0x3u

/* Reset values */
#define MT_RESET_KIND_MASK   0x1Fu
#define MT_RESET_TAP         0u
#define MT_RESET_FMT         0x10u
#define MT_RESET_SYNC_PERIOD 4096u
#define MT_RESET_RATE_H      24u
#define MT_RESET_RATE_L      2048u
#define MT_RESET_LEN_H_LO    0x3B9ACA00u
#define MT_RESET_LEN_H_HI    0x00u
#define MT_RESET_LEN_L_LO    0x540BE400u
#define MT_RESET_LEN_L_HI    0x02u

#define MT_SYNC_PERIOD_MIN 64u
#define MT_SYNC_PERIOD_MAX 8192u
#define MT_MAX_PACKET      16u /* bytes; also the FIFO write-port width */

#endif
