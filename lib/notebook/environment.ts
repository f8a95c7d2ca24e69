import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import type { ParameterValues } from './parameters';
import { z } from 'zod';
import { readJsonFile } from '../io/json';

/**
 * environment.md: what a reader needs to re-create the results — software versions, the parameters
 * and seeds every notebook ran with, and a SHA-256 of every raw input file. Nothing time-dependent
 * goes in, so two runs on one machine write the same bytes.
 */

export interface RawInput {
  path: string; // relative to the project root, '/'-separated
  bytes: number;
  sha256: string;
}

export interface EnvironmentInfo {
  node: string;
  npm: string;
  os: string;
  chromium: string;
  tslab: { version: string; typescript: string };
  packages: Array<{ name: string; wanted: string; installed: string }>;
  notebooks: Array<{ file: string; parameters: ParameterValues }>;
  rawInputs: RawInput[];
}

/** SHA-256 (hex) of a file's bytes. */
export function sha256File(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** Every file under `dir` (recursively, dot-files skipped), sorted by path, with size and SHA-256. */
export function hashRawInputs(root: string, dir: string): RawInput[] {
  if (!existsSync(dir)) return [];
  const walk = (d: string): string[] =>
    readdirSync(d)
      .filter((n) => !n.startsWith('.'))
      .sort()
      .flatMap((n) => {
        const p = join(d, n);
        return statSync(p).isDirectory() ? walk(p) : [p];
      });
  return walk(dir)
    .map((p) => ({ path: relative(root, p).split('\\').join('/'), bytes: statSync(p).size, sha256: sha256File(p) }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return readJsonFile(file, z.record(z.string(), z.unknown()));
  } catch {
    return undefined;
  }
}

/**
 * The distribution and platform, without the kernel release: that is the host's (a container or VM
 * gets a different one from run to run), it changes no output, and it would make environment.md differ
 * on every machine.
 */
function osName(): string {
  const osRelease = existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '';
  const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(osRelease)?.[1];
  return `${pretty ? `${pretty}, ` : ''}${platform()} ${arch()}`;
}

function commandVersion(command: string, args: string[]): string {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 20000 });
  return r.status === 0 ? r.stdout.trim().split('\n').pop()!.trim() : 'not available';
}

/** npm's version: from npm's user agent when run through npm, else by asking npm. */
function npmVersion(): string {
  const agent = /npm\/(\S+)/.exec(process.env['npm_config_user_agent'] ?? '');
  return agent ? agent[1]! : commandVersion('npm', ['--version']);
}

/** Gathers the facts for environment.md (reads package.json files, hashes data/raw, asks for versions). */
export function collectEnvironment(
  root: string,
  notebooks: Array<{ file: string; parameters: ParameterValues }>,
  options: { chromium?: string } = {},
): EnvironmentInfo {
  const pkg = readJson(join(root, 'package.json')) ?? {};
  const wanted = {
    ...((pkg['dependencies'] as Record<string, string>) ?? {}),
    ...((pkg['devDependencies'] as Record<string, string>) ?? {}),
  };
  const packages = Object.keys(wanted)
    .sort()
    .map((name) => ({
      name,
      wanted: wanted[name]!,
      installed: String(readJson(join(root, 'node_modules', name, 'package.json'))?.['version'] ?? 'not installed'),
    }));
  return {
    node: process.version,
    npm: npmVersion(),
    os: osName(),
    chromium: options.chromium ?? 'not recorded',
    tslab: {
      version: String(readJson(join(root, 'node_modules', 'tslab', 'package.json'))?.['version'] ?? 'not installed'),
      typescript: String(
        readJson(join(root, 'node_modules', '@tslab', 'typescript-for-tslab', 'package.json'))?.['version'] ?? 'not installed',
      ),
    },
    packages,
    notebooks: notebooks.map((n) => ({ file: n.file, parameters: n.parameters })),
    rawInputs: hashRawInputs(root, join(root, 'data', 'raw')),
  };
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** environment.md as Markdown (pure: the same info gives the same bytes). */
export function renderEnvironment(info: EnvironmentInfo): string {
  const lines: string[] = [
    '# Environment',
    '',
    'Written by `npm run reproduce` (scripts/reproduce.ts) after every notebook ran; do not edit by hand.',
    '',
    '## Software',
    '',
    '| what | version |',
    '| --- | --- |',
    `| Node.js | ${cell(info.node)} |`,
    `| npm | ${cell(info.npm)} |`,
    `| operating system | ${cell(info.os)} |`,
    `| Chromium (figure export) | ${cell(info.chromium)} |`,
    `| tslab (notebook kernel) | ${cell(info.tslab.version)} |`,
    `| TypeScript inside tslab | ${cell(info.tslab.typescript)} |`,
    '',
    '## Packages',
    '',
    '| package | range in package.json | installed |',
    '| --- | --- | --- |',
    ...info.packages.map((p) => `| ${cell(p.name)} | ${cell(p.wanted)} | ${cell(p.installed)} |`),
    '',
    '## Seeds',
    '',
  ];
  const seeds = info.notebooks.flatMap((n) =>
    Object.entries(n.parameters)
      .filter(([name]) => /seed/i.test(name))
      .map(([name, value]) => `| ${cell(n.file)} | ${cell(name)} | \`${cell(JSON.stringify(value))}\` |`),
  );
  if (seeds.length === 0) lines.push('No notebook parameter names a seed.');
  else lines.push('| notebook | parameter | value |', '| --- | --- | --- |', ...seeds);
  // A seed left at "" is derived (the study's design or analysis seed): say so, since the table cannot show the value drawn with.
  const derived = info.notebooks.some((n) => Object.entries(n.parameters).some(([name, value]) => /seed/i.test(name) && value === ''));
  if (derived) lines.push('', 'A seed `""` takes the study\'s own (study.json `design.seed` or `analysis.seed`, docs/study-notebooks.md); the notebook prints the seed it drew with.');
  lines.push('', '## Notebook parameters', '');
  const params = info.notebooks.flatMap((n) =>
    Object.entries(n.parameters).map(([name, value]) => `| ${cell(n.file)} | ${cell(name)} | \`${cell(JSON.stringify(value))}\` |`),
  );
  if (info.notebooks.length === 0) lines.push('No notebooks.');
  else if (params.length === 0) lines.push('The notebooks have no parameters.');
  else lines.push('| notebook | parameter | value |', '| --- | --- | --- |', ...params);
  lines.push('', '## Raw inputs', '', 'SHA-256 of every file under `data/raw/`.', '');
  if (info.rawInputs.length === 0) lines.push('No raw input files.');
  else {
    lines.push('| file | bytes | SHA-256 |', '| --- | ---: | --- |');
    lines.push(...info.rawInputs.map((r) => `| ${cell(r.path)} | ${r.bytes} | \`${r.sha256}\` |`));
  }
  return `${lines.join('\n')}\n`;
}

/** environment.md read back: each `## Section`'s table as rows of cell texts (header row dropped). */
export type EnvironmentTables = Record<string, string[][]>;

function unescapeCell(text: string): string {
  return text.replace(/\\\|/g, '|').trim();
}

/**
 * Reads the tables of an environment.md written by `renderEnvironment` (the one writer), section by
 * section: `parseEnvironment(renderEnvironment(info))['Seeds']` gives `[notebook, parameter, value]`
 * rows, the value still in backticks as written. Sections without a table map to [].
 * InputError-free by design: an unexpected line is simply not a table row.
 */
export function parseEnvironment(markdown: string): EnvironmentTables {
  const out: EnvironmentTables = {};
  let section: string | undefined;
  let header = false;
  for (const line of markdown.split('\n')) {
    const h = /^## (.+)$/.exec(line);
    if (h) {
      section = h[1]!.trim();
      out[section] = [];
      header = true;
      continue;
    }
    if (section === undefined || !line.startsWith('|')) continue;
    const cells = line
      .slice(1, line.endsWith('|') ? -1 : undefined)
      .split(/(?<!\\)\|/)
      .map(unescapeCell);
    if (cells.every((c) => /^-{3}:?$|^:?-{3}$/.test(c))) continue; // the alignment row
    if (header) {
      header = false; // the column names
      continue;
    }
    out[section]!.push(cells);
  }
  return out;
}
