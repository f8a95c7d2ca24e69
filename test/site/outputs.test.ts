import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkCellReferences, rewriteNotebookLink } from '../../lib/site/outputs';

test('cell references in HTML output text become links to the cell on its report page', () => {
  const html = '<table><tr><td class="x">claim t3.p0</td><td>04-table3-figure1.ipynb#claims-table3</td></tr></table>';
  assert.equal(
    linkCellReferences(html),
    '<table><tr><td class="x">claim t3.p0</td><td><a href="04-table3-figure1.html#claims-table3">04-table3-figure1.ipynb#claims-table3</a></td></tr></table>',
  );
});

test('attributes and text that is not a notebook cell reference are left alone', () => {
  const html = '<a href="05-x.ipynb#c">see</a> notebooks/05-x.ipynb without anchor, x.ipynb#y';
  assert.equal(linkCellReferences(html), html);
});

test('rewriteNotebookLink: a figure link into figures/ or into the report\'s copy opens the report\'s figure page', () => {
  const page = (name: string) => `figures/${name}.html`;
  assert.equal(rewriteNotebookLink('../figures/04-f.html', page), 'figures/04-f.html');
  assert.equal(rewriteNotebookLink('../report/figures/04-f.html', page), 'figures/04-f.html');
  assert.equal(rewriteNotebookLink('05-x.ipynb#c', page), '05-x.html#c');
  assert.equal(rewriteNotebookLink('../report/other/04-f.html', page), null);
});
