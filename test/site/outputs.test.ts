import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkCellReferences } from '../../lib/site/outputs';

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
