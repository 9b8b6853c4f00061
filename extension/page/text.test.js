// @ts-check
/// <reference types="node" />
// page/text.js in jsdom: the page as Markdown, and what a crawl keeps.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { TestPage } from './testdata.js';

test('text: a visible subtree\'s text as Markdown, from main when there is one', () => {
  const page = new TestPage(`
    <nav><a href="/">Home</a></nav>
    <main>
      <h1>Guide</h1>
      <p>Read <strong>this</strong> and <a href="/docs/next.html">the next page</a>.</p>
      <p hidden>Not shown</p>
      <ul><li>One</li><li>Two <em>items</em></li><li style="display:none">Gone</li></ul>
      <pre>let x = 1;</pre>
      <pre id="log"> </pre>
      <openchrome-banner><p>Banner text</p></openchrome-banner>
    </main>`, { url: 'http://127.0.0.1:8080/docs/guide.html' });
  const out = page.ok('text');
  assert.equal(out.url, 'http://127.0.0.1:8080/docs/guide.html');
  assert.equal(out.title, 'Test page');
  assert.equal(out.markdown, [
    '# Guide',
    '',
    'Read **this** and [the next page](next.html).',
    '',
    '- One',
    '- Two *items*',
    '',
    '```',
    'let x = 1;',
    '```',
  ].join('\n'));
});

test('text: tables and links elsewhere', () => {
  const page = new TestPage(`
    <table><tr><th>Name</th><th>Size</th></tr><tr><td>a|b</td><td>2</td></tr></table>
    <p><a href="https://other.test/x">away</a> <a href="#top">up</a> <a href="javascript:void(0)">menu</a></p>`);
  assert.equal(page.ok('text').markdown, [
    '| Name | Size |',
    '| --- | --- |',
    '| a\\|b | 2 |',
    '',
    '[away](https://other.test/x) [up](#top) menu',
  ].join('\n'));
});

test('text: words stay apart where the page puts a space or a control between them', () => {
  const page = new TestPage(`
    <p><b>Total </b>12 EUR, <a href="/terms"> terms</a>and<em> more </em>text</p>
    <p><label>Seats <input value="3"></label><button>Buy now</button></p>`);
  assert.equal(page.ok('text').markdown, [
    '**Total** 12 EUR, [terms](terms)and *more* text',
    '',
    'Seats Buy now',
  ].join('\n'));
});

test('text: a numbered list keeps the numbers a person sees', () => {
  const page = new TestPage(`<ol start="3"><li>Three</li><li>Four</li></ol><ol style="list-style-type: upper-roman" reversed><li>Two</li><li>One</li></ol>`);
  assert.equal(page.ok('text').markdown, ['3. Three', '4. Four', '', 'II. Two', 'I. One'].join('\n'));
});

test('crawl: content in the form asked for, links absolute, without fragments, once each', () => {
  const page = new TestPage(`
    <main><h2>Docs</h2><p>Body text</p></main>
    <a href="/a#one">A</a><a href="/a#two">A again</a><a href="b.html">B</a>
    <a href="mailto:x@y.test">mail</a><a href="javascript:void 0">js</a>
    <svg><a href="chart.html"><text>Chart</text></a></svg>
    <openchrome-banner><a href="/banner">banner</a></openchrome-banner>`, { url: 'http://127.0.0.1:8080/dir/page.html' });
  const md = page.ok('crawl', { output: 'markdown' });
  assert.equal(md.content, '## Docs\n\nBody text');
  assert.deepEqual(md.links, ['http://127.0.0.1:8080/a', 'http://127.0.0.1:8080/dir/b.html', 'http://127.0.0.1:8080/dir/chart.html'],
    'an SVG link too, whose href is no string');
  // innerText of main (jsdom's stand-in joins blocks without a break).
  const text = page.ok('crawl', { output: 'text' }).content;
  assert.match(text, /Docs/);
  assert.match(text, /Body text/);
  assert.doesNotMatch(text, /A again/, 'main only');
  const links = page.ok('crawl', { output: 'links' });
  assert.equal(links.content, undefined);
  assert.deepEqual(links.links, md.links);
});

test('text: a price struck through is marked so', () => {
  const page = new TestPage('<p>Price: <del>$20</del> <ins>$15</ins>, was <s>$25</s></p>');
  assert.equal(page.ok('text').markdown, 'Price: ~~$20~~ $15, was ~~$25~~');
});

test('text: a closed details shows its summary only, what is hidden until found and a fallback nothing', () => {
  const page = new TestPage(`<main><details><summary>More</summary>Folded words</details>
    <details open><summary>Open</summary>Unfolded words</details><div hidden="until-found">Found later</div>
    <p>Chart: <canvas>Canvas fallback</canvas></p><canvas>Block fallback</canvas></main>`);
  const { markdown } = page.ok('text');
  assert.match(markdown, /More/);
  assert.match(markdown, /Unfolded words/);
  assert.match(markdown, /Chart:/);
  assert.doesNotMatch(markdown, /Folded words|Found later|fallback/);
});
