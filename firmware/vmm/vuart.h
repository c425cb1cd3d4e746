/* The guest's NS16550A at guest-physical VUART_GPA: a register-level model (byte registers,
 * reg-shift 0) whose transmitter is the host UART and whose receiver is fed from it.  It has no
 * interrupt line (the guest's tree lists none, so Linux's 8250 driver polls it), but IIR reports
 * the interrupt conditions as a 16550A does, which is what the polling driver reads. */
#ifndef VMM_VUART_H
#define VMM_VUART_H

#include <stdint.h>

#define VUART_GPA 0x10000000UL
#define VUART_SIZE 0x100UL
#define VUART_CLOCK_HZ 3686400u

uint8_t vuart_read(unsigned reg);
void vuart_write(unsigned reg, uint8_t v);

#endif
