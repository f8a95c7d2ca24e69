/** The figure the figure tests draw: a bar trace and two scatter traces over three domains (observed, model, chance). */
import type { FigureSpec } from '../../lib/figures/spec';

export const THREE_TRACE_SPEC: FigureSpec = {
  data: [
    { type: 'bar', name: 'observed', x: ['a', 'b', 'c'], y: [3, 1, 2] },
    { type: 'scatter', mode: 'lines+markers', name: 'model', x: ['a', 'b', 'c'], y: [2.5, 1.5, 2] },
    { type: 'scatter', mode: 'markers', name: 'chance', x: ['a', 'b', 'c'], y: [1, 1, 1] },
  ],
  layout: { xaxis: { title: { text: 'domain' } } },
};
