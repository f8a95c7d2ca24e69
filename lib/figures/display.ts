/**
 * Showing things in a notebook cell through tslab's `display`, when there is a notebook: inside the
 * tslab kernel or the headless runner. In a plain script there is no cell to show anything in and these
 * functions do nothing (the files are still written by the callers).
 */

interface TslabDisplay {
  svg(s: string): void;
  html(s: string): void;
  markdown(s: string): void;
}

function tslabDisplay(): TslabDisplay | undefined {
  try {
    const jupyter = require('tslab/dist/jupyter') as { lastWriteDisplayData: unknown };
    if (jupyter.lastWriteDisplayData == null) return undefined;
    return (require('tslab') as { display: TslabDisplay }).display;
  } catch {
    return undefined;
  }
}

/** True inside a notebook (tslab kernel or headless runner), where `display` shows output in the cell. */
export function inNotebook(): boolean {
  return tslabDisplay() !== undefined;
}

export function showSvg(svg: string): void {
  tslabDisplay()?.svg(svg);
}

export function showHtml(html: string): void {
  tslabDisplay()?.html(html);
}

export function showMarkdown(markdown: string): void {
  tslabDisplay()?.markdown(markdown);
}
