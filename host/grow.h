/* Growing the arrays of a structure of arrays (one per field, all to the same count), as the
 * policy simulators and the stack algorithms do as their frames and pages fill. */
#ifndef HOST_GROW_H
#define HOST_GROW_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Reallocates the array that *pp points at to n elements of `size` bytes. On failure the array
 * stays as it was (still valid, still owned by the caller) and false is returned. */
static inline bool grow_to(void *pp, size_t n, size_t size)
{
    void *p;
    memcpy(&p, pp, sizeof p);
    p = realloc(p, n * size);
    if (!p)
        return false;
    memcpy(pp, &p, sizeof p);
    return true;
}

/* grow_to for one array field: GROW_ARRAY(s->page, n). */
#define GROW_ARRAY(arr, n) grow_to(&(arr), (n), sizeof *(arr))

#endif
