#include "uart.h"

/* Register offsets (byte-wide registers, stride 1 on `virt`). */
enum {
	UART_RBR_THR = 0,   /* receive buffer / transmit holding */
	UART_IER = 1,       /* interrupt enable */
	UART_FCR = 2,       /* FIFO control (write) */
	UART_LCR = 3,       /* line control */
	UART_LSR = 5,       /* line status */
};
enum {
	LSR_DATA_READY = 0x01,
	LSR_THR_EMPTY = 0x20,
	LCR_8N1 = 0x03,
	FCR_ENABLE_AND_CLEAR = 0x07,
};

static inline volatile uint8_t *reg(uintptr_t base, unsigned offset)
{
	return (volatile uint8_t *)(base + offset);
}

void uart_init(uintptr_t base)
{
	*reg(base, UART_IER) = 0;
	*reg(base, UART_LCR) = LCR_8N1;
	*reg(base, UART_FCR) = FCR_ENABLE_AND_CLEAR;
}

void uart_putc(uintptr_t base, char c)
{
	while (!(*reg(base, UART_LSR) & LSR_THR_EMPTY))
		;
	*reg(base, UART_RBR_THR) = (uint8_t)c;
}

int uart_getc(uintptr_t base)
{
	while (!(*reg(base, UART_LSR) & LSR_DATA_READY))
		;
	return *reg(base, UART_RBR_THR);
}
