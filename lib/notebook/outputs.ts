import type { Output } from './ipynb';

/**
 * Collects what one notebook run shows, cell by cell, as nbformat outputs — the same shapes Jupyter's
 * client (nbclient) records: consecutive writes to the same stream merge into one `stream` output;
 * `display_data` keeps its mime bundle; an `update_display_data` for a display id rewrites every earlier
 * output shown under that id (in any cell); a failure becomes an `error` output.
 */
export class OutputCollector {
  private current: Output[] = [];
  private readonly byDisplayId = new Map<string, Output[]>();

  /** Starts collecting for the next cell; returns the (live) list of that cell's outputs. */
  startCell(): Output[] {
    this.current = [];
    return this.current;
  }

  /** Appends text to stdout or stderr (merged with the previous output when it is the same stream). */
  stream(name: 'stdout' | 'stderr', text: string): void {
    if (text === '') return;
    const last = this.current[this.current.length - 1];
    if (last && last.output_type === 'stream' && last.name === name) {
      last.text = `${last.text as string}${text}`;
      return;
    }
    this.current.push({ output_type: 'stream', name, text });
  }

  /**
   * Records a rich display (tslab's `display.html(...)`, `display.svg(...)`, ...). With `update` and a
   * display id, the earlier outputs with that id are updated in place instead.
   */
  display(data: Record<string, unknown>, metadata: Record<string, unknown>, displayId?: string, update = false): void {
    if (update && displayId !== undefined) {
      for (const out of this.byDisplayId.get(displayId) ?? []) {
        out.data = { ...data };
        out.metadata = { ...metadata };
      }
      return;
    }
    const out: Output = { output_type: 'display_data', data: { ...data }, metadata: { ...metadata } };
    this.current.push(out);
    if (displayId !== undefined) {
      const list = this.byDisplayId.get(displayId) ?? [];
      list.push(out);
      this.byDisplayId.set(displayId, list);
    }
  }

  /** Records the failure of the current cell. */
  error(ename: string, evalue: string, traceback: string[]): void {
    this.current.push({ output_type: 'error', ename, evalue, traceback });
  }
}
