/**
 * `npm run kernel`: installs the project's Jupyter kernel spec — for the current user (default) or
 * into a prefix — never machine-wide, also when run as root. The spec starts this script, which starts
 * tslab's kernel with the project's notebooks/ as its compile root, so a notebook opened from any
 * folder (a copy in your home directory, say) still imports `../dist/lib/...` with its types.
 *
 *   node dist/scripts/kernel.js install [--prefix DIR] [--name NAME]   write the kernel spec
 *   node dist/scripts/kernel.js start CONNECTION_FILE                  (what Jupyter runs)
 *
 * Jupyter looks for kernel specs in the user's data folder (`jupyter --data-dir`, e.g.
 * ~/.local/share/jupyter) and in every `$JUPYTER_PATH` entry; `--prefix DIR` writes
 * DIR/share/jupyter/kernels/NAME, for use with JUPYTER_PATH=DIR/share/jupyter.
 */
import { expectedFailure } from '../cli/common';
import { spawnSync } from 'node:child_process';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { InputError } from '../lib/errors';
import { writeFileAtomic } from '../lib/io/atomic';
import { notebookCompileRoot, projectRoot } from '../lib/notebook/project';

const HELP = `usage: npm run kernel [-- --prefix DIR] [-- --name NAME]

Installs the Jupyter kernel spec NAME (default tslab, the kernel the notebooks ask for) for this
checkout: per user (Jupyter's data folder), or under DIR/share/jupyter/kernels with --prefix. Never
system-wide. Then: jupyter notebook (Debian 12: apt-get install jupyter-notebook), or VS Code with
the Jupyter extension, and pick the kernel "TypeScript (kstbench)".
`;

/** The kernel spec JSON (kernel.json) for this checkout. */
export function kernelSpec(root: string, node: string = process.execPath): Record<string, unknown> {
  return {
    argv: [node, join(root, 'dist', 'scripts', 'kernel.js'), 'start', '{connection_file}'],
    display_name: 'TypeScript (kstbench)',
    language: 'typescript',
    interrupt_mode: 'signal',
    metadata: { kstbench_root: root },
  };
}

/**
 * The per-user Jupyter data folder: what `jupyter --data-dir` says when Jupyter is installed, else
 * Jupyter's own rule ($JUPYTER_DATA_DIR, then $XDG_DATA_HOME/jupyter or ~/.local/share/jupyter on
 * Linux, ~/Library/Jupyter on macOS, %APPDATA%\jupyter on Windows).
 */
export function userDataDir(env: NodeJS.ProcessEnv = process.env, platform: string = process.platform): string {
  const asked = spawnSync('jupyter', ['--data-dir'], { encoding: 'utf8', env, timeout: 20000 });
  if (asked.status === 0 && asked.stdout.trim() !== '') return asked.stdout.trim().split('\n').pop()!.trim();
  if (env['JUPYTER_DATA_DIR']) return env['JUPYTER_DATA_DIR'];
  const home = env['HOME'] ?? homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Jupyter');
  if (platform === 'win32') return join(env['APPDATA'] ?? home, 'jupyter');
  return join(env['XDG_DATA_HOME'] ?? join(home, '.local', 'share'), 'jupyter');
}

/** Writes the spec; returns the folder it went to. */
export function installKernel(options: { prefix?: string; name?: string; root?: string } = {}): string {
  const root = options.root ?? projectRoot();
  const name = options.name ?? 'tslab';
  if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new InputError(`--name ${JSON.stringify(name)}: use letters, digits, . _ -`, { item: name });
  const base = options.prefix !== undefined ? join(resolve(options.prefix), 'share', 'jupyter') : userDataDir();
  const dir = join(base, 'kernels', name);
  writeFileAtomic(join(dir, 'kernel.json'), `${JSON.stringify(kernelSpec(root), null, 1)}\n`);
  return dir;
}

/** Starts tslab's kernel in the project's notebooks/ (the folder Jupyter chose is kept in KSTBENCH_NOTEBOOK_DIR). */
function startKernel(connectionFile: string): void {
  process.env['KSTBENCH_NOTEBOOK_DIR'] = process.cwd();
  // A student's session: figures and tables go to tmp/notebook-outputs/ unless they ask (lib/figures/output-root.ts).
  process.env['KSTBENCH_INTERACTIVE'] = '1';
  process.chdir(notebookCompileRoot(projectRoot()));
  const tslab = require('tslab/dist/main') as {
    startKernel(o: { configPath: string; enableFindLocal: boolean; jsKernel: boolean; globalVersion: string }): void;
  };
  tslab.startKernel({ configPath: connectionFile, enableFindLocal: false, jsKernel: false, globalVersion: '' });
}

export function main(argv: string[]): number {
  try {
    const [command, ...rest] = argv;
    if (command === 'start') {
      if (rest[0] === undefined) throw new InputError('kernel start needs the connection file Jupyter passes');
      startKernel(rest[0]);
      return -1; // the kernel keeps running
    }
    const { values } = parseArgs({
      args: command === 'install' ? rest : argv,
      strict: true,
      options: { prefix: { type: 'string' }, name: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help || (command !== 'install' && command !== undefined && !command.startsWith('-'))) {
      process.stdout.write(HELP);
      return values.help ? 0 : 2;
    }
    const options: { prefix?: string; name?: string } = {};
    if (values.prefix !== undefined) options.prefix = values.prefix;
    if (values.name !== undefined) options.name = values.name;
    const dir = installKernel(options);
    process.stdout.write(`installed the kernel spec "${options.name ?? 'tslab'}" (TypeScript (kstbench)) in ${dir}\n`);
    if (options.prefix !== undefined) process.stdout.write(`Jupyter finds it with JUPYTER_PATH=${join(resolve(options.prefix), 'share', 'jupyter')}\n`);
    else if (process.getuid?.() === 0) process.stdout.write('(running as root: installed for root only, not machine-wide)\n');
    return 0;
  } catch (err) {
    const code = expectedFailure('kernel', err, `\n${HELP}`);
    if (code !== null) return code;
    throw err;
  }
}

if (require.main === module) {
  const code = main(process.argv.slice(2));
  if (code >= 0) process.exit(code);
}
