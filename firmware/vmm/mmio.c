#include "mmio.h"

#include "vplic.h"
#include "vuart.h"

uint64_t mmio_accesses;

/* HLVX.HU: a halfword of guest memory read with execute permission, as the guest (hstatus.SPVP
 * = 1: as VS) would fetch it */
static uint16_t guest_fetch16(uint64_t va)
{
    uint64_t v;
    __asm__ volatile(".insn r 0x73, 0x4, 0x32, %0, %1, x3" : "=r"(v) : "r"(va) : "memory");
    return (uint16_t)v;
}

/* The 32-bit form of the load/store at sepc and its length; 0 when it is none we emulate.  The
 * compressed loads and stores a driver may use (C.LW, C.LD, C.SW, C.SD) are expanded. */
static uint32_t faulting_insn(unsigned *len)
{
    uint64_t tinst, sepc;
    __asm__ volatile("csrr %0, 0x64a" : "=r"(tinst));
    __asm__ volatile("csrr %0, sepc" : "=r"(sepc));
    if (tinst != 0) { /* transformed: bit 1 clear for a compressed original */
        *len = (tinst & 2) ? 4 : 2;
        return (uint32_t)tinst | 3;
    }
    uint32_t lo = guest_fetch16(sepc);
    if ((lo & 3) == 3) {
        *len = 4;
        return lo | (uint32_t)guest_fetch16(sepc + 2) << 16;
    }
    *len = 2;
    unsigned op = lo >> 13, quad = lo & 3;
    unsigned rs1 = 8 + ((lo >> 7) & 7), r2 = 8 + ((lo >> 2) & 7);
    if (quad != 0 || (op != 2 && op != 3 && op != 6 && op != 7))
        return 0;
    unsigned funct3 = (op & 1) ? 3 : 2; /* C.LD/C.SD : C.LW/C.SW */
    /* the offset does not matter: the faulting address is in htval/stval already */
    if (op < 4)
        return 0x03 | r2 << 7 | funct3 << 12 | rs1 << 15;
    return 0x23 | funct3 << 12 | rs1 << 15 | r2 << 20;
}

/* The value a load of width funct3 sees: sign- or zero-extended as the instruction says. */
static uint64_t extend(uint64_t v, unsigned funct3)
{
    switch (funct3) {
    case 0: return (uint64_t)(int64_t)(int8_t)v;
    case 1: return (uint64_t)(int64_t)(int16_t)v;
    case 2: return (uint64_t)(int64_t)(int32_t)v;
    case 4: return (uint8_t)v;
    case 5: return (uint16_t)v;
    case 6: return (uint32_t)v;
    default: return v;
    }
}

int mmio_emulate(uint64_t *frame, uint64_t cause, uint64_t gpa)
{
    int uart = gpa >= VUART_GPA && gpa < VUART_GPA + VUART_SIZE;
    int plic = gpa >= VPLIC_GPA && gpa < VPLIC_GPA + VPLIC_SIZE;
    if ((!uart && !plic) || (cause != 21 && cause != 23))
        return 0;
    unsigned len;
    uint32_t insn = faulting_insn(&len);
    unsigned opcode = insn & 0x7f, funct3 = (insn >> 12) & 7, rd = (insn >> 7) & 31, rs2 = (insn >> 20) & 31;
    if (cause == 21 && opcode == 0x03) {
        uint64_t v = uart ? (gpa - VUART_GPA < 8 ? vuart_read((unsigned)(gpa - VUART_GPA)) : 0)
                          : vplic_read((gpa - VPLIC_GPA) & ~3UL);
        if (rd != 0)
            frame[rd] = extend(v, funct3);
    } else if (cause == 23 && opcode == 0x23) {
        if (uart && gpa - VUART_GPA < 8)
            vuart_write((unsigned)(gpa - VUART_GPA), (uint8_t)frame[rs2]);
        else if (plic)
            vplic_write((gpa - VPLIC_GPA) & ~3UL, (uint32_t)frame[rs2]);
    } else {
        return 0;
    }
    vplic_update(); /* the UART's line may have changed */
    mmio_accesses++;
    uint64_t sepc;
    __asm__ volatile("csrr %0, sepc" : "=r"(sepc));
    __asm__ volatile("csrw sepc, %0" ::"r"(sepc + len));
    return 1;
}
