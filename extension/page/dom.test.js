// @ts-check
/// <reference types="node" />
// page/refs.js and page/dom.js in jsdom: refs, locating, hit tests and the
// DOM operations the service worker asks for. jsdom has no layout: boxes
// come from TestPage.place.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { TestPage } from './testdata.js';

/**
 * A page and the ref of the first button.
 * @param {string} body
 */
function withRef(body) {
  const page = new TestPage(body);
  const [first] = page.ok('find', { query: 'button', limit: 1, refBase: 1 }).candidates;
  return { page, ref: /** @type {number} */ (first.ref) };
}

test('a ref resolves to its element', () => {
  const { page, ref } = withRef('<p>Intro</p><button id=save>Save</button>');
  page.place('#save', { x: 10, y: 20, width: 80, height: 30 });
  const loc = page.ok('locate', { ref });
  assert.deepEqual(
    { tag: loc.tag, role: loc.role, name: loc.name, box: loc.box, visible: loc.visible, inViewport: loc.inViewport, disabled: loc.disabled },
    { tag: 'button', role: 'button', name: 'Save', box: { x: 10, y: 20, width: 80, height: 30 }, visible: true, inViewport: true, disabled: false },
  );
  assert.equal(page.ns.refs.element(ref), page.$('#save'));
});

test('a removed element is stale_ref', () => {
  const { page, ref } = withRef('<button id=gone>Gone soon</button>');
  page.$('#gone').remove();
  const out = page.call('locate', { ref });
  assert.equal(out.error.code, 'stale_ref');
  assert.match(out.error.message, new RegExp(`ref e${ref} is gone`));
  assert.equal(out.error.hint, 'call read_page for fresh refs');
  assert.equal(page.ns.refs.lookup(ref), undefined);
});

test('a ref never names another element', () => {
  const page = new TestPage('<button id=a>A</button>');
  const { refs } = page.ns;
  const a = refs.refFor(page.$('#a'));
  page.$('#a').remove();
  page.document.body.insertAdjacentHTML('beforeend', '<button id=a>A</button>');
  assert.notEqual(refs.refFor(page.$('#a')), a);
  assert.equal(page.call('locate', { ref: a }).error.code, 'stale_ref');
});

test('an element with no box or display:none is not visible; off-screen is not in the viewport', () => {
  const page = new TestPage('<button id=a>A</button><button id=b>B</button><button id=c style="display:none">C</button>');
  const { refFor } = page.ns.refs;
  page.place('#b', { x: 5000, y: 10, width: 10, height: 10 });
  page.place('#c', { x: 0, y: 0, width: 10, height: 10 });
  const [a, b, c] = ['#a', '#b', '#c'].map((s) => page.ok('locate', { ref: refFor(page.$(s)) }));
  assert.deepEqual([a.visible, b.visible, c.visible], [false, true, false]);
  assert.equal(b.inViewport, false);
});

test('locate says which fields a page searches or filters by as they are typed in', () => {
  const page = new TestPage(`
    <input id=a type=search aria-label=Find>
    <search><input id=b aria-label=Query></search>
    <form role=search><input id=c aria-label=Words></form>
    <input id=d placeholder="Filter products">
    <input id=e aria-label="Search the docs">
    <input id=f aria-label=Email>
    <input id=g aria-label="Research topic">
    <button id=h>Search</button>`);
  const { refFor } = page.ns.refs;
  const searches = ['#a', '#b', '#c', '#d', '#e', '#f', '#g', '#h'].map((s) => page.ok('locate', { ref: refFor(page.$(s)) }).searches ?? false);
  assert.deepEqual(searches, [true, true, true, true, true, false, false, false]);
});

test('locate says whether a native or an ARIA box is checked', () => {
  const page = new TestPage(`
    <input type=checkbox id=n checked>
    <div role=checkbox id=t aria-checked=true>On</div>
    <div role=checkbox id=f aria-checked=false>Off</div>
    <div role=switch id=u>Unsaid</div>
    <div role=checkbox id=m aria-checked=mixed>Some</div>
    <button id=b>Save</button>`);
  const { refFor } = page.ns.refs;
  const checked = ['#n', '#t', '#f', '#u', '#m', '#b'].map((s) => page.ok('locate', { ref: refFor(page.$(s)) }).checked);
  // An unchecked ARIA box is false, not unknown: uncheck leaves it alone.
  assert.deepEqual(checked, [true, true, false, false, undefined, undefined]);
});

test('locate never returns a secret field\'s value', () => {
  const page = new TestPage('<input id=p type=password><input id=u>');
  /** @type {HTMLInputElement} */ (page.$('#p')).value = 'hunter2';
  /** @type {HTMLInputElement} */ (page.$('#u')).value = 'ada';
  const { refFor } = page.ns.refs;
  const p = page.ok('locate', { ref: refFor(page.$('#p')) });
  assert.equal(p.value, undefined);
  assert.equal(p.secret, 'password');
  assert.doesNotMatch(JSON.stringify(p), /hunter2/);
  assert.equal(page.ok('locate', { ref: refFor(page.$('#u')) }).value, 'ada');
});

test('actionable: an element a script restyled a moment ago may be moving, as an animated one is', async () => {
  let now = 1000;
  const page = new TestPage('<div id=track><button id=go>Go</button></div><button id=other>Other</button>', {
    before: (/** @type {any} */ w) => { w.performance.now = () => now; },
  });
  for (const id of ['#go', '#other']) page.place(id, { x: 0, y: 0, width: 100, height: 40 });
  const { refFor } = page.ns.refs;
  const animating = (/** @type {string} */ id) => page.ok('actionable', { ref: refFor(page.$(id)) }).animating;
  const heard = () => new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(animating('#go'), false);
  /** @type {HTMLElement} */ (page.$('#track')).style.left = '3px'; // a script slides what holds it
  await heard();
  now = 1050;
  assert.equal(animating('#go'), true, 'what holds it was restyled 50 ms ago');
  assert.equal(animating('#other'), false, 'not what holds another');
  now = 1200;
  assert.equal(animating('#go'), false, 'nothing since');
});

test('actionable: a click lands on the element, beside what covers part of it, or through its label', () => {
  const { page, ref } = withRef('<button id=go>Go</button><div id=cover role=dialog aria-label=Cookies></div><label id=l for=box>Agree</label><input id=box type=checkbox style="display:none">');
  page.place('#go', { x: 0, y: 0, width: 100, height: 40 });
  assert.deepEqual(page.ok('actionable', { ref }).point, { x: 50, y: 20 });
  page.place('#cover', { x: 0, y: 0, width: 60, height: 40 });
  const beside = page.ok('actionable', { ref });
  assert.equal(beside.state, 'ok');
  assert.ok(beside.point.x >= 60, 'a point the cover leaves free');
  page.place('#cover', { x: 0, y: 0, width: 100, height: 40 });
  const covered = page.ok('actionable', { ref });
  assert.equal(covered.state, 'covered');
  assert.equal(covered.blocker.name, 'dialog "Cookies"');
  page.place('#l', { x: 0, y: 100, width: 50, height: 20 });
  const box = page.ok('actionable', { ref: page.ns.refs.refFor(page.$('#box')) });
  assert.deepEqual([box.state, box.via, box.point], ['ok', 'label', { x: 25, y: 110 }], 'a label forwards its click');
});

test('actionable: a toggle whose bar lies below the view is clicked on its arrow fixed in view', () => {
  const { page, ref } = withRef('<div id=bar title="Collapse sidebar" onclick="1"><span id=arrow style="position: fixed">«</span></div>');
  page.place('#bar', { x: 244, y: 2000, width: 2, height: 658 });
  page.place('#arrow', { x: 246, y: 300, width: 10, height: 18 });
  const r = page.ok('actionable', { ref });
  assert.deepEqual([r.state, r.point], ['ok', { x: 251, y: 309 }]);
});

test('actionable: a link with no box of its own is clicked where its content shows', () => {
  const page = new TestPage(`<a id=contents href="/b" style="display:contents"><span id=b>Card B</span></a>
    <a id=floated href="/c"><span id=c style="float:left">Card C</span></a><a id=empty href="/d"><span id=d></span></a>`);
  const { refFor } = page.ns.refs;
  page.place('#b', { x: 0, y: 0, width: 80, height: 40 });
  page.place('#c', { x: 0, y: 50, width: 60, height: 20 });
  for (const [id, point] of /** @type {const} */ ([['#contents', { x: 40, y: 20 }], ['#floated', { x: 30, y: 60 }]])) {
    const r = page.ok('actionable', { ref: refFor(page.$(id)) });
    assert.deepEqual([r.state, r.point], ['ok', point], id);
  }
  assert.equal(page.ok('actionable', { ref: refFor(page.$('#empty')) }).state, 'hidden', 'nothing of it shows');
  page.$('#contents').setAttribute('style', 'display:none');
  assert.equal(page.ok('actionable', { ref: refFor(page.$('#contents')) }).state, 'hidden');
});

test('actionable: a checkbox drawn over by its label is clicked on the label, never on a link in it', () => {
  const page = new TestPage('<label id=l><input id=box type=checkbox><span id=drawn></span>I accept the <a id=terms href=/terms>terms</a></label>');
  const ref = page.ns.refs.refFor(page.$('#box'));
  page.place('#box', { x: 0, y: 0, width: 14, height: 14 });
  page.place('#l', { x: 0, y: 0, width: 200, height: 20 });
  page.place('#drawn', { x: 0, y: 0, width: 14, height: 14 });
  const drawn = page.ok('actionable', { ref });
  assert.deepEqual([drawn.state, drawn.via, drawn.point], ['ok', 'label', { x: 7, y: 7 }], 'the drawn box is the label\'s');
  // The link lies over the whole control and the label: a click anywhere
  // would follow it.
  page.place('#terms', { x: 0, y: 0, width: 200, height: 20 });
  const link = page.ok('actionable', { ref });
  assert.equal(link.state, 'covered');
  assert.equal(link.blocker.name, 'link "terms"');
  // Off the link, the label's own text takes the click for the control.
  page.place('#terms', { x: 150, y: 0, width: 50, height: 20 });
  const text = page.ok('actionable', { ref });
  assert.equal(text.state, 'ok');
  assert.ok(text.point.x < 150, 'a point off the link');
  // Once confirmed at that point, the same answer.
  const again = page.ok('actionable', { ref, at: text.point });
  assert.deepEqual([again.state, again.via], ['ok', text.via]);
});

test('actionable names the dialog over a bare backdrop, not a banner the backdrop covers', () => {
  const { page, ref } = withRef('<button id=go>Go</button><div id=banner role=dialog aria-label=Cookies><button>Accept</button></div><div id=cover></div>');
  page.place('#go', { x: 0, y: 0, width: 100, height: 40 });
  page.place('#banner', { x: 0, y: 500, width: 800, height: 100 });
  page.place('#banner button', { x: 10, y: 510, width: 80, height: 30 });
  // A spinner's cover, over the page and the banner both.
  page.place('#cover', { x: 0, y: 0, width: 800, height: 600 });
  const spinner = page.ok('actionable', { ref });
  assert.equal(spinner.state, 'covered');
  assert.deepEqual([spinner.blocker.name, spinner.dismiss], ['div', []], 'the banner is not what is in the way');
  // The banner drawn over the cover: its backdrop.
  page.place('#banner', { x: 0, y: 500, width: 800, height: 100 });
  page.place('#banner button', { x: 10, y: 510, width: 80, height: 30 });
  const modal = page.ok('actionable', { ref });
  assert.equal(modal.blocker.name, 'dialog "Cookies"');
  assert.deepEqual(modal.dismiss.map((/** @type {{ name: string }} */ d) => d.name), ['button "Accept"']);
});

test('actionable says a cover that draws nothing is one a person does not see', () => {
  const { page, ref } = withRef(`<button id=go>Go</button>
    <div id=shield style="position:fixed; inset:0"></div>
    <div id=dim style="position:fixed; inset:0; background: rgba(0, 0, 0, 0.5)"></div>
    <div id=framed style="position:fixed; inset:0"><div style="border: 1px solid #333; height: 10px"></div></div>`);
  page.place('#go', { x: 0, y: 0, width: 100, height: 40 });
  const under = (/** @type {string} */ id) => {
    page.place(`#${id}`, { x: 0, y: 0, width: 800, height: 600 });
    return page.ok('actionable', { ref });
  };
  assert.deepEqual(['shield', 'dim', 'framed'].map((id) => { const r = under(id); return [r.state, r.blocker?.name, r.unseen]; }), [
    ['covered', 'div', true],
    ['covered', 'div', undefined], // a person sees the page darken
    ['covered', 'div', undefined], // and a box drawn on it
  ]);
});

test('actionable clicks an image map\'s area where its shape lies on the image', () => {
  const page = new TestPage(`<img id=plan usemap="#rooms" alt="Floor plan"><map name=rooms>
    <area id=hall shape=poly coords="100,10 180,10 180,50 100,50" href="#hall" alt="Hall"></map>`);
  page.place('#plan', { x: 20, y: 30, width: 200, height: 100 });
  // The hit test finds the area where the browser would: on the image.
  page.place('#hall', { x: 120, y: 40, width: 80, height: 40 });
  const out = page.ok('actionable', { ref: page.ns.refs.refFor(page.$('#hall')) });
  assert.deepEqual([out.state, out.point, out.box], ['ok', { x: 160, y: 60 }, { x: 120, y: 40, width: 80, height: 40 }]);
  assert.equal(page.ns.roles.visible(page.$('#hall')), true, 'seen as part of its image');
  page.$('#plan').setAttribute('style', 'display: none');
  assert.equal(page.ns.roles.visible(page.$('#hall')), false, 'and not without it');
});

test('actionable scrolls an element its scrolling list hides into view', () => {
  const { page, ref } = withRef('<div id=list style="overflow: auto"><button id=go>Go</button></div><p id=below>Below</p>');
  const list = page.place('#list', { x: 0, y: 0, width: 200, height: 100 });
  Object.defineProperties(list, { clientWidth: { value: 200 }, clientHeight: { value: 100 } });
  // Inside the window's view, but below the list's own.
  page.place('#go', { x: 0, y: 300, width: 100, height: 30 });
  page.place('#below', { x: 0, y: 250, width: 800, height: 200 });
  page.onScroll = (el) => page.place(el, { x: 0, y: 50, width: 100, height: 30 });
  const out = page.ok('actionable', { ref });
  assert.deepEqual([out.state, out.point], ['ok', { x: 50, y: 65 }]);
  assert.deepEqual(page.scrolled, [page.$('#go')]);
});

test('actionable scrolls an element out from under a sticky header', () => {
  const { page, ref } = withRef('<header id=top>Site</header><button id=go>Go</button>');
  page.place('#go', { x: 0, y: 20, width: 100, height: 30 });
  page.place('#top', { x: 0, y: 0, width: 800, height: 80 });
  page.onScroll = (el) => page.place(el, { x: 0, y: 300, width: 100, height: 30 });
  const out = page.ok('actionable', { ref });
  assert.deepEqual([out.state, out.point], ['ok', { x: 50, y: 315 }]);
  assert.deepEqual(page.scrolled, [page.$('#go')], 'once: the header is not in the way any more');
});

test('locate says when a click would open another application', () => {
  const page = new TestPage(`<a id=m href="mailto:a@example.com"><span id=s>Mail</span></a><a id=t href="tel:+123">Call</a>
    <a id=w href="/next">Next</a><a id=j href="javascript:void(0)">JS</a><button id=b>B</button>`);
  const { refFor } = page.ns.refs;
  const app = (/** @type {string} */ id) => page.ok('locate', { ref: refFor(page.$(id)) }).app;
  assert.equal(app('#m'), 'mailto:a@example.com');
  assert.equal(app('#s'), 'mailto:a@example.com', 'a part of such a link');
  assert.equal(app('#t'), 'tel:+123');
  for (const id of ['#w', '#j', '#b']) assert.equal(app(id), undefined, id);
});

test('dom ops: scrollIntoView, focus, click', () => {
  const { page, ref } = withRef('<button id=b>B</button>');
  /** @type {string[]} */
  const clicks = [];
  page.$('#b').addEventListener('click', (e) => clicks.push(String(e.isTrusted)));
  assert.deepEqual(page.ok('dom', { ref, op: 'scrollIntoView' }), {});
  assert.deepEqual(page.scrolled, [page.$('#b')]);
  assert.deepEqual(page.ok('dom', { ref, op: 'focus' }), { focused: true });
  page.ok('dom', { ref, op: 'click' });
  assert.deepEqual(clicks, ['false'], 'a DOM click is not a trusted one');
  assert.equal(page.call('dom', { ref, op: 'explode' }).error.code, 'bad_request');
});

test('typed text goes after what a control holds, unless the agent put the caret in it', () => {
  const page = new TestPage('<textarea id=t>draft</textarea><input id=i value=abcd><input id=e type=email value=a@b.c><div id=c contenteditable>one <b>two</b></div>');
  const { refFor } = page.ns.refs;
  const caret = (/** @type {string} */ id, keep = false) =>
    page.ok('dom', { ref: refFor(page.$(id)), op: 'caretAtEnd', value: keep ? 'keep' : '' });
  const t = /** @type {HTMLTextAreaElement} */ (page.$('#t'));
  assert.equal(t.selectionStart, 0, 'a value from the HTML has the caret before it');
  assert.deepEqual(caret('#t'), { focused: true, atEnd: true });
  assert.deepEqual([t.selectionStart, t.selectionEnd], [5, 5]);
  t.setSelectionRange(0, 0);
  assert.deepEqual(caret('#t'), { focused: true, atEnd: true });
  assert.deepEqual([t.selectionStart, t.selectionEnd], [5, 5], 'a caret the page put (autofocus) moves');
  t.setSelectionRange(2, 2);
  assert.deepEqual(caret('#t', true), { focused: true, atEnd: true });
  assert.deepEqual([t.selectionStart, t.selectionEnd], [2, 2], 'the caret the agent placed stays');
  assert.deepEqual(caret('#e'), { focused: true, atEnd: false }, 'no script places an email box\'s caret');
  assert.deepEqual(caret('#c'), { focused: true, atEnd: true });
  const range = page.window.document.getSelection()?.getRangeAt(0);
  assert.deepEqual([range?.collapsed, range?.endContainer, range?.endOffset], [true, page.$('#c'), 2]);
});

test('setValue sets a value as a framework sees it: input and change events', () => {
  const page = new TestPage('<input id=d type=date><input id=p type=password><div id=plain>x</div>');
  const { refFor } = page.ns.refs;
  /** @type {string[]} */
  const events = [];
  page.$('#d').addEventListener('input', () => events.push('input'));
  page.$('#d').addEventListener('change', () => events.push('change'));
  assert.deepEqual(page.ok('dom', { ref: refFor(page.$('#d')), op: 'setValue', value: '2024-05-01' }), { value: '2024-05-01' });
  assert.equal(/** @type {HTMLInputElement} */ (page.$('#d')).value, '2024-05-01');
  assert.deepEqual(events, ['input', 'change']);
  assert.deepEqual(page.ok('dom', { ref: refFor(page.$('#p')), op: 'setValue', value: 'hunter2' }), {}, 'a secret is never echoed');
  assert.equal(page.call('dom', { ref: refFor(page.$('#plain')), op: 'setValue', value: 'y' }).error.code, 'bad_request');
});

test('setValue refuses a value a date, time or colour box would drop, before writing anything', () => {
  const page = new TestPage('<input id=d type=date value=2024-05-01><input id=t type=time><input id=c type=color><input id=exp type=month autocomplete=cc-exp>');
  const { refFor } = page.ns.refs;
  let events = 0;
  page.$('#d').addEventListener('input', () => events++);
  const set = (/** @type {string} */ id, /** @type {string} */ value) => page.call('dom', { ref: refFor(page.$(id)), op: 'setValue', value });
  const bad = set('#d', '11/25/2026');
  assert.equal(bad.error.code, 'bad_request');
  assert.match(bad.error.message, /cannot take "11\/25\/2026": nothing was written/);
  assert.match(bad.error.hint, /YYYY-MM-DD/);
  assert.equal(/** @type {HTMLInputElement} */ (page.$('#d')).value, '2024-05-01', 'the date it had is kept');
  assert.equal(events, 0);
  assert.deepEqual(set('#t', '13:45').ok, { value: '13:45' });
  assert.match(set('#t', '1:45 PM').error.hint, /HH:MM/);
  assert.deepEqual(set('#c', '#FF8800').ok, { value: '#ff8800' });
  assert.match(set('#c', 'orange').error.hint, /#rrggbb/);
  assert.equal(set('#d', '').error, undefined, 'emptying is a value too');
  assert.equal(/** @type {HTMLInputElement} */ (page.$('#d')).value, '');
  const secret = set('#exp', '11/27');
  assert.equal(secret.error.code, 'bad_request');
  assert.doesNotMatch(JSON.stringify(secret), /11\/27/, 'a card\'s expiry is never echoed');
});

test('select picks options by value, label or text, and refuses others', () => {
  const page = new TestPage(`
    <select id=one><option value=no>Norway</option><option value=se>Sweden</option><option disabled>Mars</option></select>
    <select id=many multiple><option>Red</option><option>Blue</option><option>Green</option></select>`);
  const { refFor } = page.ns.refs;
  const one = refFor(page.$('#one'));
  assert.deepEqual(page.ok('dom', { ref: one, op: 'select', values: ['sweden'] }), { value: 'Sweden' });
  assert.deepEqual(page.ok('dom', { ref: one, op: 'select', values: ['no'] }), { value: 'Norway' });
  const missing = page.call('dom', { ref: one, op: 'select', values: ['Denmark'] });
  assert.equal(missing.error.code, 'bad_request');
  assert.equal(missing.error.hint, 'options: Norway, Sweden, Mars');
  assert.match(page.call('dom', { ref: one, op: 'select', values: ['Mars'] }).error.message, /disabled/);
  assert.match(page.call('dom', { ref: one, op: 'select', values: ['no', 'se'] }).error.message, /takes one option/);
  const many = refFor(page.$('#many'));
  assert.deepEqual(page.ok('dom', { ref: many, op: 'select', values: ['Red', 'Green'] }), { value: 'Red, Green' });

  const countries = new TestPage(`<select id=c><option value="">Choose…</option><option value=US>United States of America</option>
    <option value=GB>United Kingdom</option><option value=DE>Germany</option><option value=ST>States</option></select>`);
  const c = countries.ns.refs.refFor(countries.$('#c'));
  const pick = (/** @type {string} */ v) => countries.call('dom', { ref: c, op: 'select', values: [v] });
  assert.equal(pick('united states').ok.value, 'United States of America', 'the words its label begins with');
  assert.equal(pick('gb').ok.value, 'United Kingdom', 'its value, in any case');
  assert.equal(pick('States').ok.value, 'States', 'a whole label first');
  const two = pick('United');
  assert.match(two.error.message, /has 2 options that begin "United": nothing was selected/);
  assert.equal(two.error.hint, 'say which: United States of America, United Kingdom');
  assert.match(pick('Unit').error.message, /has no option "Unit"$/, 'whole words only');
});

test('a covered element names its blocker and the controls that would dismiss it', () => {
  const page = new TestPage(`
    <button id=pay>Pay</button>
    <div id=banner>
      <p>We use cookies. <a href="/privacy">Learn more</a></p>
      <span id=x style="cursor:pointer">×</span>
      <button id=reject><span>Reject all</span></button>
      <div id=accept role=button>Accept all cookies</div>
      <cookie-choices></cookie-choices>
    </div>`);
  const host = page.$('cookie-choices');
  host.attachShadow({ mode: 'open' }).innerHTML = '<button id=necessary>Only necessary</button>';
  page.place('#pay', { x: 10, y: 10, width: 80, height: 30 });
  page.place('#banner', { x: 0, y: 0, width: 800, height: 100 });
  for (const id of ['#x', '#reject', '#accept', '[href="/privacy"]']) page.place(id, { x: 500, y: 50, width: 20, height: 20 });
  const necessary = /** @type {Element} */ (host.shadowRoot?.querySelector('#necessary'));
  page.place(necessary, { x: 600, y: 50, width: 20, height: 20 });
  const { refFor } = page.ns.refs;
  const out = page.ok('actionable', { ref: refFor(page.$('#pay')), refBase: 1 });
  assert.equal(out.state, 'covered');
  assert.equal(out.blocker.ref, refFor(page.$('#banner')));
  assert.deepEqual(out.dismiss.map((/** @type {{ ref: number }} */ d) => d.ref),
    [refFor(page.$('#reject')), refFor(necessary), refFor(page.$('#x')), refFor(page.$('#accept'))],
    'a button (not its span), one in a shadow root, the styled ×, a role=button; not "Learn more"; ' +
    'the least a person would agree to first');
});

test('a consent banner in another language names its buttons, the least agreed first', () => {
  /** @type {Array<[string, string[], string[]]>} banner's buttons, those named, in the order named */
  const cases = [
    ['de', ['Einstellungen', 'Alle akzeptieren', 'Nur notwendige Cookies', 'Schließen'], ['Nur notwendige Cookies', 'Schließen', 'Alle akzeptieren']],
    ['fr', ['Personnaliser', 'Tout accepter', 'Continuer sans accepter'], ['Continuer sans accepter', 'Tout accepter']],
    ['es', ['Configurar', 'Aceptar todo', 'Rechazar todo'], ['Rechazar todo', 'Aceptar todo']],
    ['it', ['Accetta tutto', 'Rifiuta'], ['Rifiuta', 'Accetta tutto']],
    ['pt', ['Aceitar todos', 'Rejeitar todos', 'Gerir'], ['Rejeitar todos', 'Aceitar todos']],
    ['nl', ['Alles accepteren', 'Weigeren'], ['Weigeren', 'Alles accepteren']],
    ['pl', ['Akceptuję', 'Odrzuć wszystkie', 'Ustawienia'], ['Odrzuć wszystkie', 'Akceptuję']],
  ];
  for (const [lang, buttons, named] of cases) {
    const page = new TestPage(`<button id=pay>Pay</button><div id=banner lang=${lang}><p>Cookies</p>${buttons.map((b) => `<button>${b}</button>`).join('')}</div>`);
    page.place('#pay', { x: 10, y: 10, width: 80, height: 30 });
    page.place('#banner', { x: 0, y: 0, width: 800, height: 100 });
    for (const b of page.document.querySelectorAll('#banner button')) page.place(b, { x: 500, y: 50, width: 20, height: 20 });
    const out = page.ok('actionable', { ref: page.ns.refs.refFor(page.$('#pay')), refBase: 1 });
    assert.deepEqual(out.dismiss.map((/** @type {{ name: string }} */ d) => d.name), named.map((n) => `button "${n}"`), lang);
  }
});

test('a banner drawn in a cross-origin frame is named by the frame, for the worker to ask it', () => {
  const page = new TestPage(`
    <button id=pay>Pay</button>
    <div id=cmp-box><iframe id=cmp src="https://consent.example/banner"></iframe></div>`);
  // A cross-origin frame's document is out of reach, as in a browser.
  Object.defineProperty(page.$('#cmp'), 'contentDocument', { get: () => null });
  page.place('#pay', { x: 10, y: 10, width: 80, height: 30 });
  page.place('#cmp', { x: 0, y: 0, width: 800, height: 200 });
  const { refFor } = page.ns.refs;
  const out = page.ok('actionable', { ref: refFor(page.$('#pay')), refBase: 1 });
  assert.equal(out.state, 'covered');
  assert.equal(out.blocker.ref, refFor(page.$('#cmp-box')));
  assert.deepEqual(out.dismiss, []);
  assert.deepEqual(out.frame, { ref: refFor(page.$('#cmp')), url: 'https://consent.example/banner', path: [0] });
});

test('dismissers names the controls of a frame document that would dismiss it', () => {
  const page = new TestPage(`
    <p>We use cookies.</p><button id=manage>Manage options</button><button id=accept>Accept all</button>`);
  page.place('#manage', { x: 10, y: 10, width: 80, height: 30 });
  page.place('#accept', { x: 100, y: 10, width: 80, height: 30 });
  const out = page.ok('dismissers', { refBase: 1 });
  const { refFor } = page.ns.refs;
  assert.deepEqual(out.dismiss, [{ ref: refFor(page.$('#accept')), name: 'button "Accept all"' }]);
});

test('listOptions finds the option named in the list a combobox controls', () => {
  const page = new TestPage(`
    <input id=cb role=combobox aria-controls=lb>
    <ul id=lb role=listbox><li role=option id=a>Norway</li><li role=option id=b>Sweden</li>
      <li role=option id=c aria-disabled=true>Sweden </li><li role=option id=d hidden>Sweden</li></ul>
    <ul role=listbox id=other><li role=option id=e>Sweden</li></ul>`);
  for (const id of ['#cb', '#lb', '#a', '#b', '#c', '#other', '#e']) page.place(id, { x: 0, y: 0, width: 80, height: 20 });
  const { refFor } = page.ns.refs;
  const out = page.ok('listOptions', { ref: refFor(page.$('#cb')), value: ' sweden', refBase: 1 });
  assert.equal(out.match, refFor(page.$('#b')), 'by its whole name, in its own list; not a disabled or hidden one');
  assert.equal(out.listed, true);
  assert.deepEqual(out.offered.map((/** @type {{ name: string }} */ o) => o.name), ['Norway', 'Sweden']);

  const none = page.ok('listOptions', { ref: refFor(page.$('#cb')), value: 'Swe', refBase: 1 });
  assert.equal(none.match, undefined, 'a part of a name picks nothing');
  page.$('#lb').setAttribute('hidden', '');
  const closed = page.ok('listOptions', { ref: refFor(page.$('#cb')), value: 'Sweden', refBase: 1 });
  assert.equal(closed.listed, false, 'its own list is closed, and two others are open: which is its is not known');
});

test('an element that lets clicks through names what takes them only when that does something with them', () => {
  const page = new TestPage(`
    <nav id=pages><a id=next href="#2" style="pointer-events:none">Next</a></nav>
    <li id=row onclick="1"><button id=edit style="pointer-events:none">Edit</button></li>`);
  const { refFor } = page.ns.refs;
  // Placed under their holders: a hit there finds the holder.
  page.place('#next', { x: 0, y: 0, width: 40, height: 20 });
  page.place('#pages', { x: 0, y: 0, width: 200, height: 20 });
  page.place('#edit', { x: 0, y: 50, width: 40, height: 20 });
  page.place('#row', { x: 0, y: 50, width: 200, height: 20 });
  const next = page.ok('actionable', { ref: refFor(page.$('#next')), refBase: 1 });
  assert.deepEqual([next.state, next.passThrough, next.blocker], ['covered', true, undefined], 'the page turned its clicks off');
  const edit = page.ok('actionable', { ref: refFor(page.$('#edit')), refBase: 1 });
  assert.deepEqual([edit.state, edit.passThrough, edit.blocker?.ref], ['covered', true, refFor(page.$('#row'))], 'the row hears the click');
});

test('actionable: what clips itself to nothing, as text for screen readers does, is out of a pointer\'s reach', () => {
  const page = new TestPage(`<div id=under></div>
    <a id=skip href="#main" style="position:absolute; width:1px; height:1px; overflow:hidden; clip:rect(0,0,0,0)">Skip to content</a>
    <button id=inset style="clip-path: inset(50%)">Menu</button>
    <a id=old href="#nav" style="position:absolute; clip:rect(1px, 1px, 1px, 1px)">Skip to navigation</a>
    <button id=px style="overflow-x:hidden; overflow-y:hidden">Search</button>
    <label id=l><input id=box type=checkbox style="position:absolute; clip:rect(0, 0, 0, 0)"> Email me</label>`);
  const { refFor } = page.ns.refs;
  page.place('#under', { x: 0, y: 0, width: 300, height: 300 });
  page.place('#skip', { x: 10, y: 10, width: 1, height: 1 });
  page.place('#inset', { x: 10, y: 30, width: 80, height: 30 });
  page.place('#old', { x: 10, y: 70, width: 120, height: 20 });
  page.place('#px', { x: 10, y: 100, width: 1, height: 1 });
  for (const id of ['#skip', '#inset', '#old', '#px']) {
    const r = page.ok('actionable', { ref: refFor(page.$(id)) });
    assert.deepEqual([r.state, r.clipped], ['offscreen', true], `${id}: not covered by what is under it`);
  }
  page.place('#l', { x: 10, y: 150, width: 100, height: 20 });
  page.place('#box', { x: 10, y: 150, width: 1, height: 1 });
  const box = page.ok('actionable', { ref: refFor(page.$('#box')) });
  assert.deepEqual([box.state, box.via], ['ok', 'label'], 'a checkbox hidden so is clicked on its label');
  page.$('#px').removeAttribute('style');
  page.place('#px', { x: 10, y: 100, width: 60, height: 24 });
  assert.equal(page.ok('actionable', { ref: refFor(page.$('#px')) }).state, 'ok');
});
