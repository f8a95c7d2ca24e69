/**
 * Text segmentation shared by the sub-scores: fenced code blocks and "propositions" (the unit of
 * N_total in S_SD and of L_total in S_CL).
 */

/** A fenced Markdown code block (``` or ~~~), with its info string (language tag) lower-cased. */
export interface CodeBlock {
  lang: string;
  code: string;
  /** Character offset of the opening fence in the text. */
  start: number;
}

/** One counted unit of a response. */
export interface Proposition {
  kind: 'sentence' | 'code';
  text: string;
  /** Character offset in the response (start of the line for sentences split from a line). */
  start: number;
}

interface Line {
  text: string;
  start: number;
}

function splitLines(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (const raw of text.split('\n')) {
    out.push({ text: raw, start });
    start += raw.length + 1;
  }
  return out;
}

const FENCE_OPEN = /^\s*(`{3,}|~{3,})\s*([^\s`]*)/;

/**
 * Splits a response into code blocks and prose lines. A fence opens with ``` or ~~~ (optionally
 * followed by a language tag) and closes at the next line holding only the same fence characters;
 * an unclosed fence runs to the end of the text.
 */
export function segment(text: string): { blocks: CodeBlock[]; prose: Line[] } {
  const blocks: CodeBlock[] = [];
  const prose: Line[] = [];
  const lines = splitLines(text.replace(/\r\n?/g, '\n'));
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE_OPEN.exec(lines[i]!.text);
    if (!open) {
      prose.push(lines[i]!);
      continue;
    }
    const fence = open[1]!;
    const close = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !close.test(lines[j]!.text)) body.push(lines[j++]!.text);
    blocks.push({ lang: (open[2] ?? '').toLowerCase(), code: body.join('\n'), start: lines[i]!.start });
    i = j; // skip the closing fence (or run past the end)
  }
  return { blocks, prose };
}

/** Markdown lines that carry no proposition: headings, horizontal rules, table separator rows. */
const NON_PROPOSITION_LINE = [/^\s*#{1,6}\s/, /^\s*([-*_])(\s*\1){2,}\s*$/, /^\s*\|?(\s*:?-{2,}:?\s*\|)+\s*:?-*:?\s*\|?\s*$/];
/** List markers and block quotes stripped before sentence splitting. */
const LINE_PREFIX = /^\s*(?:>\s*)*(?:[-*+]\s+|\d+[.)]\s+)?/;
/**
 * Sentence boundary: `.`, `!` or `?` (optionally followed by closing quotes/brackets) then white space
 * then a character that can start a sentence (capital, digit, quote, backtick, bracket, emphasis).
 * "e.g. the" (lower-case next word) and "3.14" (no space) are not split.
 */
const SENTENCE_BOUNDARY = /(?<=[.!?]["')\]*_]*)\s+(?=[A-Z0-9"'`(\[*_])/;

/**
 * Counts propositions: every sentence of prose (each non-blank prose line — list items and table
 * rows included — is split at sentence boundaries; a fragment counts if it holds a letter or digit),
 * plus every fenced code block as one proposition (`codeBlocks: 'one'`) or one per non-blank code line
 * (`'lines'`). Headings, horizontal rules and table separator rows are not propositions.
 *
 * Three sentences and one code block make 4 propositions (5 with `'lines'`, one per code line):
 * @example
 * const text = 'Use a loop.\n- Step 1: set x. Then print it.\n```python\nx=1\nprint(x)\n```';
 * propositions(text).map((p) => p.kind); // => ['sentence', 'sentence', 'sentence', 'code']
 * propositions(text, 'lines').length; // => 5
 * propositions('# Heading\n\n---').length; // => 0
 */
export function propositions(text: string, codeBlocks: 'one' | 'lines' = 'one'): Proposition[] {
  const { blocks, prose } = segment(text);
  const out: Proposition[] = [];
  for (const line of prose) {
    if (line.text.trim() === '' || NON_PROPOSITION_LINE.some((re) => re.test(line.text))) continue;
    const body = line.text.replace(LINE_PREFIX, '');
    for (const piece of body.split(SENTENCE_BOUNDARY)) {
      if (/[\p{L}\p{N}]/u.test(piece)) out.push({ kind: 'sentence', text: piece.trim(), start: line.start });
    }
  }
  for (const block of blocks) {
    if (codeBlocks === 'one') {
      out.push({ kind: 'code', text: block.code, start: block.start });
    } else {
      for (const codeLine of block.code.split('\n')) {
        if (codeLine.trim() !== '') out.push({ kind: 'code', text: codeLine, start: block.start });
      }
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * True when a code block is executable Python: tagged python/py/python3/py3, or untagged and holding
 * a Python cue (`def `, `print(`, `import `, `for … in`, `while `, `if …:`, or an assignment `x = …`).
 * Blocks tagged otherwise (text, output, console, bash …) are not Python.
 */
export function isPythonBlock(block: CodeBlock): boolean {
  if (['python', 'py', 'python3', 'py3'].includes(block.lang)) return true;
  if (block.lang !== '') return false;
  return /^\s*(?:def |import |from \S+ import |while |for \w+(?:\s*,\s*\w+)* in |if .*:\s*$)|print\(|^\s*[A-Za-z_]\w*\s*=[^=]/m.test(block.code);
}
