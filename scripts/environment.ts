/**
 * Writes environment.md without running the notebooks (`npm run reproduce` refreshes it after a full
 * run, with the parameters actually used; this records the notebooks' default parameters).
 *
 *   node dist/scripts/environment.js [FILE]     (default: environment.md at the project root)
 */
import { readdirSync, existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { writeFileAtomic } from '../lib/io/atomic';
import { collectEnvironment, renderEnvironment } from '../lib/notebook/environment';
import { describeChromium } from '../lib/figures/browser';
import { readNotebook } from '../lib/notebook/ipynb';
import { effectiveParameters } from '../lib/notebook/parameters';
import { projectRoot } from '../lib/notebook/project';

export function writeEnvironment(target: string, root = projectRoot()): void {
  const dir = join(root, 'notebooks');
  const files = existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.ipynb')).sort() : [];
  const notebooks = files.map((n) => {
    const shown = relative(root, join(dir, n));
    return { file: shown, parameters: effectiveParameters(readNotebook(join(dir, n)), {}, shown) };
  });
  writeFileAtomic(target, renderEnvironment(collectEnvironment(root, notebooks, { chromium: describeChromium() })));
}

if (require.main === module) {
  const target = resolve(process.argv[2] ?? join(projectRoot(), 'environment.md'));
  writeEnvironment(target);
  process.stdout.write(`wrote ${target}\n`);
}
