/* NS16550A UART (QEMU virt: 0x1000_0000, PLIC source 10, byte registers).  Output goes to a
 * FILE (stdout); input is read from a file descriptor (stdin) without blocking when the bus polls. */
#ifndef EMU_UART_H
#define EMU_UART_H

#include <stdio.h>

#include "emu/platform/bus.h"
#include "emu/devices/plic.h"

#define UART_BASE UINT64_C(0x10000000)
#define UART_SIZE UINT64_C(0x100)
#define UART_IRQ 10
#define UART_RX_BUF 256

typedef struct {
    mt_plic *plic;
    FILE *out;
    int in_fd; /* -1: no input */
    bool in_eof;
    uint8_t ier, lcr, mcr, scr, fcr, dll, dlm;
    bool thr_ipending;
    uint8_t rx[UART_RX_BUF];
    unsigned rx_head, rx_count;
    /* Console escapes on input read from in_fd (emu/devices/console.h): Ctrl-A x calls on_quit. */
    bool escape_pending;
    void (*on_quit)(void *ctx);
    void *quit_ctx;
} mt_uart;

mt_device uart_device(mt_uart *uart, mt_plic *plic, FILE *out, int in_fd);
/* Queues input bytes (tests, or the poll of in_fd). */
void uart_push_input(mt_uart *uart, const uint8_t *bytes, unsigned n);
/* Takes console escapes (Ctrl-A x / Ctrl-A Ctrl-A / Ctrl-A h) out of bytes read from in_fd, as
 * QEMU's -nographic does; returns how many bytes are left for the guest, compacted in place. */
unsigned uart_filter_escapes(mt_uart *uart, uint8_t *bytes, unsigned n);

#endif
