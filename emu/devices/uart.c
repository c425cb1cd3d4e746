#include "emu/devices/uart.h"

#include <poll.h>
#include <string.h>
#include <unistd.h>

enum { LSR_DR = 0x01, LSR_THRE = 0x20, LSR_TEMT = 0x40 };
enum { IER_RDI = 0x01, IER_THRI = 0x02 };
enum { LCR_DLAB = 0x80 };

static void update_irq(mt_uart *u)
{
    bool rx = (u->ier & IER_RDI) && u->rx_count > 0;
    bool tx = (u->ier & IER_THRI) && u->thr_ipending;
    if (u->plic)
        plic_set_irq(u->plic, UART_IRQ, rx || tx);
}

void uart_push_input(mt_uart *u, const uint8_t *bytes, unsigned n)
{
    for (unsigned i = 0; i < n && u->rx_count < UART_RX_BUF; i++) {
        u->rx[(u->rx_head + u->rx_count) % UART_RX_BUF] = bytes[i];
        u->rx_count++;
    }
    update_irq(u);
}

static bool uart_read(void *ctx, uint64_t off, unsigned size, uint64_t *val)
{
    mt_uart *u = ctx;
    if (size != 1)
        return false;
    uint8_t v = 0;
    switch (off) {
    case 0:
        if (u->lcr & LCR_DLAB) {
            v = u->dll;
        } else if (u->rx_count) {
            v = u->rx[u->rx_head];
            u->rx_head = (u->rx_head + 1) % UART_RX_BUF;
            u->rx_count--;
        }
        break;
    case 1: v = (u->lcr & LCR_DLAB) ? u->dlm : u->ier; break;
    case 2:
        if ((u->ier & IER_RDI) && u->rx_count)
            v = 0x04;
        else if ((u->ier & IER_THRI) && u->thr_ipending) {
            v = 0x02;
            u->thr_ipending = false; /* reading IIR acknowledges the THR-empty interrupt */
        } else
            v = 0x01;
        if (u->fcr & 1)
            v |= 0xc0;
        break;
    case 3: v = u->lcr; break;
    case 4: v = u->mcr; break;
    case 5: v = LSR_THRE | LSR_TEMT | (u->rx_count ? LSR_DR : 0); break;
    case 6: v = 0xb0; break; /* DCD, DSR, CTS */
    case 7: v = u->scr; break;
    default: v = 0; break;
    }
    *val = v;
    update_irq(u);
    return true;
}

static bool uart_write(void *ctx, uint64_t off, unsigned size, uint64_t val)
{
    mt_uart *u = ctx;
    if (size != 1)
        return false;
    uint8_t v = (uint8_t)val;
    switch (off) {
    case 0:
        if (u->lcr & LCR_DLAB) {
            u->dll = v;
        } else {
            fputc(v, u->out);
            if (v == '\n')
                fflush(u->out);
            u->thr_ipending = true; /* transmitted at once: the holding register is empty again */
        }
        break;
    case 1:
        if (u->lcr & LCR_DLAB) {
            u->dlm = v;
        } else {
            if (!(u->ier & IER_THRI) && (v & IER_THRI))
                u->thr_ipending = true;
            u->ier = v & 0x0f;
        }
        break;
    case 2:
        u->fcr = v;
        if (v & 2) { /* clear the receive FIFO */
            u->rx_count = 0;
            u->rx_head = 0;
        }
        break;
    case 3: u->lcr = v; break;
    case 4: u->mcr = v & 0x1f; break;
    case 7: u->scr = v; break;
    default: break;
    }
    update_irq(u);
    return true;
}

#define CONSOLE_ESCAPE 0x01 /* Ctrl-A */

unsigned uart_filter_escapes(mt_uart *u, uint8_t *bytes, unsigned n)
{
    unsigned kept = 0;
    for (unsigned i = 0; i < n; i++) {
        uint8_t b = bytes[i];
        if (!u->escape_pending) {
            if (b == CONSOLE_ESCAPE)
                u->escape_pending = true;
            else
                bytes[kept++] = b;
            continue;
        }
        u->escape_pending = false;
        switch (b) {
        case CONSOLE_ESCAPE: bytes[kept++] = b; break; /* Ctrl-A Ctrl-A: one Ctrl-A to the guest */
        case 'x': case 'X':
            fprintf(stderr, "\r\nmtemu: terminated (Ctrl-A x)\r\n");
            if (u->on_quit)
                u->on_quit(u->quit_ctx);
            return kept;
        case 'h': case 'H':
            fprintf(stderr, "\r\nC-a h    this help\r\nC-a x    quit mtemu\r\nC-a C-a  send C-a to the guest\r\n");
            break;
        default: break; /* unknown escapes are swallowed, as in QEMU */
        }
    }
    return kept;
}

static void uart_poll(void *ctx)
{
    mt_uart *u = ctx;
    fflush(u->out);
    if (u->in_fd < 0 || u->in_eof || u->rx_count >= UART_RX_BUF)
        return;
    struct pollfd pfd = {.fd = u->in_fd, .events = POLLIN};
    if (poll(&pfd, 1, 0) <= 0 || !(pfd.revents & (POLLIN | POLLHUP)))
        return;
    uint8_t buf[UART_RX_BUF];
    ssize_t n = read(u->in_fd, buf, UART_RX_BUF - u->rx_count);
    if (n <= 0) {
        u->in_eof = true;
        return;
    }
    unsigned kept = uart_filter_escapes(u, buf, (unsigned)n);
    if (kept)
        uart_push_input(u, buf, kept);
}

mt_device uart_device(mt_uart *u, mt_plic *plic, FILE *out, int in_fd)
{
    memset(u, 0, sizeof *u);
    u->plic = plic;
    u->out = out;
    u->in_fd = in_fd;
    return (mt_device){.name = "uart", .base = UART_BASE, .size = UART_SIZE, .ctx = u,
                       .read = uart_read, .write = uart_write, .poll = uart_poll};
}
