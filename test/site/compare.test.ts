import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { claimIndex, compareCells, comparisonPairs, leadingNumber, ledgerStatusOf, markComparisons, statusVerdict } from '../../lib/site/compare';

test('cells agree when the computed value prints as the published one (the one rule: both ends of the rounding interval)', () => {
  assert.deepEqual(compareCells('61.27', '61.3'), { kind: 'match' });
  assert.deepEqual(compareCells('61.35', '61.3'), { kind: 'match' }, 'the ledger calls 61.35 against 61.3 a match, so the report does too');
  assert.deepEqual(compareCells('61.36', '61.3'), { kind: 'differs', delta: 61.36 - 61.3, decimals: 2 });
  assert.deepEqual(compareCells('58', '61.3'), { kind: 'differs', delta: 58 - 61.3, decimals: 1 });
  assert.deepEqual(compareCells('< .0001', '< .0001'), { kind: 'match' });
  assert.deepEqual(compareCells('yes', 'no'), { kind: 'differs' });
  assert.deepEqual(compareCells('3', ''), { kind: 'none' });
  assert.deepEqual(leadingNumber('−2.5 [−4.1, −0.9]'), { value: -2.5, decimals: 1 });
});

test('published columns are found by "X (paper)" beside "X", and "paper" beside "computed"', () => {
  assert.deepEqual([...comparisonPairs(['condition', 'exact', 'exact (paper)', 'n'])], [[2, 1]]);
  assert.deepEqual([...comparisonPairs(['quantity', 'computed', 'paper'])], [[2, 1]]);
  assert.deepEqual([...comparisonPairs(['a', 'b (paper)'])], [], 'no computed column, nothing to compare');
});

test('a comparison table marks published cells and highlights each difference with Δ', () => {
  const html = [
    '<table class="kstbench-table">',
    '<caption>T</caption>',
    '<thead><tr><th>condition</th><th style="text-align:right">exact</th><th style="text-align:right">exact (paper)</th></tr></thead>',
    '<tbody>',
    '<tr><td>P0</td><td style="text-align:right">61.27</td><td style="text-align:right">61.3</td></tr>',
    '<tr><td>P1</td><td style="text-align:right">58.0</td><td style="text-align:right">62.8</td></tr>',
    '</tbody>',
    '</table>',
  ].join('\n');
  const out = markComparisons(html);
  assert.match(out, /<td style="text-align:right" class="agrees" title="agrees with the published 61.3">61.27<\/td><td style="text-align:right" class="published">61.3<\/td>/);
  assert.match(out, /<td style="text-align:right" class="differs" title="published: 62.8">58.0 <span class="delta">Δ −4.8<\/span><\/td>/);
  assert.match(out, /1 agree<\/span> at the paper's precision, <span class="differs">1 differ<\/span>/);
  assert.equal(markComparisons('<table class="kstbench-table"><thead><tr><th>a</th></tr></thead></table>'), '<table class="kstbench-table"><thead><tr><th>a</th></tr></thead></table>');
});

const claimsTableHtml = (rows: Array<[string, string, string, string]>) =>
  [
    '<table class="kstbench-table">',
    '<thead><tr><th>claim</th><th>paper</th><th>computed</th><th>status</th></tr></thead>',
    '<tbody>',
    ...rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`),
    '</tbody>',
    '</table>',
  ].join('\n');

test('in a claims table the colour is the ledger status, not a second comparison', () => {
  const out = markComparisons(
    claimsTableHtml([
      ['a', '61.3', '61.35', 'match'],
      ['b', '61.3', '61.30', 'outside-simulation-spread'],
      ['c', '61.3', '64.00', 'within-simulation-spread'],
      ['d', '4', '', 'not rebuildable'],
    ]),
  );
  assert.match(out, /<td class="agrees"[^>]*>61\.35<\/td>/);
  assert.match(out, /<td class="differs"[^>]*>61\.30<\/td>/, 'a claim outside the simulation spread is coloured as differing even when this one draw prints as the paper');
  assert.match(out, /<td class="agrees"[^>]*>64\.00<\/td>/);
  assert.match(out, /<td><\/td><td>not rebuildable<\/td>/);
  assert.deepEqual(statusVerdict('close', '61.40', '61.3').kind, 'differs');
  assert.deepEqual(statusVerdict('differs-simulated', '1', '1'), { kind: 'none' });
});

/** The status class a claims-table status must be coloured with. */
const STATUS_CLASS: Record<string, string | null> = { match: 'agrees', 'within-simulation-spread': 'agrees', close: 'differs', differs: 'differs', 'outside-simulation-spread': 'differs', 'not rebuildable': null };

test('colour equals status for every compared cell of the built report (report/*.html; rebuilt by npm run report)', () => {
  const dir = join(__dirname, '..', '..', 'report');
  let checked = 0;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.html'))) {
    const html = readFileSync(join(dir, name), 'utf8');
    for (const table of html.match(/<table class="kstbench-table comparison"[^>]*>[\s\S]*?<\/table>/g) ?? []) {
      const headers = [...(/<thead><tr>([\s\S]*?)<\/tr><\/thead>/.exec(table)?.[1] ?? '').matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g)].map((m) => m[1]!.replace(/<[^>]*>/g, ''));
      const status = headers.indexOf('status');
      const computed = headers.indexOf('computed');
      if (status < 0 || computed < 0) continue;
      for (const row of table.match(/<tr>(?:<td[^>]*>[\s\S]*?<\/td>)+<\/tr>/g) ?? []) {
        const cells = [...row.matchAll(/<td([^>]*)>([\s\S]*?)<\/td>/g)];
        const s = cells[status]![2]!.replace(/<[^>]*>/g, '').trim();
        assert.ok(s in STATUS_CLASS, `${name}: unknown status ${JSON.stringify(s)} (report/ is stale: npm run reproduce)`);
        const cls = /class="([a-z]+)"/.exec(cells[computed]![1]!)?.[1] ?? null;
        assert.equal(cls, STATUS_CLASS[s], `${name}: a ${s} claim coloured ${cls}: ${row.slice(0, 200)}`);
        checked++;
      }
    }
  }
  assert.ok(checked > 200, `only ${checked} claim cells checked`);
});

test('a main table takes its colour from the page\'s claims: Table 3 P0 exact 63.2 beside 61.3 is within the simulation spread, so it agrees', () => {
  const claims = claimIndex([claimsTableHtml([['kst.table3.P0.exact', '61.3', '63.17', 'within-simulation-spread'], ['kst.table3.P1.exact', '62.8', '58.00', 'outside-simulation-spread']])]);
  assert.equal(ledgerStatusOf(claims, '63.2', '61.3'), 'within-simulation-spread');
  assert.equal(ledgerStatusOf(claims, '63.4', '61.3'), undefined, 'no claim prints as 63.4');
  const main = [
    '<table class="kstbench-table">',
    '<thead><tr><th>condition</th><th>exact</th><th>exact (paper)</th></tr></thead>',
    '<tbody>',
    '<tr><td>P0</td><td>63.2</td><td>61.3</td></tr>',
    '<tr><td>P1</td><td>58.0</td><td>62.8</td></tr>',
    '<tr><td>P2</td><td>96.3</td><td>96.3</td></tr>',
    '</tbody>',
    '</table>',
  ].join('\n');
  const out = markComparisons(main, claims);
  assert.match(out, /<td class="agrees"[^>]*>63\.2<\/td>/);
  assert.match(out, /<td class="differs"[^>]*>58\.0 /);
  assert.match(out, /<td class="agrees"[^>]*>96\.3<\/td>/, 'a cell no claim covers: the printed-decimals rule');
  assert.match(markComparisons(main), /<td class="differs"[^>]*>63\.2 /, 'without the claims, one draw is compared with the paper');
});
