// @ts-check
/// <reference types="node" />
// page/watch.js in jsdom: what an action did to the page, and wait_for's
// conditions.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { TestPage } from './testdata.js';

test('a watch counts what changed on the page, until it stops', () => {
  const page = new TestPage('<button id=b>Open</button><p id=p>Old</p>');
  const ref = page.ns.refs.refFor(page.$('#b'));
  const { watch } = page.ok('watch', { ref });
  // A dialog is said by its name, not counted again as an element added.
  page.document.body.insertAdjacentHTML('beforeend', '<div role=dialog aria-label="Confirm"><p>Sure?</p></div><p>Draft</p>');
  page.$('#p').textContent = 'New';
  page.$('#b').setAttribute('aria-expanded', 'true');
  page.$('#b').click(); // not trusted
  const r = page.ok('changes', { watch });
  assert.deepEqual(
    { added: r.added, removed: r.removed, texts: r.texts, attributes: r.attributes, dialogs: r.dialogs, clicks: r.clicks, trustedClicks: r.trustedClicks, elementGone: r.elementGone },
    // Its own aria-expanded is said as its state, not counted as an attribute.
    { added: 1, removed: 0, texts: 2, attributes: 0, dialogs: ['dialog "Confirm"'], clicks: 1, trustedClicks: 0, elementGone: false },
  );
  assert.equal(r.url, 'http://127.0.0.1:8080/page.html');
  assert.equal(r.urlChanged, false);

  page.document.title = 'Changed';
  assert.equal(page.ok('changes', { watch, stop: true }).titleChanged, true);
  assert.deepEqual(page.ok('changes', { watch }), { lost: true }, 'a stopped watch is gone');
});

test('a watch says how long the page had been still before it, our own banner aside', async () => {
  let now = 1000;
  let state = 'loading';
  const page = new TestPage('<button id=b>Pay</button><p id=p>Due</p><p id=l></p>', {
    before: (/** @type {any} */ w) => {
      w.performance.now = () => now;
      Object.defineProperty(w.document, 'readyState', { get: () => state });
      // The page loads when the test says, not when jsdom does.
      w.addEventListener('load', (/** @type {Event} */ e) => { if (state !== 'complete') e.stopImmediatePropagation(); }, true);
    },
  });
  const ref = page.ns.refs.refFor(page.$('#b'));
  /** How long the page had been still when a watch begins now (ms). */
  const still = () => {
    const { watch, stillMs } = page.ok('watch', { ref });
    page.ok('changes', { watch, stop: true });
    return stillMs;
  };
  // An observer hears a change once the task that made it ends.
  const heard = () => new Promise((resolve) => setTimeout(resolve, 0));
  now = 4000;
  assert.equal(still(), 3000, 'a page still loading: unchanged since the page script came');
  page.$('#l').textContent = 'Loading…';
  await heard();
  now = 4200;
  assert.equal(still(), 200, 'it changed as it loaded');
  state = 'complete';
  page.window.dispatchEvent(new page.window.Event('load'));
  assert.equal(still(), 60_000, 'what it changed as it loaded is forgotten once it has');

  page.document.documentElement.append(page.document.createElement('openchrome-banner'));
  await heard();
  now = 5000;
  assert.equal(still(), 60_000, 'the handoff banner is ours, not the page changing');

  page.$('#p').textContent = 'Paid';
  await heard();
  now = 5300;
  assert.equal(still(), 300, 'the page changed 300 ms ago');

  page.$('#b').setAttribute('class', 'tick');
  await heard();
  now = 5400;
  assert.equal(still(), 100, 'an attribute is a change too');

  // What an action changed, while it was watched, leaves the page still:
  // an agent that fills a field and clicks at once has not seen it stir.
  const { watch } = page.ok('watch', { ref });
  page.$('#p').textContent = 'Refunded';
  await heard();
  now = 5500;
  page.ok('changes', { watch, stop: true });
  now = 5600;
  assert.equal(still(), 300, 'still since the change at 5300, before the watch');
});

test('a page the script came to once loaded is still since it loaded', async () => {
  let now = 1000;
  const page = new TestPage('<button id=b>Save</button><p id=p>Draft</p>', {
    before: (/** @type {any} */ w) => {
      w.performance.now = () => now;
      Object.defineProperty(w.document, 'readyState', { get: () => 'complete' });
    },
  });
  const ref = page.ns.refs.refFor(page.$('#b'));
  let { watch, stillMs } = page.ok('watch', { ref });
  page.ok('changes', { watch, stop: true });
  assert.equal(stillMs, 60_000, 'what it did as it loaded is no timer of its own');
  page.$('#p').textContent = 'Saved';
  await new Promise((resolve) => setTimeout(resolve, 0));
  now = 1500;
  ({ watch, stillMs } = page.ok('watch', { ref }));
  page.ok('changes', { watch, stop: true });
  assert.equal(stillMs, 500, 'a change of its own since');
});

test('a watch leaves out the words and attributes of what changes on its own, again and again', async () => {
  let now = 1000;
  const page = new TestPage('<p>Time <span id=clock>0</span></p><p id=count>1</p><button id=b>Add</button>', {
    before: (/** @type {any} */ w) => { w.performance.now = () => now; },
  });
  const ref = page.ns.refs.refFor(page.$('#b'));
  const heard = () => new Promise((resolve) => setTimeout(resolve, 0));
  const clock = page.$('#clock');
  /** @param {number} at */
  const tick = async (at) => {
    now = at;
    clock.textContent = String(at);
    await heard();
  };
  await tick(1100);
  await tick(1200); // one burst with the last: not yet a ticker
  let { watch, stillMs } = page.ok('watch', { ref });
  assert.equal(stillMs, 0, 'it changed just now');
  await tick(1210);
  // textContent takes one text out and puts one in: two.
  assert.equal(page.ok('changes', { watch, stop: true }).texts, 2, 'a change of its own: said');

  await tick(1400); // a second burst, unwatched: a ticker from now
  now = 1500;
  ({ watch, stillMs } = page.ok('watch', { ref }));
  assert.equal(stillMs, 300, 'still since its change at 1200: the one at 1210 was watched, its ticks since do not stir it');
  await tick(1600);
  page.$('#count').textContent = '2';
  clock.append(page.document.createElement('b'));
  await heard();
  let r = page.ok('changes', { watch, stop: true });
  assert.deepEqual({ texts: r.texts, added: r.added }, { texts: 2, added: 1 }, 'the count said, the tick not; an element added to it is');

  // What the actions change is theirs, however often.
  for (const n of ['3', '4', '5']) {
    ({ watch } = page.ok('watch', { ref }));
    now += 500;
    page.$('#count').textContent = n;
    await heard();
    r = page.ok('changes', { watch, stop: true });
    assert.equal(r.texts, 2, `count ${n} is said`);
  }

  now = 1600 + 5001;
  ({ watch } = page.ok('watch', { ref }));
  await tick(now);
  assert.equal(page.ok('changes', { watch, stop: true }).texts, 2, 'a clock still for 5 s is no ticker any more');

  // A watch its worker never stopped does not keep tickers from being known.
  const left = now;
  page.ok('watch', { ref });
  await tick(left + 60_000);
  await tick(left + 60_200);
  ({ watch } = page.ok('watch', { ref }));
  await tick(left + 60_400);
  assert.equal(page.ok('changes', { watch, stop: true }).texts, 0, 'ticking again, unwatched: a ticker');
});

test('a watch says where the document began to leave for, before the browser says so', () => {
  const page = new TestPage('<button id=b>Send</button>', {
    before: (w) => { w.navigation = new w.EventTarget(); },
  });
  const nav = /** @type {EventTarget} */ (page.window['navigation']);
  /** @param {object} props */
  const navigate = (props) => nav.dispatchEvent(Object.assign(new page.window.Event('navigate'), props));
  const { watch } = page.ok('watch', { ref: page.ns.refs.refFor(page.$('#b')) });
  navigate({ hashChange: true, destination: { url: 'http://127.0.0.1:8080/page.html#top', sameDocument: true } });
  navigate({ destination: { url: 'http://127.0.0.1:8080/inbox', sameDocument: true } }); // pushState
  navigate({ downloadRequest: 'cv.txt', destination: { url: 'http://127.0.0.1:8080/cv.txt', sameDocument: false } });
  assert.equal(page.ok('changes', { watch }).leaving, undefined, 'a jump, a route, a download: no leaving');
  navigate({ destination: { url: 'http://127.0.0.1:8080/page.html?auto=cv.txt', sameDocument: false } });
  navigate({ destination: { url: 'http://127.0.0.1:8080/later', sameDocument: false } });
  assert.equal(page.ok('changes', { watch, stop: true }).leaving, 'http://127.0.0.1:8080/page.html?auto=cv.txt', 'the first');
});

test('a new title is said as the title, not as text or elements of the page', () => {
  for (const titled of [true, false]) {
    const page = new TestPage('<button id=b>Go</button>');
    if (!titled) page.document.querySelector('title')?.remove();
    const { watch } = page.ok('watch', { ref: page.ns.refs.refFor(page.$('#b')) });
    page.document.title = 'Counted 1';
    page.document.title = 'Counted 2';
    const r = page.ok('changes', { watch, stop: true });
    assert.deepEqual({ added: r.added, texts: r.texts, titleChanged: r.titleChanged }, { added: 0, texts: 0, titleChanged: true }, titled ? 'a title' : 'no title before');
  }
});

test('a watch says which dialogs opened and closed, however they showed', () => {
  const page = new TestPage(`<button id=b>Go</button>
    <dialog id=native><p>Really leave?</p><button>Stay</button></dialog>
    <div id=aria role=dialog aria-label="Filters" hidden><button>Apply</button></div>
    <div id=open role=dialog aria-label="Cookies"><button>OK</button></div>
    <template><div role=dialog aria-label="Never shown"></div></template>`);
  const ref = page.ns.refs.refFor(page.$('#b'));
  let { watch } = page.ok('watch', { ref });
  page.$('#native').setAttribute('open', ''); // as showModal() does
  page.$('#aria').hidden = false;
  page.$('#open').remove();
  page.document.body.insertAdjacentHTML('beforeend', '<div role=alertdialog aria-label="Saved"></div><div hidden role=dialog aria-label="Later"></div>');
  let r = page.ok('changes', { watch, stop: true });
  assert.deepEqual(r.dialogs, ['dialog "Really leave?"', 'dialog "Filters"', 'alertdialog "Saved"']);
  assert.deepEqual(r.dialogsClosed, ['dialog "Cookies"']);
  assert.equal(r.shown, 0, 'what showed in a dialog that opened is its doing, said by its name');

  ({ watch } = page.ok('watch', { ref }));
  page.$('#native').removeAttribute('open');
  r = page.ok('changes', { watch, stop: true });
  assert.deepEqual(r.dialogs, []);
  assert.deepEqual(r.dialogsClosed, ['dialog "Really leave?"']);
  assert.equal(r.hidden, 0);

  // A web component's: a consent manager's banner in its shadow root.
  const host = page.document.createElement('cookie-bar');
  host.attachShadow({ mode: 'open' }).innerHTML = '<div role=dialog aria-label="Cookie consent"><button>Reject all</button></div>';
  ({ watch } = page.ok('watch', { ref }));
  page.document.body.append(host);
  assert.deepEqual(page.ok('changes', { watch, stop: true }).dialogs, ['dialog "Cookie consent"']);
  ({ watch } = page.ok('watch', { ref }));
  host.remove();
  r = page.ok('changes', { watch, stop: true });
  assert.deepEqual([r.dialogsClosed, r.removed], [['dialog "Cookie consent"'], 0], 'its host going is the dialog closing');
});

test("a watch says how the element's own states changed, and counts its other attributes", () => {
  const page = new TestPage(`<span id=s role=switch aria-checked=false tabindex=0>Wi-Fi</span>
    <button id=b aria-pressed=false>Bold</button><div role=tab id=t aria-selected=false>Two</div>`);
  const watchOf = (/** @type {string} */ sel) => page.ok('watch', { ref: page.ns.refs.refFor(page.$(sel)) }).watch;

  let w = watchOf('#s');
  page.$('#s').setAttribute('aria-checked', 'true');
  page.$('#s').setAttribute('data-x', '1'); // not watched
  let r = page.ok('changes', { watch: w, stop: true });
  assert.deepEqual(r.state, { was: { checked: 'false', selected: false }, now: { checked: 'true', selected: false } });
  assert.equal(r.attributes, 0);

  w = watchOf('#b');
  page.$('#b').className = 'busy'; // drawn anew, its state the same
  r = page.ok('changes', { watch: w, stop: true });
  assert.equal(r.state, undefined);
  assert.equal(r.attributes, 1);

  w = watchOf('#t');
  page.$('#t').setAttribute('aria-selected', 'true');
  page.$('#b').setAttribute('aria-pressed', 'true'); // another element's
  r = page.ok('changes', { watch: w, stop: true });
  assert.equal(r.state.now.selected, true);
  assert.equal(r.attributes, 1);
});

test('a watch says what the page says to the person: its status line, an alert it adds', () => {
  const page = new TestPage(`<button id=b>Save</button><p id=status role=status></p><p id=plain>Plain</p>
    <div aria-live=polite><span id=count>0 items</span></div>`);
  const { watch } = page.ok('watch', { ref: page.ns.refs.refFor(page.$('#b')) });
  page.$('#status').textContent = 'Saved at 10:42';
  page.$('#plain').textContent = 'Changed, but nobody is told';
  page.$('#count').textContent = '3 items';
  page.document.body.insertAdjacentHTML('beforeend', '<div role=alert>The email is already in use</div>');
  assert.deepEqual(page.ok('changes', { watch }).said,
    ['status "Saved at 10:42"', 'status "3 items"', 'alert "The email is already in use"']);
  page.document.body.insertAdjacentHTML('beforeend', '<div role=alert hidden>Not shown</div>');
  assert.equal(page.ok('changes', { watch, stop: true }).said.length, 3, 'at most three, shown ones');
});

test("a watch hears what changes in a web component's shadow root, one there before and one added", () => {
  const page = new TestPage('<button id=b>Add</button><app-shell></app-shell>');
  const shell = page.$('app-shell').attachShadow({ mode: 'open' });
  shell.innerHTML = '<p role=status></p><ul></ul>';
  const { watch } = page.ok('watch', { ref: page.ns.refs.refFor(page.$('#b')) });
  /** @type {HTMLElement} */ (shell.querySelector('[role=status]')).textContent = 'Added to cart';
  const toast = page.document.createElement('app-toast');
  toast.attachShadow({ mode: 'open' }).innerHTML = '<div role=alert></div>';
  page.document.body.append(toast);
  page.ok('changes', { watch }); // the observer learns of the toast's root
  /** @type {HTMLElement} */ (toast.shadowRoot?.querySelector('[role=alert]')).textContent = 'Only 2 left';
  const r = page.ok('changes', { watch, stop: true });
  assert.deepEqual(r.said, ['status "Added to cart"', 'alert "Only 2 left"']);

  // One that says it as it is added, before any observer could hear it.
  const w2 = page.ok('watch', { ref: page.ns.refs.refFor(page.$('#b')) }).watch;
  const saved = page.document.createElement('app-toast');
  saved.attachShadow({ mode: 'open' }).innerHTML = '<div role=status>Saved</div>';
  page.document.body.append(saved);
  assert.deepEqual(page.ok('changes', { watch: w2, stop: true }).said, ['status "Saved"']);
});

test('a watch quotes the elements added when they are few, and only counts many', () => {
  const page = new TestPage('<button id=b>Add</button><ul id=cart></ul><p id=note role=status></p>');
  const { watch } = page.ok('watch', { ref: page.ns.refs.refFor(page.$('#b')) });
  page.$('#cart').insertAdjacentHTML('beforeend', '<li>Blue shirt, size M</li>');
  page.$('#note').insertAdjacentHTML('beforeend', '<span>Added</span>');
  const few = page.ok('changes', { watch });
  assert.deepEqual([few.added, few.addedText, few.said], [2, ['"Blue shirt, size M"'], ['status "Added"']], 'what a region says is said once');
  page.$('#cart').insertAdjacentHTML('beforeend', '<li>Red shirt</li><li>Hat</li>');
  assert.deepEqual(page.ok('changes', { watch, stop: true }).addedText, [], 'four: counted, not quoted');
});

test('a watch counts the state a widget keeps in ARIA: a slider value, a pressed button', () => {
  const page = new TestPage('<div id=s role=slider aria-valuenow=50 tabindex=0></div><button id=b aria-pressed=false>Bold</button>');
  const { watch } = page.ok('watch', { ref: page.ns.refs.refFor(page.$('#s')) });
  page.$('#s').setAttribute('aria-valuenow', '60');
  page.$('#b').setAttribute('aria-pressed', 'true');
  page.$('#s').setAttribute('data-internal', 'x'); // not a state a person sees
  assert.equal(page.ok('changes', { watch }).attributes, 2);
});

test('a watch hears the browser stop a submit: the first control it complains of', () => {
  const page = new TestPage('<form><label>Email <input id=email required></label><button id=send>Send</button></form>');
  const { watch } = page.ok('watch', { ref: page.ns.refs.refFor(page.$('#send')) });
  /** @type {HTMLFormElement} */ (page.$('form')).reportValidity();
  const r = page.ok('changes', { watch, stop: true });
  assert.equal(r.invalid.control, 'textbox "Email"');
  assert.ok(r.invalid.message, 'with the message a person reads');
});

test('a watch names the fields the page marks invalid, with the words that say why', () => {
  const page = new TestPage(`<form><label>Email <input id=email aria-describedby=hint aria-errormessage=err></label>
    <span id=hint>We never share it</span><span id=err hidden></span>
    <label>Name <input id=name aria-describedby=name-hint></label><span id=name-hint></span>
    <label>City <input id=city aria-invalid=true></label><button id=send>Send</button></form>`);
  const { watch } = page.ok('watch', { ref: page.ns.refs.refFor(page.$('#send')) });
  page.$('#email').setAttribute('aria-invalid', 'true');
  page.$('#err').hidden = false;
  page.$('#err').textContent = 'Enter a valid email';
  page.$('#name').setAttribute('aria-invalid', 'true');
  page.$('#city').setAttribute('aria-invalid', 'true'); // it was already
  const r = page.ok('changes', { watch, stop: true });
  assert.deepEqual(r.invalidNow, [{ control: 'textbox "Email"', message: 'Enter a valid email' }, { control: 'textbox "Name"', message: '' }]);
  assert.deepEqual(r.textText, [], 'the error under the field is said with it, not again');
  assert.equal(r.shown, 0, 'nor counted as shown');
});

test('a watch counts the elements that show and hide around the element', () => {
  const page = new TestPage(`
    <style>.menu { display: none } .open .menu { display: block }</style>
    <nav id=nav><div id=dd><button id=b>Account</button><ul class=menu><li>Profile</li><li>Log out</li></ul></div>
    <p id=tip>Tip</p></nav>`);
  const { watch } = page.ok('watch', { ref: page.ns.refs.refFor(page.$('#b')) });
  // As :hover would: the menu shows with no element added.
  page.$('#dd').classList.add('open');
  page.$('#tip').style.display = 'none';
  const r = page.ok('changes', { watch, stop: true });
  assert.deepEqual([r.added, r.shown, r.hidden], [0, 3, 1], 'the list and its two items; the tip');
  assert.deepEqual(r.shownText, ['"Profile Log out"'], 'what showed, quoted once: the list, not again its items');
});

test('shownControls offers, with refs, the controls in what a watch saw show or be added', () => {
  const page = new TestPage(`
    <style>.menu { display: none } .open .menu { display: block }</style>
    <div id=dd><button id=b>Account</button><ul class=menu><li><a href="/me">Profile</a></li>
      <li><button disabled>Billing</button></li><li><a href="/out">Log out</a></li></ul></div>
    <a href="/help">Help</a>`);
  const { watch } = page.ok('watch', { ref: page.ns.refs.refFor(page.$('#b')) });
  page.$('#dd').classList.add('open');
  page.document.body.insertAdjacentHTML('beforeend', '<div role=menu><a role=menuitem href="/x">Added item</a></div>');
  page.ok('changes', { watch, stop: true });
  const { refFor } = page.ns.refs;
  const r = page.ok('shownControls', { watch, refBase: 1 });
  assert.deepEqual(r.offered, [
    { ref: refFor(page.$('a[href="/me"]')), role: 'link', name: 'Profile' },
    { ref: refFor(page.$('a[href="/out"]')), role: 'link', name: 'Log out' },
    { ref: refFor(page.$('a[href="/x"]')), role: 'menuitem', name: 'Added item' },
  ], 'not the disabled one, nor Help, which was there before');
  assert.equal(r.more, 0);
  assert.deepEqual(page.ok('shownControls', { watch: watch + 1, refBase: 1 }).offered, [], 'an unknown watch offers nothing');
});

test('a watch reports the element\'s value, never a secret one, and its removal', () => {
  const page = new TestPage('<input id=u><input id=p type=password>');
  const { refFor } = page.ns.refs;
  const u = page.ok('watch', { ref: refFor(page.$('#u')) }).watch;
  const p = page.ok('watch', { ref: refFor(page.$('#p')) }).watch;
  /** @type {HTMLInputElement} */ (page.$('#u')).value = 'ada';
  /** @type {HTMLInputElement} */ (page.$('#p')).value = 'hunter2';
  assert.equal(page.ok('changes', { watch: u }).value, 'ada');
  assert.equal(page.ok('changes', { watch: u }).newValue, 'ada', 'what it holds now, as it changed');
  assert.doesNotMatch(JSON.stringify(page.ok('changes', { watch: p })), /hunter2/);
  page.$('#u').remove();
  const gone = page.ok('changes', { watch: u, stop: true });
  assert.equal(gone.elementGone, true);
  assert.equal(gone.removed, 1);
});

test('a watch says nothing of the list an item picked from it took with it', () => {
  const page = new TestPage('<div id=pop><ul role=listbox id=l><li role=option id=o>Austria</li><li role=option>Germany</li></ul></div>' +
    '<div id=panel><ul role=menu><li role=menuitem>Delete</li></ul><button id=b>Close</button></div><p id=p>Old</p>');
  const { refFor } = page.ns.refs;
  const pick = page.ok('watch', { ref: refFor(page.$('#o')) }).watch;
  page.$('#pop').remove(); // the popup that held the list, and nothing else
  page.$('#p').textContent = 'Austria picked';
  const picked = page.ok('changes', { watch: pick, stop: true });
  assert.deepEqual([picked.removed, picked.removedText, picked.elementGone, picked.hidden], [0, [], undefined, 0]);

  // A list kept in the page, hidden once picked from.
  page.document.body.insertAdjacentHTML('beforeend', '<ul role=listbox id=kept><li role=option id=bern>Bern</li><li role=option>Bergen</li></ul>');
  const kept = page.ok('watch', { ref: refFor(page.$('#bern')) }).watch;
  page.$('#kept').hidden = true;
  assert.deepEqual((({ hidden, removed }) => ({ hidden, removed }))(page.ok('changes', { watch: kept, stop: true })), { hidden: 0, removed: 0 });

  // A button is no item: the panel it was in going is news.
  const menu = page.ok('watch', { ref: refFor(page.$('#b')) }).watch;
  page.$('#panel').remove();
  const closed = page.ok('changes', { watch: menu, stop: true });
  assert.deepEqual(closed.removedText, ['"Delete Close"'], 'the words of its items apart, not "DeleteClose"');
  assert.equal(closed.elementGone, undefined, 'it went with what is quoted');
});

test('a watch says the element is busy when it says it is at work or turns itself off', () => {
  const page = new TestPage('<button id=a>Sign in</button><button id=b>Save</button><button id=c>Next</button><button id=d disabled>Off</button>');
  const { refFor } = page.ns.refs;
  const busy = (/** @type {string} */ id, /** @type {() => void} */ change) => {
    const { watch } = page.ok('watch', { ref: refFor(page.$(id)) });
    change();
    return page.ok('changes', { watch, stop: true }).busy;
  };
  assert.equal(busy('#a', () => { page.$('#a').textContent = 'Signing in…'; }), true, 'its words end in an ellipsis');
  assert.equal(busy('#b', () => { /** @type {HTMLButtonElement} */ (page.$('#b')).disabled = true; }), true, 'turned off');
  assert.equal(busy('#c', () => { page.$('#c').textContent = 'Next step'; }), undefined, 'renamed, not at work');
  assert.equal(busy('#d', () => {}), undefined, 'off before the input');
});

test('a toast added to say something is said by its words, not counted again', () => {
  const page = new TestPage('<h1 id=h>Report</h1><div id=rows><div id=r1>Q1.xlsx <button id=rm>Remove</button></div><div>Q2.xlsx</div></div>' +
    '<button id=dup>Duplicate</button><div id=toasts></div>');
  const { refFor } = page.ns.refs;
  const toast = (/** @type {string} */ text) => page.$('#toasts').insertAdjacentHTML('beforeend', `<div><div role=status>${text}</div></div>`);

  let { watch } = page.ok('watch', { ref: refFor(page.$('#rm')) });
  page.$('#r1').remove();
  toast('Removed 1 file');
  let r = page.ok('changes', { watch, stop: true });
  assert.deepEqual([r.said, r.added, r.removed, r.removedText, r.redrawn, r.elementGone],
    [['status "Removed 1 file"'], 0, 1, ['"Q1.xlsx Remove"'], undefined, undefined], 'the row went; not "redrawn"');

  ({ watch } = page.ok('watch', { ref: refFor(page.$('#dup')) }));
  page.$('#h').textContent = 'Report (copy)';
  toast('Duplicated');
  r = page.ok('changes', { watch, stop: true });
  assert.deepEqual([r.said, r.added, r.textText], [['status "Duplicated"'], 0, ['"Report (copy)"']]);

  // A modal in its backdrop, added and then closed by its Create.
  ({ watch } = page.ok('watch', { ref: refFor(page.$('#dup')) }));
  page.document.body.insertAdjacentHTML('beforeend', '<div id=backdrop><div role=dialog aria-label="New project"><button id=create>Create</button></div></div>');
  r = page.ok('changes', { watch, stop: true });
  assert.deepEqual([r.dialogs, r.added], [['dialog "New project"'], 0], 'the backdrop is the dialog');
  ({ watch } = page.ok('watch', { ref: refFor(page.$('#create')) }));
  page.$('#backdrop').remove();
  page.$('#rows').insertAdjacentHTML('beforeend', '<div>Beta</div>');
  r = page.ok('changes', { watch, stop: true });
  assert.deepEqual([r.dialogsClosed, r.redrawn, r.added, r.addedText], [['dialog "New project"'], undefined, 1, ['"Beta"']],
    'not "redrawn: the dialog gone, Beta new"');
});

test('a watch says when a key empties its field, and says nothing of a field that kept its value', () => {
  const page = new TestPage('<input id=tags value=red><input id=same value=blue><button id=b>Go</button>');
  const { refFor } = page.ns.refs;
  const tags = page.ok('watch', { ref: refFor(page.$('#tags')) }).watch;
  const same = page.ok('watch', { ref: refFor(page.$('#same')) }).watch;
  const button = page.ok('watch', { ref: refFor(page.$('#b')) }).watch;
  /** @type {HTMLInputElement} */ (page.$('#tags')).value = '';
  assert.equal(page.ok('changes', { watch: tags }).newValue, '');
  assert.equal(page.ok('changes', { watch: same }).newValue, undefined);
  assert.equal(page.ok('changes', { watch: button }).newValue, undefined, 'a button has no value to change');
});

test('check: text, text gone, selectors and refs in each state', () => {
  const page = new TestPage(`
    <p>Welcome back</p><button id=send disabled>Send</button><div id=spinner hidden>Loading</div>
    <openchrome-banner><p class=note>In the banner</p></openchrome-banner>`);
  const check = (/** @type {PageCondition} */ c) => page.ok('check', c);
  assert.deepEqual(check({ text: 'Welcome' }), { ok: true, seen: 'text "Welcome" is on the page' });
  assert.equal(check({ text: 'Goodbye' }).ok, false);
  assert.deepEqual(check({ textGone: 'Goodbye' }), { ok: true, seen: 'text "Goodbye" is gone' });
  assert.deepEqual(check({ selector: '#spinner' }), { ok: false, seen: 'selector #spinner: 1 attached, 0 visible' });
  assert.equal(check({ selector: '#spinner', state: 'hidden' }).ok, true);
  assert.equal(check({ selector: '#spinner', state: 'attached' }).ok, true);
  assert.equal(check({ selector: '#nothing', state: 'detached' }).ok, true);
  assert.deepEqual(check({ selector: '#send', state: 'enabled' }), { ok: false, seen: 'selector #send: 1 visible, disabled' });
  assert.equal(check({ selector: '.note', state: 'attached' }).ok, false, 'the banner is not the page');

  const ref = page.ns.refs.refFor(page.$('#send'));
  assert.equal(check({ ref }).ok, true);
  page.$('#send').remove();
  assert.deepEqual(check({ ref, state: 'detached' }), { ok: true, seen: `ref e${ref}: 0 attached` });

  assert.equal(page.call('check', { selector: '##' }).error.code, 'bad_request');
  assert.equal(page.call('check', { selector: 'p', state: 'glowing' }).error.code, 'bad_request');
  assert.equal(page.call('check', {}).error.message, 'nothing to wait for');
});

test('check: text in any case and spacing, and in a web component\'s shadow root', () => {
  const page = new TestPage(`<p>Order   confirmed</p><x-toast></x-toast>`);
  const root = page.$('x-toast').attachShadow({ mode: 'open' });
  root.innerHTML = '<style>.saved { color: green }</style><p class=saved>Saved successfully</p>';
  const check = (/** @type {PageCondition} */ c) => page.ok('check', c);
  assert.equal(check({ text: 'order confirmed' }).ok, true, 'any case, any white space');
  assert.equal(check({ text: 'Saved successfully' }).ok, true, 'a shadow root\'s words');
  assert.equal(check({ textGone: 'saved' }).ok, false);
  assert.equal(check({ text: 'color: green' }).ok, false, 'a stylesheet is no words a person sees');
});

test('what is typed into an editor is its value, not a change of the page', () => {
  const page = new TestPage('<div id=ed contenteditable=true>Hi</div><p id=p>Old</p>');
  // jsdom has no editing: an element is an editor when it says it is.
  Object.defineProperty(page.$('#ed'), 'isContentEditable', { get: () => true });
  const { watch } = page.ok('watch', { ref: page.ns.refs.refFor(page.$('#ed')) });
  page.$('#ed').textContent = 'Hi there';
  page.$('#ed').append(page.document.createElement('br'));
  assert.deepEqual((({ added, texts }) => ({ added, texts }))(page.ok('changes', { watch })), { added: 0, texts: 0 });
  page.$('#p').textContent = 'New';
  assert.ok(page.ok('changes', { watch, stop: true }).texts > 0, 'a change elsewhere counts');
});

test('a watch quotes the one or two elements removed for good, not one moved', () => {
  const page = new TestPage('<button id=b>Delete</button><ul id=l><li id=a>Buy milk</li><li id=c>Walk   the dog</li></ul>');
  const ref = page.ns.refs.refFor(page.$('#b'));
  let { watch } = page.ok('watch', { ref });
  page.$('#a').remove();
  const moved = page.$('#c');
  moved.remove();
  page.$('#l').prepend(moved); // a sorted list moves its rows
  const r = page.ok('changes', { watch, stop: true });
  assert.deepEqual(r.removedText, ['"Buy milk"']);
  assert.deepEqual([r.removed, r.added, r.moved], [1, 0, 1], 'the row moved is neither added nor removed');

  // A row a sortable list moves along under the pointer, step by step, is
  // one row moved.
  ({ watch } = page.ok('watch', { ref }));
  const row = page.$('#c');
  for (let i = 0; i < 3; i++) {
    row.remove();
    page.$('#l').append(row);
  }
  const along = page.ok('changes', { watch, stop: true });
  assert.deepEqual([along.removed, along.added, along.moved], [0, 0, 1]);

  // Many rows, more than a report weighs one by one.
  const big = new TestPage(`<button id=b>Sort</button><ul id=l>${Array.from({ length: 80 }, (_, i) => `<li>${i}</li>`).join('')}</ul>`);
  ({ watch } = big.ok('watch', { ref: big.ns.refs.refFor(big.$('#b')) }));
  big.$('#l').append(...[...big.$('#l').children].reverse());
  const sorted = big.ok('changes', { watch, stop: true });
  assert.deepEqual([sorted.added, sorted.removed, sorted.moved], [0, 0, 80]);

  ({ watch } = page.ok('watch', { ref }));
  page.$('#l').replaceChildren(...['x', 'y', 'z'].map((t) => Object.assign(page.document.createElement('li'), { textContent: t })));
  page.$('#l').replaceChildren();
  assert.deepEqual(page.ok('changes', { watch, stop: true }).removedText, [], 'more than two are counted');
});

test('a list drawn anew says which of its items went and came, not how many elements', () => {
  const page = new TestPage('<button id=b>Delete</button><ul id=l><li>Buy milk</li><li>Walk the dog</li><li>Write report</li></ul>');
  const ref = page.ns.refs.refFor(page.$('#b'));
  const li = (/** @type {string} */ t) => Object.assign(page.document.createElement('li'), { textContent: t });
  const redraw = (/** @type {string[]} */ items) => {
    const { watch } = page.ok('watch', { ref });
    page.$('#l').replaceChildren(...items.map(li));
    return page.ok('changes', { watch, stop: true }).redrawn;
  };
  assert.deepEqual(redraw(['Buy milk', 'Write report']), { gone: ['"Walk the dog"'], came: [], reordered: false });
  assert.deepEqual(redraw(['Buy milk', 'Write report', 'Call Ann']), { gone: [], came: ['"Call Ann"'], reordered: false });
  assert.deepEqual(redraw(['Write report', 'Buy milk', 'Call Ann']), { gone: [], came: [], reordered: true });
  assert.equal(redraw(['a', 'b', 'c', 'd']), undefined, 'more changed than a quote says');
  redraw(['Delete', 'Delete', 'Keep']);
  assert.deepEqual(redraw(['Delete', 'Keep']), { gone: ['"Delete"'], came: [], reordered: false }, 'items of the same words are told apart');
  assert.deepEqual(redraw(['Keep', 'Delete']), { gone: [], came: [], reordered: true });
  const long = 'Order 1234 shipped to Ann Lovelace, 12 Analytical Engine Road, London: qty';
  redraw([`${long} 1`]);
  assert.deepEqual(redraw([`${long} 2`]), { gone: [`"${long.slice(0, 56)}…"`], came: [`"${long.slice(0, 56)}…"`], reordered: false },
    'rows are weighed by all their words, not by their quotes');

  // A row put in place of another is weighed whole when it has words of its own.
  const { watch: w1 } = page.ok('watch', { ref });
  const row = li('Qty 2 ');
  row.append(Object.assign(page.document.createElement('button'), { textContent: 'Delete' }));
  const old = li('Qty 1 ');
  old.append(Object.assign(page.document.createElement('button'), { textContent: 'Delete' }));
  page.$('#l').replaceChildren(old);
  page.ok('changes', { watch: w1, stop: true });
  const { watch: w3 } = page.ok('watch', { ref });
  old.replaceWith(row);
  assert.deepEqual(page.ok('changes', { watch: w3, stop: true }).redrawn, { gone: ['"Qty 1 Delete"'], came: ['"Qty 2 Delete"'], reordered: false });

  // One list put in place of another: its items are weighed.
  redraw(['a', 'b', 'c', 'd']);
  const { watch } = page.ok('watch', { ref });
  const ul = page.document.createElement('ul');
  ul.id = 'l';
  ul.append(li('a'), li('c'), li('d'));
  page.$('#l').replaceWith(ul);
  assert.deepEqual(page.ok('changes', { watch, stop: true }).redrawn, { gone: ['"b"'], came: [], reordered: false });

  // Rows moved, not drawn anew, are no redraw.
  const w2 = page.ok('watch', { ref }).watch;
  page.$('#l').prepend(/** @type {Element} */ (page.$('#l').lastElementChild));
  assert.equal(page.ok('changes', { watch: w2, stop: true }).redrawn, undefined);
});

test('keys sent to the focus: the focused field is watched, its value and the option it has active said', () => {
  const page = new TestPage(`<input id=c role=combobox aria-expanded=true aria-controls=l aria-activedescendant="" aria-label="Fruit">
    <ul id=l role=listbox><li role=option id=o1>Apple</li><li role=option id=o2>Banana</li></ul>`);
  const c = /** @type {HTMLInputElement} */ (page.$('#c'));
  c.focus();
  const { watch } = page.ok('watch', { keys: true });
  c.setAttribute('aria-activedescendant', 'o2');
  let r = page.ok('changes', { watch });
  assert.equal(r.active, 'option "Banana"');
  assert.equal(r.elementGone, undefined, 'an element the agent did not name is not said to go');
  c.value = 'Banana'; // Enter picks it
  r = page.ok('changes', { watch, stop: true });
  assert.equal(r.newValue, 'Banana');

  // Without keys, or with nothing focused, the page alone is watched.
  c.blur();
  const page2 = page.ok('watch', { keys: true });
  c.setAttribute('aria-activedescendant', 'o1');
  assert.equal(page.ok('changes', { watch: page2.watch, stop: true }).active, undefined);
});

test('a watch in a frame the action took out says the frame is gone, not all it held hidden', () => {
  const page = new TestPage('<iframe id=cmp title="Consent"></iframe>');
  const frame = /** @type {HTMLIFrameElement} */ (page.$('#cmp'));
  const doc = /** @type {Document} */ (frame.contentDocument);
  // jsdom lays nothing out, in the frame's window as in the page's.
  /** @type {any} */ (frame.contentWindow).Element.prototype.checkVisibility = () => true;
  doc.body.innerHTML = '<p>We use cookies</p><button id=ok>Accept all</button>';
  const ref = page.ns.refs.refFor(/** @type {Element} */ (doc.getElementById('ok')));
  const { watch } = page.ok('watch', { ref });
  frame.remove();
  assert.deepEqual(page.ok('changes', { watch, stop: true }), { frameGone: true, frame: 'iframe "Consent"' });
});

test('a control the page drew anew in its place is said with its states; one of another row is not it', () => {
  const page = new TestPage('<ul id=l></ul>');
  const list = page.$('#l');
  /**
   * Renders the list anew, as a page that draws it from its data does.
   * @param {Array<[string, boolean]>} tasks
   */
  const render = (tasks) => {
    list.innerHTML = tasks.map(([name, done]) => `<li><input type=checkbox ${done ? 'checked' : ''}><label>${name}</label> <button>Delete</button></li>`).join('');
    list.querySelectorAll('li').forEach((li, i) => {
      page.place(/** @type {Element} */ (li.querySelector('input')), { x: 0, y: i * 20, width: 10, height: 10 });
      page.place(/** @type {Element} */ (li.querySelector('button')), { x: 100, y: i * 20, width: 40, height: 10 });
    });
  };
  render([['Buy milk', false], ['Walk dog', false]]);
  const box = () => /** @type {Element} */ (list.querySelector('li:nth-child(2) input'));
  const clicked = (/** @type {Array<[string, boolean]>} */ after) => {
    const { watch } = page.ok('watch', { ref: page.ns.refs.refFor(box()) });
    render(after);
    return page.ok('changes', { watch, stop: true });
  };

  const checked = clicked([['Buy milk', false], ['Walk dog', true]]);
  assert.deepEqual([checked.anew, checked.still, checked.state?.now?.checked, checked.checked, checked.elementGone],
    ['checkbox', undefined, 'true', true, undefined], 'the click took: the new box is checked');

  const lost = clicked([['Buy milk', false], ['Walk dog', true]]);
  assert.deepEqual([lost.anew, lost.still?.checked, lost.state, lost.checked], ['checkbox', 'true', undefined, true],
    'drawn anew as it was: the click changed nothing of it');

  // The first row's Delete: the rows are drawn anew without it, and the
  // second row's Delete comes up into its place. It is not the one clicked.
  const del = /** @type {Element} */ (list.querySelector('li button'));
  const { watch } = page.ok('watch', { ref: page.ns.refs.refFor(del) });
  render([['Walk dog', true]]);
  const r = page.ok('changes', { watch, stop: true });
  assert.equal(r.anew, undefined);
  assert.deepEqual(r.redrawn, { gone: ['"Buy milk Delete"'], came: [], reordered: false });
});

test('an editor a double click opens in place is said by what it holds', () => {
  const page = new TestPage('<ul><li><label id=l>Buy milk</label><input id=e class=edit style="display:none"></li></ul>');
  const { watch } = page.ok('watch', { ref: page.ns.refs.refFor(page.$('#l')) });
  const edit = /** @type {HTMLInputElement} */ (page.$('#e'));
  /** @type {HTMLElement} */ (page.$('#l')).style.display = 'none';
  edit.style.display = '';
  edit.value = 'Buy milk';
  edit.focus();
  const r = page.ok('changes', { watch, stop: true });
  assert.deepEqual([r.shown, r.shownText], [1, ['textbox holding "Buy milk", focused']]);
});

test('results drawn into an empty list are quoted as the list, with the count beside them', () => {
  const page = new TestPage('<input id=q aria-label=Search><ul id=r></ul><p id=n>No results</p>');
  const { watch } = page.ok('watch', { ref: page.ns.refs.refFor(page.$('#q')), keys: true });
  page.$('#r').innerHTML = '<li><a href="#a">Apple</a></li><li><a href="#b">Apricot</a></li><li><a href="#g">Grape</a></li>';
  page.$('#n').textContent = '3 results';
  const r = page.ok('changes', { watch, stop: true });
  assert.deepEqual([r.added, r.addedText, r.textText], [3, ['"Apple Apricot Grape"'], ['"3 results"']]);

  // Items added to a list that had some: counted, not quoted as the list.
  const more = page.ok('watch', { ref: page.ns.refs.refFor(page.$('#q')), keys: true });
  page.$('#r').insertAdjacentHTML('beforeend', '<li>Banana</li><li>Cherry</li><li>Kiwi</li>');
  assert.deepEqual(page.ok('changes', { watch: more.watch, stop: true }).addedText, []);
});

test('a field the page writes as the answer to an action is said with what it holds', () => {
  const page = new TestPage('<label>Check-in <input id=d readonly></label><label>Code <input id=p type=password value=x></label><button id=day>8</button>');
  const { watch } = page.ok('watch', { ref: page.ns.refs.refFor(page.$('#day')) });
  /** @type {HTMLInputElement} */ (page.$('#d')).value = '2026-12-08';
  /** @type {HTMLInputElement} */ (page.$('#p')).value = 'secret';
  assert.deepEqual(page.ok('changes', { watch, stop: true }).fieldsSet, ['textbox "Check-in" now holds "2026-12-08"'],
    'a secret field is never said');
});
