/* hello: console output through the UART and exit code 0 through the finisher. */
#include "diff.h"
int main(void)
{
    puts_("Hello from metatrace's differential test!\n");
    put_kv("mhartid", csr_read(mhartid));
    put_kv("misa.mxl", csr_read(misa) >> 62);
    return 0;
}
