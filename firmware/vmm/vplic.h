/* The guest's interrupt controller: a virtual PLIC (SiFive PLIC register layout) at
 * guest-physical VPLIC_GPA with one context, hart 0's supervisor (VS) external interrupt, and one
 * wired source, the virtual UART (VUART_IRQ).  Its output is hvip.VSEIP, which hideleg hands to
 * the guest as its supervisor external interrupt.  Sources are level-triggered through the
 * PLIC's gateway: pending while the line is high, cleared by a claim, re-armed by the complete. */
#ifndef VMM_VPLIC_H
#define VMM_VPLIC_H

#include <stdint.h>

#define VPLIC_GPA 0x0c000000UL
#define VPLIC_SIZE 0x600000UL
#define VPLIC_NDEV 31
#define VUART_IRQ 10

uint32_t vplic_read(uint64_t off);
void vplic_write(uint64_t off, uint32_t v);
/* Re-evaluates the UART's line and the context's output (hvip.VSEIP); after every device access
 * and every poll of the console. */
void vplic_update(void);

#endif
