import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { releaseTemporary, trackTemporary } from '../io/temporaries';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { woffToSfnt } from './woff';
import { ensureDir } from '../io/dirs';
import { z } from 'zod';
import { readJsonFile } from '../io/json';

/**
 * One headless Chromium (the pinned npm build, never a downloaded one) shared by all figure exports of a process:
 * launching costs about a second, a page load of a figure ~0.2 s. It closes itself after a short idle
 * time so a plain script still exits; `closeFigureBrowser()` closes it at once.
 */

/** Where the figure browser comes from, as `resolveChromium` found it. */
export interface ChromiumSource {
  /** The executable to launch. */
  executablePath: string;
  /** `env` = $CHROMIUM_PATH, `bundled` = the pinned @sparticuz/chromium, `system` = an installed Chromium/Chrome. */
  kind: 'env' | 'bundled' | 'system';
  /** Version string of the bundled package (`@sparticuz/chromium@143.0.4`), or the path for the others. */
  label: string;
  /** Extra environment for the browser process (the bundled build's own fontconfig). */
  env: Record<string, string>;
}

/** Installed browsers tried on platforms the bundled build does not cover. */
export const SYSTEM_CHROMIUM_PATHS: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

const BUNDLED_PACKAGE = '@sparticuz/chromium';

/**
 * The one fallback font beside the bundled Open Sans: DejaVu Sans from the pinned @fontsource/dejavu-sans,
 * used by Chromium only for characters Open Sans lacks (∅ in the knowledge-space diagrams). It ships as
 * WOFF; it is unpacked to TrueType next to the browser (fontconfig reads TrueType).
 */
const FALLBACK_FONT = { package: '@fontsource/dejavu-sans', file: 'files/dejavu-sans-latin-400-normal.woff', as: 'DejaVuSans.ttf' };

/** Changes when the set of fonts the browser sees changes, so an older unpacked cache is not reused. */
const FONT_SET = 'fonts2';

/**
 * The pinned package's folder (its `exports` hide package.json from require, so the entry point is
 * resolved and the folder found from it); undefined when it is not installed.
 */
function bundledPackageDir(): string | undefined {
  try {
    const entry = require.resolve(BUNDLED_PACKAGE);
    const marker = `${sep}node_modules${sep}${BUNDLED_PACKAGE.split('/').join(sep)}${sep}`;
    const at = entry.lastIndexOf(marker);
    return at < 0 ? undefined : entry.slice(0, at + marker.length - 1);
  } catch {
    return undefined;
  }
}

/** The pinned package's version, read from its package.json; undefined when it is not installed. */
function bundledVersion(): string | undefined {
  const dir = bundledPackageDir();
  if (dir === undefined) return undefined;
  try {
    return readJsonFile(join(dir, 'package.json'), z.object({ version: z.string().optional() })).version;
  } catch {
    return undefined;
  }
}

/** True on the one platform whose binary @sparticuz/chromium ships. */
export function bundledChromiumSupported(platform: string = process.platform, arch: string = process.arch): boolean {
  return platform === 'linux' && arch === 'x64';
}

/**
 * The folder the bundled Chromium is unpacked into: `node_modules/.cache/kstbench-chromium-<version>`
 * next to the package, so a fresh `npm ci` starts clean and two clones never share a build.
 */
function bundledCacheDir(version: string): string {
  // <root>/node_modules/@sparticuz/chromium → <root>/node_modules/.cache
  return join(dirname(dirname(bundledPackageDir()!)), '.cache', `kstbench-chromium-${version}-${FONT_SET}`);
}

/**
 * The fontconfig file that makes the bundled browser see its own fonts (Open Sans, plus the fallback
 * font) and nothing else: no system fonts, no user fonts (~/.fonts), no system fontconfig rules.
 */
function fontconfigFor(dir: string): string {
  return [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
    '<fontconfig>',
    `  <dir>${join(dir, 'fonts', 'fonts')}</dir>`,
    `  <dir>${join(dir, 'fonts-fallback')}</dir>`,
    `  <cachedir>${join(dir, 'fonts-cache')}</cachedir>`,
    '</fontconfig>',
    '',
  ].join('\n');
}

/**
 * Unpacks the pinned @sparticuz/chromium once (about 200 MB, a few seconds) into its cache folder and
 * returns the folder. The package unpacks into os.tmpdir(), so TMPDIR is pointed at a private staging
 * folder for the call; the staging folder is then renamed into place, which is atomic, so concurrent
 * test processes never see a half-unpacked browser.
 */
async function unpackBundled(version: string): Promise<string> {
  const dir = bundledCacheDir(version);
  if (existsSync(join(dir, 'chromium')) && existsSync(join(dir, 'fonts.conf'))) {
    // fonts.conf names its folders by absolute path: a project moved or copied elsewhere (node_modules
    // included) would point fontconfig at the old place, and find no fonts. Rewrite it for this place.
    const wanted = fontconfigFor(dir);
    if (readFileSync(join(dir, 'fonts.conf'), 'utf8') !== wanted) {
      const tmp = join(dir, `fonts.conf.${process.pid}.tmp`);
      writeFileSync(tmp, wanted);
      renameSync(tmp, join(dir, 'fonts.conf'));
    }
    return dir;
  }
  ensureDir(dirname(dir));
  const staging = mkdtempSync(`${dir}.partial-`);
  const savedTmp = process.env['TMPDIR'];
  try {
    process.env['TMPDIR'] = staging;
    const mod = require(BUNDLED_PACKAGE) as { default?: BundledChromium } & BundledChromium;
    const Chromium = mod.default ?? mod;
    const exe = await Chromium.executablePath();
    if (exe !== join(staging, 'chromium')) throw new Error(`unexpected unpack location ${exe}`);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`could not unpack ${BUNDLED_PACKAGE}@${version} into ${dirname(dir)}: ${(err as Error).message}`);
  } finally {
    if (savedTmp === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = savedTmp;
  }
  try {
    const woff = require.resolve(`${FALLBACK_FONT.package}/${FALLBACK_FONT.file}`);
    mkdirSync(join(staging, 'fonts-fallback'));
    writeFileSync(join(staging, 'fonts-fallback', FALLBACK_FONT.as), woffToSfnt(readFileSync(woff), woff));
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`could not unpack the fallback font ${FALLBACK_FONT.package} (run npm ci): ${(err as Error).message}`);
  }
  writeFileSync(join(staging, 'fonts.conf'), fontconfigFor(dir));
  try {
    renameSync(staging, dir);
  } catch (err) {
    // Another process won the race: its copy is identical, use it.
    rmSync(staging, { recursive: true, force: true });
    const code = (err as NodeJS.ErrnoException).code;
    if (!(code === 'ENOTEMPTY' || code === 'EEXIST') || !existsSync(join(dir, 'chromium'))) throw err;
  }
  return dir;
}

/**
 * A one-line, machine-independent description of the browser `resolveChromium` would use, for
 * environment.md; does not unpack anything.
 */
export function describeChromium(): string {
  const fromEnv = process.env['CHROMIUM_PATH'];
  if (fromEnv) return `CHROMIUM_PATH=${fromEnv}${existsSync(fromEnv) ? '' : ' (missing)'}`;
  const version = bundledVersion();
  if (version !== undefined && bundledChromiumSupported()) return `${BUNDLED_PACKAGE}@${version} (bundled; fonts: its Open Sans, DejaVu Sans from ${FALLBACK_FONT.package} for glyphs Open Sans lacks)`;
  const system = SYSTEM_CHROMIUM_PATHS.find((p) => existsSync(p));
  return system ? `${system} (system browser: figure bytes may differ from the committed ones)` : 'not installed';
}

interface BundledChromium {
  executablePath(input?: string): Promise<string>;
}

/**
 * Finds the figure browser, in this order:
 * 1. `$CHROMIUM_PATH`, when set (it must exist);
 * 2. on Linux x64, the pinned `@sparticuz/chromium` from the npm registry, with its own fonts: this is
 *    the default because it makes every machine draw the same pixels (the committed figures come from it);
 * 3. elsewhere, an installed Chromium or Chrome (`SYSTEM_CHROMIUM_PATHS`); figures then render, but their
 *    bytes may differ from the committed ones (other fonts, other Skia).
 * Never downloads anything. Throws with what to install when nothing is found.
 */
export async function resolveChromium(): Promise<ChromiumSource> {
  const fromEnv = process.env['CHROMIUM_PATH'];
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv}: no such file; unset it to use the bundled browser`);
    return { executablePath: fromEnv, kind: 'env', label: fromEnv, env: {} };
  }
  const version = bundledVersion();
  if (version !== undefined && bundledChromiumSupported()) {
    const dir = await unpackBundled(version);
    return {
      executablePath: join(dir, 'chromium'),
      kind: 'bundled',
      label: `${BUNDLED_PACKAGE}@${version}`,
      env: { FONTCONFIG_FILE: join(dir, 'fonts.conf'), FONTCONFIG_PATH: dir },
    };
  }
  const system = SYSTEM_CHROMIUM_PATHS.find((p) => existsSync(p));
  if (system) return { executablePath: system, kind: 'system', label: system, env: {} };
  const why = bundledChromiumSupported()
    ? `${BUNDLED_PACKAGE} is not installed (run npm ci)`
    : `${BUNDLED_PACKAGE} ships a browser for Linux x64 only (this is ${process.platform} ${process.arch})`;
  throw new Error(
    `no Chromium for figure export: ${why}; install Chromium or Google Chrome, or set CHROMIUM_PATH to its executable`,
  );
}

/** Flags that work in this project's containers and CI (no sandbox, no GPU, no network chatter). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const IDLE_CLOSE_MS = 1500;

interface Shared {
  context: BrowserContext;
  /** The launch's temporary folder: the profile (profile/) and playwright's artifacts (artifacts/). */
  folder: string;
}
let shared: Promise<Shared> | undefined;
let idleTimer: NodeJS.Timeout | undefined;
let busy = 0;
let held = false;

/**
 * Keeps the shared browser open between pages until `closeFigureBrowser()`, instead of closing it
 * after the idle time: for a process that opens pages with long pauses in between (a test suite that
 * runs nbconvert between two pages), so the browser is launched once, not once per page.
 */
export function holdFigureBrowser(): void {
  held = true;
}

async function launch(): Promise<Shared> {
  const source = await resolveChromium();
  // Lazy: playwright-core is only needed where figures are exported.
  const { chromium } = require('playwright-core') as typeof import('playwright-core');
  // One folder holds the profile and playwright's artifacts folder (artifactsDir): without it
  // playwright makes its own playwright-artifacts-* in TMPDIR, which a signal left behind.
  const folder = mkdtempSync(join(tmpdir(), 'kstbench-chromium-'));
  // Listed, so that a command stopped by a signal (its worker terminated: no finally runs) removes it too.
  trackTemporary(folder);
  try {
    const artifactsDir = join(folder, 'artifacts');
    mkdirSync(artifactsDir);
    const context = await chromium.launchPersistentContext(join(folder, 'profile'), {
      executablePath: source.executablePath,
      env: { ...process.env, ...source.env } as Record<string, string>,
      headless: true,
      args: [...CHROMIUM_ARGS],
      viewport: { width: 1280, height: 900 },
      deviceScaleFactor: 1,
      artifactsDir,
    });
    return { context, folder };
  } catch (err) {
    rmSync(folder, { recursive: true, force: true });
    releaseTemporary(folder);
    throw err;
  }
}

/** Runs `fn` with a fresh page of the shared browser; the page is closed afterwards. */
export async function withPage<T>(fn: (page: Page) => Promise<T>): Promise<T> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = undefined;
  busy++;
  try {
    shared ??= launch();
    let s: Shared;
    try {
      s = await shared;
    } catch (err) {
      shared = undefined;
      throw err;
    }
    const page = await s.context.newPage();
    try {
      return await fn(page);
    } finally {
      await page.close();
    }
  } finally {
    busy--;
    if (busy === 0 && shared && !held) idleTimer = setTimeout(() => void closeFigureBrowser(), IDLE_CLOSE_MS);
  }
}

/** Closes the shared browser (if open) and removes its folder (the profile and playwright's artifacts). */
export async function closeFigureBrowser(): Promise<void> {
  held = false;
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = undefined;
  const current = shared;
  shared = undefined;
  if (!current) return;
  try {
    const s = await current;
    await s.context.close();
    rmSync(s.folder, { recursive: true, force: true });
    releaseTemporary(s.folder);
  } catch {
    // a launch that failed has nothing to close
  }
}
