/**
 * `npm run bench`: prints the project's speed and memory figures. Each section lives in scripts/bench/
 * and prints its own lines; `npm run bench -- collector` runs only the sections whose title matches.
 */
import { benchAnalyze } from './bench/analyze';
import { benchCollect } from './bench/collect';
import { benchKst } from './bench/kst';
import { benchKstBasis } from './bench/kst-basis';
import { benchNotebooks } from './bench/notebooks';
import { benchStats } from './bench/stats';
import { benchStudy } from './bench/study';

type Section = (print: (line: string) => void) => Promise<void>;

const sections: Array<[string, Section]> = [
  ['KST core', benchKst],
  ['KST basis', benchKstBasis],
  ['Inference', benchStats],
  ['Analysis', benchAnalyze],
  ['Collector', benchCollect],
  ['Notebooks', benchNotebooks],
  ['Study', benchStudy],
];

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  for (const [title, bench] of sections) {
    if (only.length && !only.some((o) => title.toLowerCase().includes(o.toLowerCase()))) continue;
    console.log(`\n## ${title}`);
    await bench((line) => console.log(`  ${line}`));
  }
  const mem = process.memoryUsage();
  console.log(`\nbench process peak RSS so far: ${(mem.rss / 2 ** 20).toFixed(0)} MiB`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
