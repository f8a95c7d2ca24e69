import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toCsv } from '../../lib/analysis/csv';

test('toCsv: header, full-precision numbers, empty null/undefined/non-finite, RFC 4180 quoting', () => {
  type Row = { name: string; x: number | null; note?: string };
  const rows: Row[] = [
    { name: 'plain', x: 0.1 + 0.2 },
    { name: 'a,b', x: null, note: 'say "hi"' },
    { name: 'two\nlines', x: Number.NaN },
    { name: 'inf', x: Number.POSITIVE_INFINITY, note: 'cr\r' },
  ];
  assert.equal(
    toCsv<Row>(['name', 'x', 'note'], rows),
    'name,x,note\nplain,0.30000000000000004,\n"a,b",,"say ""hi"""\n"two\nlines",,\ninf,,"cr\r"\n',
  );
  // only the named columns, in the given order
  assert.equal(toCsv<Row>(['x', 'name'], [{ name: 'n', x: -0 }, { name: 'm', x: 1e21 }]), 'x,name\n0,n\n1e+21,m\n');
  assert.equal(toCsv<Row>(['name'], []), 'name\n');
});
