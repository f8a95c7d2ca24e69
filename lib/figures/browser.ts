import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';

/**
 * One headless Chromium (Debian's, never a downloaded build) shared by all figure exports of a process:
 * launching costs about a second, a page load of a figure ~0.2 s. It closes itself after a short idle
 * time so a plain script still exits; `closeFigureBrowser()` closes it at once.
 */

/** The Chromium executable: $CHROMIUM_PATH, else /usr/bin/chromium. */
export function chromiumPath(): string {
  return process.env['CHROMIUM_PATH'] || '/usr/bin/chromium';
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
  userDataDir: string;
}
let shared: Promise<Shared> | undefined;
let idleTimer: NodeJS.Timeout | undefined;
let busy = 0;

async function launch(): Promise<Shared> {
  const executablePath = chromiumPath();
  if (!existsSync(executablePath)) {
    throw new Error(
      `Chromium not found at ${executablePath}: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`,
    );
  }
  // Lazy: playwright-core is only needed where figures are exported.
  const { chromium } = require('playwright-core') as typeof import('playwright-core');
  const userDataDir = mkdtempSync(join(tmpdir(), 'kstbench-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      headless: true,
      args: [...CHROMIUM_ARGS],
      viewport: { width: 1280, height: 900 },
      deviceScaleFactor: 1,
    });
    return { context, userDataDir };
  } catch (err) {
    rmSync(userDataDir, { recursive: true, force: true });
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
    if (busy === 0 && shared) idleTimer = setTimeout(() => void closeFigureBrowser(), IDLE_CLOSE_MS);
  }
}

/** Closes the shared browser (if open) and removes its profile directory. */
export async function closeFigureBrowser(): Promise<void> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = undefined;
  const current = shared;
  shared = undefined;
  if (!current) return;
  try {
    const s = await current;
    await s.context.close();
    rmSync(s.userDataDir, { recursive: true, force: true });
  } catch {
    // a launch that failed has nothing to close
  }
}
