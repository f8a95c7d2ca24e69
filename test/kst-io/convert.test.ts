import { test } from 'node:test';
import assert from 'node:assert/strict';
import seedrandom from 'seedrandom';
import { buildDomain, checkSpace, countStates, enumerateStates, parseDomain, surmiseFunction } from '../../lib/kst';
import { detectFormat, exportStructure, exportedItemNames, importStructure, itemIdsFromNames, readItemDescriptions, type MatrixFormat } from '../../lib/kst-io';
import { BASIS_ROWS, SPACE_ROWS, exported, items, load, randomNames, refuses, srbtBasis, twoRouteCsv } from './helpers';

test('SRBT basis with 0/1/2 codes imports to the two-route domain; item descriptions come from the CSV', () => {
  const d = load(srbtBasis, 'two.bas');
  assert.deepEqual(d.ids, ['a', 'b', 'c', 'd']);
  assert.equal(d.components[2]!.description, 'task c, two routes');
  assert.equal(d.quasiOrdinal, false);
  assert.equal(countStates(d), 10);
  assert.deepEqual(surmiseFunction(d).c, [['a'], ['b']]);
  // Export writes exactly the hand-made basis back (the comment line is not kept).
  assert.equal(exported(d, 'basis', 'srbt'), `#SRBT v2.0 basis\n4\n6\n${BASIS_ROWS.join('\n')}\n`);
  assert.equal(exported(d, 'basis', 'kst'), `4\n6\n${BASIS_ROWS.join('\n')}\n`);
});

test('every format round-trips: export, import, same space', () => {
  const d = load(srbtBasis, 'two.bas');
  const states = enumerateStates(d);
  const cases: Array<[Parameters<typeof exportStructure>[1], MatrixFormat]> = [
    ['basis', 'srbt'],
    ['basis', 'kst'],
    ['basis', 'csv'],
    ['space', 'srbt'],
    ['space', 'kst'],
    ['space', 'matrix'],
    ['space', 'csv'],
    ['surmise', 'surmise-csv'],
  ];
  for (const [what, format] of cases) {
    const text = exported(d, what, format);
    assert.equal(detectFormat(text), format, `${what} ${format} detected`);
    const again = load(text, `x.${format}`, what === 'basis' ? { kind: 'basis' } : {});
    assert.deepEqual(enumerateStates(again), states, `${what} ${format}`);
    assert.deepEqual(again.basis, d.basis, `${what} ${format}`);
  }
  // Hand-checked texts of the space files.
  const space = exported(d, 'space', 'srbt', 'two routes');
  const lines = space.split('\n');
  assert.deepEqual(lines.slice(0, 3), ['#SRBT v2.0 space ASCII two routes', '4', '10']);
  assert.deepEqual(lines.slice(3, -1).sort(), [...SPACE_ROWS].sort());
  assert.equal(lines[lines.length - 1], '', 'a newline after the last line');
  const csv = exported(d, 'basis', 'csv').split('\n');
  assert.equal(csv[0], '"a","b","c","d"');
  assert.equal(csv[3], '2,0,1,0');
  assert.equal(
    exported(d, 'surmise', 'surmise-csv'),
    // kstMatrix's layout: one row per clause, the atom with the item itself.
    '"Item","a","b","c","d"\n"a",1,0,0,0\n"b",0,1,0,0\n"c",1,0,1,0\n"c",0,1,1,0\n"d",1,0,1,1\n"d",0,1,1,1\n',
  );
  assert.equal(exported(d, 'items', 'csv'), '"id","description"\n"a","task a"\n"b","task b"\n"c","task c, two routes"\n"d","task d"\n');
});

test('a surmise relation file (transposed: column j is the minimal state of j) imports as prerequisites', () => {
  // Chain a ≤ b ≤ c plus free d. Row i, column j = 1 when i is surmised from j (i ≤ j):
  //   a: a, b, c → 1110; b: b, c → 0110; c: 0010; d: 0001. Column c = {a, b, c}, the minimal state of c.
  const text = '#SRBT v2.0 relation\n4\n1110\n0110\n0010\n0001\n';
  const d = buildDomain(importStructure(text, 'chain.rel', { id: 'chain', items }), 'chain.rel');
  assert.equal(d.form, 'prerequisites');
  assert.deepEqual(d.prerequisites, [['a', 'b'], ['b', 'c']]);
  assert.equal(countStates(d), 8); // chain of 3 has 4 ideals, times 2 for d
  assert.equal(exported(d, 'relation', 'srbt'), text);
  assert.equal(exported(d, 'relation', 'matrix'), '1110\n0110\n0010\n0001\n');
  refuses(() => importStructure('#SRBT v2.0 relation\n2\n10\n01\n'.replace('01\n', '00\n'), 'r.rel', { id: 'r' }), /r\.rel:4: the diagonal entry of I2 is 0/);
  // b ≤ c ≤ a but not b ≤ a: row b has c, row c has a, row b lacks a.
  refuses(() => importStructure('3\n3\n100\n011\n101\n', 'r.rel', { id: 'r', kind: 'relation', format: 'kst' }), /r\.rel:4: not transitive: I2 is surmised from I3 and I3 from I1, but I2 not from I1/);
});

test('malformed files are refused with file:line and the reason', () => {
  const cases: Array<[string, string, RegExp, MatrixFormat?]> = [
    ['too few rows', '#SRBT v2.0 space ASCII\n2\n3\n00\n11\n', /^x:3: wrong count: line 3 announces 3 row\(s\), but the file ends after 2 \(its last line is 5\)$/],
    ['too many rows', '#SRBT v2.0 space ASCII\n2\n1\n00\n11\n', /^x:3: wrong count: line 3 announces 1 row\(s\), but line 5 is row 2 \(the file has 2\)$/],
    ['KST count past the rows', '2\n3\n00\n11\n', /^x:2: wrong count: line 2 announces 3 row\(s\), but the file ends after 2 \(its last line is 4\)$/],
    ['KST bad count, not a matrix', '3\n7\n000\n111\n', /^x:2: wrong count: line 2 announces 7 row\(s\)/],
    ['relation count', '#SRBT v2.0 relation\n2\n10\n01\n11\n', /^x:2: wrong count: line 2 announces 2 row\(s\), but line 5 is row 3/],
    ['ragged row', '#SRBT v2.0 space ASCII\n2\n2\n00\n1\n', /^x:5: ragged row: 1 symbol\(s\) where the file has 2 item\(s\)$/],
    ['blank line inside', '00\n\n11\n', /^x:2: blank line where a row of 2 symbol\(s\) is expected$/],
    ['bad symbol', '2\n2\n00\n1x\n', /^x:4: symbol "x" in column 2 \(allowed: 0, 1, 2\)$/, 'kst'],
    ['invisible symbol', '2\n2\n00\n1\u00a0\n', /^x:4: symbol "\\u\{00A0\}" in column 2/, 'kst'],
    ['2 in a space', '#SRBT v2.0 space ASCII\n2\n2\n00\n12\n', /^x:5: symbol "2" in column 2 \(allowed: 0, 1\)$/],
    ['bad item count', '#SRBT v2.0 basis\nfour\n2\n', /^x:2: expected the number of items as a positive integer, found "four"$/],
    ['unknown struct', '#SRBT v2.0 lattice ASCII\n2\n1\n00\n', /^x:1: unknown SRBT struct "lattice"/],
    ['zero-width space in the header', '#SRBT v2.0 space\u200b ASCII\n2\n1\n00\n', /^x:1: unknown SRBT struct "space\\u\{200B\}"/],
    ['missing ASCII', '#SRBT v2.0 space\n2\n1\n00\n', /^x:1: an SRBT space header must name the encoding/],
    ['CSV ragged', 'a,b\n0,1\n1\n', /^x:3: ragged row: 1 field\(s\) where the header has 2$/],
    ['CSV bad value', 'a,b\n0,1\n1,y\n', /^x:3: value "y" for item "b"/],
    ['CSV duplicate header', 'a,a\n0,1\n', /^x:1: the header names item "a" twice$/],
    ['CSV text after a quote', '"a"b,"c"\n0,1\n', /^x:1: "b,\\"c\\"" after a closing quote, where a comma or the line's end is expected$/],
    ['tab-separated', '"a"\t"b"\n0\t1\n', /^x:1: "\\t\\"b\\"" after a closing quote, where a comma or the line's end is expected; the fields are separated by tabs/],
    // An unquoted tab-separated file has no comma, so it is detected as a matrix: the line is named as tab-separated, with the format that reads it.
    ['unquoted tab-separated names', 'a\tb\n0\t0\n1\t0\n1\t1\n', /^x:1: "a\\tb" looks tab-separated; no kstIO format separates by tabs: replace the tabs by commas to read it as CSV \(--format csv\), or remove them from 0\/1 rows \(--format matrix\)$/],
    ['unquoted tab-separated rows', '0\t0\n1\t0\n1\t1\n', /^x:1: "0\\t0" looks tab-separated; no kstIO format separates by tabs/],
    ['tab-separated rows of a KST file', '2\n2\n0\t0\n1\t1\n', /^x:3: "0\\t0" looks tab-separated/, 'kst'],
    ['unquoted tab-separated, read as CSV', 'a\tb\n0\t0\n', /^x:2: value "0\\t0" for item "a\\tb" \(allowed: 0, 1, 2\); the fields are separated by tabs, a CSV file separates them by commas$/, 'csv'],
    ['surmise CSV unknown item', '"Item","a","b"\n"z",1,0\n', /^x:2: the clause belongs to "z", which is not in the header$/],
    // kmbasis would read the row as the state {a}, a different structure: not silently made {a, b}.
    ['surmise CSV clause without its item', '"Item","a","b"\n"a",1,0\n"b",1,0\n', /^x:3: the clause of "b" does not contain "b" itself; each row is the item's atom/],
    ['data file', '#SRBT v2.0 data ASCII\n2\n1\n01\n', /^x:1: an SRBT data file holds response patterns/],
    ['code 2 in a space file', '#SRBT v2.0 space ASCII\n2\n2\n00\n11\n'.replace('space ASCII', 'structure ASCII').replace('11', '12'), /^x:5: symbol "2"/],
  ];
  for (const [name, text, pattern, format] of cases) {
    assert.throws(() => importStructure(text, 'x', { id: 'x', ...(format ? { format } : {}) }), (err: unknown) => {
      assert.ok(err instanceof Error && pattern.test(err.message), `${name}: ${String(err)}`);
      return true;
    });
  }
  // Clause errors of a surmise CSV name the clause's row: d's clause {a, d} lacks c's route.
  refuses(
    () => load('"Item","a","b","c","d"\n"c",1,0,1,0\n"d",0,0,1,1\n', 's.csv'),
    /^s\.csv:3: .*the clause of d on line 3/,
  );
  // A relation written as a plain matrix: refused as a family, with the hint to say --kind relation.
  refuses(() => load('1110\n0110\n0010\n0001\n', 'rel.mat'), /^rel\.mat: .*looks like: import it with --kind relation/);
  assert.equal(load('1110\n0110\n0010\n0001\n', 'rel.mat', { kind: 'relation' }).form, 'prerequisites');
  // Structure problems carry the file line of the row.
  refuses(() => load('#SRBT v2.0 basis\n4\n3\n1000\n0100\n1100\n', 'u.bas'), /u\.bas:6: line 6 \{a, b\} is the union of other basis elements|u\.bas: component "c" is in no basis element/);
  refuses(() => load(`#SRBT v2.0 basis\n4\n6\n${['1000', '0100', '1010', '0210', '2021', '0221'].join('\n')}\n`, 'c.bas'), /c\.bas:6: item a is coded 1, but another basis state containing it lies inside this one \(code 2\)/);
  refuses(() => load('#SRBT v2.0 structure ASCII\n4\n4\n0000\n1100\n0110\n1111\n', 's.str'), /s\.str:5: the family is not closed under union: line 5 ∪ line 6 = \{a, b, c\} is not in the family/);
  // The items CSV must match a CSV header, and give the right number of items otherwise.
  refuses(() => load('a,b,x,d\n0,0,0,0\n1,1,1,1\n', 'h.csv'), /h\.csv:1: the header.s items \("a", "b", "x", "d"\) do not match the items of items\.csv/);
  refuses(() => load('000\n111\n', 'n.mat'), /n\.mat: the structure has 3 item\(s\), items\.csv lists 4/);
  refuses(() => readItemDescriptions('id,text\na,x\n', 'i.csv'), /i\.csv:1: expected the header id,description/);
  refuses(() => readItemDescriptions('id,description\na,x\na,y\n', 'i.csv'), /i\.csv:3: item "a" listed twice/);
});

test('the items file that export writes reads back: descriptions with line breaks, commas and quotes', () => {
  const descriptions = ['first line\nsecond line', 'a, b, and "c"', 'windows\r\nline end', '"quoted"\n\n"after a blank line"'];
  const given = readItemDescriptions(`id,description\n${descriptions.map((t, k) => `i${k},"${t.replace(/"/g, '""')}"`).join('\n')}\n`, 'given.csv');
  assert.deepEqual([...given.descriptions.values()], descriptions, 'the hand-written file reads as written');
  const d = buildDomain(importStructure('0000\n1000\n1100\n1110\n1111\n', 'chain.mat', { id: 'chain', items: given }), 'chain.mat');
  assert.deepEqual(d.components.map((c) => c.description), descriptions);
  const again = readItemDescriptions(exported(d, 'items', 'csv'), 'exported.csv');
  assert.deepEqual(again.ids, ['i0', 'i1', 'i2', 'i3']);
  assert.deepEqual([...again.descriptions.values()], descriptions, 'export, then import, gives the descriptions back');
  // An error names the line its record starts on: i1's record starts on line 4, after i0's two lines.
  refuses(() => readItemDescriptions('id,description\ni0,"one\ntwo"\ni1,x,extra\n', 'r.csv'), /^r\.csv:4: ragged row: 3 field\(s\) where the header has 2$/);
  refuses(() => readItemDescriptions('id,description\ni0,"one\ntwo"\ni0,"three\nfour"\n', 'r.csv'), /^r\.csv:4: item "i0" listed twice$/);
  refuses(() => readItemDescriptions('id,description\ni0,"open\nnever closed\n', 'r.csv'), /^r\.csv:2: unterminated quoted field$/);
  refuses(() => readItemDescriptions('"id"\t"description"\n"a"\t"x"\n', 't.csv'), /^t\.csv:1: "\\t\\"descript" after a closing quote, where a comma or the line's end is expected; the fields are separated by tabs/);
});

test('simple items files read as before: R quoting, a byte-order mark, \\r\\n, blank lines at the end', () => {
  const expected = { ids: ['a', 'b'], descriptions: new Map([['a', 'task a'], ['b', 'task b, two routes']]) };
  for (const text of [
    'id,description\na,task a\nb,"task b, two routes"\n',
    '"id","description"\n"a","task a"\n"b","task b, two routes"',
    '\ufeffID,Description\r\na, task a \r\nb,"task b, two routes"\r\n\r\n  \n',
  ]) {
    const read = readItemDescriptions(text, 'i.csv');
    assert.deepEqual({ ids: read.ids, descriptions: read.descriptions }, expected, JSON.stringify(text));
  }
  refuses(() => readItemDescriptions('', 'i.csv'), /^i\.csv: empty file$/);
  refuses(() => readItemDescriptions('\n \n', 'i.csv'), /^i\.csv: the file has only blank lines$/);
  refuses(() => readItemDescriptions('id,description\n', 'i.csv'), /^i\.csv: no items after the header$/);
  refuses(() => readItemDescriptions('id,description\na,\n', 'i.csv'), /^i\.csv:2: item "a" has an empty description$/);
  refuses(() => readItemDescriptions('id,description\n,x\n', 'i.csv'), /^i\.csv:2: empty item ID$/);
  refuses(() => readItemDescriptions('id,description\n"a"b,x\n', 'i.csv'), /^i\.csv:2: "b,x" after a closing quote/);
});

test('--reduce-notions collapses equivalent items, as kmeqreduction keeps the first column', () => {
  // b and c always together: states ∅, a, abc, abcd → notions {b, c}; reduced on a, b, d: chain a < b < d.
  const text = '#SRBT v2.0 space ASCII\n4\n4\n0000\n1000\n1110\n1111\n';
  const full = buildDomain(importStructure(text, 'n.spc', { id: 'n', items }), 'n.spc');
  assert.deepEqual(full.notions, [['b', 'c']]);
  const reduced = buildDomain(importStructure(text, 'n.spc', { id: 'n', items, reduceNotions: true }), 'n.spc');
  assert.deepEqual(reduced.ids, ['a', 'b', 'd']);
  assert.deepEqual(reduced.prerequisites, [['a', 'b'], ['b', 'd']]);
  assert.equal(countStates(reduced), 4);
});

test('import maps item names the loader would refuse by the documented rule, keeps them as labels, and refuses a bad --id or --id-prefix naming it', () => {
  assert.deepEqual(itemIdsFromNames(['a b', 'a_b', ' "q" ', 'é', 'x', '-y']), {
    ids: ['a_b_2', 'a_b', 'q_', 'I4', 'x', 'y'],
    labels: ['a b', undefined, ' "q" ', 'é', undefined, '-y'],
  });
  const file = importStructure('"I 1","I 2"\n0,0\n1,0\n1,1\n', 'h.csv', { id: 'h' });
  assert.deepEqual(file.components.map((c) => [c.id, c.label]), [['I_1', 'I 1'], ['I_2', 'I 2']]);
  assert.equal(parseDomain(JSON.stringify(file), 'h.json').ids.join(','), 'I_1,I_2');
  refuses(() => importStructure('00\n10\n11\n', 'm.mat', { id: 'bad id' }), /^the domain ID "bad id" is not a valid ID/);
  refuses(() => importStructure('00\n10\n11\n', 'm.mat', { id: 'm', idPrefix: 'item ' }), /^the ID prefix "item " is not a valid ID/);
  // An items file with a name that is not an ID: mapped, its description kept.
  const named = importStructure('00\n10\n11\n', 'm.mat', { id: 'm', items: readItemDescriptions('id,description\na b,first\nc,second\n', 'i.csv') });
  assert.deepEqual(named.components, [{ id: 'a_b', description: 'first', label: 'a b' }, { id: 'c', description: 'second' }]);
});

test('a UTF-8 BOM is stripped and quoted CSV headers are unquoted (R write.csv, Excel)', () => {
  const csv = importStructure('\ufeff"I1","I2"\r\n0,0\r\n1,0\r\n1,1\r\n', 'bom.csv', { id: 'bom' });
  assert.deepEqual(csv.components.map((c) => c.id), ['I1', 'I2']);
  const srbt = load(`\ufeff${srbtBasis}`, 'bom.bas');
  assert.equal(countStates(srbt), 10);
  assert.equal(detectFormat(`\ufeff${srbtBasis}`), 'srbt');
});

test('a trailing blank line and a missing final newline are read, as kstIO reads them (hand-made fixtures)', () => {
  const space = `#SRBT v2.0 space ASCII\n4\n10\n${SPACE_ROWS.join('\n')}`;
  for (const [name, text] of [
    ['no final newline', space],
    ['one trailing blank line', `${space}\n\n`],
    ['blank lines with spaces and CRLF', `${space}\r\n  \r\n\r\n`],
    ['rows with spaces around them', space.replace('1111', ' 1111\t')],
  ]) {
    assert.equal(countStates(load(text!, 'x.spc')), 10, name);
  }
  assert.equal(countStates(load(`${SPACE_ROWS.join('\n')}\n\n`, 'x.mat')), 10, 'matrix with a trailing blank line');
  assert.equal(detectFormat(`${SPACE_ROWS.join('\n')}\n\n`), 'matrix');
});

test('property: every domain file import writes loads and passes the space check (seeded random names: spaces, quotes, unicode, prefixes of one another)', () => {
  const seed = 'kst-io-import-names';
  const rng = seedrandom(seed);
  const pieces = ['a', 'b', 'I', '1', ' ', '"', "'", ',', 'é', 'Ω', '\u00a0', '-', '_', '.', '数', 'x y', '🙂'];
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
  for (let round = 0; round < 60; round++) {
    const n = 2 + Math.floor(rng() * 5);
    const names: string[] = [];
    while (names.length < n) {
      // Often extend an earlier name, so that names are prefixes of one another.
      let name = names.length > 0 && rng() < 0.4 ? pick(names) : '';
      const len = 1 + Math.floor(rng() * 3);
      for (let k = 0; k < len; k++) name += pick(pieces);
      if (name.trim() !== '' && !names.includes(name)) names.push(name);
    }
    // A chain space on the names, written as R's write.csv would: quoted header, then the rows.
    const rows = Array.from({ length: n + 1 }, (_, k) => names.map((_, j) => (j < k ? 1 : 0)).join(','));
    const text = `${names.map((x) => `"${x.replace(/"/g, '""')}"`).join(',')}\n${rows.join('\n')}\n`;
    const written = `${JSON.stringify(importStructure(text, 'random.csv', { id: 'random' }), null, 2)}\n`;
    const domain = parseDomain(written, 'random.json');
    assert.equal(checkSpace(domain).knowledgeSpace, true, `seed ${seed}, round ${round}: ${JSON.stringify(names)}`);
    assert.equal(countStates(domain), n + 1);
    assert.deepEqual(domain.components.map((c) => c.label ?? c.id), names, 'every original name is kept (as the ID or as the label)');
  }
});

test('a space file with more than 200,000 states streams into its basis (no silent limit)', () => {
  // 18 free items: 2^18 = 262,144 states, basis the 18 singletons; then one route more: item 18 after
  // item 0 or item 1 (basis adds {0,18}, {1,18}).
  const free = buildDomain({ id: 'big', title: 'big', source: 'test', components: Array.from({ length: 19 }, (_, i) => ({ id: `I${i + 1}`, description: 'x' })), basis: [...Array.from({ length: 18 }, (_, i) => [`I${i + 1}`]), ['I1', 'I19'], ['I2', 'I19']] });
  const total = countStates(free);
  assert.ok(total > 200_000, `${total} states`);
  const text = exported(free, 'space', 'srbt');
  const imported = importStructure(text, 'big.spc', { id: 'big' });
  assert.deepEqual(imported.basis, free.basis);
  // One state removed: no longer closed under union, and the refusal names the two lines.
  const lines = text.split('\n');
  const dropped = lines.findIndex((l) => l === '1100000000000000001');
  assert.ok(dropped > 0);
  const broken = [...lines.slice(0, 2), String(total - 1), ...lines.slice(3).filter((_, k) => k + 3 !== dropped)].join('\n');
  refuses(() => importStructure(broken, 'big.spc', { id: 'big' }), /^big\.spc:\d+: the family is not closed under union: line \d+ ∪ line \d+ = \{I1, I2, I19\} is not in the family$/);
});

test('export refuses an SRBT comment with a line break (it would start a line no reader expects)', () => {
  const d = load(srbtBasis, 'two.bas');
  refuses(() => exported(d, 'space', 'srbt', 'two\nroutes'), /^--comment "two\\nroutes": an SRBT header comment is one line/);
  assert.ok(exported(d, 'space', 'srbt', 'two routes').startsWith('#SRBT v2.0 space ASCII two routes\n'));
});

const ROUND_TRIPS: Array<[Parameters<typeof exportStructure>[1], MatrixFormat, 'basis' | 'relation' | undefined]> = [
  ['basis', 'csv', 'basis'],
  ['space', 'csv', undefined],
  ['surmise', 'surmise-csv', undefined],
  ['relation', 'csv', 'relation'],
  ['basis', 'srbt', 'basis'],
  ['space', 'kst', undefined],
  ['relation', 'matrix', 'relation'],
];

test('property: import → export → import keeps the user\'s item names: the same IDs, labels and structure in every format (seeded random names)', () => {
  const seed = 'kst-io-export-names';
  const rng = seedrandom(seed);
  for (let round = 0; round < 40; round++) {
    const names = randomNames(rng);
    const where = `seed ${seed}, round ${round}: ${JSON.stringify(names)}`;
    const first = importStructure(twoRouteCsv(names), 'names.csv', { id: 'names', kind: 'basis' });
    const d = buildDomain(first, 'names.json');
    assert.deepEqual(d.components.map((c) => c.label ?? c.id), names, where);
    // The items file (the names of the matrix formats) is the export's too, so descriptions round-trip.
    const itemsCsv = exported(d, 'items', 'csv');
    const items = readItemDescriptions(itemsCsv, 'names-items.csv');
    assert.deepEqual(items.ids, names, `${where}: the items file names every item by its original name`);
    for (const [what, format, kind] of ROUND_TRIPS) {
      const notes = exportStructure(d, what, format, () => {});
      assert.deepEqual(notes, [], `${where}: ${what} ${format} writes every name`);
      const text = exported(d, what, format);
      const named = format === 'csv' || format === 'surmise-csv';
      // Read as a user would: the format detected, the items file beside a file without names.
      assert.equal(detectFormat(text), format, `${where}: ${what} ${format} detected`);
      const again = importStructure(text, 'names.csv', { id: 'names', ...(kind ? { kind } : {}), ...(named ? {} : { items }) });
      const domain = buildDomain(again, 'again.json');
      const label = `${where}: ${what} ${format}`;
      assert.deepEqual(again.components, first.components, label);
      if (what === 'relation') {
        // A relation file holds the quasi-ordinal hull, so the structure to compare is the relation.
        assert.equal(exported(domain, 'relation', format), text, label);
        continue;
      }
      assert.deepEqual(domain.basis, d.basis, label);
      assert.deepEqual(enumerateStates(domain), enumerateStates(d), label);
    }
  }
});

test('export names an item by its ID when its label would not come back, and says why, one line per item', () => {
  const component = (id: string, label?: string) => ({ id, description: `task ${id}`, ...(label ? { label } : {}) });
  const d = buildDomain({
    id: 'hand',
    title: 'hand',
    source: 'hand-edited labels',
    components: [component('Q1', 'é'), component('a', 'b'), component('b'), component('c', 'two\nlines'), component('Gr_e', 'Größe')],
    prerequisites: [['a', 'b']],
  });
  const notes = exportStructure(d, 'basis', 'csv', () => {});
  assert.deepEqual(notes, [
    'item Q1: its label "é" would be imported as I1 (lib/kst-io/README.md, "Item names"), so the file names it Q1',
    'item a: its label "b" is also the name of item b, so the file names it a',
    'item c: its label "two\\nlines" holds a line break, which a line of the file cannot hold, so the file names it c',
  ]);
  const text = exported(d, 'basis', 'csv');
  assert.equal(text.split('\n')[0], '"Q1","a","b","c","Größe"');
  // What it writes imports back to the same IDs; the label that could be written is kept.
  const again = importStructure(text, 'hand.csv', { id: 'hand', kind: 'basis' });
  assert.deepEqual(again.components.map((c) => [c.id, c.label]), [['Q1', undefined], ['a', undefined], ['b', undefined], ['c', undefined], ['Gr_e', 'Größe']]);
  // The matrix formats carry no names: no notes there, the items file has them.
  assert.deepEqual(exportStructure(d, 'basis', 'srbt', () => {}), []);
  assert.equal(exportStructure(d, 'items', 'csv', () => {}).length, 3);
});

/** importStructure's result, or the InputError it refused with. */
function attempt(text: string, format?: MatrixFormat, kind?: 'basis'): ReturnType<typeof importStructure> | Error {
  try {
    return importStructure(text, 'm.csv', { id: 'm', ...(format ? { format } : {}), ...(kind ? { kind } : {}) });
  } catch (err) {
    if (err instanceof Error && err.name === 'InputError') return err;
    throw err;
  }
}

test('property: a surmise CSV with unquoted items named 0/1/2 and a plain CSV whose first item is "Item" are each detected as what they are (seeded random structures)', () => {
  const seed = 'kst-io-item-csv';
  const rng = seedrandom(seed);
  const pool = ['0', '1', '2', 'Item', 'a', 'I1'];
  const detected = { surmise: 0, plain: 0 };
  for (let round = 0; round < 60; round++) {
    const n = 2 + Math.floor(rng() * 3);
    const ids = ['a', 'b', 'c', 'd'].slice(0, n);
    const prerequisites: Array<[string, string]> = [];
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (rng() < 0.4) prerequisites.push([ids[i]!, ids[j]!]);
    const d = buildDomain({ id: 'r', title: 'r', source: 'test', components: ids.map((id) => ({ id, description: id })), prerequisites });
    const plainNames = ['Item', ...[...pool.filter((x) => x !== 'Item')].sort(() => rng() - 0.5).slice(0, n - 1)];
    const surmiseNames = [...pool].sort(() => rng() - 0.5).slice(0, n);
    const unquoted = (text: string, names: string[]): string => text.replace(/"([a-d])"/g, (_, id: string) => names[ids.indexOf(id)]!);
    // A basis without a code 2 reads as a space unless --kind basis says otherwise (as a user would).
    const basis = unquoted(exported(d, 'basis', 'csv'), plainNames);
    const cases: Array<[MatrixFormat, string, 'basis'?]> = [
      ['surmise-csv', unquoted(exported(d, 'surmise', 'surmise-csv'), surmiseNames).replace(/^"Item"/, 'Item')],
      ['csv', basis, /\n.*2/.test(basis) ? undefined : 'basis'],
      ['csv', unquoted(exported(d, 'space', 'csv'), plainNames)],
    ];
    for (const [format, text, kind] of cases) {
      const where = `seed ${seed}, round ${round}, ${format}: ${JSON.stringify(text)}`;
      const meant = attempt(text, format, kind);
      assert.ok(!(meant instanceof Error), `${where}: the file as written imports with --format ${format} (${String(meant)})`);
      const guessed = attempt(text, undefined, kind);
      if (guessed instanceof Error) {
        // Only a file both readings import may be refused, and the refusal names both.
        assert.match(guessed.message, /say which with --format surmise-csv or --format csv$/, where);
        assert.ok(!(attempt(text, format === 'csv' ? 'surmise-csv' : 'csv', kind) instanceof Error), `${where}: refused, but only one reading imports`);
        continue;
      }
      assert.deepEqual(guessed, meant, where);
      if (format === 'csv') detected.plain++;
      else if (/\n[012],/.test(text)) detected.surmise++;
    }
  }
  // Not vacuous: both kinds with such names were met and detected.
  assert.ok(detected.surmise >= 20 && detected.plain >= 60, JSON.stringify(detected));
});

test('a surmise CSV whose items are named 0, 1, 2 (quotes dropped, as Excel or pandas do) imports; a malformed one names the other reading', () => {
  const s1 = importStructure('Item,1,2\n1,1,0\n2,1,1\n', 'sf.csv', { id: 's1' });
  assert.deepEqual(s1.surmise, { 1: [[]], 2: [['1']] });
  const s3 = importStructure('Item,0,1,2\n0,1,0,0\n1,1,1,0\n2,1,1,1\n', 'sf2.csv', { id: 's3' });
  assert.equal(Object.keys(s3.surmise!).length, 3);
  assert.deepEqual(importStructure('Item,0,1,2\n0,1,0,0\n1,1,1,0\n2,1,1,1\n', 'sf2.csv', { id: 's3', format: 'surmise-csv' }), s3);
  // A plain CSV whose first item is "Item" still reads as states.
  assert.deepEqual(importStructure('Item,b\n0,0\n1,0\n1,1\n', 'p.csv', { id: 'p' }).basis, [['Item'], ['Item', 'b']]);
  // Rows that fit both shapes and import as neither: the surmise reading's reason, and the other option.
  refuses(() => importStructure('Item,0,1\n1,0,1\n1,1,1\n', 'sf3.csv', { id: 's' }), /^sf3\.csv.*\(read as a surmise-function CSV; --format csv reads it as states whose first item is named "Item"\)$/);
});

test('export names 4,000 items whose labels do not round-trip by their IDs, one note each (its speed: npm run bench, "export item names")', () => {
  // "Question 7" maps to Question_7, not the item's ID q7: every label fails, every item gets a note.
  const n = 4000;
  const components = Array.from({ length: n }, (_, i) => ({ id: `q${i}`, label: `Question ${i}`, description: 'x' }));
  const d = buildDomain({ id: 'many', title: 'many', source: 'test', components, basis: components.map((c) => [c.id]) });
  const { names, notes } = exportedItemNames(d);
  assert.deepEqual(names, d.ids);
  assert.equal(notes.length, n);
  assert.equal(notes[7], 'item q7: its label "Question 7" would be imported as Question_7 (lib/kst-io/README.md, "Item names"), so the file names it q7');
});

/** The one-label-per-pass rule export used before (quadratic): the reference the faster passes must agree with. */
function namesOneAtATime(ids: readonly string[], labels: ReadonlyArray<string | undefined>): string[] {
  const names = labels.map((l, k) => l ?? ids[k]!);
  for (;;) {
    const mapped = itemIdsFromNames(names).ids;
    const fails = (name: string, k: number): boolean =>
      name !== ids[k] && (/[\r\n\u2028\u2029]/.test(name) || name.trim() === '' || names.some((x, j) => j !== k && x === name && (j < k || x === ids[j])) || mapped[k] !== ids[k]);
    const k = names.findIndex(fails);
    if (k < 0) return names;
    names[k] = ids[k]!;
  }
}

test('property: export keeps exactly the labels the one-at-a-time rule keeps, and notes each other item once (seeded labels that collide, map onto IDs, hold line breaks)', () => {
  const seed = 'kst-io-exported-names';
  const rng = seedrandom(seed);
  const pool = ['a', 'b', 'a b', 'a_b', 'I1', 'I2', 'x\ny', ' ', 'é', 'q1', 'q2', 'q1_2', 'Q', 'a_b_2'];
  const idPool = ['q1', 'q2', 'a_b', 'I1', 'b', 'a'];
  for (let round = 0; round < 3000; round++) {
    const n = 2 + Math.floor(rng() * 5);
    const ids = idPool.slice(0, n);
    const labels = ids.map(() => (rng() < 0.8 ? pool[Math.floor(rng() * pool.length)] : undefined));
    const components = ids.map((id, k) => ({ id, description: id, ...(labels[k] !== undefined ? { label: labels[k] } : {}) }));
    const d = buildDomain({ id: 'r', title: 'r', source: 'test', components, basis: ids.map((id) => [id]) });
    const { names, notes } = exportedItemNames(d);
    const where = `seed ${seed}, round ${round}: ${JSON.stringify(labels)}`;
    assert.deepEqual(names, namesOneAtATime(ids, labels), where);
    const noted = notes.map((note) => note.slice('item '.length, note.indexOf(':'))).sort();
    assert.deepEqual(noted, ids.filter((id, k) => names[k] === id && (labels[k] ?? id) !== id).sort(), where);
  }
});
