/* The guest's NS16550A at guest-physical VUART_GPA: a register-level model (byte registers,
 * reg-shift 0) whose transmitter is the host UART and whose receiver is fed from it.  Its
 * interrupt output (received data, transmitter empty, as IER enables them) is source VUART_IRQ of
 * the virtual PLIC (vplic.h). */
#ifndef VMM_VUART_H
#define VMM_VUART_H

#include <stdint.h>

#define VUART_GPA 0x10000000UL
#define VUART_SIZE 0x100UL
#define VUART_CLOCK_HZ 3686400u

uint8_t vuart_read(unsigned reg);
void vuart_write(unsigned reg, uint8_t v);
/* The UART's interrupt output: an enabled condition is pending (what IIR would report). */
int vuart_irq_line(void);

#endif
