#!/usr/bin/env python3
"""Independent reference implementation ("oracle") of `kstbench analyze`, for differential testing.

Written only from the specification (docs/cli.md "`kstbench analyze`: input and definitions", the
command's --help, and [KST-2026] sections 3.1-3.3 and 4.4), without reading the TypeScript sources.
Standard library only. Every score and mean is computed exactly with fractions.Fraction and
converted to a float only when written, so the oracle's numbers are the correctly rounded values.

Deliberately brute force:
  * knowledge states = every subset of Q closed under the transitive closure of the prerequisites
    (paper eq. 1), found by testing all 2^|Q| subsets;
  * outer fringe K^O = {q in Q \\ K : K + {q} is a state} (paper eq. 2), by membership test;
  * sign-flip p value = exact proportion of all 2^k sign patterns of the k nonzero state-level
    differences whose |mean| >= |observed mean| (counted exactly in integers, meet in the middle),
    written only when k <= 20. Zero differences do not change a flipped sum, so they cancel.

Usage: kst_analysis.py --domains DIR --responses FILE --out DIR
       kst_analysis.py --cases CASES.json   (a list of {"domains", "responses", "out"}: many analyses, one start)
Writes table1.csv, table3.csv, table4.csv, domain_condition.csv, contrasts.csv
(contrast,metric,estimate,p,k,states,min_diff,max_diff), order_agreement.csv and counts.json.
Bad input: message naming file/line on stderr, exit 1, nothing written.
"""
import argparse
import bisect
import csv
import io
import json
import math
import os
import sys
from fractions import Fraction
from itertools import combinations

CONDITIONS = ['P0', 'P1', 'P2', 'P3']
CONTRASTS = [('P1', 'P0'), ('P2', 'P1'), ('P3', 'P2')]  # later, earlier
CONTRAST_METRICS = ['exact', 'f1']
TABLE3_METRICS = ['exact', 'precision', 'recall', 'f1', 'jaccard']
STATUSES = ('valid', 'invalid', 'missing')
EXACT_P_MAX_K = 20


class InputError(Exception):
    pass


# ---------------------------------------------------------------- domains

def load_domain(path):
    where = path
    try:
        with open(path, encoding='utf-8') as fh:
            raw = json.load(fh)
    except (OSError, ValueError) as err:
        raise InputError(f'{where}: {err}')
    if not isinstance(raw, dict):
        raise InputError(f'{where}: not an object')
    did = raw.get('id')
    comps = raw.get('components')
    pre = raw.get('prerequisites', [])
    if not isinstance(did, str) or not did:
        raise InputError(f'{where}: missing id')
    if not isinstance(comps, list) or not comps:
        raise InputError(f'{where}: empty domain')
    ids = []
    for c in comps:
        if not isinstance(c, dict) or not isinstance(c.get('id'), str):
            raise InputError(f'{where}: bad component {c!r}')
        if c['id'] in ids:
            raise InputError(f'{where}: duplicate component id {c["id"]}')
        ids.append(c['id'])
    known = set(ids)
    below = {q: set() for q in ids}  # below[q] = direct prerequisites of q
    for pair in pre:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise InputError(f'{where}: bad prerequisite {pair!r}')
        p, q = pair
        if p not in known or q not in known:
            raise InputError(f'{where}: unknown id in prerequisite {pair!r}')
        if p == q:
            raise InputError(f'{where}: self-loop {p}')
        below[q].add(p)
    # transitive closure by repeated expansion (Q is small)
    closure = {q: set(below[q]) for q in ids}
    changed = True
    while changed:
        changed = False
        for q in ids:
            extra = set()
            for p in closure[q]:
                extra |= closure[p]
            if not extra <= closure[q]:
                closure[q] |= extra
                changed = True
    for q in ids:
        if q in closure[q]:
            raise InputError(f'{where}: cycle through {q}')
    n = len(ids)
    states = []
    for mask in range(1 << n):
        s = frozenset(ids[i] for i in range(n) if mask >> i & 1)
        if all(closure[q] <= s for q in s):
            states.append(s)
    state_set = set(states)
    fringe = {}
    for s in states:
        fringe[s] = frozenset(q for q in ids if q not in s and (s | {q}) in state_set)
    return {'id': did, 'ids': ids, 'index': {q: i for i, q in enumerate(ids)},
            'states': state_set, 'fringe': fringe, 'file': path}


def load_domains(directory):
    names = sorted(f for f in os.listdir(directory) if f.endswith('.json'))
    domains = {}
    for name in names:
        d = load_domain(os.path.join(directory, name))
        if d['id'] in domains:
            raise InputError(f'{d["file"]}: duplicate domain id {d["id"]}')
        domains[d['id']] = d
    if not domains:
        raise InputError(f'{directory}: no domain files')
    return domains


# ---------------------------------------------------------------- responses

def id_set(value, domain, where, field):
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise InputError(f'{where}: {field} must be a list of IDs')
    if len(set(value)) != len(value):
        raise InputError(f'{where}: {field} lists an ID twice')
    unknown = [x for x in value if x not in domain['index']]
    if unknown:
        raise InputError(f'{where}: unknown ID(s) in {field}: {unknown}')
    return frozenset(value)


def load_responses(path, domains):
    records = []
    run_ids = set()
    cells = set()
    with open(path, encoding='utf-8') as fh:
        lines = fh.read().split('\n')
    for lineno, line in enumerate(lines, start=1):
        if line.strip() == '':
            continue
        where = f'{path}:{lineno}'
        try:
            r = json.loads(line)
        except ValueError as err:
            raise InputError(f'{where}: {err}')
        if not isinstance(r, dict):
            raise InputError(f'{where}: not an object')
        for field in ('run_id', 'model', 'domain', 'condition', 'order', 'state', 'status'):
            if field not in r:
                raise InputError(f'{where}: missing {field}')
        for field in ('run_id', 'model'):
            if not isinstance(r[field], str) or r[field] == '':
                raise InputError(f'{where}: {field} must be a non-empty string')
        if r['domain'] not in domains:
            raise InputError(f'{where}: unknown domain {r["domain"]!r}')
        if r['condition'] not in CONDITIONS:
            raise InputError(f'{where}: unknown condition {r["condition"]!r}')
        order = r['order']
        if isinstance(order, float) and order.is_integer():
            order = int(order)  # JSON does not distinguish 2 from 2.0
        if not isinstance(order, int) or isinstance(order, bool) or order < 1:
            raise InputError(f'{where}: bad order {r["order"]!r}')
        if r['status'] not in STATUSES:
            raise InputError(f'{where}: bad status {r["status"]!r}')
        dom = domains[r['domain']]
        state = id_set(r['state'], dom, where, 'state')
        if state not in dom['states']:
            raise InputError(f'{where}: state is not a knowledge state')
        rec = None
        if r['status'] == 'valid':
            if 'recommended' not in r:
                raise InputError(f'{where}: recommended is required when valid')
            rec = id_set(r['recommended'], dom, where, 'recommended')
        if r['run_id'] in run_ids:
            raise InputError(f'{where}: repeated run_id {r["run_id"]}')
        run_ids.add(r['run_id'])
        cell = (r['model'], r['condition'], r['domain'], state, order)
        if cell in cells:
            raise InputError(f'{where}: second response for the same cell')
        cells.add(cell)
        records.append({'model': r['model'], 'domain': r['domain'], 'condition': r['condition'],
                        'order': order, 'state': state, 'status': r['status'], 'rec': rec,
                        'fringe': dom['fringe'][state]})
    return records


# ---------------------------------------------------------------- scoring

def score(record):
    """Exact response-level scores (Fractions) or None for a missing record."""
    status = record['status']
    if status == 'missing':
        return None
    if status == 'invalid':
        return {m: Fraction(0) for m in TABLE3_METRICS}
    p, t = record['rec'], record['fringe']
    if not p and not t:
        return {m: Fraction(1) for m in TABLE3_METRICS}
    if not p:
        return {m: Fraction(0) for m in TABLE3_METRICS}
    if not t:
        return {'exact': Fraction(0), 'precision': Fraction(0), 'recall': Fraction(1),
                'f1': Fraction(0), 'jaccard': Fraction(0)}
    inter = len(p & t)
    return {'exact': Fraction(int(p == t)),
            'precision': Fraction(inter, len(p)),
            'recall': Fraction(inter, len(t)),
            'f1': Fraction(2 * inter, len(p) + len(t)),
            'jaccard': Fraction(inter, len(p | t))}


def mean(values):
    return sum(values, Fraction(0)) / len(values)


def fmt(x):
    return '' if x is None else repr(float(x))


# ---------------------------------------------------------------- exact sign-flip p

def exact_signflip_p(diffs):
    """Exact two-sided sign-flip p over all 2^k patterns of the nonzero differences (Fractions)."""
    nonzero = [d for d in diffs if d != 0]
    k = len(nonzero)
    if k == 0:
        return Fraction(1), 0
    lcm = 1
    for d in nonzero:
        lcm = lcm * d.denominator // math.gcd(lcm, d.denominator)
    ints = [int(d * lcm) for d in nonzero]
    target = abs(sum(ints))
    half = k // 2

    def all_sums(xs):
        sums = [0]
        for x in xs:
            sums = [s + x for s in sums] + [s - x for s in sums]
        return sums

    left, right = all_sums(ints[:half]), sorted(all_sums(ints[half:]))
    if target == 0:
        return Fraction(1), k
    count = 0
    m = len(right)
    for a in left:
        # |a + b| >= target  <=>  b >= target - a  or  b <= -target - a (disjoint as target > 0)
        count += m - bisect.bisect_left(right, target - a)
        count += bisect.bisect_right(right, -target - a)
    return Fraction(count, 1 << k), k


# ---------------------------------------------------------------- tables

def analyse(domains, records):
    scored = [(r, score(r)) for r in records]
    scored = [(r, s) for r, s in scored if s is not None]
    out = {}

    t1 = [['domain', 'components', 'states', 'terminal_states']]
    for did in sorted(domains):
        d = domains[did]
        terminal = sum(1 for s in d['states'] if not d['fringe'][s])
        t1.append([did, len(d['ids']), len(d['states']), terminal])
    out['table1.csv'] = t1

    t3 = [['condition', 'n'] + TABLE3_METRICS]
    for c in CONDITIONS:
        rows = [s for r, s in scored if r['condition'] == c]
        if rows:
            t3.append([c, len(rows)] + [fmt(mean([s[m] for s in rows])) for m in TABLE3_METRICS])
    out['table3.csv'] = t3

    acc = {}  # (model, condition) -> list of exact scores
    for r, s in scored:
        acc.setdefault((r['model'], r['condition']), []).append(s['exact'])
    t4 = [['model', 'condition', 'n', 'exact', 'rank']]
    for model, c in sorted(acc):
        a = mean(acc[(model, c)])
        better = sum(1 for (m2, c2), v in acc.items() if c2 == c and mean(v) > a)
        t4.append([model, c, len(acc[(model, c)]), fmt(a), 1 + better])
    out['table4.csv'] = t4

    dc = {}
    for r, s in scored:
        dc.setdefault((r['domain'], r['condition']), []).append(s['exact'])
    out['domain_condition.csv'] = [['domain', 'condition', 'n', 'exact']] + [
        [d, c, len(dc[(d, c)]), fmt(mean(dc[(d, c)]))] for d, c in sorted(dc)]

    # state level: (domain, mastered set) -> condition -> metric -> exact mean over its responses
    by_state = {}
    for r, s in scored:
        by_state.setdefault((r['condition'], r['domain'], r['state']), []).append(s)
    contrasts = [['contrast', 'metric', 'estimate', 'p', 'k', 'states', 'min_diff', 'max_diff']]
    for metric in CONTRAST_METRICS:
        for later, earlier in CONTRASTS:
            common = sorted({(d, st) for (c, d, st) in by_state if c == later}
                            & {(d, st) for (c, d, st) in by_state if c == earlier},
                            key=lambda x: (x[0], sorted(x[1])))
            name = f'{later}-{earlier}'
            if not common:
                contrasts.append([name, metric, '', '', '', 0, '', ''])
                continue
            diffs = [mean([s[metric] for s in by_state[(later, d, st)]])
                     - mean([s[metric] for s in by_state[(earlier, d, st)]]) for d, st in common]
            k = sum(1 for x in diffs if x != 0)
            p = exact_signflip_p(diffs)[0] if k <= EXACT_P_MAX_K else None
            contrasts.append([name, metric, fmt(mean(diffs)), fmt(p), k, len(common), fmt(min(diffs)), fmt(max(diffs))])
    out['contrasts.csv'] = contrasts

    # order agreement over model x condition x state with valid responses under >= 2 orders
    valid = {}
    for r in records:
        if r['status'] == 'valid':
            valid.setdefault((r['model'], r['condition'], r['domain'], r['state']), {})[r['order']] = r['rec']
    agree, jac = [], []
    for sets in valid.values():
        if len(sets) < 2:
            continue
        # Exactly two orders: the two sets compared with each other. More than two (not in the
        # spec's design): mean over every pair of orders -- an interpretation, flagged in the report.
        pairs = list(combinations([sets[o] for o in sorted(sets)], 2))
        agree.append(mean([Fraction(int(a == b)) for a, b in pairs]))
        jac.append(mean([Fraction(1) if not (a | b) else Fraction(len(a & b), len(a | b)) for a, b in pairs]))
    out['order_agreement.csv'] = [['pairs', 'exact_agreement', 'mean_jaccard'],
                                  [len(agree), fmt(mean(agree)) if agree else '', fmt(mean(jac)) if jac else '']]

    counts = {s: sum(1 for r in records if r['status'] == s) for s in STATUSES}
    counts['responses'] = len(records)
    counts['scored'] = counts['valid'] + counts['invalid']
    return out, counts


def write_outputs(out_dir, tables, counts):
    os.makedirs(out_dir, exist_ok=True)
    for name, rows in tables.items():
        buf = io.StringIO()
        csv.writer(buf, lineterminator='\n').writerows(rows)  # RFC 4180 quoting (model names may hold commas)
        text = buf.getvalue()
        tmp = os.path.join(out_dir, f'.{name}.tmp')
        with open(tmp, 'w', encoding='utf-8') as fh:
            fh.write(text)
        os.replace(tmp, os.path.join(out_dir, name))
    with open(os.path.join(out_dir, 'counts.json'), 'w', encoding='utf-8') as fh:
        json.dump(counts, fh, indent=2, sort_keys=True)


def run_one(domains_dir, responses, out):
    try:
        domains = load_domains(domains_dir)
        records = load_responses(responses, domains)
    except InputError as err:
        print(f'error: {err}', file=sys.stderr)
        return 1
    tables, counts = analyse(domains, records)
    write_outputs(out, tables, counts)
    return 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--domains')
    ap.add_argument('--responses')
    ap.add_argument('--out')
    # Many analyses in one process (the differential test has 36; a Python start each cost more than
    # most of the analyses): a JSON list of {"domains", "responses", "out"}; the exit code is the worst.
    ap.add_argument('--cases', help='JSON file: a list of {"domains": DIR, "responses": FILE, "out": DIR}')
    args = ap.parse_args(argv)
    if args.cases is not None:
        if args.domains or args.responses or args.out:
            ap.error('--cases replaces --domains, --responses and --out')
        with open(args.cases, encoding='utf-8') as f:
            cases = json.load(f)
        worst = 0
        for case in cases:
            code = run_one(case['domains'], case['responses'], case['out'])
            if code != 0:
                print(f'error: the case with responses {case["responses"]} failed', file=sys.stderr)
            worst = max(worst, code)
        return worst
    if not (args.domains and args.responses and args.out):
        ap.error('--domains, --responses and --out are required (or --cases)')
    return run_one(args.domains, args.responses, args.out)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
