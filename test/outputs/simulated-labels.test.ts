/**
 * The sweep over every output the notebooks leave behind (`npm run reproduce`): each CSV under
 * data/processed has its sidecar, each table caption and figure manifest says "simulated" exactly when
 * the notebook that wrote it reads simulated records. Which notebook reads what comes from the
 * notebooks' own parameter cells, and whether those inputs are simulated from the records' own
 * `simulated` flags — not from a list of outputs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { table1 } from '../../lib/analysis';
import { auditKstPaper } from '../../lib/audit';
import { toCsv, toTable } from '../../lib/figures/table';
import { escapeHtml } from '../../lib/io/html';
import { readJsonl } from '../../lib/io/jsonl';
import { loadDomainDir } from '../../lib/kst';
import { CsvMetaSchema, csvMetaPath, type CsvMeta } from '../../lib/records/csv-meta';
import { loadPublishedKst } from '../../lib/records/published-kst';
import { parseCsvRows } from '../support/files';
import { notebookRecords } from '../support/notebook-records';

const ROOT = join(__dirname, '..', '..');
const at = (...p: string[]) => join(ROOT, ...p);

interface NotebookInputs {
  file: string;
  source: string;
  /** The string values of the parameter cell (paths among them). */
  parameters: string[];
  /** The record files (JSON Lines under data/raw) the parameters name, directly or as a folder. */
  recordFiles: string[];
  simulated: boolean;
}

/** True when any record of a JSON Lines file says `simulated: true` (the run's own provenance). */
function fileIsSimulated(file: string): boolean {
  return readJsonl(file).lines.some((l) => (l.value as { simulated?: unknown }).simulated === true);
}

function notebookInputs(): NotebookInputs[] {
  return readdirSync(at('notebooks'))
    .filter((n) => n.endsWith('.ipynb'))
    .sort()
    .map((name) => {
      const { parameters, source, recordFiles } = notebookRecords(ROOT, name);
      return { file: name, source, parameters, recordFiles, simulated: recordFiles.some((f) => fileIsSimulated(at(f))) };
    });
}

/**
 * Tables that a notebook reading simulated records writes from something else, each with the reason.
 * The ones that can be rebuilt here without the records are rebuilt and compared below.
 */
const NOT_FROM_RECORDS: Record<string, string> = {
  '00-audit-kst-paper': 'the published numbers checked against each other',
  'kst/table1': "Table 1 is computed from the domain files (kstbench analyze's table1.csv)",
  'psi-10-explained-weak': 'a hand-written weak answer scored',
  'psi-10-concepts-weak': 'a hand-written weak answer scored',
  'psi-10-diagnosis-weak': 'a hand-written weak answer diagnosed',
  'psi-10-explained-yours': "the reader's own (hand-written) answer scored",
};

/** The rows of a CSV the project wrote (test/support parseCsvRows), which ends with a newline. */
function parseCsv(text: string): string[][] {
  assert.ok(text === '' || text.endsWith('\n'), 'CSV ends with a newline');
  return parseCsvRows(text);
}

interface Labelled {
  key: string;
  csv: string;
  meta: CsvMeta;
  writer: NotebookInputs;
}

function labelledCsvs(notebooks: NotebookInputs[]): Labelled[] {
  const out: Labelled[] = [];
  const tablesDir = at('data', 'processed', 'tables');
  for (const name of readdirSync(tablesDir).filter((n) => n.endsWith('.csv')).sort()) {
    const stem = name.slice(0, -4);
    const writers = notebooks.filter((nb) => nb.source.includes(`"${stem}"`));
    assert.equal(writers.length, 1, `${name}: written by exactly one notebook (found ${writers.map((w) => w.file).join(', ') || 'none'})`);
    out.push({ key: stem, csv: join(tablesDir, name), meta: readMeta(join(tablesDir, name)), writer: writers[0]! });
  }
  // data/processed/kst/*.csv: written by the notebook whose outDir parameter names that folder.
  const kstDir = at('data', 'processed', 'kst');
  const kstWriters = notebooks.filter((nb) => nb.parameters.includes('data/processed/kst'));
  assert.equal(kstWriters.length, 1, 'one notebook writes data/processed/kst');
  for (const name of readdirSync(kstDir).filter((n) => n.endsWith('.csv')).sort()) {
    out.push({ key: `kst/${name.slice(0, -4)}`, csv: join(kstDir, name), meta: readMeta(join(kstDir, name)), writer: kstWriters[0]! });
  }
  return out;
}

function readMeta(csv: string): CsvMeta {
  const file = csvMetaPath(csv);
  assert.ok(existsSync(file), `${basename(csv)} has its sidecar ${basename(file)}`);
  return CsvMetaSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

test('the committed record inputs are simulated, so the sweep below has labels to find', () => {
  const notebooks = notebookInputs();
  // Not an assumption the sweep relies on (it reads the flags), but a sweep over an all-collected run
  // would check only the "not simulated" side.
  assert.ok(notebooks.some((n) => n.simulated) && notebooks.some((n) => !n.simulated && n.file.startsWith('01-')));
  assert.ok(fileIsSimulated(at('data/raw/kst/extracted.jsonl')) && fileIsSimulated(at('data/raw/psi/round1.jsonl')));
});

test('every CSV under data/processed has a sidecar that describes it and is labelled by its notebook inputs', () => {
  const notebooks = notebookInputs();
  const csvs = labelledCsvs(notebooks);
  assert.ok(csvs.length >= 80, `${csvs.length} CSVs found`);
  const exceptionsSeen = new Set<string>();
  for (const { key, csv, meta, writer } of csvs) {
    const rows = parseCsv(readFileSync(csv, 'utf8'));
    assert.equal(meta.csv, basename(csv), `${key}: sidecar names its CSV`);
    assert.deepEqual(meta.columns, rows[0], `${key}: sidecar columns = CSV header`);
    assert.equal(meta.rows, rows.length - 1, `${key}: sidecar rows = CSV data rows`);
    if (!writer.simulated) {
      assert.equal(meta.simulated, false, `${key}: ${writer.file} reads no simulated records (${writer.recordFiles.join(', ') || 'none'}), yet the table says simulated`);
    } else if (key in NOT_FROM_RECORDS) {
      exceptionsSeen.add(key);
      assert.equal(meta.simulated, false, `${key} is made from ${NOT_FROM_RECORDS[key]}, not from records`);
    } else {
      assert.equal(meta.simulated, true, `${key}: ${writer.file} reads simulated records (${writer.recordFiles.join(', ')}), but the table is not labelled simulated`);
    }
  }
  assert.deepEqual([...exceptionsSeen].sort(), Object.keys(NOT_FROM_RECORDS).sort(), 'every listed exception is a table of a notebook that reads simulated records');
});

test('each HTML caption carries the title mark exactly when its sidecar says simulated', () => {
  const tablesDir = at('data', 'processed', 'tables');
  let marked = 0;
  for (const name of readdirSync(tablesDir).filter((n) => n.endsWith('.csv'))) {
    const meta = readMeta(join(tablesDir, name));
    const html = readFileSync(join(tablesDir, name.replace(/\.csv$/, '.html')), 'utf8');
    const caption = /<caption>(.*?)<\/caption>/.exec(html)?.[1] ?? null;
    assert.equal(caption, meta.title === null ? null : escapeHtml(meta.title), `${name}: caption = sidecar title`);
    assert.equal(/ — SIMULATED /.test(caption ?? ''), meta.simulated, `${name}: caption ${JSON.stringify(caption)} vs simulated ${meta.simulated}`);
    if (meta.simulated) marked++;
  }
  assert.ok(marked > 0);
});

test('the tables listed as not made from records are rebuilt from their own inputs alone', () => {
  const published = loadPublishedKst(at('data/published/kst-benchmark-2026.json'));
  const audit = auditKstPaper(published).map((c) => ({ check: c.id, where: c.where, claim: c.claim, computed: c.computed, ok: c.ok }));
  assert.equal(readFileSync(at('data/processed/tables/00-audit-kst-paper.csv'), 'utf8'), toCsv(toTable(audit)));
  const t1 = table1(loadDomainDir(at('data/raw/domains')));
  const csv = parseCsv(readFileSync(at('data/processed/kst/table1.csv'), 'utf8'));
  assert.deepEqual(csv.slice(1), t1.map((r) => [r.domain, String(r.components), String(r.states), String(r.terminal_states)]));
});

test('every figure manifest says simulated exactly when the notebook that drew it reads simulated records', () => {
  const notebooks = notebookInputs();
  const manifests = readdirSync(at('figures')).filter((n) => n.endsWith('.json'));
  assert.ok(manifests.length > 0);
  for (const name of manifests) {
    const manifest = JSON.parse(readFileSync(at('figures', name), 'utf8')) as { name: string; simulated: boolean; title: string };
    // Names are literal ("05-figure-2-…") or a template whose fixed part starts the name ("06-bootstrap-${…}").
    const writers = notebooks.filter(
      (nb) => nb.source.includes(`"${manifest.name}"`) || [...nb.source.matchAll(/`([^`$]+)\$\{/g)].some((m) => manifest.name.startsWith(m[1]!) && /^\d\d-/.test(m[1]!)),
    );
    assert.equal(writers.length, 1, `${name}: drawn by exactly one notebook (${writers.map((w) => w.file).join(', ') || 'none'})`);
    assert.equal(manifest.simulated, writers[0]!.simulated, `${name}: simulated ${manifest.simulated}, its notebook ${writers[0]!.file} reads simulated records: ${writers[0]!.simulated}`);
    assert.equal(manifest.title.endsWith('(simulated data)'), manifest.simulated, `${name}: drawn title marks simulated data`);
  }
});
