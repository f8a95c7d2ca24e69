/**
 * `npm run report`: builds the reviewers' static site report/ from the executed notebooks
 * (notebooks/*.ipynb, as `npm run reproduce` left them) and environment.md, with the project's own
 * TypeScript (lib/site) — no Python, no Jupyter. `npm run reproduce` runs it after a full run.
 *
 *   node dist/scripts/report.js [--from DIR] [--out DIR] [--stamp-commit] [--check] [--fingerprint]
 *
 * `--from DIR` builds the report of a run kept apart (`npm run reproduce -- --output-dir DIR`): the
 * executed notebooks and environment.md it left in DIR, into DIR/report unless `--out` says otherwise.
 *
 * The committed report/ names no commit (a file cannot contain the hash of the commit it is in, and a
 * re-run must rebuild it byte for byte); it carries a fingerprint of its sources instead.
 * `--stamp-commit` adds `git rev-parse HEAD` for a copy published elsewhere.
 */
import { expectedFailure } from '../cli/common';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { InputError } from '../lib/errors';
import { writeFileAtomic, writeFilesAtomic } from '../lib/io/atomic';
import { readUtf8File } from '../lib/io/read';
import { parseEnvironment, type EnvironmentTables } from '../lib/notebook/environment';
import { cellSource, readNotebook, type Notebook } from '../lib/notebook/ipynb';
import { projectRoot } from '../lib/notebook/project';
import { buildSite, fingerprint, type SiteNotebook } from '../lib/site/build';

/** Where `reproduce --output-dir DIR` writes the executed notebooks: DIR/notebooks/. */
export const OUTPUT_DIR_NOTEBOOKS = 'notebooks';

export const HELP = `usage: npm run report -- [--from DIR] [--out DIR] [--stamp-commit] [--check] [--fingerprint]

Builds report/ (index.html, one page per notebook, environment.html) from the executed notebooks and
environment.md. Open report/index.html in a browser; it works from file:// and offline.

  --from DIR       build from a run kept apart (npm run reproduce -- --output-dir DIR): its executed
                   notebooks DIR/${OUTPUT_DIR_NOTEBOOKS}/*.ipynb (DIR/*.ipynb, as earlier versions wrote
                   them, when that folder is missing) and DIR/environment.md (default out: DIR/report)
  --out DIR        where to write the site (default report, or DIR/report with --from)
  --stamp-commit   print the current git commit in the pages (for a published copy; not committed)
  --check          write nothing; exit 1 when DIR differs from what would be built
  --fingerprint    print the source fingerprint and exit
  -h, --help       this text
`;

/** Folders and files whose contents the report was computed from (the notebooks by their sources only). */
const SOURCES = ['lib', 'scripts', 'cli', 'bin', 'config', 'data/raw', 'data/published', 'data/replicates', 'package.json', 'package-lock.json', 'tsconfig.json'];

function walk(root: string, rel: string): string[] {
  const abs = join(root, rel);
  if (!existsSync(abs)) return [];
  if (!statSync(abs).isDirectory()) return [rel];
  return readdirSync(abs)
    .filter((n) => !n.startsWith('.'))
    .sort()
    .flatMap((n) => walk(root, `${rel}/${n}`));
}

/** The notebooks' cells without outputs or execution counts: what a notebook's author wrote. */
function notebookSource(nb: Notebook): string {
  return JSON.stringify(nb.cells.map((c) => [c.cell_type, cellSource(c)]));
}

/**
 * SHA-256 over the code, the inputs and the notebooks' sources (not their outputs, not the report):
 * two checkouts with the same fingerprint ran the same code on the same data.
 */
export function sourceFingerprint(root: string, notebooks: readonly SiteNotebook[]): string {
  const files = SOURCES.flatMap((s) => walk(root, s)).map((name) => ({ name, data: readFileSync(join(root, name)) }));
  const nbs = notebooks.map((n) => ({ name: n.file, data: notebookSource(n.notebook) }));
  return fingerprint([...files, ...nbs]);
}

/** The executed notebooks of notebooks/, in file-name order. */
export function readSiteNotebooks(root: string): SiteNotebook[] {
  const dir = join(root, 'notebooks');
  if (!existsSync(dir)) throw new InputError(`${relative(process.cwd(), dir) || dir}: notebooks folder not found`, { file: dir });
  return readdirSync(dir)
    .filter((n) => n.endsWith('.ipynb') && !n.startsWith('.'))
    .sort()
    .map((n) => ({ file: `notebooks/${n}`, notebook: readNotebook(join(dir, n)) }));
}

/**
 * The executed notebooks a run kept apart left in `dir` (`reproduce --output-dir dir` writes them to
 * dir/notebooks/; a run of an earlier version, which wrote them flat into dir, is read there), in file-name order, each under the path its environment.md rows name it by (the
 * notebook that ran, e.g. `notebooks/04-table3-figure1.ipynb`), so its page finds its parameters and
 * seeds; `notebooks/<name>` when environment.md does not name it.
 */
export function readOutputDirNotebooks(dir: string, environment: EnvironmentTables): SiteNotebook[] {
  const named = new Map<string, string>();
  for (const row of [...(environment['Notebook parameters'] ?? []), ...(environment['Seeds'] ?? [])]) {
    const file = row[0]!;
    named.set(file.split('/').pop()!, file);
  }
  const nested = join(dir, OUTPUT_DIR_NOTEBOOKS);
  const folder = existsSync(nested) && statSync(nested).isDirectory() ? nested : dir;
  return readdirSync(folder)
    .filter((n) => n.endsWith('.ipynb') && !n.startsWith('.'))
    .sort()
    .map((n) => ({ file: named.get(n) ?? `notebooks/${n}`, notebook: readNotebook(join(folder, n)) }));
}

/**
 * The inputs of the site of a run kept apart in `dir` (see {@link readOutputDirNotebooks}): its
 * notebooks and environment.md. A folder that is not such a run is an error naming what is missing.
 */
export function outputDirInputs(dir: string): { notebooks: SiteNotebook[]; environmentMarkdown: string } {
  const shown = relative(process.cwd(), dir) || '.';
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new InputError(`--from ${shown}: no such folder`, { file: dir });
  const envFile = join(dir, 'environment.md');
  if (!existsSync(envFile)) {
    throw new InputError(`--from ${shown}: no environment.md in it (npm run reproduce -- --output-dir ${shown} writes one)`, { file: envFile });
  }
  const environmentMarkdown = readUtf8File(envFile, (reason) => `--from ${shown}: cannot read environment.md (${reason})`);
  const notebooks = readOutputDirNotebooks(dir, parseEnvironment(environmentMarkdown));
  if (notebooks.length === 0) throw new InputError(`--from ${shown}: no executed notebook (*.ipynb) in it or in its ${OUTPUT_DIR_NOTEBOOKS}/`, { file: dir });
  return { notebooks, environmentMarkdown };
}

/** Every file of the site for the project at `root` (notebooks as given, or read from notebooks/). */
export function siteFiles(root: string, options: { notebooks?: SiteNotebook[]; environmentMarkdown?: string; commit?: string } = {}): Map<string, string | Buffer> {
  const notebooks = options.notebooks ?? readSiteNotebooks(root);
  const envFile = join(root, 'environment.md');
  let environmentMarkdown = options.environmentMarkdown;
  if (environmentMarkdown === undefined) {
    if (!existsSync(envFile)) throw new InputError('environment.md not found: run `npm run reproduce` first', { file: envFile });
    environmentMarkdown = readUtf8File(envFile, (reason) => `environment.md: cannot read it (${reason})`);
  }
  return buildSite({
    notebooks,
    environmentMarkdown,
    environment: parseEnvironment(environmentMarkdown),
    sourceFingerprint: sourceFingerprint(root, notebooks),
    ...(options.commit ? { commit: options.commit } : {}),
    plotlyBundle: () => readFileSync(require.resolve('plotly.js-dist-min/plotly.min.js'), 'utf8'),
    katexAssets,
  });
}

/**
 * KaTeX's stylesheet and its WOFF2 fonts from the installed package (every browser the report
 * targets reads WOFF2, so the WOFF and TTF fallbacks are left out of the copy and of the CSS).
 */
export function katexAssets(): Map<string, string | Buffer> {
  const dist = dirname(require.resolve('katex/dist/katex.min.css'));
  const css = readFileSync(join(dist, 'katex.min.css'), 'utf8').replace(/,url\(fonts\/[^)]+\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)/g, '');
  const out = new Map<string, string | Buffer>([['katex.min.css', css]]);
  for (const font of readdirSync(join(dist, 'fonts')).filter((f) => f.endsWith('.woff2')).sort()) out.set(`fonts/${font}`, readFileSync(join(dist, 'fonts', font)));
  return out;
}

function filesUnder(dir: string): string[] {
  return walk(dir, '.').map((f) => f.slice(2));
}

/** Files of `dir` that differ from `files` (missing, different or extra), relative to `dir`. */
export function siteDifferences(dir: string, files: ReadonlyMap<string, string | Buffer>): string[] {
  const out: string[] = [];
  for (const [name, data] of files) {
    const path = join(dir, name);
    if (!existsSync(path) || !readFileSync(path).equals(typeof data === 'string' ? Buffer.from(data, 'utf8') : data)) out.push(name);
  }
  if (existsSync(dir)) for (const name of filesUnder(dir)) if (!files.has(name)) out.push(name);
  return out.sort();
}

/**
 * Writes the site to `dir` as one unit (writeFilesAtomic: every file staged before any is renamed, so a
 * full disk or a blocked path leaves the old site whole, not new pages beside old ones), then removes
 * files of an older build that are gone.
 */
export function writeSite(dir: string, files: ReadonlyMap<string, string | Buffer>): void {
  writeFilesAtomic([...files].map(([name, data]) => ({ path: join(dir, ...name.split('/')), data })));
  for (const name of filesUnder(dir)) {
    if (!files.has(name)) {
      rmSync(join(dir, name), { force: true });
      const parent = join(dir, name, '..');
      if (parent !== dir && readdirSync(parent).length === 0) rmdirSync(parent);
    }
  }
}

function gitCommit(root: string): string {
  const r = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new InputError(`--stamp-commit: git rev-parse HEAD failed in ${root}: ${(r.stderr || String(r.error)).trim()}`);
  return r.stdout.trim();
}

export function main(argv: string[]): number {
  try {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        from: { type: 'string' },
        out: { type: 'string' },
        'stamp-commit': { type: 'boolean' },
        check: { type: 'boolean' },
        fingerprint: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const root = projectRoot();
    const from = values.from === undefined ? undefined : resolve(values.from);
    if (values.fingerprint) {
      const notebooks = from === undefined ? readSiteNotebooks(root) : outputDirInputs(from).notebooks;
      process.stdout.write(`${sourceFingerprint(root, notebooks)}\n`);
      return 0;
    }
    const out = resolve(values.out ?? (from === undefined ? join(root, 'report') : join(from, 'report')));
    const stamp = values['stamp-commit'] ? { commit: gitCommit(root) } : {};
    const files = siteFiles(root, { ...stamp, ...(from === undefined ? {} : outputDirInputs(from)) });
    const rel = relative(root, out).split(sep).join('/');
    const shown = rel === '' ? '.' : rel.startsWith('..') ? out : rel;
    if (values.check) {
      const diff = siteDifferences(out, files);
      if (diff.length > 0) {
        process.stderr.write(`report: ${shown} is not what the notebooks build (${diff.length} file(s): ${diff.slice(0, 5).join(', ')}${diff.length > 5 ? ', …' : ''}); run npm run report\n`);
        return 1;
      }
      process.stdout.write(`${shown} is up to date (${files.size} files)\n`);
      return 0;
    }
    writeSite(out, files);
    process.stdout.write(`wrote ${shown}/ (${files.size} files); open ${shown}/index.html\n`);
    return 0;
  } catch (err) {
    const code = expectedFailure('report', err, `\n${HELP}`);
    if (code !== null) return code;
    throw err;
  }
}

if (require.main === module) process.exit(main(process.argv.slice(2)));
