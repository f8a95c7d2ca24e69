import { inspect } from 'node:util';

/**
 * An error in user-supplied input (a domain file, a responses file, a command-line value).
 * The CLI turns it into exit code 1 and prints `message`, which always names where the problem is
 * (file, line, item), so the user can find and fix it without reading a stack trace.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(
    message: string,
    readonly where: { file?: string; line?: number; item?: string } = {},
  ) {
    super(message);
  }

  /**
   * How console.log/console.error (and so a notebook kernel showing an uncaught error) print it: the
   * one line `InputError: message`, as the CLI does, not a stack trace through lib/ internals. The
   * stack is still on `.stack` for a developer who asks for it.
   */
  [inspect.custom](): string {
    return `${this.name}: ${this.message}`;
  }
}

/**
 * `text` with every invisible or control character other than the plain space (a BOM, a zero-width
 * or non-breaking space, a tab …) written as \u{…}, so that an ID or a value a message names cannot
 * hide what is wrong with it.
 */
export function visible(text: string): string {
  return text.replace(/[\p{C}\p{Z}]/gu, (c) => (c === ' ' ? c : `\\u{${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}}`));
}

/** Formats a location prefix such as `data/x.jsonl:12: ` for error messages. */
export function locate(file?: string, line?: number): string {
  if (!file) return '';
  return line === undefined ? `${file}: ` : `${file}:${line}: `;
}

/**
 * Turns a zod error into one readable line per problem, each naming the path of the offending value,
 * e.g. `state[2]: expected string, received number`.
 */
export function describeZodIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  return issues
    .map((issue) => {
      const path = issue.path
        .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`))
        .join('');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}
