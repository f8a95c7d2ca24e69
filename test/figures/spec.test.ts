/** lib/figures/spec.ts: a figure spec as it is drawn (size, font, colours, the simulated-data badge), its names and its page. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { checkOutputName, figureHtml, figureSeed, figureSize, finalSpec, scriptJson, SIMULATED_LABEL, watermarkBadge, zeroBarLabels, type FigureSpec } from '../../lib/figures/spec';
import { THREE_TRACE_SPEC } from './fixtures';

const spec = THREE_TRACE_SPEC;

test('simulated figures carry a watermark and a title note; real ones do not', () => {
  const sim = finalSpec(spec, { title: 'T', simulated: true });
  const annotations = sim.layout!['annotations'] as Array<{ text: string; x: number; y: number; xanchor: string; yanchor: string }>;
  assert.equal(annotations.length, 1);
  assert.equal(annotations[0]!.text, SIMULATED_LABEL);
  // A corner badge outside the plotting area: 800 × 500 with plotly's default margins (l 80, r 80,
  // t 100, b 80) puts the figure's top-right corner, 6 px in, at paper x (800 − 80 − 6)/640, y (500 − 80 − 6)/320.
  assert.deepEqual([annotations[0]!.x, annotations[0]!.y, annotations[0]!.xanchor, annotations[0]!.yanchor], [714 / 640, 414 / 320, 'right', 'top']);
  assert.equal((sim.layout!['font'] as { family: string }).family, '"Open Sans", Arial, sans-serif');
  assert.equal((sim.layout!['colorway'] as string[]).length, 8);
  assert.deepEqual(sim.layout!['title'], { text: 'T (simulated data)' });
  const real = finalSpec(spec, { title: 'T', simulated: false });
  assert.equal(real.layout!['annotations'], undefined);
  assert.deepEqual(real.layout!['title'], { text: 'T' });
  assert.equal(real.layout!['width'], 800);
  assert.equal(real.layout!['height'], 500);
});

test('finalSpec keeps what the spec sets: its own title, colourway, font size and annotations; the badge is added after them', () => {
  const own: FigureSpec = { data: [], layout: { title: 'Own', colorway: ['#000'], font: { size: 9, family: 'Comic' }, annotations: [{ text: 'note' }], width: 300, height: 200 } };
  const drawn = finalSpec(own, { title: 'ignored', simulated: true, width: 999 }).layout!;
  assert.deepEqual(drawn['title'], { text: 'Own (simulated data)' });
  assert.deepEqual(drawn['colorway'], ['#000']);
  // The family is always the figure font (the only one the pinned browser has); the size is the spec's.
  assert.deepEqual(drawn['font'], { size: 9, color: '#222222', family: '"Open Sans", Arial, sans-serif' });
  assert.deepEqual((drawn['annotations'] as Array<{ text: string }>).map((a) => a.text), ['note', SIMULATED_LABEL]);
  assert.deepEqual([drawn['width'], drawn['height']], [300, 200]);
  assert.equal((own.layout!['annotations'] as unknown[]).length, 1, 'the caller\'s spec is not changed');
  assert.throws(() => finalSpec({ data: {} } as never, { title: 'T', simulated: false }), (e: unknown) => e instanceof InputError && /figure "T": spec\.data must be an array/.test(e.message));
});

test('figureSize: the layout wins, then the options, then 800 × 500', () => {
  assert.deepEqual(figureSize({ data: [], layout: { width: 300 } }, { width: 400, height: 100 }), { width: 300, height: 100 });
  assert.deepEqual(figureSize({ data: [] }, {}), { width: 800, height: 500 });
});

test('watermarkBadge: the corner follows the layout\'s own margins', () => {
  // 1000 × 600 with margins l 50, r 50, t 20, b 30: plot 900 × 550; corner 6 px in at x (1000 − 50 − 6)/900, y (600 − 30 − 6)/550.
  const badge = watermarkBadge({ margin: { l: 50, r: 50, t: 20, b: 30 } }, 1000, 600);
  assert.deepEqual([badge['x'], badge['y'], badge['text']], [944 / 900, 564 / 550, SIMULATED_LABEL]);
});

test('checkOutputName: letters, digits, ".", "_" and "-" only, no "..", not starting with a separator', () => {
  for (const ok of ['fig-1', 'psi_table.v2', 'A']) checkOutputName(ok, 'figure');
  for (const bad of ['', '../x', 'a/b', '.hidden', 'a..b', 'sp ace', '-x']) {
    assert.throws(() => checkOutputName(bad, 'table'), (e: unknown) => e instanceof InputError && e.message === `table name ${JSON.stringify(bad)}: use letters, digits, '.', '_' and '-' only`, bad);
  }
});

test('scriptJson cannot close the script element it is placed in', () => {
  const text = scriptJson({ a: '</script><!-- \u2028 \u2029' });
  assert.doesNotMatch(text, /<\/script|<!--|\u2028|\u2029/);
  assert.deepEqual(JSON.parse(text), { a: '</script><!-- \u2028 \u2029' });
});

test('figureHtml: self-contained page, Math.random seeded from the name, the drawn spec inlined', () => {
  const html = figureHtml('my-fig', spec, { title: 'A <b> title', simulated: true });
  assert.match(html, /<title>A &lt;b&gt; title<\/title>/);
  assert.match(html, /<meta name="kstbench-simulated" content="true">/);
  assert.ok(html.includes(`Math.seedrandom(${JSON.stringify(figureSeed('my-fig'))});`));
  assert.equal(figureSeed('my-fig'), 'kstbench-figure:my-fig');
  assert.doesNotMatch(html, /<script[^>]*\bsrc=/, 'no script is loaded from elsewhere');
  const inlined = /var spec = (.*);\n/.exec(html)![1]!;
  assert.deepEqual(JSON.parse(inlined), finalSpec(spec, { title: 'A <b> title', simulated: true }));
  assert.match(html, /<div id="figure" style="width:800px;height:500px"><\/div>/);
});

test('zeroBarLabels: a bar at 0 gets its label outside (with a readable colour); null and non-zero bars keep the position', () => {
  assert.deepEqual(zeroBarLabels([0, 5, null], 'inside', '#222222'), { textposition: ['outside', 'inside', 'inside'], outsidetextfont: { color: '#222222' } });
  assert.deepEqual(zeroBarLabels([1, 5, null], 'inside', '#222222'), { textposition: 'inside' });
  assert.deepEqual(zeroBarLabels([], 'auto', '#222222'), { textposition: 'auto' });
});
