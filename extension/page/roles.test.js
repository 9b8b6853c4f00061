// @ts-check
/// <reference types="node" />
// page/roles.js in jsdom: what an element is to a person.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { TestPage } from './testdata.js';

/**
 * The role and name of the element matching selector.
 * @param {TestPage} page
 * @param {string} selector
 */
function roleAndName(page, selector) {
  const { roleOf, nameOf } = page.ns.roles;
  const el = page.$(selector);
  const role = roleOf(el);
  return [role, nameOf(el, role)];
}

test('a roots pass asks each element once for the call after it, and a second at most', () => {
  /** @type {Element[]} */
  const asked = [];
  let now = 0;
  const page = new TestPage('<div id=host></div><p>words</p>', {
    before: (w) => {
      w.chrome = { dom: { openOrClosedShadowRoot: (/** @type {Element} */ el) => { asked.push(el); return null; } } };
      w.performance.now = () => now;
    },
  });
  const { roles } = page.ns;
  const host = page.$('#host');
  const ask = () => {
    roles.shadowOf(host);
    return asked.length;
  };

  assert.equal(ask(), 1);
  assert.equal(ask(), 2, 'outside a pass each shadowOf asks');
  roles.keepShadows();
  assert.equal(ask(), 3);
  assert.equal(ask(), 3, 'the pass keeps the answer');
  now += 500;
  roles.beginCall();
  assert.equal(ask(), 3, 'for the call that follows');
  roles.endCall();
  assert.equal(ask(), 4, 'and not after it');

  roles.keepShadows();
  ask();
  now += 1001;
  roles.beginCall();
  assert.equal(ask(), 6, 'a pass older than a second is not trusted');
  roles.endCall();
});

test('a button has role button and its text as name', () => {
  const page = new TestPage('<button id=b>  Save\n changes </button><input id=s type=submit><input id=v type=button value=Go>');
  assert.deepEqual(roleAndName(page, '#b'), ['button', 'Save changes']);
  assert.deepEqual(roleAndName(page, '#s'), ['button', 'Submit']);
  assert.deepEqual(roleAndName(page, '#v'), ['button', 'Go']);
});

test('words CSS lays apart stay apart in a name', () => {
  const page = new TestPage(`
    <button id=n><span style="position:absolute">Notifications</span><svg></svg><span>3</span></button>
    <a id=f href=/c style="display:flex"><span style="display:block">Add</span><span style="display:block">to cart</span></a>
    <a id=m href=/p><mark>Pyth</mark>on docs</a>`);
  assert.deepEqual(roleAndName(page, '#n'), ['button', 'Notifications 3']);
  assert.deepEqual(roleAndName(page, '#f'), ['link', 'Add to cart']);
  assert.deepEqual(roleAndName(page, '#m'), ['link', 'Python docs'], 'inline markup inside a word keeps it whole');
});

test('a <label for> names its input, and so does a label around it', () => {
  const page = new TestPage(`
    <label for=email>Email address</label><input id=email type=email>
    <label>Remember me <input id=remember type=checkbox></label>
    <input id=bare placeholder="Search the docs" type=search>`);
  assert.deepEqual(roleAndName(page, '#email'), ['textbox', 'Email address']);
  assert.deepEqual(roleAndName(page, '#remember'), ['checkbox', 'Remember me']);
  assert.deepEqual(roleAndName(page, '#bare'), ['searchbox', 'Search the docs']);
});

test('aria-labelledby, then aria-label, come before a label', () => {
  const page = new TestPage(`
    <span id=first>First</span><span id=second>name</span>
    <label for=a>Label</label><input id=a aria-labelledby="first second" aria-label="Ignored">
    <label for=b>Label</label><input id=b aria-label="Given name">`);
  assert.deepEqual(roleAndName(page, '#a'), ['textbox', 'First name']);
  assert.deepEqual(roleAndName(page, '#b'), ['textbox', 'Given name']);
});

test('implicit roles: links need an href, headings, images, landmarks, inputs', () => {
  const page = new TestPage(`
    <a id=link href="/next">Next page</a><a id=anchor>No href</a>
    <h3 id=h>Section <a href="#x">anchor</a></h3>
    <img id=img alt="A cat"><img id=decor alt="">
    <nav id=nav></nav><article><header id=scoped></header></article><header id=top></header>
    <input id=range type=range><input id=num type=number><input id=hid type=hidden>
    <select id=sel><option>One</option></select><select id=multi multiple></select>
    <div id=pres role=presentation>x</div><div id=explicit role="tab switch">Tab</div>
    <a id=note role=doc-noteref href="#fn1">[1]</a><a id=back role=doc-backlink href="#toc">Intro</a>`);
  const { roleOf } = page.ns.roles;
  const roles = Object.fromEntries(['link', 'anchor', 'h', 'img', 'decor', 'nav', 'scoped', 'top', 'range', 'num', 'hid', 'sel', 'multi', 'pres', 'explicit', 'note', 'back']
    .map((id) => [id, roleOf(page.$(`#${id}`))]));
  assert.deepEqual(roles, {
    link: 'link', anchor: '', h: 'heading', img: 'img', decor: '', nav: 'navigation', scoped: '', top: 'banner',
    range: 'slider', num: 'spinbutton', hid: '', sel: 'combobox', multi: 'listbox', pres: '', explicit: 'tab',
    note: 'link', back: 'link',
  });
  assert.deepEqual(roleAndName(page, '#h'), ['heading', 'Section'], 'a heading\'s name leaves out its links');
  assert.deepEqual(roleAndName(page, '#img'), ['img', 'A cat']);
});

test('secretOf: passwords, one-time codes, card numbers and secret-looking names', () => {
  const page = new TestPage(`
    <input id=pw type=password><input id=otp autocomplete="one-time-code"><input id=cc autocomplete="cc-number">
    <input id=key name="api_key"><textarea id=token name="token"></textarea>
    <input id=email type=email name=email><input id=user name=username>`);
  const { secretOf } = page.ns.roles;
  const got = Object.fromEntries(['pw', 'otp', 'cc', 'key', 'token', 'email', 'user'].map((id) => [id, secretOf(page.$(`#${id}`))]));
  assert.deepEqual(got, { pw: 'password', otp: 'secret', cc: 'secret', key: 'secret', token: 'secret', email: '', user: '' });
});

test('secretOf: a password field shown as text, and one drawn as dots', () => {
  const page = new TestPage(`
    <label>Password <input id=shown type=text></label><label for=pin>PIN</label><input id=pin>
    <input id=code aria-label="Security code"><input id=phrase placeholder="Passphrase">
    <input id=dots style="-webkit-text-security: disc"><label>Passport number <input id=passport></label>
    <label>Pinterest handle <input id=handle></label>`);
  const { secretOf } = page.ns.roles;
  const got = Object.fromEntries(['shown', 'pin', 'code', 'phrase', 'passport', 'handle'].map((id) => [id, secretOf(page.$(`#${id}`))]));
  assert.deepEqual(got, { shown: 'secret', pin: 'secret', code: 'secret', phrase: 'secret', passport: '', handle: '' });
});

test('values: a select shows its chosen label, text fields their text, checkboxes none', () => {
  const page = new TestPage(`
    <select id=country><option value=no>Norway</option><option value=se selected>Sweden</option></select>
    <input id=name value="Ada"><input id=empty><textarea id=bio>${'x'.repeat(250)}</textarea>
    <input id=box type=checkbox checked><progress id=p value=3 max=10></progress>`);
  const { valueOf, roleOf } = page.ns.roles;
  /** @param {string} id */
  const value = (id) => valueOf(page.$(`#${id}`), roleOf(page.$(`#${id}`)));
  assert.equal(value('country'), 'Sweden');
  assert.equal(value('name'), 'Ada');
  assert.equal(value('empty'), undefined);
  assert.equal(value('bio'), `${'x'.repeat(200)}…`, 'long values are cut');
  assert.equal(value('box'), undefined);
  assert.equal(value('p'), '3');
});

test('visible: hidden, display:none and visibility:hidden are not', () => {
  const page = new TestPage(`
    <p id=shown>Shown</p><p id=hidden hidden>Hidden</p>
    <div style="display:none"><span id=inside>Inside</span></div>
    <span id=invisible style="visibility:hidden">x</span>`);
  const { visible } = page.ns.roles;
  assert.deepEqual(['shown', 'hidden', 'inside', 'invisible'].map((id) => visible(page.$(`#${id}`))), [true, false, false, false]);
});

test('visible: faded out and passed through by clicks is not; transparent but clicked is, when it has a box', () => {
  const page = new TestPage(`
    <div id=menu style="opacity:0; pointer-events:none"><a id=item href="#a">Item</a></div>
    <div id=shade style="opacity:0"><input id=file type=file></div>
    <p id=dim style="opacity:0.5">Dim</p>
    <input id=trap style="opacity:0; width:0; height:0; position:absolute">`);
  page.place('#file', { x: 0, y: 0, width: 120, height: 30 });
  const { visible } = page.ns.roles;
  assert.deepEqual(['menu', 'item', 'shade', 'file', 'dim', 'trap'].map((id) => visible(page.$(`#${id}`))),
    [false, false, true, true, true, false]);
});

test('visible: a text field drawn nowhere and kept from the keyboard is a trap, not a field', () => {
  const page = new TestPage(`
    <input id=clipped tabindex=-1 aria-label="Leave this empty">
    <input id=away tabindex=-1 aria-label="Website">
    <div aria-hidden=true><textarea id=hiddenArea aria-label="Comments"></textarea></div>
    <input id=reachable aria-label="Skip to search">
    <input id=shown tabindex=-1 aria-label="Shown">
    <input id=box type=checkbox tabindex=-1 aria-label="Box">
    <label style="position:absolute; clip:rect(0,0,0,0)">Leave this empty <input id=inClipped tabindex=-1></label>`);
  page.place('#clipped', { x: 10, y: 10, width: 1, height: 1 });
  page.place('#away', { x: -10000, y: -10000, width: 150, height: 20 });
  page.place('#hiddenArea', { x: 10, y: -300, width: 1, height: 1 });
  page.place('#reachable', { x: 10, y: 40, width: 1, height: 1 });
  page.place('#shown', { x: 10, y: 70, width: 150, height: 20 });
  page.place('#box', { x: 10, y: 100, width: 1, height: 1 });
  page.place('#inClipped', { x: 10, y: 130, width: 150, height: 20 });
  const { visible } = page.ns.roles;
  assert.deepEqual(['clipped', 'away', 'hiddenArea', 'reachable', 'shown', 'box', 'inClipped'].map((id) => visible(page.$(`#${id}`))),
    [false, false, false, true, true, true, false]);
});

test('textOf gathers visible text, alt text and labels, not hidden text', () => {
  const page = new TestPage(`<a id=a href="/x"><img alt="Logo"> Home <span hidden>secret</span><span aria-label="icon">★</span></a>`);
  const { textOf, describe } = page.ns.roles;
  assert.equal(textOf(page.$('#a'), true), 'Logo Home icon');
  assert.equal(describe(page.$('#a')), 'link "Logo Home icon"');
});

test('describe cuts a long text at the end of a word', () => {
  const page = new TestPage(`<div id=long>We use cookies. Accept all cookies Reject all</div>
    <div id=word>Supercalifragilisticexpialidocious-and-even-longer-words</div>`);
  const { describe } = page.ns.roles;
  assert.equal(describe(page.$('#long')), 'div "We use cookies. Accept all cookies…"');
  assert.equal(describe(page.$('#word')), 'div "Supercalifragilisticexpialidocious-and-e…"', 'one word too long is cut where it must be');
});

test('describe reads what a form\'s fields show, not a box\'s or a radio\'s unseen value', () => {
  const page = new TestPage(`<div id=plans><input type=radio name=p id=a><label for=a>Basic plan</label>
    <input type=checkbox id=b value=yes><label for=b>Email me</label><input type=hidden value=secret-ish>
    <input id=q value="blue shirts"><input type=submit value="Search"></div>`);
  assert.equal(page.ns.roles.describe(page.$('#plans')), 'div "Basic plan Email me blue shirts Search"');
});

test('describe names a nameless frame by where it is from', () => {
  const page = new TestPage(`<iframe id=cmp src="https://consent.example.test/banner"></iframe>
    <iframe id=titled title="Cookie choices" src="https://consent.example.test/b"></iframe><iframe id=blank></iframe>`);
  const { describe } = page.ns.roles;
  assert.deepEqual(['cmp', 'titled', 'blank'].map((id) => describe(page.$(`#${id}`))),
    ['iframe from consent.example.test', 'iframe "Cookie choices"', 'iframe']);
});

test('describe names a nameless dialog by its title or its words, and reads controls side by side apart', () => {
  const page = new TestPage(`<dialog id=terms open><h2>Terms</h2><p>Read these.</p><button>I agree</button><button>Cancel</button></dialog>
    <div id=bar role=alertdialog><span>Leave?</span><button>Stay</button><button>Go</button></div>
    <div id=bare role=dialog><button>Stay</button><button>Go</button></div>`);
  const { describe, textOf } = page.ns.roles;
  assert.equal(describe(page.$('#terms')), 'dialog "Terms"');
  assert.equal(describe(page.$('#bar')), 'alertdialog "Leave?"', 'its buttons are not its name');
  assert.equal(describe(page.$('#bare')), 'dialog "Stay Go"', 'unless it says nothing else');
  assert.equal(textOf(page.$('#terms'), true).replace(/\s+/g, ' ').trim(), 'Terms Read these. I agree Cancel');
});

test('the banner is OpenChrome\'s: inBanner knows its contents', () => {
  const page = new TestPage('<openchrome-banner><div><button id=finish>Finish</button></div></openchrome-banner><button id=page>Page</button>');
  const { inBanner, BANNER } = page.ns.roles;
  assert.equal(BANNER, 'OPENCHROME-BANNER');
  assert.equal(inBanner(page.$('#finish')), true);
  assert.equal(inBanner(page.$('#page')), false);
});

test('a control no label can name is not asked for its labels', () => {
  // .labels walks the control's whole tree: on a page of 20,000 buttons,
  // asking each took half a minute. Only a label around the control, or one
  // whose for is its id, makes it worth asking.
  const page = new TestPage(`
    <button>One</button><button id=two>Two</button><input id=q aria-label=Query>
    <label for=named>Named</label><input id=named><label>Around <input id=around></label>`);
  const w = /** @type {any} */ (page.window);
  /** @type {string[]} */
  const asked = [];
  for (const proto of [w.HTMLButtonElement.prototype, w.HTMLInputElement.prototype]) {
    const real = Object.getOwnPropertyDescriptor(proto, 'labels');
    Object.defineProperty(proto, 'labels', {
      configurable: true,
      get() {
        asked.push(this.id || this.textContent);
        return real?.get?.call(this);
      },
    });
  }
  page.ok('snapshot', { refBase: 1 });
  assert.deepEqual([...new Set(asked)].sort(), ['around', 'named']);
  assert.deepEqual(roleAndName(page, '#named'), ['textbox', 'Named']);
  assert.deepEqual(roleAndName(page, '#around'), ['textbox', 'Around']);
});

test('an icon button is named by its svg title, or by text kept for screen readers', () => {
  const page = new TestPage(`
    <button id=search><svg width=16 height=16><title>Search</title><circle cx=8 cy=8 r=6></circle></svg></button>
    <button id=close><span class=sr-only>Close dialog</span><span aria-hidden=true>×</span></button>`);
  assert.deepEqual(roleAndName(page, '#search'), ['button', 'Search']);
  assert.deepEqual(roleAndName(page, '#close'), ['button', 'Close dialog']);
});

test('drawnOn: the elements a style sheet may write words around, not icons or decoration', () => {
  const page = new TestPage(`
    <style>
      .new::after { content: "NEW"; }
      td::before { content: attr(data-label) ": "; }
      .icon::before { content: "\\e900"; }
      .clear::after { content: ""; display: table; }
      .gear::before { content: url("data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'></svg>"); }
      @media screen { label.req::after, .x:is(.a, .b)::before { content: " *"; } }
      .plain { color: red; }
    </style>
    <span id=badge class=new></span><table><tr><td id=cell data-label=Price>$10</td></tr></table>
    <i id=icon class=icon></i><div id=clear class=clear></div><label id=req class=req>Name</label>
    <a id=gear class=gear href=/settings></a><p id=plain class=plain>x</p><span id=ab class="x b"></span>`);
  const { drawnOn, splitSelectors } = page.ns.roles;
  const drawn = [...drawnOn(page.document)].map((el) => el.id).sort();
  assert.deepEqual(drawn, ['ab', 'badge', 'cell', 'req']);
  assert.deepEqual([...splitSelectors('a, .x:is(.a, .b)::before, [title="a,b"]')], ['a', ' .x:is(.a, .b)::before', ' [title="a,b"]']);
});

test('contentWords: the words a content value writes, not an image\'s quoted URL', () => {
  const { contentWords } = new TestPage('').ns.roles;
  const attr = (/** @type {string} */ name) => ({ 'data-label': 'Price' })[name] ?? null;
  for (const [content, want, why] of [
    ['"NEW"', 'NEW', 'a string'],
    ['attr(data-label) ": "', 'Price: ', 'an attribute and a string'],
    ['attr(data-none)', '', 'an attribute the element lacks'],
    ['url("data:image/svg+xml,<svg width=\\"18\\" xmlns=\\"http://www.w3.org/2000/svg\\"></svg>")', '', 'an icon drawn from a data URL'],
    ['url("icon.svg") / "Settings"', 'Settings', 'an image named by its alternative text'],
    ['"★" / "Rating"', '★', 'what is drawn before its alternative text'],
    ['image-set("a.png" 1x, "b.png" 2x)', '', 'an image set'],
    ['linear-gradient(red, blue) "x"', 'x', 'a gradient beside a string'],
    ['counter(item) ". "', '. ', 'a counter is left out'],
    ['"say \\"hi\\""', 'say "hi"', 'an escaped quote'],
    ['"a\\a b"', 'a\nb', 'an escaped line break'],
    ["'single'", 'single', 'a single-quoted string'],
    ['"\\ffffff "', '\ufffd', 'a code point beyond Unicode'],
  ]) {
    assert.equal(contentWords(content, attr), want, why);
  }
});

test('a transform that scales to nothing on either axis, or turns edge-on, flattens', () => {
  const { flattened } = new TestPage('').ns.roles;
  const style = (/** @type {string} */ transform, scale = 'none') => /** @type {CSSStyleDeclaration} */ ({ transform, scale });
  for (const [cs, want, why] of /** @type {Array<[CSSStyleDeclaration, boolean, string]>} */ ([
    [style('none'), false, 'no transform'],
    [style('matrix(1, 0, 0, 1, 0, 0)'), false, 'identity'],
    [style('matrix(0.5, 0, 0, 0.5, 0, 0)'), false, 'scaled down, not away'],
    [style('matrix(0.707107, 0.707107, -0.707107, 0.707107, 0, 0)'), false, 'rotated'],
    [style('matrix(0, 0, 0, 0, 0, 0)'), true, 'scale(0)'],
    [style('matrix(1, 0, 0, 0, 0, 0)'), true, 'scaleY(0)'],
    [style('matrix3d(0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1)'), true, 'rotateY(90deg): edge-on'],
    [style('matrix3d(0.766, 0, -0.643, 0, 0, 1, 0, 0, 0.643, 0, 0.766, 0, 0, 0, 0, 1)'), false, 'rotateY(40deg)'],
    [style('none', '0'), true, 'scale: 0'],
    [style('none', '1 0'), true, 'scale: 1 0'],
    [style('none', '0.5'), false, 'scale: 0.5'],
  ])) assert.equal(flattened(cs), want, why);
});
