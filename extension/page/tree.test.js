// @ts-check
/// <reference types="node" />
// page/tree.js in jsdom: the tree read_page shows.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { TestPage } from './testdata.js';

/**
 * Every node of tree, depth first.
 * @param {PageTreeNode[]} tree
 * @returns {PageTreeNode[]}
 */
function flat(tree) {
  return tree.flatMap((n) => [n, ...flat(n.kids ?? [])]);
}

/**
 * tree without what only says how text flows (inline, line breaks), for
 * the tests that are not about that.
 * @param {PageTreeNode[]} tree
 * @returns {PageTreeNode[]}
 */
function shape(tree) {
  return tree.filter((n) => n.text === undefined || n.text.trim()).map(({ inline, kids, ...n }) =>
    (kids ? { ...n, kids: shape(kids) } : n));
}

/**
 * The snapshot of body, refs from refBase.
 * @param {string} body
 * @param {number} [refBase]
 */
function snapshot(body, refBase = 1) {
  const page = new TestPage(body);
  return { page, snap: page.ok('snapshot', { refBase }) };
}

test('a button is a node with its role, name and a ref', () => {
  const { snap } = snapshot('<h1>Login Page</h1><button>Log in</button>', 5);
  assert.deepEqual(snap.tree, [
    { role: 'heading', name: 'Login Page', level: 1 },
    { text: '\n' }, // the heading is a block of its own
    { role: 'button', name: 'Log in', ref: 5, inline: true },
  ]);
  assert.equal(snap.nextRef, 6, 'refs are handed out from refBase on');
  assert.equal(snap.title, 'Test page');
  assert.equal(snap.url, 'http://127.0.0.1:8080/page.html');
  assert.equal(snap.truncated, false);
});

test('refs pass over the numbers the tab\'s last pages used', () => {
  const page = new TestPage('<button>A</button><button>B</button><button>C</button><button>D</button>');
  const snap = page.ok('snapshot', { refBase: 1, refSkip: [[2, 5], [6, 7]] });
  assert.deepEqual(flat(snap.tree).filter((n) => n.ref).map((n) => [n.name, n.ref]),
    [['A', 1], ['B', 5], ['C', 7], ['D', 8]]);
  assert.equal(snap.startRef, 1);
  assert.equal(snap.nextRef, 9);
  const again = page.ok('snapshot', { refBase: 1, refSkip: [] });
  assert.equal(flat(again.tree).find((n) => n.name === 'C')?.ref, 7, 'an element keeps its ref');
  assert.equal(again.startRef, 9, 'the document counts on from its own counter');
});

test('a labelled control says its label once', () => {
  const { snap } = snapshot('<label for=u>Username</label><input id=u value="bob"><label for=c>Keep me</label><input id=c type=checkbox checked>');
  const nodes = flat(snap.tree);
  assert.deepEqual(shape(nodes.filter((n) => n.role)), [
    { role: 'textbox', name: 'Username', ref: 1, value: 'bob' },
    { role: 'checkbox', name: 'Keep me', ref: 2, checked: 'true' },
  ]);
  assert.equal(nodes.filter((n) => n.text?.includes('Username')).length, 0, 'the label is not repeated as text');
});

test('a control named by a label and its own words, or by another control, is shown', () => {
  const { snap } = snapshot(`<label id=lbl>Assignee</label>
    <div><button id=btn aria-haspopup=listbox aria-labelledby="lbl btn">Wade Cooper</button></div>
    <button id=size>Size</button><button aria-labelledby="size more">M</button><span id=more>more</span>`);
  const nodes = flat(snap.tree);
  assert.deepEqual(nodes.filter((n) => n.role).map((n) => [n.role, n.name]), [
    ['button', 'Assignee Wade Cooper'],
    ['button', 'Size'],
    ['button', 'Size more'],
  ]);
  assert.equal(nodes.filter((n) => n.text?.includes('Assignee') || n.text?.includes('more')).length, 0, 'a label is said once, in the name');
});

test('a password field\'s value never appears in the tree', () => {
  const { page, snap } = snapshot(`
    <label for=p>Password</label><input id=p type=password>
    <label for=t>Token</label><input id=t name=token>
    <textarea name=otp-secret>also secret</textarea>`);
  /** @type {HTMLInputElement} */ (page.$('#p')).value = 'hunter2';
  /** @type {HTMLInputElement} */ (page.$('#t')).value = 'tok-123';
  const again = page.ok('snapshot', { refBase: snap.nextRef });
  const json = JSON.stringify(again);
  assert.doesNotMatch(json, /hunter2|tok-123|also secret/);
  const fields = flat(again.tree).filter((n) => n.role === 'textbox');
  assert.deepEqual(fields.map((n) => [n.name, n.secret, n.value]), [
    ['Password', 'password', undefined],
    ['Token', 'secret', undefined],
    [undefined, 'secret', undefined],
  ]);
});

test('hidden subtrees are left out', () => {
  const { snap } = snapshot(`
    <div hidden><button>Hidden</button></div>
    <div style="display:none"><a href="/x">None</a></div>
    <div aria-hidden="true"><button>Aria hidden</button></div>
    <input type=hidden name=csrf value=abc>
    <button>Shown</button>`);
  assert.deepEqual(shape(snap.tree), [{ role: 'button', name: 'Shown', ref: 1 }]);
});

test('a visible child of a visibility:hidden parent is shown, its parent\'s text is not', () => {
  const { snap } = snapshot(`
    <div style="visibility:hidden">Hidden text
      <button>Hidden too</button>
      <p><button style="visibility:visible">Shown child</button></p>
    </div>`);
  assert.deepEqual(shape(flat(snap.tree).filter((n) => n.role || n.text?.trim())),
    [{ role: 'button', name: 'Shown child', ref: 1 }]);
});

test('a modal faded out (opacity 0, clicks pass through) is not in the tree, aria-hidden or not', () => {
  const { snap } = snapshot(`
    <div role="dialog" aria-label="Settings" style="opacity:0; pointer-events:none"><button>Close</button></div>
    <div role="dialog" aria-label="Share" aria-hidden="true" style="opacity:0"><button>Copy</button></div>
    <button>Open settings</button>`);
  assert.deepEqual(shape(flat(snap.tree).filter((n) => n.role || n.text?.trim())),
    [{ role: 'button', name: 'Open settings', ref: 1 }]);
});

test('an element a script listens on for clicks gets a ref, though no role says it is clickable', () => {
  const page = new TestPage(`
    <h2 id=title>Double-click to rename</h2>
    <span id=edit>Edit</span>
    <div id=card><p>Plan Pro</p><p>$10 a month</p></div>
    <div id=root><button>a</button><button>b</button><button>c</button><button>d</button><button>e</button><button>f</button></div>
    <button id=real>Save</button>`);
  const fresh = page.ns.tree.markClickable(['#title', '#edit', '#card', '#root', '#real'].map((s) => page.$(s)));
  assert.equal(fresh, 4, 'the button had a role already');
  assert.equal(page.ns.tree.markClickable([page.$('#edit')]), 0, 'marked once');
  const nodes = flat(page.ok('snapshot', { refBase: 1 }).tree).filter((n) => n.clickable);
  assert.deepEqual(nodes.map(({ ref, inline, kids, ...n }) => ({ ...n, kids: kids?.length })), [
    { role: 'heading', name: 'Double-click to rename', level: 2, clickable: true, kids: undefined },
    { role: 'generic', name: 'Edit', clickable: true, kids: undefined },
    { role: 'generic', name: 'Plan Pro $10 a month', clickable: true, kids: undefined },
  ], 'the root listening for six buttons is not one');
  assert.ok(nodes.every((n) => typeof n.ref === 'number'));
});

test('a clickable that only a double click or a right click reaches says so, until it hears clicks too', () => {
  const page = new TestPage(`
    <h2 id=title>Draft</h2>
    <div id=row>report.pdf</div>
    <span id=edit>Edit</span>`);
  const els = ['#title', '#row', '#edit'].map((s) => page.$(s));
  page.ns.tree.markClickable(els, [], [], ['double_click', 'right_click', '']);
  const gestures = () => flat(page.ok('snapshot', { refBase: 1 }).tree).filter((n) => n.clickable)
    .map((n) => [n.name, n.gesture]);
  assert.deepEqual(gestures(), [['Draft', 'double_click'], ['report.pdf', 'right_click'], ['Edit', undefined]]);
  page.ns.tree.markClickable(els, [], [], ['', 'right_click', '']);
  assert.deepEqual(gestures(), [['Draft', undefined], ['report.pdf', 'right_click'], ['Edit', undefined]],
    'a script started listening for its clicks');
});

test('an element a script listens on for the pointer coming over it is clickable, unless a control in it is what is used', () => {
  const page = new TestPage(`
    <nav><div id=account>Account</div><div id=wrap><button>Products</button></div></nav>`);
  const fresh = page.ns.tree.markClickable([], [], [page.$('#account'), page.$('#wrap'), page.document]);
  assert.equal(fresh, 2, 'a document that listens is nothing to mark');
  const nodes = flat(page.ok('snapshot', { refBase: 1 }).tree).filter((n) => n.ref !== undefined);
  assert.deepEqual(nodes.map((n) => [n.role, n.name, !!n.clickable]), [
    ['navigation', undefined, false], ['generic', 'Account', true], ['button', 'Products', false],
  ], 'the wrapper of a button is not one: the button is what a person uses');
});

test('a wrapper a script listens on around one control is that control, said once', () => {
  const page = new TestPage(`
    <div id=logged><button>Save</button></div>
    <div onclick="1"><button>Publish</button></div>
    <div tabindex=0><button>Share</button></div>
    <div id=card onclick="1"><b>Blue shirt</b> <button>Buy</button></div>`);
  page.ns.tree.markClickable([page.$('#logged')]);
  const nodes = flat(page.ok('snapshot', { refBase: 1 }).tree).filter((n) => n.role);
  assert.deepEqual(nodes.map((n) => `${n.role} ${n.name}${n.clickable ? ' clickable' : ''}`), [
    'button Save', 'button Publish', 'button Share', 'button Blue shirt Buy', 'button Buy',
  ]);
});

test('a shape a script listens on is named by its <title>, as a chart\'s bar', () => {
  const page = new TestPage(`<svg>
    <rect id=q1 x=0 y=0 width=10 height=40><title>Q1: 80</title></rect>
    <rect id=q2 x=20 y=0 width=10 height=30></rect>
  </svg>`);
  page.ns.tree.markClickable(['#q1', '#q2'].map((s) => page.$(s)));
  const nodes = flat(page.ok('snapshot', { refBase: 1 }).tree).filter((n) => n.clickable);
  assert.deepEqual(nodes.map((n) => n.name ?? ''), ['Q1: 80', '']);
});

test('the marks stand until the document changes, for two seconds at most', async () => {
  let now = 1000;
  const page = new TestPage('<div id=a>A</div>', { before: (w) => { w.performance.now = () => now; } });
  assert.equal(page.ns.tree.marksFresh(), false, 'never asked');
  page.ns.tree.markClickable([page.$('#a')]);
  assert.equal(page.ns.tree.marksFresh(), true);
  page.$('#a').setAttribute('title', 'x');
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(page.ns.tree.marksFresh(), true, 'an attribute adds no listener');
  now += 1999;
  assert.equal(page.ns.tree.marksFresh(), true);
  now += 1;
  assert.equal(page.ns.tree.marksFresh(), false, 'a script may have listened since without changing the page');
  page.ns.tree.markClickable([page.$('#a')]);
  assert.equal(page.ns.tree.marksFresh(), true, 'marked again');
  page.$('#a').append(page.document.createElement('span'));
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(page.ns.tree.marksFresh(), false, 'a new element may have listeners');
});

test('a player with controls is a control: where it is, with a ref; one without is a picture', () => {
  const page = new TestPage(`<audio id=a controls aria-label="Podcast"></audio><video id=v controls title="Intro"></video>
    <video id=bg autoplay muted></video>`);
  const v = /** @type {HTMLVideoElement} */ (page.$('#v'));
  Object.defineProperties(v, { paused: { value: false }, currentTime: { value: 75.4 }, duration: { value: 3725 }, muted: { value: true } });
  const nodes = page.ok('snapshot', { refBase: 1 }).tree;
  assert.deepEqual(nodes.map((/** @type {any} */ { ref, ...n }) => ({ ...n, ref: typeof ref })), [
    { role: 'audio', name: 'Podcast', value: 'paused 0:00', ref: 'number' },
    { role: 'video', name: 'Intro', value: 'playing 1:15 / 1:02:05, muted', ref: 'number' },
  ]);
});

test('the words of a chart drawn in SVG stand apart, as they are placed', () => {
  const { snap } = snapshot('<svg><text x=10 y=20>Sales by quarter</text><g><text x=10 y=45>Q1 <tspan>120</tspan></text></g></svg>');
  const text = snap.tree.map((/** @type {{ text?: string }} */ n) => n.text ?? '').join('');
  assert.equal(text.trim(), 'Sales by quarter\nQ1 120');
});

test('a link drawn in SVG is a link, with its ref and where it goes', () => {
  const { snap } = snapshot(`<svg>
    <a href="/q1"><text x=10 y=20>Q1 report</text></a>
    <a xlink:href="q2" xmlns:xlink="http://www.w3.org/1999/xlink"><text x=10 y=45>Q2 report</text></a>
    <a><text x=10 y=70>No link</text></a>
  </svg>`);
  const links = snap.tree.filter((/** @type {any} */ n) => n.role === 'link');
  assert.deepEqual(links.map((/** @type {any} */ { name, href, ref }) => ({ name, href, ref: typeof ref })), [
    { name: 'Q1 report', href: 'http://127.0.0.1:8080/q1', ref: 'number' },
    { name: 'Q2 report', href: 'http://127.0.0.1:8080/q2', ref: 'number' },
  ]);
});

test('links carry their absolute href, sections a ref, and text flows between them', () => {
  const { snap } = snapshot('<main><p>Read the <a href="/docs">docs</a> first.</p></main>');
  assert.deepEqual(snap.tree, [{
    role: 'main',
    ref: 1,
    kids: [
      { text: 'Read the ' },
      { role: 'link', name: 'docs', inline: true, ref: 2, href: 'http://127.0.0.1:8080/docs' },
      { text: ' first.' },
    ],
  }]);
});

test('a link around a card\'s blocks is a line of its own', () => {
  const { snap } = snapshot('<a href="/p/1"><h3>First post</h3><p>A few words</p></a><button>Close</button> <a href="/more"><span>More</span></a>');
  assert.deepEqual(snap.tree.filter((/** @type {PageTreeNode} */ n) => n.role).map((/** @type {PageTreeNode} */ n) => [n.role, n.name, !!n.inline]), [
    ['link', 'First post A few words', false], ['button', 'Close', true], ['link', 'More', true],
  ]);
});

test('states: disabled, required, read-only, expanded, selected options of a listbox', () => {
  const { snap } = snapshot(`
    <button disabled>Send</button><input required aria-label=Name>
    <input readonly aria-label=Order value=A-17><input type=checkbox readonly aria-label=Gift>
    <div role=textbox aria-readonly=true aria-label=Total>9</div>
    <button aria-expanded="false">Menu</button>
    <select multiple aria-label=Colours><option selected>Red</option><option>Blue</option></select>`);
  assert.deepEqual(shape(snap.tree), [
    { role: 'button', name: 'Send', ref: 1, disabled: true },
    { role: 'textbox', name: 'Name', ref: 2, required: true },
    { role: 'textbox', name: 'Order', ref: 3, readonly: true, value: 'A-17' },
    { role: 'checkbox', name: 'Gift', ref: 4, checked: 'false' },
    { role: 'textbox', name: 'Total', ref: 5, readonly: true },
    { role: 'button', name: 'Menu', ref: 6, expanded: false },
    {
      role: 'listbox', name: 'Colours', ref: 7, value: 'Red',
      kids: [{ role: 'option', name: 'Red', ref: 8, selected: true }, { role: 'option', name: 'Blue', ref: 9 }],
    },
  ]);
});

test('a combobox drawn with elements shows its choice, and the textbox inside it', () => {
  const { snap } = snapshot(`
    <div role=combobox aria-label=Color aria-expanded=false tabindex=0>Pick a color</div>
    <div role=combobox aria-expanded=false><input aria-label=City></div>
    <select aria-label=Size><option>Small</option><option>Large</option></select>`);
  assert.deepEqual(shape(snap.tree), [
    { role: 'combobox', name: 'Color', ref: 1, expanded: false, value: 'Pick a color' },
    { role: 'combobox', ref: 2, expanded: false, kids: [{ role: 'textbox', name: 'City', ref: 3 }] },
    { role: 'combobox', name: 'Size', ref: 4, value: 'Small', options: ['Small', 'Large'] },
  ]);
});

test('a closed select lists the options a person can pick, the first hundred', () => {
  const many = Array.from({ length: 130 }, (_, i) => `<option>C${i}</option>`).join('');
  const { snap } = snapshot(`
    <select aria-label=Country><option disabled selected>Choose…</option>
      <optgroup label=Europe><option>Norway</option><option label="Sverige">Sweden</option></optgroup>
      <optgroup label=Gone disabled><option>Atlantis</option></optgroup><option hidden>Secret</option></select>
    <select aria-label=Long>${many}</select>`);
  const [country, long] = snap.tree.filter((/** @type {PageTreeNode} */ n) => n.role === 'combobox');
  assert.deepEqual(country.options, ['Norway', 'Sverige']);
  assert.equal(country.moreOptions, undefined);
  assert.equal(long.options.length, 100);
  assert.equal(long.options[99], 'C99');
  assert.equal(long.moreOptions, 30);
});

test('a modal dialog says so; one that is merely open does not', () => {
  const { snap } = snapshot(`
    <div role=dialog aria-modal=true aria-label="Sign in"><button>Close</button></div>
    <dialog open aria-label=Tip><p>Hi</p></dialog>`);
  const dialogs = snap.tree.filter((/** @type {PageTreeNode} */ n) => n.role === 'dialog');
  assert.deepEqual(dialogs.map((/** @type {PageTreeNode} */ n) => [n.name, !!n.modal]), [['Sign in', true], ['Tip', false]]);
});

test('a control named by a symbol keeps its tooltip; one named in words does not need it', () => {
  const { snap } = snapshot(`
    <button title="Delete item">🗑</button><button title="Close">×</button><button title="Saves the draft">Save</button>`);
  assert.deepEqual(shape(snap.tree), [
    { role: 'button', name: '🗑', ref: 1, title: 'Delete item' },
    { role: 'button', name: '×', ref: 2, title: 'Close' },
    { role: 'button', name: 'Save', ref: 3 },
  ]);
});

test('the header a table is sorted by says which way', () => {
  const { snap } = snapshot(`<table><thead><tr><th aria-sort=ascending>Name</th><th aria-sort=none>Size</th>
    <th aria-sort=descending><button>Date</button></th></tr></thead><tr><td aria-sort=ascending>a</td><td>1</td><td>2</td></tr></table>`);
  const sorts = flat(snap.tree).filter((n) => n.role === 'columnheader' || n.role === 'cell').map((n) => [n.role, n.sort]);
  assert.deepEqual(sorts, [['columnheader', 'ascending'], ['columnheader', undefined], ['columnheader', 'descending'],
    ['cell', undefined], ['cell', undefined], ['cell', undefined]]);
});

test('an empty cell keeps its place, so the next stays under its header', () => {
  const { snap } = snapshot(`<table><tr><th>Customer</th><th>Total</th><th>Status</th><th></th></tr>
    <tr><td>Cy Diaz</td><td></td><td>Failed</td><td><button>Refund</button></td></tr></table>`);
  const rows = flat(snap.tree).filter((n) => n.role === 'row');
  assert.deepEqual(rows.map((r) => (r.kids ?? []).filter((/** @type {PageTreeNode} */ c) => c.role).map((/** @type {PageTreeNode} */ c) => c.name ?? c.kids?.[0]?.name ?? '')),
    [['Customer', 'Total', 'Status', ''], ['Cy Diaz', '', 'Failed', 'Refund']]);
});

test('a field the page or the browser holds invalid says so', () => {
  const { snap } = snapshot('<input aria-label=Email aria-invalid=true><input aria-label=Name aria-invalid=false><input aria-label=City required>');
  assert.deepEqual(flat(snap.tree).filter((n) => n.role).map((n) => [n.name, !!n.invalid]),
    [['Email', true], ['Name', false], ['City', false]], 'a required field untouched is not yet invalid');
});

test('the link a navigation marks current says so', () => {
  const { snap } = snapshot('<nav><a href=/a aria-current=page>Home</a><a href=/b aria-current=false>Blog</a></nav>');
  const links = snap.tree[0].kids;
  assert.deepEqual(links.map((/** @type {PageTreeNode} */ l) => [l.name, !!l.current]), [['Home', true], ['Blog', false]]);
});

test('the option a focused combobox points at is active', () => {
  const { page, snap: before } = snapshot(`
    <input id=q role=combobox aria-label=Search aria-controls=l aria-expanded=true>
    <ul id=l role=listbox><li role=option id=o1>python</li><li role=option id=o2>pytorch</li></ul>`);
  const q = page.$('#q');
  q.focus();
  q.setAttribute('aria-activedescendant', 'o2');
  const snap = page.ok('snapshot', { refBase: before.nextRef });
  const options = snap.tree.find((/** @type {PageTreeNode} */ n) => n.role === 'listbox').kids;
  assert.deepEqual(options.map((/** @type {PageTreeNode} */ o) => [o.name, !!o.active]), [['python', false], ['pytorch', true]]);
});

test('a details summary says whether it is open', () => {
  const { snap } = snapshot('<details><summary>More options</summary><p>Hidden</p></details><details open><summary>Shown</summary><p>Body</p></details>');
  /** @type {Array<[string | undefined, boolean | undefined]>} */
  const summaries = [];
  const visit = (/** @type {PageTreeNode[]} */ nodes) => {
    for (const n of nodes) {
      if (n.role === 'button') summaries.push([n.name, n.expanded]);
      if (n.kids) visit(n.kids);
    }
  };
  visit(snap.tree);
  assert.deepEqual(summaries, [['More options', false], ['Shown', true]]);
});

test('a link with no name, nothing in it and no size is not shown', () => {
  const page = new TestPage('<p><a id=empty href="/a"></a></p><a id=sized href="/b"></a><a id=named href="/c">Card</a>');
  page.place('#sized', { x: 0, y: 0, width: 20, height: 20 });
  const tree = JSON.stringify(page.ok('snapshot', { refBase: 1 }).tree);
  assert.equal(tree.match(/"role":"link"/g)?.length, 2, tree);
  assert.doesNotMatch(tree, /\/a"/, 'not the empty one');
});

test('the words of a closed details, of what is hidden until found and of a fallback are not shown', () => {
  const { snap } = snapshot('<details><summary>More</summary>Folded words</details>' +
    '<details open><summary>Open</summary>Unfolded words</details><div hidden="until-found">Found later</div>' +
    '<canvas>Canvas fallback</canvas><video>Video fallback</video>' +
    '<progress value="7" max="10">Progress fallback</progress><meter value="0.6">Meter fallback</meter><p>After</p>');
  const text = JSON.stringify(snap.tree);
  assert.doesNotMatch(text, /Folded words|Found later|fallback/);
  assert.match(text, /Unfolded words/);
  assert.match(text, /After/);
  assert.match(text, /"name":"More"/, 'the summary of a closed details shows');
});

test('an item of a numbered list starts with the number a person sees', () => {
  const { snap } = snapshot(`
    <ol><li>Open the box</li><li><a href="/r">Register</a> online</li></ol>
    <ol start="5" reversed><li>Five</li><li value="9">Nine</li><li>Eight</li></ol>
    <ol style="list-style-type: lower-alpha"><li>alpha</li><li>bravo</li></ol>
    <ol style="list-style-type: none"><li>Home</li></ol>
    <ul><li>Bullet</li></ul>`);
  const texts = flat(snap.tree).filter((n) => n.text?.trim() || n.role === 'link')
    .map((n) => n.text?.trim() ?? `link ${n.name}`);
  assert.deepEqual(texts, ['1. Open the box', '2.', 'link Register', 'online', '5. Five', '9. Nine', '8. Eight',
    'a. alpha', 'b. bravo', 'Home', 'Bullet']);
});

test('the handoff banner is not in the tree', () => {
  const { snap } = snapshot('<openchrome-banner><button>Finish</button></openchrome-banner><button>Page</button>');
  assert.deepEqual(shape(snap.tree), [{ role: 'button', name: 'Page', ref: 1 }]);
});

test('the same element keeps its ref across snapshots', () => {
  const { page, snap } = snapshot('<button>One</button>');
  page.document.body.insertAdjacentHTML('afterbegin', '<button>Zero</button>');
  const again = page.ok('snapshot', { refBase: snap.nextRef });
  assert.deepEqual(shape(again.tree), [{ role: 'button', name: 'Zero', ref: 2 }, { role: 'button', name: 'One', ref: 1 }]);
});

test('code keeps its line breaks and indentation', () => {
  const { snap } = snapshot('<p>Example:</p><pre>\ndef f():\n    <span class="k">if</span> x:\n\treturn (1)\n</pre><p>After   the   code.</p>');
  const code = snap.tree.find((/** @type {PageTreeNode} */ n) => n.role === 'code');
  assert.ok(code, 'the pre is a code node');
  assert.deepEqual(code.kids, [{ text: 'def f():\n    if x:\n\treturn (1)' }]);
  assert.ok(flat(snap.tree).some((n) => n.text?.includes('After the code.')), 'text outside code is still collapsed');
});

test('under a listening ancestor, the element where the hand cursor starts gets a ref', () => {
  const page = new TestPage(`
    <div id=root>
      <div class=card style="cursor:pointer"><p>Plan Pro</p><p>$10 a month</p></div>
      <div class=plain>Not clickable</div>
      <button><span style="cursor:pointer">Inside a button</span></button>
      <label style="cursor:pointer"><input type=checkbox> Remember me</label>
    </div>
    <div style="cursor:pointer">No one listens</div>`);
  page.ns.tree.markClickable([page.$('#root')]);
  const nodes = flat(page.ok('snapshot', { refBase: 1 }).tree).filter((n) => n.ref !== undefined);
  assert.deepEqual(nodes.map((n) => `${n.role} ${n.name}${n.clickable ? ' clickable' : ''}`), [
    'generic Plan Pro $10 a month clickable',
    'button Inside a button',
    'checkbox Remember me',
  ], 'the card only: not plain text, not a control\'s content, not a label, not outside the listener');
});

test("a framework's root listens for its tree, and is nothing to click itself", () => {
  const page = new TestPage(`<div id=root><main><h1>Sign in</h1><div class=link style="cursor:pointer">Forgot password?</div>
    <button>Sign in</button></main></div>`);
  assert.equal(page.ns.tree.markClickable([], [page.$('#root')]), 1, 'new');
  assert.equal(page.ns.tree.markClickable([], [page.$('#root')]), 0, 'marked once');
  const nodes = flat(page.ok('snapshot', { refBase: 1 }).tree).filter((n) => n.ref !== undefined);
  assert.deepEqual(nodes.map((n) => `${n.role} ${n.name ?? ''}${n.clickable ? ' clickable' : ''}`),
    ['main ', 'generic Forgot password? clickable', 'button Sign in']);
});

test('a listening document counts for its whole tree', () => {
  const page = new TestPage('<ul><li><span style="cursor:pointer">Open row</span></li></ul>');
  assert.equal(page.ns.tree.markClickable([page.document]), 1, 'new');
  assert.equal(page.ns.tree.markClickable([page.document]), 0, 'marked once');
  const nodes = flat(page.ok('snapshot', { refBase: 1 }).tree).filter((n) => n.clickable);
  assert.deepEqual(nodes.map((n) => n.name), ['Open row']);
});

test('text struck through is marked as Markdown marks it', () => {
  const { snap } = snapshot('<p>Price: <del>$20</del> <ins>$15</ins>, was <s>$25</s></p>');
  assert.equal(snap.tree.filter((/** @type {PageTreeNode} */ n) => n.text !== undefined).map((/** @type {PageTreeNode} */ n) => n.text).join(''),
    'Price: ~~$20~~ $15, was ~~$25~~');
});

test('what content-visibility: hidden keeps from being drawn is not read, nor its style asked', () => {
  const page = new TestPage('<section style="content-visibility: hidden"><p id=p>Folded <button id=b>Away</button></p></section><button>Here</button>');
  /** @type {Element[]} */
  const asked = [];
  const styleOf = page.window.getComputedStyle.bind(page.window);
  page.window.getComputedStyle = (/** @type {Element} */ el, /** @type {string | null | undefined} */ pseudo) => {
    asked.push(el);
    return styleOf(el, pseudo);
  };
  const snap = page.ok('snapshot', { refBase: 1 });
  assert.deepEqual(flat(snap.tree).map((n) => n.name ?? n.text).filter(Boolean), ['Here']);
  assert.ok(!asked.includes(page.$('#p')) && !asked.includes(page.$('#b')),
    'Chrome lays out a skipped subtree to give its style, and logs that it did');
});
