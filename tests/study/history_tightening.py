# A rule not in perfgate, tried offline on a two-GPU study's results: the history's runs of a
# device tightening a check's allowance, not only widening it (docs/performance.md, "Two H200s of
# a host the rule was not chosen on"). For each check, with at least MIN_RUNS runs of its case on
# its GPU in the history before it:
#   allowed = min(today's allowance, max(the history's own allowance,
#                 max(0, history level - baseline) + noise_factor x the 90% bound of the sigma
#                 pooled over the baseline's runs of the GPU and the history's runs))
# and counts first measurements past it, A/A and slowed, today and under the rule.
#
#   python3 tests/study/history_tightening.py DIR [MIN_RUNS]
#
# DIR: tests/study/multi_gpu_h200.sh's call folders c1, c2, c3 (c1/baselines the proposal; the
# ctest-*/ and aa*-*.json A/A results, slowed*.json the slowed build's checks). EXCHANGE=1: every
# other A/A run of the GPU is the history (A/A runs taken as exchangeable in time), as a CI's
# history would hold by the time a slowdown lands.
import json, glob, collections, statistics as st, math, yaml, sys
def chi2_q(p, k):  # Wilson-Hilferty
    z = {0.1: -1.2815515655446004}[p]
    return k * (1 - 2/(9*k) + z*math.sqrt(2/(9*k)))**3
def upper(n):  # sigma_upper_factor(n, 0.9): df = n-1
    df = n - 1
    return math.sqrt(df / chi2_q(0.1, df))
def series_noise(vals):
    logs = [math.log(v) for v in vals]
    steps = sorted(abs(b - a) for a, b in zip(logs, logs[1:]))
    pos = 0.75 * (len(steps) - 1); lo = int(pos); fr = pos - lo
    q = steps[lo] * (1 - fr) + steps[lo + 1] * fr if lo + 1 < len(steps) else steps[lo]
    return 100 * math.expm1(q / (1.1503 * math.sqrt(2)))
root = sys.argv[1]; min_runs = int(sys.argv[2]) if len(sys.argv) > 2 else 10
# EXCHANGE=1: every other A/A run of the device is the history (A/A runs taken as exchangeable in time)
import os; exchange = os.environ.get('EXCHANGE') == '1'
base = {}
for f in glob.glob(f'{root}/c1/baselines/*.yaml'):
    for cid, c in yaml.safe_load(open(f))['cases'].items():
        if isinstance(c, dict) and 'runs' in c:
            per = collections.defaultdict(list)
            for r, g in zip(c['runs']['latency_ns'], c['run_devices']): per[g].append(st.median(r))
            base[cid] = per
hist = []  # (time, case, device, latency median)
checks = []
for f in sorted(glob.glob(f'{root}/c*/ctest-*/*.json') + glob.glob(f'{root}/c*/aa*-*.json') + glob.glob(f'{root}/c*/slowed*.json')):
    d = json.load(open(f))
    kind = 'slowed' if '/slowed' in f else 'aa'
    for c in d['cases']:
        j = [j for j in c['judgements'] if j['metric'] == 'latency_ns']
        if not j: continue
        j = j[0]
        checks.append((d['started_at'], kind, f, c['id'], c['device_uuid'], j))
        if kind == 'aa': hist.append((d['started_at'], c['id'], c['device_uuid'], j['current_median']))
hist.sort()
count = collections.Counter(); tighter = []
for t, kind, f, cid, g, j in checks:
    prior = [v for (ht, hc, hg, v) in hist if hc == cid and hg == g and (ht < t or (exchange and not (ht == t and v == j['current_median'])))][-60:]
    a0 = j['threshold_pct']; a = a0
    if len(prior) >= min_runs and cid in base and g in base[cid]:
        b = base[cid][g]; nb = len(b); sb = st.stdev(b) / st.mean(b) * 100
        nh = len(prior); sh = series_noise(prior)
        h_allow = 4 * sh * upper(nh)
        med = st.median(prior); apart = sorted((abs(v / med - 1) * 100 for v in prior), reverse=True)[1]
        h_allow = max(h_allow, 1.5 * apart)
        sc = math.sqrt(((nb - 1) * sb**2 + (nh - 1) * sh**2) / (nb + nh - 2))
        offset = (med / j['baseline_median'] - 1) * 100
        a = min(a0, max(h_allow, max(0, offset) + 4 * sc * upper(nb + nh - 1)))
        tighter.append(a / a0)
    past0 = j['change_pct'] > a0; past = j['change_pct'] > a
    count[(kind, 'checks')] += 1; count[(kind, 'past now')] += past0; count[(kind, 'past tightened')] += past
    if kind == 'slowed' or (past and not past0):
            print(kind, cid[:34], g[:8], 'change %.3f' % j['change_pct'], 'now %.3f' % a0, 'tightened %.3f' % a, 'prior runs', len(prior))
print(dict(count))
if tighter: print('allowance tightened/now: median %.2f over %d checks with >= %d prior runs' % (st.median(tighter), len(tighter), min_runs))
