/**
 * The notebooks' prose says what their cells compute and draw: where a paragraph describes a figure's
 * lines or a computation's rule, the words are checked against the code that draws or computes it, so
 * a change to one without the other fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cellSource, parseNotebook } from '../../lib/notebook/ipynb';
import { bootstrapHistogramSpec } from '../../lib/report/kst-inference';
import { significantAt } from '../../lib/stats';

const NOTEBOOKS = join(__dirname, '..', '..', 'notebooks');

/** The one Markdown cell of a notebook that starts with `heading`. */
function markdownSection(notebook: string, heading: string): string {
  const nb = parseNotebook(readFileSync(join(NOTEBOOKS, notebook), 'utf8'), notebook);
  const cells = nb.cells.filter((c) => c.cell_type === 'markdown' && cellSource(c).startsWith(heading));
  assert.equal(cells.length, 1, `${notebook}: one Markdown cell starting "${heading}"`);
  return cellSource(cells[0]!).replace(/\s+/g, ' ');
}

/** How a reader names each plotly dash style. */
const DASH_WORDS: Record<string, string> = { solid: 'solid', dot: 'dotted', dash: 'dashed', dashdot: 'dash-dot' };

test('notebook 06 names every line style its bootstrap histogram draws, and its axes', () => {
  const prose = markdownSection('06-inference.ipynb', '## What a bootstrap interval is made of');
  const row = { contrast: 'P2-P1', metric: 'exact' as const, states: 2, estimate: 0.3, ci_low: 0.2, ci_high: 0.4, p: 0.01, p_holm: 0.03, seed: 's' };
  const spec = bootstrapHistogramSpec([0.2, 0.3, 0.4], row, { published: { estimate: 33.5, ci_low: 22.7, ci_high: 44.7 } });
  const dashes = [...new Set((spec.layout!.shapes as Array<{ line: { dash: string } }>).map((s) => s.line.dash))].sort();
  assert.deepEqual(dashes, ['dash', 'dashdot', 'dot', 'solid']);
  for (const dash of dashes) assert.ok(prose.includes(DASH_WORDS[dash]!), `the prose names the ${DASH_WORDS[dash]} lines: ${prose}`);
  assert.match(prose, /x axis is the mean state-level difference in percentage points/);
  assert.match(prose, /y axis how many of the resamples/);
});

test('notebook 02 states the dry run\'s output-token rule as formatDryRun applies it (the catalogue\'s typical output, else 1,500)', () => {
  const prose = markdownSection('02-collect.ipynb', '## 4. What will be collected, and what it would cost');
  assert.doesNotMatch(prose, /assumes 1,500 output tokens per call/, 'a flat 1,500 per call is not what the dry run uses');
  assert.match(prose, /typical output per call from the model catalogue `config\/models\.json` \(1,500 tokens for a model it does not list\)/);
});

test('notebook 06\'s Holm solution compares each adjusted p with .05 as significantAt does (p < α significant, else ≥)', () => {
  const nb = parseNotebook(readFileSync(join(NOTEBOOKS, '06-inference.ipynb'), 'utf8'), '06-inference.ipynb');
  const solutions = nb.cells.filter((c) => c.cell_type === 'code' && (c.metadata?.tags as string[] | undefined)?.includes('solution') && cellSource(c).includes('Holm'));
  assert.equal(solutions.length, 1, 'one solution cell of the Holm exercise');
  const comparisons = [...cellSource(solutions[0]!).matchAll(/= (\d*\.\d+) ([<>≤≥]) \.05\b/g)];
  assert.ok(comparisons.length >= 2, `the solution compares its adjusted p values with .05: ${cellSource(solutions[0]!)}`);
  for (const [text, p, op] of comparisons) assert.equal(op, significantAt(Number(p), 0.05) ? '<' : '≥', `"${text}" against the rule p < α`);
});
