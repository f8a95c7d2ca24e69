// End to end through the real CLI: a 6-task curriculum of this test's own, one model behind a fake
// OpenAI-compatible server on 127.0.0.1 and one simulated respondent; `study init`, `study check`,
// `study run`; then the report opened in the pinned Chromium: every figure drawn (non-blank), no paper
// marker or column, no "differs", no console error, every link resolves. A second `study run` resumes
// without a single new request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { closeFigureBrowser, withPage } from '../../lib/figures/browser';
import { loadStudy } from '../../lib/study/manifest';
import { readStudyResults } from '../../lib/study/results';
import { buildStudyReport, reportHtml } from '../../lib/study/report';
import { osErrorMessage } from '../../lib/io/os-error';
import { answerSchemaOf, startFakeLlmServer, type FakeCall } from '../support/fake-llm-server';
import { ROOT, tempDir } from '../support/cli';
import { pngPixels } from '../support/png';
import { answerPosition1 } from '../collect/helpers';
import { writeCurriculum } from './helpers';

function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'kstbench.js'), ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

function answer(call: FakeCall) {
  const { name, schema } = answerSchemaOf(call);
  return { kind: 'json' as const, content: answerPosition1({ schemaName: name ?? (schema.properties?.prerequisites ? 'kst_next_steps_with_graph' : 'kst_next_steps') }) };
}

test('study init → check → run through the CLI: a report with every figure, no paper, every link alive', { timeout: 600_000 }, async () => {
  const dir = tempDir('kstbench-study-e2e-');
  const server = await startFakeLlmServer({ handler: answer });
  try {
    writeCurriculum(join(dir, 'fractions.json'));
    const study = join(dir, 'study');
    const models = `simulated:sim-a,openai-compatible:fake-tutor@${server.openaiBaseUrl}`;
    const init = await cli(['study', 'init', study, '--domains', join(dir, 'fractions.json'), '--models', models, '--title', 'Fractions pilot']);
    assert.equal(init.code, 0, init.stderr);
    const check = await cli(['study', 'check', study]);
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stdout, /fractions\s+6 items\s+9 states/);
    assert.match(check.stdout, /72 cells per model, 144 in all/);
    assert.equal(server.calls, 0, 'check sends nothing');
    assert.deepEqual(readdirSync(study), ['study.json'], 'check writes nothing');

    const run = await cli(['study', 'run', study]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /step 1\/4 collect[\s\S]*\d+\/144[\s\S]*step 4\/4 report/, 'progress of every step');
    assert.equal(server.calls, 72, "one call per cell of the served model: its pre-flight is its first cell, sent alone (lib/collect/README.md)");
    const html = readFileSync(join(study, 'report', 'index.html'), 'utf8');
    assert.doesNotMatch(html, /paper/i, 'no paper column, marker or claim');
    assert.doesNotMatch(html, /differs/);
    assert.match(html, /SIMULATED/, 'half the responses are simulated, and the report says so');
    await checkReportInBrowser(join(study, 'report'));

    const again = await cli(['study', 'run', study]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /144 cells, 144 already complete/);
    assert.equal(server.calls, 72, 'the second run requested nothing (no cell pending: no pre-flight either)');
  } finally {
    await server.close();
    await closeFigureBrowser();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function checkReportInBrowser(dir: string): Promise<void> {
  const problems: string[] = [];
  const shots: Buffer[] = [];
  const links = await withPage(async (p) => {
    p.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    p.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
    p.on('request', (r) => {
      if (!/^(file|data|about):/.test(r.url())) problems.push(`network request: ${r.url()}`);
    });
    await p.goto(pathToFileURL(join(dir, 'index.html')).href, { waitUntil: 'load' });
    for (const img of await p.$$('figure img')) {
      await img.scrollIntoViewIfNeeded();
      shots.push(await img.screenshot());
    }
    return p.evaluate(() => {
      type El = { getAttribute(n: string): string | null; href?: string; src?: string };
      const d = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<El> } }).document;
      return Array.from(d.querySelectorAll('a[href], img[src]')).map((a) => ({ raw: a.getAttribute('href') ?? a.getAttribute('src') ?? '', href: a.href ?? a.src ?? '' }));
    });
  });
  assert.deepEqual(problems, []);
  assert.equal(shots.length, 4, 'Figures 1–3 and the P1 verdicts');
  // One page decodes every screenshot (a page per shot started a renderer process each).
  const pixels = await withPage(async (p) => {
    const decoded = [];
    for (const shot of shots) decoded.push(await pngPixels(p, shot));
    return decoded;
  });
  for (const [i] of shots.entries()) {
    const px = pixels[i]!;
    assert.ok(px.differing > 500, `figure ${i + 1} looks blank (${px.differing} pixels differ from the background)`);
  }
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  assert.ok(links.length >= 14, `${links.length} links`);
  for (const link of links) {
    const url = new URL(link.href);
    const target = fileURLToPath(url);
    assert.ok(existsSync(target), `dead link ${link.raw}`);
    if (url.hash) assert.ok(html.includes(`id="${decodeURIComponent(url.hash.slice(1))}"`), `no anchor ${link.raw}`);
  }
}

test('the report of the shipped replication, built from its own corpus, still shows no paper column', () => {
  // reportHtml is pure: results in, page out. A study that declares it replicates the paper gets the same
  // self-describing page; the paper comparison is the notebooks' (report/).
  const study = loadStudy(join(ROOT, 'data', 'raw'));
  const results = {
    ...fakeResults(),
    replicates: study.manifest.replicates,
  };
  const html = reportHtml(study, results, new Map([['figure-1-exact-f1', '<svg/>'], ['figure-2-domain-condition', '<svg/>']]));
  assert.doesNotMatch(html, /\(paper\)/);
  assert.match(html, /<h2>Table 1: the domains<\/h2>/);
  assert.throws(() => reportHtml(study, { ...results, figure3: { domain: 'd', condition: 'P0', rule: 'r', models: [{ model: 'm', correct: 1, n: 1 }] } }, new Map()), /figure figure-1-exact-f1: not drawn yet/);
});

test('the report prints percentages by percent() (lib/stats/prints-as.ts), rounded once: 0.61249 is 61.2, 0.33347 is 33.3', () => {
  // The report used to round to 2 decimals (61.25, 33.35) and the HTML table then to 1 (61.3, 33.4).
  const study = loadStudy(join(ROOT, 'data', 'raw'));
  const row = { condition: 'P0' as const, n: 2, exact: 0.61249, precision: 0.33347, recall: 0.5, f1: 0.5, jaccard: 0.5 };
  const html = reportHtml(study, { ...fakeResults(), table3: [row] }, new Map([['figure-1-exact-f1', '<svg/>'], ['figure-2-domain-condition', '<svg/>']]));
  const table3 = /<section id="table-3">[\s\S]*?<\/section>/.exec(html)![0];
  const cells = [...table3.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]);
  assert.deepEqual(cells.slice(2, 4), ['61.2', '33.3']);
});

test('a figure the report copies that is a folder: EISDIR naming it, not "(unknown path)"', () => {
  const dir = tempDir('kstbench-study-report-');
  writeCurriculum(join(dir, 'fractions.json'));
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ manifest_version: 1, title: 'T', domains: ['fractions.json'], models: ['simulated:sim-a'], design: { conditions: ['P0'] } }));
  const study = loadStudy(dir);
  mkdirSync(join(study.paths.output, 'analysis'), { recursive: true });
  writeFileSync(join(study.paths.output, 'analysis', 'study-results.json'), JSON.stringify(fakeResults()));
  const figures = join(study.paths.output, 'figures');
  mkdirSync(join(figures, 'figure-1-exact-f1.svg'), { recursive: true });
  writeFileSync(join(figures, 'figure-2-domain-condition.svg'), '<svg/>');
  const refused = (path: string) => (err: unknown) => osErrorMessage(err as NodeJS.ErrnoException) === `cannot read ${path}: EISDIR (a directory is where a file is expected)`;
  assert.throws(() => buildStudyReport(study), refused(join(figures, 'figure-1-exact-f1.svg')));
  rmSync(join(figures, 'figure-1-exact-f1.svg'), { recursive: true });
  writeFileSync(join(figures, 'figure-1-exact-f1.svg'), '<svg/>');
  mkdirSync(join(figures, 'figure-1-exact-f1.png'));
  assert.throws(() => buildStudyReport(study), refused(join(figures, 'figure-1-exact-f1.png')));
  assert.equal(existsSync(study.paths.report), false, 'nothing written');
});

function fakeResults(): ReturnType<typeof readStudyResults> {
  return {
    results_version: 1,
    title: 'T',
    simulated: false,
    replicates: [],
    counts: { responses: 2, scored: 2, valid: 2, invalid: 0, missing: 0, simulated: 0 },
    models: ['m'],
    table1: [{ domain: 'd', components: 2, states: 3, terminal_states: 1 }],
    design_states: { d: 3 },
    table3: [{ condition: 'P0', n: 2, exact: 0.5, precision: 0.5, recall: 0.5, f1: 0.5, jaccard: 0.5 }],
    table4: [{ model: 'm', condition: 'P0', n: 2, exact: 0.5, rank: 1 }],
    domain_condition: [{ domain: 'd', condition: 'P0', n: 2, exact: 0.5 }],
    contrasts: [],
    inference: { seed: '1', resamples: 10, flips: 10 },
    order_agreement: { pairs: 0, exact_agreement: null, mean_jaccard: null },
    order_agreement_by_model: [],
    graphs: null,
    figure3: null,
    inputs: { responses: { file: 'x', sha256: 'y' }, domains: [] },
  };
}

test('the simulated notice: all simulated says every number describes the simulation; real models beside simulated ones are not called a simulation', () => {
  const study = loadStudy(join(ROOT, 'data', 'raw'));
  const svgs = new Map([['figure-1-exact-f1', '<svg/>'], ['figure-2-domain-condition', '<svg/>']]);
  const counts = { responses: 4, scored: 4, valid: 4, invalid: 0, missing: 0 };
  const all = reportHtml(study, { ...fakeResults(), simulated: true, models: ['simulated:sim-a'], counts: { ...counts, simulated: 4 } }, svgs);
  assert.ok(all.includes('<strong>Simulated data.</strong> All 4 responses come from the simulated respondent (simulated:sim-…), not from a language model. Every number, table and figure below describes that simulation.'));
  const mixed = reportHtml(study, { ...fakeResults(), simulated: true, models: ['openai:gpt-5-mini', 'simulated:sim-a'], counts: { ...counts, simulated: 2 } }, svgs);
  assert.doesNotMatch(mixed, /Every number, table and figure below describes that simulation/);
  assert.ok(mixed.includes('<strong>Partly simulated data.</strong> 2 of 4 responses come from the simulated respondent (simulated:sim-…), not from a language model; the others from openai:gpt-5-mini.'));
});
