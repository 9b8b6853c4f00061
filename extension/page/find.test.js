// @ts-check
/// <reference types="node" />
// page/find.js in jsdom: ranked candidates, and form fields by label.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { TestPage } from './testdata.js';

test('find ranks an exact name first, wherever it is on the page', () => {
  const page = new TestPage('<button>Save draft</button><p>Please save often</p><button>Save</button>');
  const out = page.ok('find', { query: 'Save', limit: 10, refBase: 1 });
  assert.deepEqual(out.candidates.map((/** @type {any} */ c) => [c.role, c.name, c.why]), [
    ['button', 'Save', 'name is "Save"'],
    ['button', 'Save draft', 'name contains "save"'],
    ['p', '', 'text contains "save"'],
  ]);
  assert.equal(out.total, 3);
  assert.ok(out.candidates[0].score > out.candidates[1].score);
  assert.deepEqual(out.candidates.map((/** @type {any} */ c) => c.ref), [1, 2, 3]);
  assert.equal(out.nextRef, 4);
});

test('find takes the control, not a wrapper named by it: a click on the control reaches both', () => {
  const page = new TestPage(`
    <div id=w1 onclick="1"><button id=save>Save</button></div>
    <div id=w2 tabindex=0><span><button id=pub>Publish</button></span></div>
    <div id=card onclick="1"><h3>Blue shirt</h3><button>Buy</button></div>
    <button>Send</button><button>Send</button>`);
  const found = (/** @type {string} */ query) =>
    page.ok('find', { query, limit: 10, refBase: 1 }).candidates.filter((/** @type {any} */ c) => c.score >= 90)
      .map((/** @type {any} */ c) => `${c.role} ${c.name} ${c.ref}`);
  const ref = (/** @type {string} */ sel) => page.ok('find', { query: sel, limit: 1, refBase: 1 }).candidates[0].ref;
  assert.deepEqual(found('Save'), [`button Save ${ref('#save')}`]);
  assert.deepEqual(found('Publish'), [`button Publish ${ref('#pub')}`]);
  assert.deepEqual(found('Buy'), ['button Buy ' + ref('#card button')], 'the card is named by more than its button');
  assert.equal(found('Send').length, 2, 'two controls side by side are still two');
});

test('find and field never take a bot\'s trap field for the words of its label', () => {
  const page = new TestPage(`
    <label>Name <input id=name></label>
    <div id=away><label>Website <input id=hp tabindex=-1></label></div>`);
  page.place('#name', { x: 10, y: 10, width: 150, height: 20 });
  page.place('#hp', { x: -10000, y: -10000, width: 150, height: 20 });
  const found = page.ok('find', { query: 'Website', limit: 10, refBase: 1 }).candidates;
  assert.deepEqual(found, [], 'nothing to act on there');
  assert.equal(page.call('field', { label: 'Website', refBase: 10 }).error?.code, 'not_found');
  assert.equal(page.ok('field', { label: 'Name', refBase: 20 }).role, 'textbox');
});

test('find: a role and a name, a role alone, a selector; hidden and banner elements never', () => {
  const page = new TestPage(`
    <a href="/n">Next</a><button>Next</button><button hidden>Hidden next</button>
    <input id=q placeholder="Search">
    <openchrome-banner><button>Next banner</button></openchrome-banner>`);
  const names = (/** @type {string} */ query) =>
    page.ok('find', { query, limit: 10, refBase: 1 }).candidates.map((/** @type {any} */ c) => `${c.role} ${c.name}`);
  assert.deepEqual(names('link Next'), ['link Next']);
  assert.deepEqual(names('"Next"'), ['link Next', 'button Next'], 'document order breaks ties');
  assert.deepEqual(names('button'), ['button Next']);
  assert.deepEqual(names('#q'), ['textbox Search']);
  assert.deepEqual(names('search'), ['textbox Search']);
});

test('find reads a query that starts with a role word as a name too', () => {
  const page = new TestPage(`
    <div role=log aria-label="Out">events</div><a href="#">Log out</a>
    <button>Menu</button><ul role=menu aria-label=Main><li role=menuitem>Home</li></ul>`);
  const names = (/** @type {string} */ query) =>
    page.ok('find', { query, limit: 10, refBase: 1 }).candidates.map((/** @type {any} */ c) => `${c.role} ${c.name}`);
  assert.deepEqual(names('Log out'), ['link Log out', 'log Out'], 'the name a person reads first');
  assert.deepEqual(names('log Out'), ['link Log out', 'log Out']);
  assert.deepEqual(names('link log out'), ['link Log out']);
  assert.deepEqual(names('Menu'), ['button Menu', 'menu Main'], 'a name before a bare role');
});

test('find reads a query that ends with the kind of control a person calls it', () => {
  const page = new TestPage(`
    <header><a href="#in">Sign in</a></header>
    <button>Sign in with Google</button>
    <label>Email <input name=email></label><label>Password <input type=password></label>
    <input type=search aria-label="Search docs"><label><input type=checkbox> Remember me</label>
    <label><input type=radio name=p> Monthly</label><select aria-label="Plan"><option>Free</option></select>
    <button>Sign in</button><a href="#f">Forgot password?</a>
    <p>Price list</p><table><thead><tr><th onclick="">Price</th></tr></thead><tr><td>1</td></tr></table>`);
  const first = (/** @type {string} */ query) => {
    const c = page.ok('find', { query, limit: 10, refBase: 1 }).candidates[0];
    return c && `${c.role} ${c.name}`;
  };
  for (const [query, want] of [
    ['Sign in button', 'button Sign in'],
    ['the Sign in button', 'button Sign in'],
    ['sign in link', 'link Sign in'],
    ['password field', 'textbox Password'],
    ['the email input', 'textbox Email'],
    ['Email text field', 'textbox Email'],
    ['search box', 'searchbox Search docs'],
    ['Remember me checkbox', 'checkbox Remember me'],
    ['remember me check box', 'checkbox Remember me'],
    ['Monthly radio button', 'radio Monthly'],
    ['plan dropdown', 'combobox Plan'],
    ['Price column header', 'columnheader Price'],
    ['the Price header', 'columnheader Price'],
  ]) assert.equal(first(query), want, query);
  assert.equal(first('button'), 'button Sign in with Google', 'a kind alone is a role');
  const closing = new TestPage('<div role=dialog aria-label=News><button aria-label="Close">×</button><button>Subscribe</button></div>');
  const c = closing.ok('find', { query: 'X button', limit: 10, refBase: 1 }).candidates;
  assert.deepEqual(c.map((/** @type {any} */ x) => [x.name, x.why]), [['Close', 'it shows "x"']], 'the X a close button shows');
});

test('a control named by a place the page does not show says where the controls of that name are', () => {
  const page = new TestPage(`
    <h3>Blue mug</h3><button>Add to cart</button><h3>Red mug</h3><button>Add to cart</button>`);
  const { refFor } = page.ns.refs;
  const [blue, red] = page.document.querySelectorAll('button');
  const out = page.ok('find', { query: 'Add to cart near Green Mug', limit: 10, refBase: 1 });
  assert.deepEqual([out.candidates, out.elsewhere], [[], {
    name: 'Add to cart', where: 'Green Mug', count: 2,
    alike: [{ ref: refFor(blue), near: 'Blue mug' }, { ref: refFor(red), near: 'Red mug' }],
  }]);
  assert.equal(page.ok('find', { query: 'Add to cart near Red mug', limit: 10, refBase: 1 }).elsewhere, undefined, 'a match says nothing of it');
  assert.equal(page.ok('find', { query: 'Remove near Green mug', limit: 10, refBase: 1 }).elsewhere, undefined, 'no control of that name');
  assert.equal(page.ok('find', { query: 'Add to cart Green mug', limit: 10, refBase: 1 }).elsewhere, undefined, 'no joining word: maybe one name');
});

test('find takes one of several alike by its place in the page: "the second Add to cart button"', () => {
  const page = new TestPage(`
    <label>First name <input></label>
    <ul><li>Red shirt <button>Add to cart</button></li><li>Blue shirt <button>Add to cart</button></li>
    <li>Green shirt <button>Add to cart</button></li></ul><a href="#a">Add to cart help</a>`);
  const only = (/** @type {string} */ query) => {
    const out = page.ok('find', { query, limit: 10, refBase: 1 });
    return out.candidates.map((/** @type {any} */ c) => `${c.name} near ${c.near}: ${c.why}`);
  };
  assert.deepEqual(only('the second Add to cart button'), ['Add to cart near Blue shirt: second of 3 alike: button named "Add to cart"']);
  assert.deepEqual(only('last Add to cart'), ['Add to cart near Green shirt: last of 3 alike: name is "Add to cart"']);
  assert.deepEqual(only('1st add to cart button'), ['Add to cart near Red shirt: first of 3 alike: button named "Add to cart"'.replace('first', '1st')]);
  assert.equal(only('fourth Add to cart button').length, 0, 'there are three');
  assert.deepEqual(only('First name'), ['First name near undefined: name is "First name"'], 'a name that begins with an ordinal is a name');
  const words = new TestPage('<p>Last updated today</p><p>Updated daily</p>');
  assert.deepEqual(words.ok('find', { query: 'Last updated', limit: 10, refBase: 1 }).candidates.map((/** @type {any} */ c) => c.why),
    ['text contains "last updated"'], 'words of the page that begin with an ordinal are words');
});

test('find honours limit and counts every match', () => {
  const page = new TestPage('<button>Item 1</button><button>Item 2</button><button>Item 3</button>');
  const out = page.ok('find', { query: 'item', limit: 2, refBase: 1 });
  assert.equal(out.candidates.length, 2);
  assert.equal(out.total, 3);
});

test('field finds the control a person would call by its label', () => {
  const page = new TestPage(`
    <label for=e>Email</label><input id=e type=email>
    <label for=e2>Email again</label><input id=e2>
    <fieldset><legend>Plan</legend>
      <label><input type=radio name=plan value=free> Free</label>
      <label><input type=radio name=plan value=pro> Pro</label>
    </fieldset>`);
  const email = page.ok('field', { label: 'Email', refBase: 1 });
  assert.deepEqual({ role: email.role, name: email.name, alike: email.alike }, { role: 'textbox', name: 'Email', alike: undefined });
  const pro = page.ok('field', { label: 'Plan', value: 'pro', refBase: email.nextRef });
  assert.deepEqual([pro.role, pro.name], ['radio', 'Pro']);
  assert.equal(page.ok('locate', { ref: pro.ref }).name, 'Pro', 'its ref is the radio');
  const missing = page.call('field', { label: 'Phone', refBase: 1 });
  assert.equal(missing.error.code, 'not_found');
  assert.match(missing.error.message, /no form field labelled "Phone"/);
  // Named as agents name them: the label, then the kind of field.
  for (const [label, want] of [['the Email field', 'Email'], ['email again input', 'Email again'], ['Plan radio button', 'Pro']]) {
    assert.equal(page.ok('field', { label, value: 'pro', refBase: 1 }).name, want, label);
  }
  assert.equal(page.call('field', { label: 'Plan checkbox', value: 'pro', refBase: 1 }).error?.code, 'not_found', 'a kind it is not');
});

test('field takes a button that opens a list to pick from as a select', () => {
  const page = new TestPage(`
    <label id=l>Assignee</label><button id=b aria-haspopup=listbox aria-labelledby="l b">Wade Cooper</button>
    <label id=m>Actions</label><button aria-haspopup=menu aria-labelledby=m>Open</button>`);
  const assignee = page.ok('field', { label: 'Assignee', refBase: 1 });
  assert.deepEqual([assignee.role, assignee.name], ['button', 'Assignee Wade Cooper']);
  assert.equal(page.ok('field', { label: 'Assignee dropdown', refBase: 1 }).name, 'Assignee Wade Cooper');
  assert.equal(page.call('field', { label: 'Actions', refBase: 1 }).error?.code, 'not_found', 'a menu is actions, not a value');
});

test('field with values lists every box of a group and which the values name', () => {
  const page = new TestPage(`
    <fieldset><legend>Toppings</legend>
      <label><input type=checkbox value=cheese checked> Cheese</label>
      <label><input type=checkbox value=ham> Ham</label>
      <label hidden><input type=checkbox value=gold> Gold leaf</label>
    </fieldset>
    <div role=group aria-label=Extras>
      <div role=checkbox aria-checked=true tabindex=0>Napkins</div>
      <div role=checkbox tabindex=0>Cutlery</div>
    </div>`);
  const toppings = page.ok('field', { label: 'Toppings', value: 'Ham', values: ['Ham'], refBase: 1 });
  assert.equal(toppings.inGroup, true);
  assert.deepEqual(toppings.boxes.map((/** @type {any} */ b) => [b.name, b.on]), [['Cheese', false], ['Ham', true]],
    'a box no one sees is not one of them');
  assert.equal(toppings.missing, undefined);
  assert.equal(toppings.ref, toppings.boxes[1].ref, 'its ref is the box the first value names');
  // A value that names no box is said; the first box stands for the group.
  const extras = page.ok('field', { label: 'Extras', value: 'Forks', values: ['Forks', 'cutlery'], refBase: toppings.nextRef });
  assert.deepEqual(extras.boxes.map((/** @type {any} */ b) => [b.name, b.on]), [['Napkins', false], ['Cutlery', true]]);
  assert.deepEqual(extras.missing, ['Forks']);
  // Without values, a group's box is picked as before.
  const one = page.ok('field', { label: 'Extras', value: 'Napkins', refBase: extras.nextRef });
  assert.deepEqual([one.inGroup, one.name, one.boxes], [true, 'Napkins', undefined]);
});

test('field takes radios or checkboxes that share a name in no fieldset as a group, labelled by the words before them', () => {
  const page = new TestPage(`
    <div><div>Theme</div><div>
      <label><input type=radio name=theme value=light checked> light</label>
      <label><input type=radio name=theme value=dark> dark</label>
    </div></div>
    <div><div>Preferred dark theme</div><div>
      <label><input type=radio name=dark-theme value=light> light</label>
      <label><input type=radio name=dark-theme value=dark checked> dark</label>
      <label><input type=radio name=dark-theme value=ayu> ayu</label>
    </div></div>
    <form><p>Toppings</p>
      <label><input type=checkbox name=top value=cheese> Cheese</label>
      <label><input type=checkbox name=top value=ham> Ham</label>
    </form>
    <fieldset><legend>Size</legend><p>Cup</p>
      <label><input type=radio name=size value=s> Small</label>
      <label><input type=radio name=size value=l> Large</label>
    </fieldset>`);
  const dark = page.ok('field', { label: 'Preferred dark theme', value: 'ayu', refBase: 1 });
  assert.deepEqual([dark.role, dark.name, dark.inGroup], ['radio', 'ayu', true]);
  assert.equal(page.ok('locate', { ref: dark.ref }).name, 'ayu');
  const theme = page.ok('field', { label: 'Theme', value: 'dark', refBase: dark.nextRef });
  assert.notEqual(theme.ref, page.ok('field', { label: 'Preferred dark theme', value: 'dark', refBase: theme.nextRef }).ref,
    'each group picks its own "dark"');
  const toppings = page.ok('field', { label: 'Toppings', value: 'Ham', values: ['Ham'], refBase: theme.nextRef });
  assert.deepEqual(toppings.boxes.map((/** @type {any} */ b) => [b.name, b.on]), [['Cheese', false], ['Ham', true]]);
  assert.equal(page.call('field', { label: 'Cup', value: 'Small', refBase: 1 }).error?.code, 'not_found',
    'a fieldset with a legend is labelled by it alone');
});

test('field does not take the words of another control\'s label for a field after it', () => {
  const page = new TestPage('<input type=checkbox id=t hidden><label for=t>Terms</label><input id=unnamed>');
  assert.equal(page.ok('field', { label: 'Terms', refBase: 1 }).role, 'checkbox');
  assert.equal(page.call('field', { label: 'Terms textbox', refBase: 1 }).error?.code, 'not_found');
});

test('crossFrames names the shown iframes whose documents the script cannot walk', () => {
  const page = new TestPage(`
    <iframe id=pay src="https://pay.example/card"></iframe>
    <iframe id=own></iframe>
    <iframe id=hidden src="https://ads.example/" style="display:none"></iframe>
    <iframe id=sandboxed sandbox srcdoc="<button>Go</button>"></iframe>`);
  for (const id of ['#pay', '#hidden', '#sandboxed']) Object.defineProperty(page.$(id), 'contentDocument', { get: () => null });
  const { refFor } = page.ns.refs;
  const out = page.ok('crossFrames', { refBase: 1 });
  assert.deepEqual(out.frames, [
    { ref: refFor(page.$('#pay')), url: 'https://pay.example/card', path: [0] },
    // Its path among the windows' frames tells it from the srcdocs read in place.
    { ref: refFor(page.$('#sandboxed')), url: 'about:srcdoc', path: [3] },
  ], 'not the same-origin frame (walked in place), not the hidden one');
});

test('find says what part of the page each match is in, and where a link goes', () => {
  const page = new TestPage(`
    <ul>
      <li><h3>Blue shirt</h3><p>$20</p><button>Add to cart</button></li>
      <li><h3>Red shirt</h3><button>Add to cart</button></li>
    </ul>
    <table><tr><td>invoice-7.pdf</td><td><button>Add to cart</button></td></tr></table>
    <a href="/next">Next</a>`);
  const near = (/** @type {string} */ query) =>
    page.ok('find', { query, limit: 10, refBase: 1 }).candidates.map((/** @type {any} */ c) => c.near);
  assert.deepEqual(near('Add to cart').slice(0, 3), ['Blue shirt', 'Red shirt', 'invoice-7.pdf']);
  const [link] = page.ok('find', { query: 'Next', limit: 1, refBase: 1 }).candidates;
  assert.match(link.href, /\/next$/);
  assert.equal(link.near, 'Red shirt', 'the last heading before it');

  const rows = new TestPage(`<table>
    <tr><td><input type=checkbox aria-label="Select row"></td><td>INV-1001</td><td><button>Delete</button></td></tr>
    <tr><td><input type=checkbox aria-label="Select row"></td><td>INV-1002</td><td><button>Delete</button></td></tr></table>`);
  assert.deepEqual(rows.ok('find', { query: 'button Delete', limit: 2, refBase: 1 }).candidates.map((/** @type {any} */ c) => c.near),
    ['INV-1001', 'INV-1002'], 'a cell with only a row\'s checkbox says nothing of which row');
});

test('find says a list item without a heading by what else it says, and reads "the ... button for ..."', () => {
  const page = new TestPage(`<h1>Results</h1><ul>
      <li><a href="/p/1">Product 1</a> <button>Add to cart</button></li>
      <li><a href="/p/2">Product 2</a> <button>Add to cart</button></li>
    </ul><ul><li><a href="/">Home</a></li></ul>`);
  const found = (/** @type {string} */ query) =>
    page.ok('find', { query, limit: 10, refBase: 1 }).candidates.map((/** @type {any} */ c) => `${c.name} | ${c.near}`);
  assert.deepEqual(found('Add to cart'), ['Add to cart | Product 1', 'Add to cart | Product 2']);
  assert.deepEqual(found('Home'), ['Home | Results'], 'an item that says nothing else: the heading before it');
  const search = new TestPage('<h1>Docs</h1><ul><li><form><input aria-label="Quick search"><button>Go</button></form> |</li></ul>');
  assert.equal(search.ok('find', { query: 'Quick search', limit: 1, refBase: 1 }).candidates[0].near, 'Docs',
    'another control\'s name and a separator say nothing of where it is');
  for (const q of ['the Add to cart button for Product 2', 'add to cart for the product 2', 'Add to cart button near Product 2']) {
    assert.deepEqual(found(q), ['Add to cart | Product 2'], q);
  }
});

test('find takes a control named by part of the query, in the row, card or section the rest names', () => {
  const page = new TestPage(`
    <table>
      <tr><th>Name</th><th>Role</th><th></th></tr>
      <tr><td>Ann</td><td>Admin</td><td><button>Edit</button></td></tr>
      <tr><td>Bob</td><td>User</td><td><button>Edit</button></td></tr>
      <tr><td>Bobby</td><td>User</td><td><button>Edit</button></td></tr>
    </table>
    <ul>
      <li><h3>Blue shirt</h3><button>Add to cart</button></li>
      <li><h3>Red shirt</h3><button>Add to cart</button></li>
    </ul>
    <section><h2>Drafts</h2><button>Save</button></section>
    <ul><li>Zed wrote: ${'a long thread of words, '.repeat(14)}<ul><li>Amy: fine <button>Reply</button></li></ul></li></ul>`);
  const best = (/** @type {string} */ query) => {
    const [c] = page.ok('find', { query, limit: 3, refBase: 1 }).candidates;
    return c && `${c.name} | ${c.near} | ${c.why}`;
  };
  assert.equal(best('Edit Bob'), 'Edit | Bob | name is "Edit", near "Bob"');
  assert.equal(best('Bob Edit'), 'Edit | Bob | name is "Edit", near "Bob"');
  assert.equal(best('edit for Bob'), 'Edit | Bob | name is "Edit", near "Bob"');
  assert.equal(best('Edit Admin'), 'Edit | Ann | name is "Edit", in row "Ann Admin Edit"');
  assert.equal(best('Add to cart near Red shirt'), 'Add to cart | Red shirt | name is "Add to cart", near "Red shirt"');
  // A list as long as a page says nothing of where its items' controls are.
  assert.equal(best('Reply Zed'), undefined);
  // A whole word only: "Bob" is not "Bobby"; one Edit for "Bob", not two.
  assert.equal(page.ok('find', { query: 'Edit Bob', limit: 5, refBase: 1 }).total, 1);
  // Without a joining word, only a whole name: "Save draft" is no "Save".
  assert.equal(best('Save draft'), undefined);
  // A whole match outranks any reading by place.
  assert.match(best('Add to cart'), /^Add to cart \| Blue shirt \| name is/);
});

test('field names every control a label fits alike, with where each is', () => {
  const page = new TestPage(`
    <form><h2>Sign in</h2><label>Email <input></label></form>
    <footer><h2>Newsletter</h2><label>Email <input></label></footer>`);
  const email = page.ok('field', { label: 'Email', refBase: 1 });
  assert.deepEqual(email.alike.map((/** @type {any} */ a) => [a.role, a.name, a.near]),
    [['textbox', 'Email', 'Sign in'], ['textbox', 'Email', 'Newsletter']]);
});

test("find names a closed select by its options' labels; a list box's options are its own", () => {
  const page = new TestPage(`
    <label>Country <select><option>Norway</option><option>Sweden</option><option disabled>Swedenborg</option></select></label>
    <label>Off <select disabled><option>Sweden</option></select></label>
    <label>Langs <select multiple><option>Sweden (SE)</option></select></label>`);
  const found = (/** @type {string} */ query) => page.ok('find', { query, limit: 10, refBase: 1 }).candidates
    .map((/** @type {any} */ c) => [c.role, c.name, c.option, c.why]);
  assert.deepEqual(found('Sweden'), [
    ['combobox', 'Country', 'Sweden', 'option "Sweden"'],
    ['option', 'Sweden (SE)', undefined, 'name contains "sweden"'],
  ], 'not the disabled select, not the disabled option');
  assert.deepEqual(found('Norw'), [['combobox', 'Country', 'Norway', 'option "Norway"']]);
});

test('a query only a hidden control answers says where it is, and what a person sees around it', () => {
  const page = new TestPage(`
    <div id=menu>Products<ul style="display:none"><li><a href="#w">Widgets</a></li></ul></div>
    <div hidden><button>Gadgets</button></div>
    <div role=combobox aria-controls="fruit-list" tabindex=0>Fruit</div>
    <ul id="fruit-list" role=listbox hidden><li role=option>Cherry</li></ul>
    <main><p>${'A long text about the shop. '.repeat(20)}</p><span style="display:none"><button>Coupons</button></span>
    <div role=dialog aria-label="Settings" hidden><button>Save</button></div></main>`);
  const hidden = (/** @type {string} */ query) => page.ok('find', { query, limit: 10, refBase: 1 }).hidden;
  const widgets = hidden('Widgets');
  assert.deepEqual(widgets, { name: 'link "Widgets"', holder: { ref: widgets.holder.ref, name: 'div "Products"' } });
  assert.equal(page.ok('locate', { ref: Number(widgets.holder.ref.slice(1)) }).tag, 'div', 'the holder has a ref');
  assert.deepEqual(hidden('link Widgets')?.name, 'link "Widgets"', 'a role and a name');
  assert.equal(hidden('button Widgets'), undefined, 'of another role');
  assert.deepEqual(hidden('Gadgets'), { name: 'button "Gadgets"' }, 'hidden where nothing around it shows');
  assert.equal(hidden('Products'), undefined, 'a visible match is a match');
  assert.equal(hidden('Cherry')?.holder?.name, 'combobox "Fruit"', 'a list of options is shown by the control that says it opens it');
  assert.deepEqual(hidden('Coupons'), { name: 'button "Coupons"' }, 'a holder so large it is the page shows nothing on hover');
  assert.deepEqual(hidden('Save'), { name: 'button "Save"', closedIn: 'dialog "Settings"' }, 'in a dialog that is not open');
});

test('a hidden control named with its place says the place a person would hover', () => {
  const page = new TestPage(`
    <div class=row>Invoice 1001 <button style="visibility:hidden">Delete</button></div>
    <div class=row>Invoice 1002 <button style="visibility:hidden">Delete</button></div>`);
  const hidden = (/** @type {string} */ query) => page.ok('find', { query, limit: 10, refBase: 1 }).hidden;
  for (const query of ['Delete near Invoice 1002', 'the Delete button for Invoice 1002', 'Invoice 1002 Delete']) {
    assert.equal(hidden(query)?.holder?.name, 'div "Invoice 1002"', query);
  }
  assert.equal(hidden('Delete')?.holder?.name, 'div "Invoice 1001"', 'without a place, the first');
  assert.equal(hidden('Delete near Invoice 1003'), undefined, 'a place no row says');

  // In a table: the rows' body holds both, and says both invoices.
  const table = new TestPage(`<table>
    <tr><td>Invoice 1001</td><td><button style="visibility:hidden">Delete</button></td></tr>
    <tr><td>Invoice 1002</td><td><button style="visibility:hidden">Delete</button></td></tr></table>`);
  assert.match(table.ok('find', { query: 'Delete near Invoice 1002', limit: 10, refBase: 1 }).hidden?.holder?.name, /Invoice 1002/);
});

test('a control named with its place is found in a row drawn with plain boxes', () => {
  const page = new TestPage(`
    <div id=list><div class=row>Invoice 1001 <span><button>Delete</button></span></div>
    <div class=row>Invoice 1002 <span><button>Delete</button></span></div></div>
    <section>Invoice 1003 is paid</section>`);
  const found = (/** @type {string} */ query) => page.ok('find', { query, limit: 10, refBase: 1 }).candidates
    .filter((/** @type {any} */ c) => c.score >= 70).map((/** @type {any} */ c) => c.why);
  for (const query of ['Delete near Invoice 1002', 'the Delete button for Invoice 1002', 'Invoice 1002 Delete']) {
    assert.deepEqual(found(query), ['name is "Delete", in div "Invoice 1002 Delete"'], query);
  }
  assert.deepEqual(found('Delete near Invoice 1003'), [], 'not in the list that holds both rows, nor beside it');
});

test('find matches what an item of a list or a block of code says, which no name sums up', () => {
  const page = new TestPage(`
    <ul><li>Alpha</li><li>Delta <b>four</b></li></ul>
    <pre>print("delta")</pre>`);
  const found = (/** @type {string} */ query) =>
    page.ok('find', { query, limit: 10, refBase: 1 }).candidates.map((/** @type {any} */ c) => `${c.role} ${c.why}`);
  assert.deepEqual(found('Alpha'), ['listitem text is "Alpha"']);
  assert.deepEqual(found('delta'), ['listitem text contains "delta"', 'code text contains "delta"']);
  assert.deepEqual(found('listitem'), ['listitem role listitem', 'listitem role listitem']);
});

test('find ranks a match inside a word below an item that says exactly the query', () => {
  const page = new TestPage(`
    <h3>Done</h3><p role=status>t1 to done</p><input id=phone aria-label="Telephone">
    <ul><li>One</li><li>Two</li></ul>
    <button>autoSave</button><button>Unsaved</button><p>保存する</p>`);
  const found = (/** @type {string} */ query) =>
    page.ok('find', { query, limit: 10, refBase: 1 }).candidates.map((/** @type {any} */ c) => `${c.role} ${c.why}`);
  assert.deepEqual(found('One'), [
    'listitem text is "One"',
    'textbox name contains "one" in a word',
    'heading name contains "one" in a word',
    'status name contains "one" in a word',
  ]);
  assert.deepEqual(found('save'), ['button name contains "save"', 'button name contains "save" in a word'], 'camelCase starts a word');
  page.document.body.insertAdjacentHTML('beforeend', '<p role=status>order Apples, Bread</p><ul><li>Apples</li></ul><button>Apples and pears</button>');
  assert.deepEqual(found('Apples'), ['button name contains "apples"', 'listitem text is "Apples"', 'status name contains "apples"'],
    'a control named with more words first, then the item that says it whole, then a region that says more');
  assert.deepEqual(found('保存'), ['p text contains "保存"'], 'a script written without spaces has no word inside a word');
});

test('field finds a field the page names nowhere by the words a person reads beside it', () => {
  const page = new TestPage(`
    <table><tr><th>First name</th><td><input value=fn></td></tr>
      <tr><td>Last name</td><td><input value=ln></td></tr></table>
    <div>Phone</div><input value=ph>
    <label for=a>Street</label><input value=a> <input value=b>
    <p>Please tell us everything you would like the courier to know before delivery</p><input value=long>`);
  const id = (/** @type {string} */ label) => {
    const f = page.call('field', { label, refBase: 1 });
    return f.error ? f.error.code : page.ok('locate', { ref: f.ok.ref }).value;
  };
  assert.equal(id('First name'), 'fn', 'its row header');
  assert.equal(id('Last name'), 'ln', 'the cell before its own');
  assert.equal(id('Phone'), 'ph', 'the words just above it');
  assert.equal(id('Street'), 'a', 'a labelled field, by its label');
  assert.equal(id('courier'), 'not_found', 'too many words for a label');
});

test('find says which match is its twin in a navigation bar the page repeats below', () => {
  const bar = '<nav aria-label="related"><a href="/i">index</a><form role="search"><input aria-label="Quick search"></form></nav>';
  const page = new TestPage(`${bar}<main><p>Text</p><input aria-label="Quick search" id=other></main>${bar}`);
  const out = page.ok('find', { query: 'Quick search', limit: 10, refBase: 1 });
  const [top, mid, bottom] = out.candidates;
  assert.equal(out.candidates.length, 3);
  assert.equal(top.repeats, undefined);
  assert.equal(mid.repeats, undefined, 'a box outside the bar is its own');
  assert.equal(bottom.repeats, top.ref, 'the bottom bar repeats the top one');

  const differs = new TestPage(`${bar}<nav aria-label="related"><a href="/j">jump</a><form role="search"><input aria-label="Quick search"></form></nav>`);
  assert.deepEqual(differs.ok('find', { query: 'Quick search', limit: 10, refBase: 1 }).candidates.map((/** @type {any} */ c) => c.repeats),
    [undefined, undefined], 'a bar that says other words is another bar');
});

test('two search forms of no words of their own are not twins', () => {
  const page = new TestPage(`<form role="search"><input aria-label="Search products"></form>
    <form role="search"><input aria-label="Search orders"></form>
    <header><form role="search"><input aria-label="Search"></form></header><footer><form role="search"><input aria-label="Search"></form></footer>`);
  const out = page.ok('find', { query: 'search', limit: 10, refBase: 1 }).candidates;
  assert.ok(out.length >= 4);
  assert.deepEqual(out.filter((/** @type {any} */ c) => c.repeats), []);
});

test('field takes the first of a box and its twin in a bar the page repeats below', () => {
  const bar = '<nav aria-label="related"><a href="/i">index</a><input aria-label="Quick search"></nav>';
  const page = new TestPage(`${bar}<main><p>Text</p></main>${bar}`);
  const top = page.ok('find', { query: 'Quick search', limit: 1, refBase: 1 }).candidates[0].ref;
  const out = page.ok('field', { label: 'Quick search', refBase: 1 });
  assert.equal(out.ref, top);
  assert.equal(out.alike, undefined);
});
