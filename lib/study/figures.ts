import { join } from 'node:path';
import { CONDITION_LABELS } from '../conditions';
import { writeFilesAtomic } from '../io/atomic';
import { closeFigureBrowser } from '../figures/browser';
import { figureManifest, renderFigure } from '../figures/save';
import { figureHtml, figureSize, finalSpec, type FigureSpec } from '../figures/spec';
import { graphVerdictSpec } from '../report/graphs';
import { figure1Spec, figure2Spec, figure3Spec } from '../report/kst-figures';
import type { Study } from './manifest';
import { readStudyResults, type StudyResults } from './results';

/**
 * `kstbench study figures`: the study's equivalents of [KST-2026] Figures 1–3 and the P1 graph verdicts,
 * drawn from `study-results.json` in the pinned Chromium (lib/figures) and written to
 * `<output>/figures/<name>.{svg,png,json}`. No paper marker: the specs are the plain ones; a figure of
 * simulated responses carries the watermark.
 */

export interface StudyFigure {
  name: string;
  title: string;
  spec: FigureSpec;
  /** What the figure shows, for the report's caption. */
  caption: string;
}

/** The figure specs of a study's results (pure). */
export function studyFigureSpecs(results: StudyResults): StudyFigure[] {
  // The spec builders' own title mark is left off: finalSpec marks a simulated figure (title and badge) once.
  const simulated = false;
  const out: StudyFigure[] = [
    {
      name: 'figure-1-exact-f1',
      title: 'Exact-set accuracy and macro F1 by condition',
      spec: figure1Spec(results.table3, { simulated }),
      caption: 'Exact-set accuracy and macro F1 of all responses per condition (Figure 1 equivalent).',
    },
    {
      name: 'figure-2-domain-condition',
      title: 'Exact-set accuracy by domain and condition',
      spec: figure2Spec(results.domain_condition, { simulated, domainOrder: results.table1.map((r) => r.domain) }),
      caption: 'Exact-set accuracy per domain × condition, with n per cell (Figure 2 equivalent).',
    },
  ];
  if (results.figure3) {
    const f = results.figure3;
    const title = `Models on ${f.domain}, ${f.condition} (${CONDITION_LABELS[f.condition]})`;
    out.push({ name: 'figure-3-model-comparison', title, spec: figure3Spec(f.models, { simulated, title }), caption: `Models compared on one cell (Figure 3 equivalent). The cell is ${f.rule}.` });
  }
  if (results.graphs) {
    const title = 'P1 graph verdicts by model';
    out.push({ name: 'p1-verdicts-by-model', title, spec: graphVerdictSpec(results.graphs.by_model, { title }), caption: 'Verdicts of the graphs the models reconstructed under P1.' });
  }
  return out;
}

/** Draws every figure and writes it; `onFigure` reports progress (i of n). Closes the browser at the end. */
export async function drawStudyFigures(study: Study, onFigure: (i: number, n: number, name: string) => void = () => {}): Promise<StudyFigure[]> {
  const results = readStudyResults(study);
  const figures = studyFigureSpecs(results);
  const dir = join(study.paths.output, 'figures');
  const files: Array<{ path: string; data: string | Uint8Array }> = [];
  try {
    for (const [i, f] of figures.entries()) {
      onFigure(i + 1, figures.length, f.name);
      const options = { title: f.title, simulated: results.simulated };
      const size = figureSize(finalSpec(f.spec, options), {});
      const { svg, png } = await renderFigure(figureHtml(f.name, f.spec, options), size);
      files.push(
        { path: join(dir, `${f.name}.svg`), data: svg },
        { path: join(dir, `${f.name}.png`), data: png },
        { path: join(dir, `${f.name}.json`), data: `${JSON.stringify(figureManifest(f.name, f.spec, options), null, 2)}\n` },
      );
    }
  } finally {
    await closeFigureBrowser();
  }
  writeFilesAtomic(files);
  return figures;
}
