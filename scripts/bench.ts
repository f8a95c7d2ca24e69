/**
 * `npm run bench`: prints the project's speed and memory figures. Each section lives in scripts/bench/
 * and prints its own lines; sections whose module is absent are reported as such, not skipped silently.
 */
const sections: Array<[string, string, string]> = [
  ['KST core', './bench/kst', 'benchKst'],
  ['KST basis', './bench/kst-basis', 'benchKstBasis'],
  ['Inference', './bench/stats', 'benchStats'],
  ['Analysis', './bench/analyze', 'benchAnalyze'],
  ['Collector', './bench/collect', 'benchCollect'],
  ['Notebooks', './bench/notebooks', 'benchNotebooks'],
];

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  for (const [title, module, fn] of sections) {
    if (only.length && !only.some((o) => title.toLowerCase().includes(o.toLowerCase()))) continue;
    console.log(`\n## ${title}`);
    let bench: ((print: (line: string) => void) => Promise<void>) | undefined;
    try {
      bench = require(module)[fn];
    } catch (err) {
      console.log(`  (section unavailable: ${(err as Error).message.split('\n')[0]})`);
      continue;
    }
    await bench!((line) => console.log(`  ${line}`));
  }
  const mem = process.memoryUsage();
  console.log(`\nbench process peak RSS so far: ${(mem.rss / 2 ** 20).toFixed(0)} MiB`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
