/**
 * lib/figures/browser.ts: which browser draws the figures, in the documented order ($CHROMIUM_PATH, the
 * pinned @sparticuz/chromium on Linux x64, an installed one), and the clear error when $CHROMIUM_PATH
 * names a missing file. No browser is launched here (the save and rendered tests launch one).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bundledChromiumSupported, closeFigureBrowser, describeChromium, holdFigureBrowser, resolveChromium, withPage } from '../../lib/figures/browser';

/** Runs `f` with CHROMIUM_PATH set to `value` (or unset), restoring it afterwards. */
async function withChromiumPath<T>(value: string | undefined, f: () => Promise<T> | T): Promise<T> {
  const saved = process.env['CHROMIUM_PATH'];
  if (value === undefined) delete process.env['CHROMIUM_PATH'];
  else process.env['CHROMIUM_PATH'] = value;
  try {
    return await f();
  } finally {
    if (saved === undefined) delete process.env['CHROMIUM_PATH'];
    else process.env['CHROMIUM_PATH'] = saved;
  }
}

const missing = join(mkdtempSync(join(tmpdir(), 'kstbench-browser-')), 'no-chromium');

test('CHROMIUM_PATH naming a missing file: one clear error, also from withPage, and nothing launched', async () => {
  await withChromiumPath(missing, async () => {
    const message = `CHROMIUM_PATH=${missing}: no such file; unset it to use the bundled browser`;
    await assert.rejects(resolveChromium(), { message });
    let ran = false;
    await assert.rejects(
      withPage(async () => {
        ran = true;
      }),
      { message },
    );
    assert.equal(ran, false);
    // A failed launch is not cached: the next call tries again (and fails the same way).
    await assert.rejects(withPage(async () => undefined), { message });
    assert.equal(describeChromium(), `CHROMIUM_PATH=${missing} (missing)`);
  });
  await closeFigureBrowser(); // nothing open: returns at once
});

test('CHROMIUM_PATH naming an existing file wins over the bundled browser, with no environment of its own', async () => {
  const exe = join(dirname(missing), 'my-chromium');
  writeFileSync(exe, '');
  await withChromiumPath(exe, async () => {
    assert.deepEqual(await resolveChromium(), { executablePath: exe, kind: 'env', label: exe, env: {} });
    assert.equal(describeChromium(), `CHROMIUM_PATH=${exe}`);
  });
});

test('the bundled browser is used only on Linux x64', () => {
  assert.equal(bundledChromiumSupported('linux', 'x64'), true);
  assert.equal(bundledChromiumSupported('linux', 'arm64'), false);
  assert.equal(bundledChromiumSupported('darwin', 'x64'), false);
  assert.equal(bundledChromiumSupported('win32', 'x64'), false);
});

test('without CHROMIUM_PATH on Linux x64: the pinned package, unpacked with a fontconfig that sees only its own fonts', { skip: !bundledChromiumSupported() && 'the bundled browser exists for Linux x64 only' }, async () => {
  const version = (JSON.parse(readFileSync(join(dirname(require.resolve('@sparticuz/chromium')), '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
  const pinned = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies['@sparticuz/chromium'];
  assert.equal(version, pinned, 'the installed package is the pinned one (run npm ci)');
  await withChromiumPath(undefined, async () => {
    const source = await resolveChromium();
    assert.equal(source.kind, 'bundled');
    assert.equal(source.label, `@sparticuz/chromium@${version}`);
    assert.ok(existsSync(source.executablePath), source.executablePath);
    assert.match(source.executablePath, new RegExp(`node_modules/\\.cache/kstbench-chromium-${version.replace(/\./g, '\\.')}-[^/]+/chromium$`));
    const dir = dirname(source.executablePath);
    assert.deepEqual(source.env, { FONTCONFIG_FILE: join(dir, 'fonts.conf'), FONTCONFIG_PATH: dir });
    const conf = readFileSync(join(dir, 'fonts.conf'), 'utf8');
    const dirs = [...conf.matchAll(/<dir>([^<]*)<\/dir>/g)].map((m) => m[1]);
    assert.deepEqual(dirs, [join(dir, 'fonts', 'fonts'), join(dir, 'fonts-fallback')]);
    assert.ok(existsSync(join(dir, 'fonts-fallback', 'DejaVuSans.ttf')));
    assert.match(describeChromium(), new RegExp(`^@sparticuz/chromium@${version.replace(/\./g, '\\.')} \\(bundled; `));
  });
});

test('holdFigureBrowser keeps the one browser across an idle pause; without it the browser closes and a new one starts', { skip: !bundledChromiumSupported() && 'the bundled browser exists for Linux x64 only' }, async () => {
  // Longer than the idle close (1.5 s). Its timer is set after the idle timer (when withPage has
  // returned), so it fires after it however late timers run on a loaded machine: no wider margin needed.
  const pause = () => new Promise((done) => setTimeout(done, 1600));
  const contextOfAPage = () => withPage(async (page) => page.context());
  try {
    const first = await contextOfAPage();
    await pause();
    assert.notEqual(await contextOfAPage(), first, 'not held: the idle browser was closed and a new one launched');
    holdFigureBrowser();
    const held = await contextOfAPage();
    await pause();
    assert.equal(await contextOfAPage(), held, 'held: the same browser served both pages');
  } finally {
    await closeFigureBrowser();
  }
});
