// The student route with what Debian 12 packages: the project's kernel spec (npm run kernel, here into
// a private prefix), Debian's `jupyter notebook` 6.4 server and jupyter-client / nbconvert, on a
// notebook COPIED OUT of the project into a temporary folder. Needs the apt packages jupyter-notebook,
// jupyter-nbconvert, jupyter-client, python3-ipykernel; without them the test is skipped with that
// reason (under CI=true, or with KSTBENCH_REQUIRE_JUPYTER=1, their absence is a failure).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializeNotebook, type Notebook } from '../../lib/notebook/ipynb';

const KERNEL_SCRIPT = 'dist/scripts/kernel.js';
const missing = ['/usr/bin/jupyter-notebook', '/usr/bin/jupyter-nbconvert', '/usr/bin/python3'].filter((p) => !existsSync(p));
const skip = missing.length > 0 && process.env['KSTBENCH_REQUIRE_JUPYTER'] !== '1' && process.env['CI'] !== 'true' ? `not installed: ${missing.join(', ')} (apt-get install jupyter-notebook jupyter-nbconvert)` : false;

const code = (id: string, source: string) => ({ cell_type: 'code' as const, id, metadata: {}, source, outputs: [], execution_count: null });

/** A student's notebook: the project's header cell, a typed library call, and a deliberate type error. */
function studentNotebook(): Notebook {
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { display_name: 'TypeScript (kstbench)', language: 'typescript', name: 'tslab' } },
    cells: [
      code('header', 'import * as kst from "../dist/lib/kst";\nimport { notebookHeader } from "../dist/lib/report/notebook-header";\nconst { root, notebookDir } = notebookHeader();'),
      code('typed', 'const domain = kst.loadDomain("data/raw/domains/slope.json");\nconst states: number = kst.countStates(domain);\nconsole.log(`states=${states} cwd-is-root=${process.cwd() === root} notebookDir=${notebookDir}`);'),
      code('type-error', 'const wrong: string = kst.countStates(domain);'),
    ],
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

function jupyterEnv(dir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    JUPYTER_PATH: join(dir, 'prefix', 'share', 'jupyter'),
    JUPYTER_CONFIG_DIR: join(dir, 'config'),
    JUPYTER_DATA_DIR: join(dir, 'data'),
    JUPYTER_RUNTIME_DIR: join(dir, 'runtime'),
    IPYTHONDIR: join(dir, 'ipython'),
    PYDEVD_DISABLE_FILE_VALIDATION: '1',
  };
}

function setUp(): { dir: string; work: string; env: NodeJS.ProcessEnv } {
  assert.ok(existsSync(KERNEL_SCRIPT), 'dist/ is missing: run `npm run build` (npm test does it)');
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-jupyter-'));
  const install = spawnSync(process.execPath, [KERNEL_SCRIPT, 'install', '--prefix', join(dir, 'prefix')], { encoding: 'utf8' });
  assert.equal(install.status, 0, install.stderr);
  const work = join(dir, 'student'); // outside the project: nothing above it has a node_modules or dist
  spawnSync('mkdir', ['-p', work]);
  writeFileSync(join(work, 'student.ipynb'), serializeNotebook(studentNotebook()));
  return { dir, work, env: jupyterEnv(dir) };
}

test('kernel install writes a per-prefix spec, never a system-wide one', { skip: existsSync(KERNEL_SCRIPT) ? false : 'dist/ missing' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-kernelspec-'));
  const r = spawnSync(process.execPath, [KERNEL_SCRIPT, 'install', '--prefix', dir], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const spec = JSON.parse(readFileSync(join(dir, 'share', 'jupyter', 'kernels', 'tslab', 'kernel.json'), 'utf8')) as { argv: string[]; display_name: string };
  assert.equal(spec.argv[0], process.execPath);
  assert.equal(spec.argv[1], join(process.cwd(), 'dist', 'scripts', 'kernel.js'));
  assert.deepEqual(spec.argv.slice(2), ['start', '{connection_file}']);
  assert.equal(spec.display_name, 'TypeScript (kstbench)');
  // Without --prefix it goes to the user's data folder (here redirected), not /usr/local/share.
  const user = mkdtempSync(join(tmpdir(), 'kstbench-userdata-'));
  const u = spawnSync(process.execPath, [KERNEL_SCRIPT, 'install'], { encoding: 'utf8', env: { ...process.env, JUPYTER_DATA_DIR: user, PATH: '/nonexistent' } });
  assert.equal(u.status, 0, u.stderr);
  assert.ok(existsSync(join(user, 'kernels', 'tslab', 'kernel.json')));
  assert.match(u.stdout, new RegExp(`in ${user}/kernels/tslab`));
  rmSync(dir, { recursive: true, force: true });
  rmSync(user, { recursive: true, force: true });
});

test('nbconvert executes a notebook copied out of the project through the project kernel, with the library and its types', { skip, timeout: 240_000 }, () => {
  const { dir, work, env } = setUp();
  const r = spawnSync(
    '/usr/bin/jupyter-nbconvert',
    ['--to', 'notebook', '--execute', '--allow-errors', '--ExecutePreprocessor.timeout=180', '--output', 'executed.ipynb', join(work, 'student.ipynb')],
    { cwd: work, env, encoding: 'utf8', timeout: 220_000 },
  );
  assert.equal(r.status, 0, r.stderr);
  const nb = JSON.parse(readFileSync(join(work, 'executed.ipynb'), 'utf8')) as Notebook;
  const out = (id: string) => JSON.stringify(nb.cells.find((c) => c.id === id)!.outputs);
  assert.doesNotMatch(out('header'), /error/i, out('header'));
  // The slope domain has 11 knowledge states (notebook 01's state table lists them).
  assert.match(out('typed'), new RegExp(`states=11 cwd-is-root=true notebookDir=${work}`), out('typed'));
  // Types really resolve: a wrong annotation is a compile error, not a silently `any` value.
  assert.match(out('type-error'), /Type 'number' is not assignable to type 'string'/, out('type-error'));
  rmSync(dir, { recursive: true, force: true });
});

test('jupyter notebook (Debian 6.4) lists the project kernel, starts it and runs code in it, then shuts down', { skip, timeout: 240_000 }, async () => {
  const { dir, work, env } = setUp();
  const port = await freePort();
  const token = 'kstbench-test-token';
  const server = spawn(
    '/usr/bin/jupyter-notebook',
    ['--no-browser', '--ip=127.0.0.1', `--port=${port}`, `--NotebookApp.token=${token}`, `--notebook-dir=${work}`, '--NotebookApp.port_retries=0', ...(process.getuid?.() === 0 ? ['--allow-root'] : [])],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  server.stdout.on('data', (d: Buffer) => (log += d.toString()));
  server.stderr.on('data', (d: Buffer) => (log += d.toString()));
  const api = async (path: string, init: RequestInit = {}) =>
    fetch(`http://127.0.0.1:${port}${path}`, { ...init, headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json' } });
  const until = async <T>(what: string, seconds: number, probe: () => Promise<T | undefined>): Promise<T> => {
    const end = Date.now() + seconds * 1000;
    for (;;) {
      const v = await probe().catch(() => undefined);
      if (v !== undefined) return v;
      if (server.exitCode !== null) throw new Error(`jupyter notebook exited (${server.exitCode}) before: ${what}; log:\n${log}`);
      if (Date.now() > end) throw new Error(`${what} within ${seconds} s; server log:\n${log}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  };
  try {
    const specs = await until('server answers', 60, async () => {
      const res = await api('/api/kernelspecs');
      return res.ok ? ((await res.json()) as { kernelspecs: Record<string, { spec: { display_name: string } }> }) : undefined;
    });
    assert.equal(specs.kernelspecs['tslab']?.spec.display_name, 'TypeScript (kstbench)');
    const started = (await (await api('/api/kernels', { method: 'POST', body: JSON.stringify({ name: 'tslab', path: 'student.ipynb' }) })).json()) as { id: string };
    assert.match(started.id, /^[0-9a-f-]{36}$/);
    const connection = join(env['JUPYTER_RUNTIME_DIR']!, `kernel-${started.id}.json`);
    await until('kernel connection file', 60, async () => (existsSync(connection) ? true : undefined));
    // Run a cell in the server's kernel with jupyter-client, as the notebook page would.
    writeFileSync(join(dir, 'cell.ts'), `import * as kst from "../dist/lib/kst";\nconsole.log(\`components=\${kst.loadDomain(${JSON.stringify(join(process.cwd(), 'data/raw/domains/slope.json'))}).ids.length}\`);`);
    const client = spawnSync(
      '/usr/bin/python3',
      [
        '-c',
        [
          'import sys, jupyter_client',
          'c = jupyter_client.BlockingKernelClient(connection_file=sys.argv[1]); c.load_connection_file(); c.start_channels()',
          // (not wait_for_ready: it gives up after 1 s without a heartbeat, while tslab still loads TypeScript)
          'c.kernel_info(reply=True, timeout=90)',
          'src = open(sys.argv[2]).read()',
          'out = []',
          'r = c.execute_interactive(src, timeout=90, output_hook=lambda m: out.append(m["content"].get("text", "")))',
          'print("status=" + r["content"]["status"]); print("".join(out))',
        ].join('\n'),
        connection,
        join(dir, 'cell.ts'),
      ],
      {
        env,
        encoding: 'utf8',
        timeout: 150_000,
        input: '',
      },
    );
    assert.equal(client.status, 0, `${client.stderr}\n${log}`);
    assert.match(client.stdout, /status=ok/, client.stdout);
    assert.match(client.stdout, /components=7/, client.stdout); // slope has 7 components
    const del = await api(`/api/kernels/${started.id}`, { method: 'DELETE' });
    assert.equal(del.status, 204);
  } finally {
    if (server.exitCode === null) server.kill('SIGTERM');
    await new Promise((r) => {
      if (server.exitCode !== null) return r(undefined);
      const t = setTimeout(() => {
        server.kill('SIGKILL');
        r(undefined);
      }, 15_000);
      server.on('exit', () => {
        clearTimeout(t);
        r(undefined);
      });
    });
    assert.deepEqual(readdirSync(env['JUPYTER_RUNTIME_DIR']!).filter((f) => f.startsWith('kernel-')), [], 'no kernel left running');
    rmSync(dir, { recursive: true, force: true });
  }
});
