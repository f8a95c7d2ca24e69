import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseNotebook } from '../../lib/notebook/ipynb';

/** Every "Interactive version: [..](href)" link in the Markdown outputs of the executed notebooks in `dir`. */
export function interactiveLinks(dir: string): { file: string; href: string }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ipynb'))
    .flatMap((f) =>
      parseNotebook(readFileSync(join(dir, f), 'utf8'), f).cells.flatMap((c) =>
        (c.cell_type === 'code' ? (c.outputs ?? []) : []).flatMap((o) => {
          const md = o.data?.['text/markdown'];
          const text = Array.isArray(md) ? md.join('') : typeof md === 'string' ? md : '';
          return [...text.matchAll(/^Interactive version: \[[^\]]*\]\(([^)]+)\)/gm)].map((m) => ({ file: f, href: m[1]! }));
        }),
      ),
    );
}
