import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPsiCourse } from '../../../lib/psi/schema';

/** The shipped PSI course (data/raw/psi): 30 scenarios, 85 concepts. */
export const course = loadPsiCourse(join(__dirname, '..', '..', '..', 'data', 'raw', 'psi'));
export const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** The records of a shipped corpus file (round1.jsonl, round2.jsonl). */
export const shippedTexts = (file: string) =>
  readFileSync(join(__dirname, '..', '..', '..', 'data', 'raw', 'psi', file), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { run_id: string; text: string; parent_run_id?: string });
