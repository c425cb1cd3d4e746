/* exitcode: a non-zero exit code (42) travels through the test finisher unchanged. */
#include "diff.h"
int main(void)
{
    puts_("exiting with 42\n");
    return 42;
}
