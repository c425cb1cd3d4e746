#include "host/median.h"

#include <math.h>
#include <string.h>

void p2_init(p2_median *m)
{
    memset(m, 0, sizeof *m);
    for (int i = 0; i < 5; i++)
        m->n[i] = i + 1;
    m->np[0] = 1;
    m->np[1] = 2;
    m->np[2] = 3;
    m->np[3] = 4;
    m->np[4] = 5;
    m->dn[0] = 0;
    m->dn[1] = 0.25;
    m->dn[2] = 0.5;
    m->dn[3] = 0.75;
    m->dn[4] = 1;
}

static double parabolic(const p2_median *m, int i, double d)
{
    return m->q[i] + d / (m->n[i + 1] - m->n[i - 1]) *
                         ((m->n[i] - m->n[i - 1] + d) * (m->q[i + 1] - m->q[i]) / (m->n[i + 1] - m->n[i]) +
                          (m->n[i + 1] - m->n[i] - d) * (m->q[i] - m->q[i - 1]) / (m->n[i] - m->n[i - 1]));
}

static double linear(const p2_median *m, int i, int d)
{
    return m->q[i] + d * (m->q[i + d] - m->q[i]) / (m->n[i + d] - m->n[i]);
}

void p2_add(p2_median *m, double x)
{
    if (m->count < 5) {
        /* insertion into the sorted first five */
        int i = (int)m->count;
        while (i > 0 && m->q[i - 1] > x) {
            m->q[i] = m->q[i - 1];
            i--;
        }
        m->q[i] = x;
        m->count++;
        return;
    }
    int k;
    if (x < m->q[0]) {
        m->q[0] = x;
        k = 0;
    } else if (x >= m->q[4]) {
        m->q[4] = x;
        k = 3;
    } else {
        k = 0;
        while (k < 3 && x >= m->q[k + 1])
            k++;
    }
    for (int i = k + 1; i < 5; i++)
        m->n[i] += 1;
    for (int i = 0; i < 5; i++)
        m->np[i] += m->dn[i];
    for (int i = 1; i <= 3; i++) {
        double d = m->np[i] - m->n[i];
        if ((d >= 1 && m->n[i + 1] - m->n[i] > 1) || (d <= -1 && m->n[i - 1] - m->n[i] < -1)) {
            int s = d >= 0 ? 1 : -1;
            double q = parabolic(m, i, s);
            if (!(m->q[i - 1] < q && q < m->q[i + 1]))
                q = linear(m, i, s);
            m->q[i] = q;
            m->n[i] += s;
        }
    }
    m->count++;
}

double p2_value(const p2_median *m)
{
    if (m->count == 0)
        return 0;
    if (m->count <= 5)
        return m->q[(m->count - 1) / 2];
    return m->q[2];
}
