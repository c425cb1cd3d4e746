#include "host/sizecalc.h"

#include <math.h>

void size_defaults(size_params *p)
{
    p->t = 30;
    p->s_ref = 1e9;
    p->s_h = 1;
    p->s_l = 10;
    p->r_h = 24;
    p->r_l = 2048;
    p->b_h = 6;
    p->b_l = 4;
}

double size_formula(const size_params *p)
{
    return p->s_ref * p->t / (p->s_h + p->s_l) *
           (p->b_h * p->s_h / p->r_h + p->b_l * p->s_l / p->r_l);
}

void size_exact_split(const size_params *p, double *burst_s, double *span_s)
{
    double period = p->s_h + p->s_l;
    double whole = floor(p->t / period);
    double rest = p->t - whole * period;
    double b = whole * p->s_h + (rest < p->s_h ? rest : p->s_h);
    double l = whole * p->s_l + (rest > p->s_h ? rest - p->s_h : 0);
    *burst_s = b;
    *span_s = l;
}

double size_exact(const size_params *p)
{
    double b, l;
    size_exact_split(p, &b, &l);
    return p->s_ref * (b * p->b_h / p->r_h + l * p->b_l / p->r_l);
}
