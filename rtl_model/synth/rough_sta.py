#!/usr/bin/env python3
# rough_sta.py: a rough static timing pass over yosys' mapped iCE40 netlist (the JSON that
# run_synth.sh writes), with UP5K-like unit delays (LUT 0.9 ns + 2.2 ns of routing, carry 0.3 ns a
# bit).  nextpnr 0.4 reports only the worst path; this lists every endpoint over a period, grouped
# by register, so a pipelining step can be aimed at all of them.  It tracked nextpnr's worst path
# within about 10 % on this design; placement is not modelled.
#   rough_sta.py NETLIST.json TOP [PERIOD_NS [GROUPS]]      TRACE=name: also the worst path to it
import json, sys, re, collections
j = json.load(open(sys.argv[1]))
top = [m for m in j['modules'].values() if m.get('attributes', {}).get('top')]
mod = top[0] if top else j['modules'][sys.argv[2]]
cells = mod['cells']
names = {}
for n, d in mod['netnames'].items():
    for i, b in enumerate(d['bits']):
        score = (('SB_' in n) + ('$' in n), len(n))
        if isinstance(b, int) and (b not in names or score < names[b][0]):
            names[b] = (score, f"{n}[{i}]")
ROUTE, LUT, CQ, CARRY, SETUP = 2.2, 0.9, 1.4, 0.3, 1.2
driver = {}
for cn, c in cells.items():
    for p, d in c['port_directions'].items():
        if d == 'output':
            for b in c['connections'][p]:
                if isinstance(b, int): driver[b] = (cn, p)
arr = {}
seqtypes = ('SB_DFF', 'SB_RAM40', 'SB_MAC16', 'SB_IO', 'SB_GB', 'SB_SPRAM')
def is_seq(t): return t.startswith(seqtypes)
sys.setrecursionlimit(100000)
def at(b, via_carry=False):
    if not isinstance(b, int): return 0.0
    if b in arr: return arr[b]
    if b not in driver: arr[b] = 0.0; return 0.0
    cn, p = driver[b]; c = cells[cn]; t = c['type']
    if is_seq(t):
        v = CQ
    elif t == 'SB_LUT4':
        v = 0.0
        for ip in ('I0', 'I1', 'I2', 'I3'):
            for bb in c['connections'].get(ip, []):
                if not isinstance(bb, int): continue
                src = driver.get(bb)
                r = 0.0 if (src and cells[src[0]]['type'] == 'SB_CARRY' and ip == 'I3') else ROUTE
                v = max(v, at(bb) + r)
        v += LUT
    elif t == 'SB_CARRY':
        v = 0.0
        for bb in c['connections'].get('CI', []):
            v = max(v, at(bb) + CARRY)
        for ip in ('I0', 'I1'):
            for bb in c['connections'].get(ip, []):
                v = max(v, at(bb) + ROUTE + 0.6)
    else:
        v = 0.0
        for ip, d in c['port_directions'].items():
            if d == 'input':
                for bb in c['connections'][ip]: v = max(v, at(bb) + ROUTE)
    arr[b] = v
    return v
ends = []
for cn, c in cells.items():
    t = c['type']
    if not is_seq(t) or t.startswith(('SB_IO', 'SB_GB')): continue
    for p, d in c['port_directions'].items():
        if d != 'input' or p in ('C', 'CLK', 'RCLK', 'WCLK', 'CLKE', 'RCLKE', 'WCLKE'): continue
        for b in c['connections'][p]:
            if isinstance(b, int):
                q = c['connections'].get('Q', [None])[0]
                src = c.get('attributes', {}).get('src', '')
                src = '|'.join(x.split('/')[-1] for x in src.split('|') if 'mt_tu' in x and 'sg48' not in x)
                nm = (names.get(q, (0, cn))[1].split('_SB_')[0] + ' @' + src) if t.startswith('SB_DFF') else cn.split('.mem')[0] + '.' + p
                ends.append((at(b) + ROUTE + SETUP, nm, p))
lim = float(sys.argv[3]) if len(sys.argv) > 3 else 20.83
bad = [e for e in ends if e[0] > lim]
print(f"endpoints {len(ends)}, failing at {lim} ns: {len(bad)}; worst {max(ends)[0]:.1f} ns")
g = collections.defaultdict(list)
for a, nm, p in bad:
    key = re.sub(r'\[\d+\]', '', nm)
    g[key].append(a)
for k, v in sorted(g.items(), key=lambda kv: -max(kv[1]))[:int(sys.argv[4]) if len(sys.argv) > 4 else 60]:
    print(f"{max(v):6.1f} {len(v):4d} {k}")
# worst path trace
def pred(b):
    cn, p = driver[b]; c = cells[cn]; t = c['type']
    best = None
    if is_seq(t): return None
    for ip, d in c['port_directions'].items():
        if d != 'input': continue
        for bb in c['connections'][ip]:
            if isinstance(bb, int) and bb in driver:
                if best is None or arr.get(bb, 0) > arr.get(best, 0): best = bb
    return best
import os
want = os.environ.get('TRACE')
if want:
    cand = [(at(b), b, cn) for cn, c in cells.items() if is_seq(c['type']) for p, d in c['port_directions'].items() if d == 'input' for b in c['connections'][p] if isinstance(b, int) and want in (names.get(c['connections'].get('Q',[None])[0], (0,''))[1] + cn)]
    a, b, cn = max(cand)
    print('trace to', cn[:80], f"{a:.1f}")
    while b is not None and b in driver:
        dc, dp = driver[b]
        print(f"  {arr.get(b,0):5.1f} {cells[dc]['type']:10s} {names.get(b,(0,str(b)))[1][:100]}")
        b = pred(b)
