import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderInline, renderMarkdown } from '../../lib/site/markdown';

test('inline: code, links, emphasis, maths and escapes; HTML is escaped, never passed through', () => {
  assert.equal(renderInline('a *b* **c** `d<e>` _f_'), 'a <em>b</em> <strong>c</strong> <code>d&lt;e&gt;</code> <em>f</em>');
  assert.equal(renderInline('[x](a.html) <script>'), '<a href="a.html">x</a> &lt;script&gt;');
  const maths = renderInline('$K^O$ and |P\\|T|');
  assert.match(maths, /^<span class="katex">.*<msup><mi>K<\/mi><mi>O<\/mi><\/msup>.*<annotation encoding="application\/x-tex">K\^O<\/annotation>.*<\/span> and \|P&#124;T\|$/s, 'KaTeX typesets $K^O$ (HTML + MathML)');
  assert.equal(renderInline('costs $5 and $6'), 'costs $5 and $6', 'dollar amounts with a space before the closing $ are not maths');
  assert.equal(renderInline('[gone](x.csv)', { rewriteLink: () => null }), '<span class="unlinked" title="x.csv is not part of the report">gone</span>');
  assert.equal(renderInline('2 * 3 * 4'), '2 * 3 * 4', 'a lone asterisk between spaces is not emphasis');
});

test('blocks: headings, paragraphs, lists (nested, ordered with start), quotes, tables, fences', () => {
  const md = [
    '# Title',
    '',
    'One',
    'paragraph.',
    '',
    '* item *a*',
    '  continued',
    '  * nested',
    '* item b',
    '',
    '3. third',
    '4. fourth',
    '',
    '> **Note.** quoted',
    '> on two lines',
    '',
    '| m | f |',
    '|---|--:|',
    '| exact | \\|P\\| |',
    '',
    '```ts',
    'const a = 1 < 2;',
    '```',
  ].join('\n');
  assert.equal(
    renderMarkdown(md),
    [
      '<h1>Title</h1>',
      '<p>One\nparagraph.</p>',
      '<ul>',
      '<li>item <em>a</em>\ncontinued\n<ul>\n<li>nested</li>\n</ul></li>',
      '<li>item b</li>',
      '</ul>',
      '<ol start="3">',
      '<li>third</li>',
      '<li>fourth</li>',
      '</ol>',
      '<blockquote>\n<p><strong>Note.</strong> quoted\non two lines</p>\n</blockquote>',
      '<table class="md-table">\n<thead><tr><th>m</th><th style="text-align:right">f</th></tr></thead>\n<tbody>\n<tr><td>exact</td><td style="text-align:right">&#124;P&#124;</td></tr>\n</tbody>\n</table>',
      '<pre><code class="language-ts">const a = 1 &lt; 2;</code></pre>',
    ].join('\n'),
  );
});
