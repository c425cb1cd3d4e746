/* The host terminal as the guest's serial console, as QEMU's -nographic does it: while the
 * guest runs, a terminal on standard input is in raw mode (every key, Ctrl-C included, goes to
 * the guest; no local echo) and it is restored afterwards. The escape key is Ctrl-A, handled by
 * the UART's input path (emu/devices/uart.c): Ctrl-A x quits, Ctrl-A Ctrl-A sends one Ctrl-A, Ctrl-A h
 * lists the keys. */
#ifndef EMU_CONSOLE_H
#define EMU_CONSOLE_H

#include <stdbool.h>
#include <termios.h>

typedef struct {
    int fd;
    bool raw; /* fd is a terminal that console_begin switched to raw mode */
    struct termios saved;
} mt_console;

/* Raw mode on fd when it is a terminal; otherwise nothing (pipes and files stay as they are). */
void console_begin(mt_console *c, int fd);
/* Restores what console_begin changed. */
void console_end(mt_console *c);

#endif
