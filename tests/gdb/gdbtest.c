/* The guest of tests/gdb/test_gdb.sh: small functions to break in, globals to print and watch,
 * and with -smp 2 a second hart counting until the first is done.  Built -O0 -g so that gdb
 * sees every variable; spin_forever keeps it running for an interrupt (Ctrl-C) test.  Exits through the sifive,test0 finisher: 0 when counter ends at 55. */
typedef unsigned int uint32_t;

volatile unsigned long counter;  /* 1 + 2 + ... + 10 at the end */
volatile unsigned long watched;  /* written by tick, read by reader */
volatile unsigned long hart1_count;
volatile int done;
volatile int spin_forever;  /* set by a test to keep hart 0 busy until it is interrupted */
volatile unsigned long spins;
unsigned long table[4] = {0x1111, 0x2222, 0x3333, 0x4444};

void tick(unsigned long i)
{
    counter += i;
    watched = counter * 2;
}

unsigned long reader(void)
{
    return watched + 1;
}

static void finish(unsigned code)
{
    *(volatile uint32_t *)0x100000 = code == 0 ? 0x5555 : (code << 16) | 0x3333;
    for (;;)
        ;
}

void gdbtest_main(unsigned long hartid)
{
    if (hartid != 0) {
        while (!done)
            hart1_count++;
        for (;;)
            __asm__ volatile("wfi");
    }
    unsigned long sum = 0;
    for (unsigned long i = 1; i <= 10; i++) {
        tick(i);
        sum += reader();
    }
    for (volatile int k = 0; k < 3000; k++) /* long enough for hart 1 to get turns (-smp 2) */
        ;
    while (spin_forever)
        spins++;
    done = 1;
    finish(counter == 55 && sum > 0 ? 0 : 1);
}
