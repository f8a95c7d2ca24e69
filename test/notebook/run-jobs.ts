// Test helper (not a test file): executes notebook jobs with one NotebookSession in a process of its
// own — the runner captures process.stdout while a cell runs, which must not interleave with the test
// runner's own reporting — and writes the results as JSON.
//   node --require ./scripts/test-runner/hook.js test/notebook/run-jobs.ts JOBS.json RESULTS.json
import { readFileSync, writeFileSync } from 'node:fs';
import { NotebookSession } from '../../lib/notebook/execute';
import { readNotebook, serializeNotebook, type Notebook } from '../../lib/notebook/ipynb';

interface Job {
  file: string;
  parameters?: Record<string, unknown>;
  extraCells?: string[];
}

async function main(): Promise<void> {
  const jobs = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Job[];
  const session = new NotebookSession();
  const results = [];
  for (const job of jobs) {
    const nb: Notebook = readNotebook(job.file);
    for (const [i, source] of (job.extraCells ?? []).entries()) {
      nb.cells.push({ cell_type: 'code', id: `extra-${i}`, metadata: {}, source, outputs: [], execution_count: null });
    }
    try {
      const r = await session.execute(nb, { file: job.file, parameters: job.parameters ?? {} });
      results.push({ text: serializeNotebook(r.notebook), failure: r.failure ?? null });
    } catch (err) {
      results.push({ thrown: { name: (err as Error).name, message: (err as Error).message } });
    }
  }
  session.close();
  const browser = require.cache[require.resolve('../../dist/lib/figures/browser')];
  if (browser) await (browser.exports as { closeFigureBrowser(): Promise<void> }).closeFigureBrowser();
  writeFileSync(process.argv[3]!, JSON.stringify(results));
}

void main();
