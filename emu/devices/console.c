#include "emu/devices/console.h"

#include <unistd.h>

void console_begin(mt_console *c, int fd)
{
    c->fd = fd;
    c->raw = false;
    if (fd < 0 || !isatty(fd) || tcgetattr(fd, &c->saved) != 0)
        return;
    struct termios t = c->saved;
    /* Keys go to the guest unprocessed: no line editing, echo, signals or flow control, and
     * Enter arrives as CR as on a serial line. Output processing stays on, so bare-metal
     * programs that print "\n" alone still start their lines at the left margin. */
    t.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ECHONL | ISIG | IEXTEN);
    t.c_iflag &= ~(tcflag_t)(ICRNL | INLCR | IGNCR | IXON | IXOFF | ISTRIP | BRKINT);
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    if (tcsetattr(fd, TCSANOW, &t) == 0)
        c->raw = true;
}

void console_end(mt_console *c)
{
    if (c->raw)
        tcsetattr(c->fd, TCSANOW, &c->saved);
    c->raw = false;
}
