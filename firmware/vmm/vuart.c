#include "vuart.h"

#include "console.h"

enum { RBR_THR = 0, IER = 1, IIR_FCR = 2, LCR = 3, MCR = 4, LSR = 5, MSR = 6, SCR = 7 };
enum { LCR_DLAB = 0x80, IER_ERBFI = 0x01, IER_ETBEI = 0x02, FCR_ENABLE = 0x01, FCR_CLEAR_RX = 0x02 };
enum { LSR_DR = 0x01, LSR_THRE = 0x20, LSR_TEMT = 0x40 };
enum { IIR_NONE = 0x01, IIR_THRI = 0x02, IIR_RDI = 0x04, IIR_FIFO = 0xc0 };
enum { MSR_CTS = 0x10, MSR_DSR = 0x20, MSR_DCD = 0x80, MCR_LOOP = 0x10 };

static struct {
    uint8_t ier, lcr, mcr, scr, dll, dlm, fcr;
    int rx;            /* the received byte waiting in RBR, or -1 */
    int thr_pending;   /* "transmitter empty" interrupt condition, until IIR reports it or THR is written */
} u = {.rx = -1, .dll = 1};

static int rx_ready(void)
{
    if (u.rx < 0 && !(u.mcr & MCR_LOOP))
        u.rx = con_getc();
    return u.rx >= 0;
}

int vuart_irq_line(void)
{
    return ((u.ier & IER_ERBFI) && rx_ready()) || ((u.ier & IER_ETBEI) && u.thr_pending);
}

uint8_t vuart_read(unsigned reg)
{
    switch (reg) {
    case RBR_THR: {
        if (u.lcr & LCR_DLAB)
            return u.dll;
        int c = rx_ready() ? u.rx : 0;
        u.rx = -1;
        return (uint8_t)c;
    }
    case IER:
        return (u.lcr & LCR_DLAB) ? u.dlm : u.ier;
    case IIR_FCR: {
        uint8_t fifo = (u.fcr & FCR_ENABLE) ? IIR_FIFO : 0;
        if ((u.ier & IER_ERBFI) && rx_ready())
            return fifo | IIR_RDI;
        if ((u.ier & IER_ETBEI) && u.thr_pending) {
            u.thr_pending = 0; /* reading IIR clears a THRE condition it reports */
            return fifo | IIR_THRI;
        }
        return fifo | IIR_NONE;
    }
    case LCR: return u.lcr;
    case MCR: return u.mcr;
    case LSR: return LSR_THRE | LSR_TEMT | (rx_ready() ? LSR_DR : 0); /* transmits at once */
    case MSR: return (u.mcr & MCR_LOOP) ? 0 : MSR_DCD | MSR_DSR | MSR_CTS;
    default: return u.scr;
    }
}

void vuart_write(unsigned reg, uint8_t v)
{
    switch (reg) {
    case RBR_THR:
        if (u.lcr & LCR_DLAB) {
            u.dll = v;
        } else {
            if (!(u.mcr & MCR_LOOP))
                con_putc((char)v);
            else
                u.rx = v;
            u.thr_pending = 1; /* sent at once: the holding register is empty again */
        }
        break;
    case IER:
        if (u.lcr & LCR_DLAB) {
            u.dlm = v;
        } else {
            if ((v & IER_ETBEI) && !(u.ier & IER_ETBEI))
                u.thr_pending = 1; /* enabling it with THR empty raises the condition */
            u.ier = v & 0x0f;
        }
        break;
    case IIR_FCR:
        u.fcr = v & FCR_ENABLE;
        if (v & FCR_CLEAR_RX)
            u.rx = -1;
        break;
    case LCR: u.lcr = v; break;
    case MCR: u.mcr = v & 0x1f; break;
    case SCR: u.scr = v; break;
    default: break; /* LSR, MSR: read-only */
    }
}
