import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CONDITION_LABELS, CONDITIONS } from '../conditions';
import { InputError } from '../errors';
import { writeFilesAtomic } from '../io/atomic';
import { escapeHtml } from '../io/html';
import { isOsError } from '../io/os-error';
import { readFileNamed } from '../io/target';
import { markSimulated } from '../figures/simulated';
import { PERCENT_DIGITS, toHtmlTable, toTable } from '../figures/table';
import { formatP } from '../report/contrast-text';
import { percent } from '../stats/prints-as';
import { studyFigureSpecs } from './figures';
import type { Study } from './manifest';
import { readStudyResults, type StudyResults } from './results';

/**
 * `kstbench study report`: a static, self-contained report at `<report>/index.html` (no network, opens
 * from `file://`): Table 1, Table 3- and Table 4-like tables, the domain × condition grid, Figures 1–3
 * equivalents and the P1 verdicts (SVG copies in `<report>/figures/`), the inference (bootstrap CI,
 * sign-flip p, Holm), order agreement, P1 graph verdicts and the provenance (inputs' SHA-256, seeds).
 * It says what it computed; only a study whose manifest declares that it replicates a paper gets the
 * paper's numbers beside the computed ones (section "Beside the paper", lib/study/paper.ts); with
 * psi.ratings, the ratings' Table VI-like rates.
 */

// The project's one percentage rule (percent), rounded once here to the one decimal the tables print:
// a second rounding of a 2-decimal value by toFixed(1) printed 61.249 % as 61.3, where percent says 61.2.
const pct = (x: number | null) => (x === null ? null : percent(x, PERCENT_DIGITS));

function section(id: string, title: string, body: string): string {
  return `<section id="${id}">\n<h2>${escapeHtml(title)}</h2>\n${body}</section>\n`;
}

function table(rows: ReadonlyArray<Record<string, unknown>>, caption: string, simulated: boolean, digits = 1): string {
  return toHtmlTable(toTable(rows), { caption: markSimulated(caption, simulated, 'responses'), digits });
}

function p(text: string): string {
  return `<p>${escapeHtml(text)}</p>\n`;
}

function tablesHtml(r: StudyResults): string {
  const s = r.simulated;
  const t1 = r.table1.map((row) => ({ domain: row.domain, items: row.components, 'knowledge states': row.states, 'terminal states': row.terminal_states, 'states in the design': r.design_states[row.domain] ?? null }));
  const t3 = r.table3.map((row) => ({ condition: `${row.condition} ${CONDITION_LABELS[row.condition]}`, n: row.n, 'exact %': pct(row.exact), 'precision %': pct(row.precision), 'recall %': pct(row.recall), 'F1 %': pct(row.f1), 'Jaccard %': pct(row.jaccard) }));
  const conditions = CONDITIONS.filter((c) => r.table4.some((x) => x.condition === c));
  const t4 = r.models.map((model) => {
    const row: Record<string, unknown> = { model };
    for (const c of conditions) {
      const cell = r.table4.find((x) => x.model === model && x.condition === c);
      row[`${c} exact %`] = cell ? pct(cell.exact) : null;
      row[`${c} rank`] = cell ? cell.rank : null;
    }
    return row;
  });
  const grid = [...new Set(r.domain_condition.map((x) => x.domain))].map((domain) => {
    const row: Record<string, unknown> = { domain };
    for (const c of conditions) {
      const cell = r.domain_condition.find((x) => x.domain === domain && x.condition === c);
      row[`${c} exact %`] = cell ? pct(cell.exact) : null;
      row[`${c} n`] = cell ? cell.n : null;
    }
    return row;
  });
  return (
    section('table-1', 'Table 1: the domains', table(t1, 'Domains: items, knowledge states, terminal states', false, 0)) +
    section('table-3', 'Table 3-like: accuracy by condition', table(t3, 'Macro averages over all scored responses, by condition', s)) +
    section('table-4', 'Table 4-like: models by condition', table(t4, 'Exact-set accuracy per model and condition, with the competition rank within the condition', s)) +
    section('domain-condition', 'Exact-set accuracy by domain and condition', table(grid, 'Exact-set accuracy per domain × condition (the data of Figure 2)', s))
  );
}

function inferenceHtml(r: StudyResults): string {
  const rows = r.contrasts.map((c) => ({
    contrast: c.contrast,
    metric: c.metric,
    states: c.states,
    'estimate %': pct(c.estimate),
    'CI low %': pct(c.ci_low),
    'CI high %': pct(c.ci_high),
    p: c.p === null ? null : formatP(c.p),
    'p (Holm)': c.p_holm === null ? null : formatP(c.p_holm),
  }));
  const text =
    `Each contrast is the mean over knowledge states of the paired state-level difference (later − earlier condition; scores averaged within state over models and orders${r.repeats ? ` and the ${r.repeats.length} repeats` : ''}), ` +
    `with a percentile bootstrap 95 % interval over states (${r.inference.resamples.toLocaleString('en-US')} resamples), a two-sided sign-flip p (${r.inference.flips.toLocaleString('en-US')} flips), ` +
    `and Holm's adjustment across the exact-set contrasts. Seeds: ${r.inference.seed}:<contrast>:<metric>.`;
  return section('inference', 'Inference: condition contrasts', p(text) + table(rows, 'Adjacent condition contrasts', r.simulated));
}

function agreementHtml(r: StudyResults): string {
  const row = (g: string, a: { pairs: number; exact_agreement: number | null; mean_jaccard: number | null }) => ({ group: g, pairs: a.pairs, 'identical sets %': pct(a.exact_agreement), 'mean Jaccard %': pct(a.mean_jaccard) });
  const rows = [row('all', r.order_agreement), ...r.order_agreement_by_model.map((m) => row(m.group, m))];
  const note = r.order_agreement.pairs === 0 ? p('No cell has valid responses under two presentation orders (a design with one order, or no valid responses), so agreement is not defined.') : '';
  return section('order-agreement', 'Agreement across presentation orders', note + table(rows, 'Valid responses of one model, condition and state under different presentation orders', r.simulated));
}

function graphsHtml(r: StudyResults): string {
  if (!r.graphs) return section('p1-graphs', 'P1 graph verdicts', p('No valid P1 response carries the graph the model reconstructed (no P1 condition, or imported responses without a prerequisites column), so there are no verdicts.'));
  const row = (g: StudyResults['graphs'] & object, x: (typeof g.by_model)[number]) => ({
    group: x.group,
    responses: x.responses,
    correct: x.correct,
    'wrong structure applied': x['wrong-structure'],
    inconsistent: x.inconsistent,
    'graph = cover relation': x.direct_exact,
    cyclic: x.cyclic,
  });
  const g = r.graphs;
  const text = `Each valid P1 response's own graph is checked: (a) correct recommendation; (b) wrong, but the fringe its own graph implies; (c) inconsistent with its own graph. ${g.invalid} invalid and ${g.missing} missing P1 responses have no usable graph.`;
  return section('p1-graphs', 'P1 graph verdicts', p(text) + table([...g.overall, ...g.by_model].map((x) => row(g, x)), 'P1 verdicts, all responses and by model', r.simulated, 0) + table(g.by_domain.map((x) => row(g, x)), 'P1 verdicts by domain', r.simulated, 0));
}

function figuresHtml(r: StudyResults, svgs: ReadonlyMap<string, string>): string {
  const blocks = studyFigureSpecs(r).map((f) => {
    if (!svgs.has(f.name)) throw new InputError(`figure ${f.name}: not drawn yet; run: kstbench study figures`, { item: f.name });
    return `<figure id="${f.name}">\n<img src="figures/${f.name}.svg" alt="${escapeHtml(markSimulated(f.title, r.simulated, 'responses'))}">\n<figcaption>${escapeHtml(f.caption)} <a href="figures/${f.name}.png">PNG</a></figcaption>\n</figure>\n`;
  });
  return section('figures', 'Figures', blocks.join(''));
}

function ratingsHtml(x: NonNullable<StudyResults['ratings']>): string {
  const row = { ratings: x.ratings, cases: x.cases, raters: x.raters, 'meaningful improvement %': x.meaningful_improvement, 'weaknesses resolved %': x.weaknesses_resolved };
  const text = `Human ratings of the PSI regenerations read from ${x.file} (lib/psi/ratings.ts form): the share of verdicts saying yes on each criterion, over every rating (a case counts once per rater).`;
  return section('ratings', 'Human ratings of the regenerated cases (Table VI-like)', p(text) + toHtmlTable(toTable([row]), { caption: markSimulated('Rates of the ratings file', x.simulated, 'ratings'), digits: 1 }));
}

const PAPER_TITLES: Record<string, string> = { 'KST-2026': '[KST-2026] (KST benchmark)', 'PSI-2026': '[PSI-2026] (Pedagogical Suitability Index)' };

/**
 * Only for a study that declares it replicates a paper: the paper's printed numbers beside the computed
 * ones, with the status by the one rule of lib/claims (the same ledger as the notebooks' claims cells).
 */
function paperHtml(papers: NonNullable<StudyResults['paper_claims']>): string {
  const intro = p(
    'This study declares that it replicates the paper(s) below, so their printed numbers are set beside the ones computed from this study\'s data. ' +
      'Each status comes from the one rule of lib/claims/rule.ts: on collected data match / close / differs; on simulated data against the spread of the simulator\'s replicate corpora (within- / outside-simulation-spread).',
  );
  const blocks = papers.map((x) => {
    const note = x.note === null ? '' : p(x.note);
    const counts = [...new Set(x.rows.map((r) => r.status))].map((st) => `${x.rows.filter((r) => r.status === st).length} ${st}`).join(', ');
    const rows = x.rows.map((r) => ({ claim: r.id, where: r.where, 'what is claimed': r.claim, paper: r.paper, computed: r.computed, simulation: r.simulation, basis: r.basis, status: r.status, note: r.note }));
    const body = rows.length === 0 ? '' : p(`${rows.length} claims: ${counts}.`) + toHtmlTable(toTable(rows), { caption: `Claims of ${PAPER_TITLES[x.paper] ?? x.paper}: paper beside computed` });
    return `<h3>${escapeHtml(PAPER_TITLES[x.paper] ?? x.paper)}</h3>\n${note}${body}`;
  });
  return section('paper', 'Beside the paper', intro + blocks.join(''));
}

const STYLE = `body{font-family:"Open Sans",Arial,sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 8px}caption{text-align:left;font-weight:600;padding:4px 0}
figure{margin:1.5em 0}figure img{max-width:100%;height:auto;border:1px solid #eee}.notice{background:#fff3cd;border:1px solid #e0c36b;padding:8px 12px}nav a{margin-right:1em}`;

function noticeHtml(r: StudyResults): string {
  if (!r.simulated) return p(`All ${r.counts.responses.toLocaleString('en-US')} responses come from the models named below (collected or imported); none is simulated.`);
  const k = r.counts.simulated.toLocaleString('en-US');
  const n = r.counts.responses.toLocaleString('en-US');
  // With real models beside the simulated ones, their own rows are not a simulation: say that the
  // pooled numbers mix the two (lib/report/simulated.ts words the notebooks' notice the same way).
  const real = r.models.filter((m) => !m.startsWith('simulated:')).join(', ');
  if (r.counts.simulated < r.counts.responses && real !== '') {
    return `<p class="notice"><strong>Partly simulated data.</strong> ${k} of ${n} responses come from the simulated respondent (simulated:sim-…), not from a language model; the others from ${escapeHtml(real)}. Tables and figures marked SIMULATED include simulated responses: their pooled numbers mix them with the others, while the per-model rows of ${escapeHtml(real)} describe those models alone.</p>\n`;
  }
  return `<p class="notice"><strong>Simulated data.</strong> All ${n} responses come from the simulated respondent (simulated:sim-…), not from a language model. Every number, table and figure below describes that simulation.</p>\n`;
}

/** The notice of a collection that did not complete (the analysis covers only what was recorded). */
function unfinishedHtml(study: Study, r: StudyResults): string {
  const c = r.collection;
  if (!c) return '';
  const reason = c.reason ? ` (${c.reason})` : '';
  const cells = c.cells === null ? '' : ` of the ${c.cells.toLocaleString('en-US')} cells in its design`;
  return (
    `<p class="notice"><strong>Collection not complete.</strong> ${escapeHtml(c.dir)}/run.json says <code>${escapeHtml(c.status)}</code>${escapeHtml(reason)}. ` +
    `Every number below covers only the ${r.counts.responses.toLocaleString('en-US')} responses recorded${cells} (${r.counts.missing.toLocaleString('en-US')} of them missing). ` +
    `Finish it with <code>kstbench study collect ${escapeHtml(study.dir)}</code> (with <code>--retry-missing</code> for missing cells), then analyse again.</p>\n`
  );
}

/** The report page (pure: results and the drawn SVGs in, HTML out). */
export function reportHtml(study: Study, r: StudyResults, svgs: ReadonlyMap<string, string>): string {
  const d = study.manifest.design;
  const states = d.states === 'all' ? 'every knowledge state' : `a seeded sample (${d.states.sample} draws per domain, seed ${d.states.seed})`;
  const repeats = r.repeats ? ` ${r.repeats.length} repeats per cell, each collected into its own folder (${r.repeats.map((x) => `${x.dir}: collector seed ${x.collector_seed}${x.simulated_seed_suffix ? `, simulated seed suffix ${x.simulated_seed_suffix}` : ''}`).join('; ')}), pooled at the state level.` : '';
  const design = `Design: ${states}; conditions ${d.conditions.join(', ')}; ${d.orders} presentation order(s); ${r.models.length} model(s): ${r.models.join(', ')}.${repeats} Responses: ${r.counts.responses} (${r.counts.valid} valid, ${r.counts.invalid} invalid, ${r.counts.missing} missing).`;
  const sections = ['table-1', 'table-3', 'table-4', 'figures', 'inference', 'order-agreement', 'p1-graphs', ...(r.ratings ? ['ratings'] : []), ...(r.paper_claims ? ['paper'] : []), 'provenance'];
  const nav = sections.map((id) => `<a href="#${id}">${id}</a>`).join('');
  const responseFiles = r.repeats ? r.repeats.map((x) => x.responses) : [r.inputs.responses];
  const inputs = [...responseFiles.map((x) => ({ file: x.file, sha256: x.sha256 })), ...r.inputs.domains.map((x) => ({ file: x.file ?? x.id, sha256: x.sha256 }))];
  const provenance = section(
    'provenance',
    'Provenance',
    p(`Collector seed ${d.seed}; inference seed ${r.inference.seed}. Tables as CSV: `) +
      `<ul>\n${['table1', 'table3', 'table4', 'domain_condition', 'contrasts', 'order_agreement'].map((n) => `<li><a href="data/${n}.csv">${n}.csv</a></li>`).join('\n')}\n</ul>\n` +
      toHtmlTable(toTable(inputs), { caption: 'Input files and their SHA-256' }),
  );
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(r.title)}</title>`,
    `<style>${STYLE}</style></head><body>`,
    `<h1>${escapeHtml(r.title)}</h1>`,
    noticeHtml(r),
    unfinishedHtml(study, r),
    p(design),
    `<nav>${nav}</nav>`,
    tablesHtml(r),
    figuresHtml(r, svgs),
    inferenceHtml(r),
    agreementHtml(r),
    graphsHtml(r),
    ...(r.ratings ? [ratingsHtml(r.ratings)] : []),
    ...(r.paper_claims ? [paperHtml(r.paper_claims)] : []),
    provenance,
    '</body></html>',
    '',
  ].join('\n');
}

function readDir(dir: string, what: string, study: Study): string[] {
  try {
    return readdirSync(dir);
  } catch (err) {
    if (isOsError(err) && err.code === 'ENOENT') throw new InputError(`${dir}: no ${what} yet; run: kstbench study ${what === 'figures' ? 'figures' : 'analyze'} ${study.dir}`, { file: dir });
    throw err;
  }
}

/** Builds `<report>/index.html` with its figures and CSV copies, all written together. Returns the page path. */
export function buildStudyReport(study: Study): string {
  const results = readStudyResults(study);
  const figDir = join(study.paths.output, 'figures');
  const names = readDir(figDir, 'figures', study);
  const svgs = new Map(names.filter((n) => n.endsWith('.svg')).map((n) => [n.slice(0, -4), readFileNamed(join(figDir, n)).toString('utf8')]));
  const html = reportHtml(study, results, svgs);
  const out = study.paths.report;
  const files: Array<{ path: string; data: string | Uint8Array }> = [{ path: join(out, 'index.html'), data: html }];
  for (const f of studyFigureSpecs(results)) {
    files.push({ path: join(out, 'figures', `${f.name}.svg`), data: svgs.get(f.name)! }, { path: join(out, 'figures', `${f.name}.png`), data: readFileNamed(join(figDir, `${f.name}.png`)) });
  }
  const analysisDir = join(study.paths.output, 'analysis');
  for (const n of ['table1', 'table3', 'table4', 'domain_condition', 'contrasts', 'order_agreement']) {
    files.push({ path: join(out, 'data', `${n}.csv`), data: readFileNamed(join(analysisDir, `${n}.csv`)) });
  }
  writeFilesAtomic(files);
  return join(out, 'index.html');
}
