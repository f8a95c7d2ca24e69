/**
 * Showing things in a notebook cell through tslab's `display`, when there is a notebook: inside the
 * tslab kernel or the headless runner. In a plain script there is no cell to show anything in and these
 * functions do nothing (the files are still written by the callers).
 */

interface TslabDisplay {
  svg(s: string): void;
  html(s: string): void;
}

/** One Jupyter `display_data` message: a MIME bundle and its metadata. */
export interface DisplayBundle {
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

type WriteDisplayData = (msg: DisplayBundle & { transient: Record<string, unknown> }, update: boolean) => void;

/** tslab's hook that sends a display_data message (set while a cell runs, in the kernel and the headless runner). */
function tslabWriter(): WriteDisplayData | undefined {
  try {
    const jupyter = require('tslab/dist/jupyter') as { lastWriteDisplayData: WriteDisplayData | null };
    return jupyter.lastWriteDisplayData ?? undefined;
  } catch {
    return undefined;
  }
}

function tslabDisplay(): TslabDisplay | undefined {
  if (tslabWriter() === undefined) return undefined;
  return (require('tslab') as { display: TslabDisplay }).display;
}

/**
 * Shows a whole MIME bundle as one output (tslab's `display` sends one MIME type per output, which
 * would show a figure once per type). The front end picks the richest type it can render.
 */
export function showBundle(bundle: DisplayBundle): void {
  tslabWriter()?.({ data: bundle.data, metadata: bundle.metadata, transient: {} }, false);
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

/**
 * Shows Markdown with its own text as the `text/plain` fallback. The classic Notebook (6.4, what Debian
 * packages) drops every `text/markdown` output of a notebook it does not trust — and a notebook from a
 * clone is never trusted — falling back to a type it trusts, so without `text/plain` a simulated-data
 * notice or a claims summary would vanish from the cell; JupyterLab, VS Code, nbconvert and the report
 * still render the Markdown.
 */
export function showMarkdown(markdown: string): void {
  showBundle({ data: { 'text/markdown': markdown, 'text/plain': markdown }, metadata: {} });
}
