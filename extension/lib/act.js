// @ts-check
// The pure parts of element.act: which actions it takes, and how it reads
// the page script's locate and watch reports (what an element is called,
// the one line that says what changed).

/**
 * element.act's actions, in the order of host/engine/interact.go's
 * interactActions; lib/act.test.js checks both against
 * protocol/testdata/interact-actions.json.
 */
export const ACT_ACTIONS = /** @type {const} */ ([
  'click', 'double_click', 'right_click', 'drag', 'hover', 'focus', 'type', 'fill', 'clear', 'select',
  'check', 'uncheck', 'press', 'scroll', 'scroll_into_view', 'accept_dialog', 'dismiss_dialog',
]);

/** @typedef {typeof ACT_ACTIONS[number]} ActAction */

/** Where scroll turns the wheel. */
export const DIRECTIONS = /** @type {const} */ (['up', 'down', 'left', 'right']);

/**
 * @typedef {{ x: number, y: number, width: number, height: number }} Box
 */

/**
 * role "name", for results and errors.
 * @param {{ role?: string, tag?: string, name?: string, text?: string }} loc a locate report
 * @returns {string}
 */
export function describeTarget(loc) {
  const role = loc.role || loc.tag || '';
  const name = loc.name || loc.text;
  return name ? `${role} "${name}"` : role;
}

/**
 * A short line saying what changed on the page, and the downloads the
 * action started.
 * @param {Record<string, any>} r a watch report
 * @param {Array<{ name: string }>} [downloads]
 * @returns {string}
 */
export function summarize(r, downloads = []) {
  const parts = changed(r, downloads);
  const running = r.requestsRunning ? `${r.requestsRunning} request${r.requestsRunning === 1 ? '' : 's'} it started still running` : '';
  if (!parts.length) return running ? `no visible change yet: ${running}` : 'no visible change';
  if (running) parts.push(running);
  return parts.join(', ');
}

/**
 * Whether a watch report saw nothing at all happen: no change, no request
 * still running.
 * @param {Record<string, any>} r a watch report
 */
export function quiet(r) {
  return !r.requestsRunning && !r.navigated && !r.dialogOpen && changed(r).length === 0;
}

/**
 * What summarize says changed, a phrase each.
 * @param {Record<string, any>} r a watch report
 * @param {Array<{ name: string }>} [downloads]
 * @returns {string[]}
 */
function changed(r, downloads = []) {
  const parts = downloads.map((d) => `download started: ${d.name}`);
  // The page drew it anew in its place: what changed is the new one's.
  if (r.anew) {
    const still = keptWord(r.still);
    parts.push(`drawn anew${r.anewRef ? ` as ${r.anewRef}` : ''}${still ? `, still ${still}` : ''}`);
  }
  const now = became(r.state?.was, r.state?.now);
  if (now.length) parts.push(`now ${now.join(', ')}`);
  // The element's own words: "Copy" that turned "Copied".
  if (r.renamed) parts.push(`it now reads ${JSON.stringify(r.renamed)}`);
  // A field a key or click changed, not one being filled: what it holds.
  if (r.newValue !== undefined) parts.push(r.newValue ? `its value is now ${JSON.stringify(r.newValue)}` : 'it was emptied');
  // Other fields the page wrote (a date picker's field, a slug).
  if (r.fieldsSet?.length) parts.push(...r.fieldsSet);
  // A list that keeps the focus moved its highlight (aria-activedescendant).
  if (r.active) parts.push(r.active === 'none' ? 'no option active' : `${r.active} active`);
  if (r.invalid) parts.push(`the form was not sent: ${r.invalid.control}: ${r.invalid.message}`);
  // The fields the page's own check marked, with the words that say why.
  if (r.invalidNow?.length) {
    parts.push(`now invalid: ${r.invalidNow.map((/** @type {{ control: string, message: string }} */ i) =>
      (i.message ? `${i.control} (${JSON.stringify(i.message)})` : i.control)).join(', ')}`);
  }
  if (r.dialogs?.length) parts.push(`dialog opened: ${r.dialogs.join(', ')}`);
  if (r.dialogsClosed?.length) parts.push(`dialog closed: ${r.dialogsClosed.join(', ')}`);
  // What the page says to the person, word for word: an error, a "saved".
  if (r.said?.length) parts.push(`it says ${r.said.join(', ')}`);
  if (r.redrawn) {
    // Drawn anew: what a person sees change is the words that went and came.
    const { gone, came, reordered } = r.redrawn;
    const said = [...gone.map((/** @type {string} */ t) => `${t} gone`), ...came.map((/** @type {string} */ t) => `${t} new`)];
    if (reordered) said.push('the rest in another order');
    if (said.length) parts.push(`redrawn: ${said.join(', ')}`);
    else if (!r.anew) parts.push('redrawn, the same words');
  } else {
    if (r.added) {
      const quoted = r.addedText?.length ? `: ${r.addedText.join(', ')}` : '';
      parts.push(`${r.added} element${r.added === 1 ? '' : 's'} added${quoted}`);
    }
    // A dialog's backdrop that went with it is the dialog closing.
    if (r.removed && (r.removedText?.length || !r.dialogsClosed?.length)) {
      const quoted = r.removedText?.length ? `: ${r.removedText.join(', ')}` : '';
      parts.push(`${r.removed} removed${quoted}`);
    }
    if (r.moved) parts.push(`${r.moved} element${r.moved === 1 ? '' : 's'} moved`);
  }
  if (r.shown && !r.added) {
    const quoted = r.shownText?.length ? `: ${r.shownText.join(', ')}` : '';
    parts.push(`${r.shown} element${r.shown === 1 ? '' : 's'} shown${quoted}`);
  }
  if (r.hidden && !r.removed) parts.push(`${r.hidden} hidden`);
  // Words that changed beside what a region said (a title renamed, and a
  // toast that says so) are quoted; a region's own are what it said.
  // Quoted beside elements added or removed too: a count of results.
  if (r.textText?.length) parts.push(`text changed: ${r.textText.join(', ')}`);
  else if (r.texts && !r.added && !r.removed && !r.said?.length) parts.push('text changed');
  if (r.urlChanged) parts.push('URL changed (same document)');
  if (r.titleChanged) parts.push('title changed');
  if (r.elementGone) parts.push('the element itself is gone');
  if (r.frameGone) parts.push(r.frame ? `the frame it was in is gone: ${r.frame}` : 'the frame it was in is gone');
  // Said only when nothing else is: what else changed says what the
  // attributes did (a panel shown, a field now invalid, a tab selected, a
  // highlight moved).
  if (r.attributes && !parts.length && !r.active) parts.push('attributes changed');
  return parts;
}

/**
 * How an element's own states changed, a word each, as read_page writes
 * them: "checked", "expanded", "not selected".
 * @param {ElementState | undefined} was
 * @param {ElementState | undefined} now
 * @returns {string[]}
 */
export function became(was, now) {
  if (!was || !now) return [];
  /** @type {string[]} */
  const out = [];
  if (now.checked !== undefined && now.checked !== was.checked) out.push(checkedWord(now.checked));
  if (now.selected !== was.selected) out.push(now.selected ? 'selected' : 'not selected');
  if (now.expanded !== undefined && now.expanded !== was.expanded) out.push(now.expanded ? 'expanded' : 'collapsed');
  if (now.sort !== was.sort) out.push(now.sort ? `sorted ${now.sort === 'other' ? '' : now.sort}`.trim() : 'not sorted');
  return out;
}

/**
 * A checked state as read_page writes it: "checked", "unchecked",
 * "mixed", "pressed", "not pressed".
 * @param {string} checked
 */
function checkedWord(checked) {
  const pressed = /^pressed=(.*)$/.exec(checked);
  if (pressed) return pressed[1] === 'false' ? 'not pressed' : 'pressed';
  return checked === 'true' ? 'checked' : checked === 'false' ? 'unchecked' : checked;
}

/**
 * The state a control drawn anew kept, as read_page writes it; '' when it
 * has none a click would change.
 * @param {ElementState | undefined} s
 */
function keptWord(s) {
  if (s?.checked !== undefined) return checkedWord(s.checked);
  if (s?.expanded !== undefined) return s.expanded ? 'expanded' : 'collapsed';
  return '';
}

/**
 * Whether a control kept the text filled into it: as it was; formatted, the
 * page writing the same characters its own way ("(555) 123-4567" for
 * "5551234567", "ABC" for "abc", "1,234.50" for "1234.5"); or not, with why
 * when the control's limit cut it.
 * @param {string} want what was filled
 * @param {unknown} got the value now
 * @param {number} [maxLength] the control's limit
 * @returns {{ kept: boolean, formatted?: boolean, why?: string }}
 */
export function kept(want, got, maxLength) {
  if (normalize(got) === normalize(want)) return { kept: true };
  if (typeof got !== 'string' || !got) return { kept: false };
  const chars = (/** @type {string} */ s) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  if (chars(got) && chars(got) === chars(want)) return { kept: true, formatted: true };
  const number = (/** @type {string} */ s) => (/^[^\p{L}]*$/u.test(s) && /\d/.test(s) ? Number(s.replace(/[^\d.-]/g, '')) : NaN);
  if (Number.isFinite(number(want)) && number(got) === number(want)) return { kept: true, formatted: true };
  if (maxLength && [...want].length > maxLength && got === [...want].slice(0, maxLength).join('')) {
    const why = `it keeps at most ${maxLength} character${maxLength === 1 ? '' : 's'}`;
    // One box of a code split across boxes (a one-time code): the page
    // moves the focus on as each key fills a box, so typing fills them all.
    return { kept: false, why: maxLength <= 2 ? `${why} (a box of a code split across boxes? clear it, then type the code: keys move from box to box as a person's do)` : why };
  }
  return { kept: false };
}

/**
 * A value as fill compares it: line endings and outer white space aside.
 * @param {unknown} v
 */
export function normalize(v) {
  return typeof v === 'string' ? v.replace(/\r\n/g, '\n').trim() : v;
}

/**
 * Whether fill's text for a checkbox or radio means checked: true, false,
 * or undefined when it says neither. The control's own name or form value
 * means checked (a radio "Pro plan" or value "pro" filled with either), even
 * when it is a word like "no": a radio "No" filled "no" is chosen. Any other
 * text is likely a value meant for another field, and is refused rather
 * than read as yes.
 * @param {string} s
 * @param {...(string | undefined)} names the control's accessible name, its form value
 * @returns {boolean | undefined}
 */
export function truthy(s, ...names) {
  const t = s.trim().toLowerCase();
  if (t && names.some((n) => n && t === n.trim().toLowerCase())) return true;
  if (/^(false|no|n|off|0|unchecked|uncheck|unselected|)$/.test(t)) return false;
  if (/^(true|yes|y|on|1|checked|check|selected|x|✓|✔)$/.test(t)) return true;
  return undefined;
}

/**
 * @param {Box} b
 * @returns {Box}
 */
export function roundBox(b) {
  return { x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height) };
}

/**
 * What a page scroll did, from where what the wheel scrolls was before and
 * after it (page/dom.js scrollState): where the view is now and how much
 * the content grew (a feed loading more); or that nothing moved, and why
 * that may be.
 * @param {ScrollState} before
 * @param {ScrollState} after
 * @param {boolean} [byRef] the wheel was aimed at an element, not at the middle of the view
 */
export function scrolled(before, after, byRef = false) {
  const what = after.pane ?? 'the page';
  if (before.pane !== after.pane || after.top !== before.top || after.left !== before.left) {
    const grew = before.pane === after.pane ? after.height - before.height : 0;
    const at = `${after.left ? `x ${after.left}, ` : ''}y ${after.top} of ${after.height} px`;
    return `scrolled ${what} to ${at}${grew > 0 ? `, it grew ${grew} px` : ''}`;
  }
  const grew = before.pane === after.pane ? after.height - before.height : 0;
  if (grew > 0) return `${what} did not move (it was at its end), and it grew ${grew} px: scroll again for more`;
  return byRef
    ? `no visible change: ${what} did not move (it is at its end)`
    : `no visible change: ${what} did not move (it is at its end, or what scrolls is elsewhere: scroll that element by ref)`;
}

/**
 * What a scroll did, said first, then what else it changed (a virtual
 * list's rows drawn anew, a feed's items added); the other changes alone
 * when nothing moved.
 * @param {string} moved scrolled's account
 * @param {unknown} changes the watch's summary, if any
 */
export function withScrolled(moved, changes) {
  const other = typeof changes === 'string' && changes && !changes.startsWith('no visible change') ? changes : '';
  if (!other) return moved;
  return moved.startsWith('no visible change') ? other : `${moved}, ${other}`;
}

/**
 * How far an animated element may move between two looks and still be
 * clicked, as a person clicks a pulsing button.
 */
export const STEADY_PX = 4;

/**
 * Whether an element whose box went from a to b between two looks holds
 * still enough for a click at p: it moved at most STEADY_PX, and p lies
 * inside b by more than it moved, so it is inside it still when the press
 * lands a moment later.
 * @param {Box | undefined} a
 * @param {Box | undefined} b
 * @param {{ x: number, y: number } | undefined} p
 */
export function steady(a, b, p) {
  if (!a || !b || !p) return false;
  const moved = Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y),
    Math.abs(a.x + a.width - b.x - b.width), Math.abs(a.y + a.height - b.y - b.height));
  if (moved < 1) return true;
  const m = moved + 1;
  return moved <= STEADY_PX && p.x >= b.x + m && p.x <= b.x + b.width - m && p.y >= b.y + m && p.y <= b.y + b.height - m;
}
