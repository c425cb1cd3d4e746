/* 16550-compatible UART (the `virt` platform's ns16550a at 0x1000_0000): polled, no interrupts. */
#ifndef RT_UART_H
#define RT_UART_H

#include <stdint.h>

#define UART_VIRT_BASE 0x10000000u

/* Programs 8N1 with FIFOs on and interrupts off.  The divisor is left as the boot ROM set it:
 * an emulated UART has no baud rate. */
void uart_init(uintptr_t base);
/* Blocks until the transmit holding register is empty, then sends one byte. */
void uart_putc(uintptr_t base, char c);
/* Blocks until a byte has arrived and returns it. */
int uart_getc(uintptr_t base);

#endif
