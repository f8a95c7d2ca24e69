/**
 * Every executed notebook rendered by a real notebook viewer: Debian's `jupyter nbconvert --to html`
 * (6.5, with its default "lab" template and the "classic" one), each page opened in headless Chromium.
 * Every figure cell (an output whose metadata names a figure, see figureBundle) must come out as an
 * image that decodes at the committed PNG's size, is drawn at the figure's size, and is not blank.
 *
 * This is the check that caught the blank figures: nbconvert 6.5 prefers image/svg+xml over image/png
 * and passes inline SVG through an HTML cleaner that strips it.
 *
 * Needs jupyter-nbconvert (apt-get install jupyter-nbconvert). Without it the test is skipped, except
 * under CI (CI=true), where .ci/run installs it and a missing nbconvert is a failure.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { closeFigureBrowser, holdFigureBrowser, withPage } from '../../lib/figures/browser';
import { readNotebook } from '../../lib/notebook/ipynb';
import { projectRoot } from '../../lib/notebook/project';

const root = projectRoot();
const notebooksDir = join(root, 'notebooks');

/** jupyter-nbconvert on PATH (or Debian's /usr/bin one), else undefined. */
function findNbconvert(): string | undefined {
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter).filter(Boolean), '/usr/bin'];
  return dirs.map((d) => join(d, 'jupyter-nbconvert')).find((p) => existsSync(p));
}

const nbconvert = findNbconvert();
const inCi = process.env['CI'] === 'true';
const skip = nbconvert === undefined && !inCi ? 'jupyter-nbconvert not installed (apt-get install jupyter-nbconvert); CI installs it' : false;

// One browser for the whole file (launched at the first page), closed after the last test.
holdFigureBrowser();
after(async () => {
  await closeFigureBrowser();
});

/** The figures a notebook's outputs show, in output order, with their display size and PNG size. */
function figuresOf(file: string): Array<{ name: string; width: number; height: number; pngWidth: number; pngHeight: number }> {
  const out: Array<{ name: string; width: number; height: number; pngWidth: number; pngHeight: number }> = [];
  for (const cell of readNotebook(file).cells) {
    if (cell.cell_type !== 'code') continue;
    for (const o of cell.outputs ?? []) {
      const meta = (o as { metadata?: { kstbench?: { figure?: string }; 'image/png'?: { width: number; height: number } } }).metadata;
      const name = meta?.kstbench?.figure;
      if (name === undefined) continue;
      const png = readFileSync(join(root, 'figures', `${name}.png`));
      out.push({ name, width: meta!['image/png']!.width, height: meta!['image/png']!.height, pngWidth: png.readUInt32BE(16), pngHeight: png.readUInt32BE(20) });
    }
  }
  return out;
}

const notebooks = readdirSync(notebooksDir).filter((n) => n.endsWith('.ipynb')).sort();

test('nbconvert is available where the viewer test must run', () => {
  if (inCi) assert.ok(nbconvert, 'CI=true but jupyter-nbconvert is not installed: .ci/run must apt-get install jupyter-nbconvert');
});

// The two templates run at the same time: nbconvert is a Python process of its own, and the pages
// of both are checked in the one shared browser.
describe('nbconvert --to html, both templates', { concurrency: 2 }, () => {
  for (const template of ['lab', 'classic'] as const) {
    test(`every figure cell shows a non-blank image of its size in nbconvert --to html (${template} template)`, { skip }, async () => {
      assert.ok(nbconvert, 'jupyter-nbconvert not found');
      const out = mkdtempSync(join(tmpdir(), `kstbench-nbconvert-${template}-`));
      try {
        await promisify(execFile)(nbconvert, ['--to', 'html', '--template', template, '--output-dir', out, ...notebooks.map((n) => join(notebooksDir, n))], {
          maxBuffer: 64 * 1024 * 1024,
        });
        let total = 0;
        // One page (one renderer process) visits the notebooks' pages in turn, not a fresh page per notebook.
        await withPage(async (p) => {
          for (const nb of notebooks) {
            const expected = figuresOf(join(notebooksDir, nb));
            total += expected.length;
            const page = join(out, nb.replace(/\.ipynb$/, '.html'));
            assert.ok(existsSync(page), `nbconvert wrote no ${page}`);
            await p.goto(pathToFileURL(page).href, { waitUntil: 'load' });
            const images = await p.evaluate(async () => {
              type Img = { src: string; naturalWidth: number; naturalHeight: number; width: number; height: number; decode(): Promise<void>; getBoundingClientRect(): { width: number; height: number } };
              type Ctx = { drawImage(i: unknown, x: number, y: number): void; getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
              const d = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<Img>; createElement(t: string): { width: number; height: number; getContext(k: string): Ctx } } }).document;
              const found = [];
              for (const img of Array.from(d.querySelectorAll('img'))) {
                if (!img.src.startsWith('data:image/png')) continue;
                await img.decode();
                const canvas = d.createElement('canvas');
                canvas.width = img.naturalWidth;
                canvas.height = img.naturalHeight;
                const ctx = canvas.getContext('2d');
                ctx.drawImage(img, 0, 0);
                const { data } = ctx.getImageData(0, 0, img.naturalWidth, img.naturalHeight);
                let differing = 0;
                for (let i = 0; i < data.length; i += 4) {
                  if (Math.abs(data[i]! - data[0]!) > 8 || Math.abs(data[i + 1]! - data[1]!) > 8 || Math.abs(data[i + 2]! - data[2]!) > 8) differing++;
                }
                const box = img.getBoundingClientRect();
                found.push({ naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight, shownWidth: Math.round(box.width), shownHeight: Math.round(box.height), share: differing / (img.naturalWidth * img.naturalHeight) });
              }
              return found;
            });
            assert.equal(images.length, expected.length, `${nb} (${template}): ${images.length} PNG images on the page, ${expected.length} figure outputs in the notebook`);
            expected.forEach((fig, i) => {
              const img = images[i]!;
              assert.deepEqual([img.naturalWidth, img.naturalHeight], [fig.pngWidth, fig.pngHeight], `${nb} (${template}): ${fig.name} image size`);
              assert.deepEqual([img.shownWidth, img.shownHeight], [fig.width, fig.height], `${nb} (${template}): ${fig.name} drawn size`);
              // The sparsest figure (the knowledge-space diagram) has about 3 % non-background pixels.
              assert.ok(img.share > 0.01, `${nb} (${template}): ${fig.name} is blank (${(100 * img.share).toFixed(2)} % non-background)`);
            });
            // No figure may fall through to another MIME type (an inline SVG, stripped to a run of numbers).
            const html = readFileSync(page, 'utf8');
            assert.doesNotMatch(html, /<svg[^>]*class="main-svg"/, `${nb} (${template}): a plotly SVG is inlined`);
          }
        });
        assert.ok(total >= 10, `only ${total} figure outputs in all notebooks: are figures shown at all?`);
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    });
  }
});
