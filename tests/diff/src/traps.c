/* traps: synchronous exceptions seen by an M-mode handler, in the order they happen: ecall from
 * M and from U, ebreak and c.ebreak, illegal instructions (an all-zero word, a CSR that does
 * not exist, an M CSR from U), with mcause and mepc (as an offset from the start of main's
 * code) printed for each; mtval only where the spec fixes it (0 for ecall). */
#include "diff.h"

int main(void);
static volatile uint64_t resume_pc, traps;
extern char u_code[], u_after[];

void diff_trap(uint64_t *frame)
{
    uint64_t cause = csr_read(mcause), epc = frame[0];
    uint64_t mpp = (csr_read(mstatus) >> 11) & 3;
    traps++;
    puts_("trap cause=");
    put_dec((int64_t)cause);
    puts_(" from=");
    put_dec((int64_t)mpp);
    puts_(" epc=main+");
    put_hex(epc - (uint64_t)(uintptr_t)main);
    if (cause == 8 || cause == 9 || cause == 11) {
        puts_(" tval=");
        put_hex(csr_read(mtval));
    }
    putch('\n');
    if (cause == 8) {              /* ecall from U: back to M after the U code */
        frame[0] = resume_pc;
        csr_set(mstatus, 3 << 11);
        return;
    }
    uint16_t lo = *(volatile uint16_t *)(uintptr_t)epc;
    frame[0] = epc + ((lo & 3) == 3 ? 4 : 2);   /* skip the instruction */
}

int main(void)
{
    /* PMP: let U-mode reach all memory */
    csr_write(pmpaddr0, -1);
    csr_write(pmpcfg0, 0x1f);
    __asm__ volatile("ecall");
    __asm__ volatile("ebreak");
    __asm__ volatile(".option push\n.option rvc\nc.ebreak\n.option pop");
    __asm__ volatile(".hword 0");          /* the all-zero 16-bit word is illegal */
    __asm__ volatile("csrr t0, 0x0ff" ::: "t0");
    /* U-mode: an M CSR, then ecall */
    __asm__ volatile(
        "la t0, 1f\n"
        "sd t0, 0(%0)\n"
        "la t0, u_code\n"
        "csrw mepc, t0\n"
        "li t0, 0x1800\n"
        "csrc mstatus, t0\n"
        "mret\n"
        ".globl u_code\n"
        "u_code: csrr t1, mstatus\n"
        "ecall\n"
        ".globl u_after\n"
        "u_after: j u_after\n"
        "1:\n" ::"r"(&resume_pc) : "t0", "t1", "memory");
    puts_("traps=");
    put_dec((int64_t)traps);
    putch('\n');
    return traps == 7 ? 0 : 1;
}
