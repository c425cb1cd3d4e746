/* The VMM's own output and the end of the run: the host's NS16550A (the guest never touches it;
 * it reaches the console through SBI calls that land here) and the SiFive test finisher. */
#ifndef VMM_CONSOLE_H
#define VMM_CONSOLE_H

#include <stdint.h>

void con_putc(char c);
/* The next byte typed on the console, or -1 when none is waiting. */
int con_getc(void);
void con_puts(const char *s);
void con_hex(uint64_t v); /* "0x" and 16 digits */
void con_dec(uint64_t v);

/* Ends the run: exit status `code` (0 = the finisher's pass). */
void __attribute__((noreturn)) vmm_exit(unsigned code);

#endif
