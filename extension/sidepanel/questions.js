// @ts-check
// The side panel's questions (browser_request_feedback, docs/human.md): the
// trusted place to answer them. Every question waiting is listed here; a
// confirm or choose is answered in full, any question can be skipped, and a
// question about a page that cannot show OpenChrome's overlay is answered
// here over a screenshot of the tab (point, element and region as
// screenshot pixels, a comment with or without a spot). The worker keeps the
// questions in chrome.storage.session (`feedback`, `feedbackShot:<id>`,
// sw/feedback.js); answers go back as {type: 'feedback', requestId, answer}
// runtime messages, which it checks.
//
// Prompts come from agents and are text, never markup: everything here
// goes through textContent.

import {
  MODE_HINTS,
  SCREENSHOT_HINTS,
  rectFromCorners,
  toImagePixels,
} from '../lib/feedback.js';
import { countdown } from '../lib/panel.js';

/** @typedef {import('../lib/feedback.js').Question} Question */

const RECORDS_KEY = 'feedback';
const SHOT_PREFIX = 'feedbackShot:';

/** The questions waiting. @type {Question[]} */
let questions = [];
/** Screenshots, by question id. @type {Map<string, string>} */
const shots = new Map();
/** Questions whose answer is on its way. @type {Set<string>} */
const busy = new Set();
/** What the last answer of each question got back, when it failed. @type {Map<string, string>} */
const errors = new Map();
/** The spot a note on a screenshot is about, by question id. @type {Map<string, { x: number, y: number }>} */
const spots = new Map();
/** A note being written, by question id: a render must not lose it. @type {Map<string, string>} */
const notes = new Map();
/** Where a box on a screenshot began. @type {{ id: string, from: { x: number, y: number } } | undefined} */
let drag;

/**
 * @param {string} tag
 * @param {string} [cls]
 * @param {string} [text]
 * @returns {HTMLElement}
 */
function el(tag, cls = '', text = '') {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text) e.textContent = text;
  return e;
}

/**
 * @param {string} text
 * @param {Record<string, string>} data the answer it sends, in data-*
 */
function answerButton(text, data) {
  const b = /** @type {HTMLButtonElement} */ (el('button', '', text));
  b.type = 'button';
  Object.assign(b.dataset, data);
  return b;
}

function render() {
  const list = /** @type {HTMLElement} */ (document.getElementById('questions'));
  const waiting = questions.filter((q) => q.status === 'pending');
  const keep = new Map([...list.children].map((c) => [/** @type {HTMLElement} */ (c).dataset.key ?? '', /** @type {HTMLElement} */ (c)]));
  const items = waiting.map((q) => {
    const sig = JSON.stringify([q.id, q.place, q.shot && shots.has(q.id), busy.has(q.id), errors.get(q.id), spots.get(q.id)]);
    const old = keep.get(q.id);
    if (old && old.dataset.sig === sig) return old;
    const item = questionItem(q);
    item.dataset.key = q.id;
    item.dataset.sig = sig;
    return item;
  });
  list.replaceChildren(...items);
  /** @type {HTMLElement} */ (document.getElementById('questions-empty')).hidden = waiting.length > 0;
  tick();
}

/**
 * @param {Question} q
 * @returns {HTMLElement}
 */
function questionItem(q) {
  const li = el('li', 'question');
  li.dataset.requestId = q.id;
  li.dataset.mode = q.mode;
  li.dataset.place = q.place;
  const head = el('div', 'row');
  const time = el('span', 'countdown');
  time.dataset.deadline = new Date(q.deadline).toISOString();
  head.append(el('span', 'reason', 'The agent asks'), time);
  li.append(head, el('p', 'instruction', q.prompt));

  const onScreenshot = q.place === 'panel';
  const hints = onScreenshot ? SCREENSHOT_HINTS : MODE_HINTS;
  li.append(el('p', 'meta', hints[q.mode] ?? ''));
  if (onScreenshot) {
    li.append(el('p', 'meta', `Tab ${q.tabId} cannot show OpenChrome's overlay: answer here.`));
  } else if (q.mode !== 'confirm' && q.mode !== 'choose') {
    li.append(el('p', 'meta', `Answer on the page, in tab ${q.tabId}.`));
  }

  const shot = shots.get(q.id);
  const marking = q.mode !== 'confirm' && q.mode !== 'choose';
  if (onScreenshot && marking && shot) {
    const frame = el('div', 'shot');
    const img = /** @type {HTMLImageElement} */ (el('img'));
    img.src = shot;
    img.alt = `A screenshot of tab ${q.tabId}`;
    img.draggable = false;
    img.dataset.shot = q.id;
    frame.append(img, el('div', 'band'));
    const spot = spots.get(q.id);
    if (spot) {
      const pin = el('div', 'pin');
      pin.dataset.x = String(spot.x);
      pin.dataset.y = String(spot.y);
      frame.append(pin);
      img.addEventListener('load', () => placePin(img, pin), { once: true });
    }
    li.append(frame);
  }

  const actions = el('div', 'actions');
  const off = busy.has(q.id);
  if (q.mode === 'confirm') actions.append(answerButton('Confirm', { answer: 'confirm' }));
  if (q.mode === 'choose') {
    for (const o of q.options) actions.append(answerButton(o.label, { answer: 'choice', value: o.value }));
  }
  if (onScreenshot && q.mode === 'comment') {
    const note = /** @type {HTMLTextAreaElement} */ (el('textarea', 'note'));
    note.setAttribute('aria-label', 'Your note');
    note.value = notes.get(q.id) ?? '';
    note.addEventListener('input', () => notes.set(q.id, note.value));
    li.append(note);
    actions.append(answerButton('Send', { answer: 'comment' }));
  }
  actions.append(answerButton('Skip', { answer: 'skip' }));
  const go = answerButton(`Show tab ${q.tabId}`, { answer: 'show-tab' });
  go.className = 'link';
  actions.append(go);
  for (const b of actions.querySelectorAll('button')) /** @type {HTMLButtonElement} */ (b).disabled = off && b !== go;
  li.append(actions);

  const error = el('p', 'error', errors.get(q.id) ?? '');
  error.dataset.role = 'error';
  error.hidden = !errors.has(q.id);
  li.append(error);
  return li;
}

/**
 * Puts a note's pin where it was clicked on the shown screenshot.
 * @param {HTMLImageElement} img
 * @param {HTMLElement} pin
 */
function placePin(img, pin) {
  const sx = img.clientWidth / (img.naturalWidth || 1);
  const sy = img.clientHeight / (img.naturalHeight || 1);
  pin.style.left = `${Number(pin.dataset.x) * sx}px`;
  pin.style.top = `${Number(pin.dataset.y) * sy}px`;
}

/** Moves the countdowns. */
function tick() {
  const now = Date.now();
  for (const time of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('#questions .countdown'))) {
    const left = countdown(time.dataset.deadline, now);
    time.textContent = left;
    time.classList.toggle('up', left === 'time is up');
  }
}

/**
 * Sends an answer to the worker; shows inline what went wrong.
 * @param {string} id
 * @param {Record<string, unknown>} answer
 */
async function send(id, answer) {
  busy.add(id);
  errors.delete(id);
  render();
  let reply;
  try {
    reply = await chrome.runtime.sendMessage({ type: 'feedback', requestId: id, answer });
  } catch (err) {
    reply = { ok: false, error: `OpenChrome cannot be reached (${err instanceof Error ? err.message : String(err)})` };
  }
  busy.delete(id);
  if (!reply?.ok) errors.set(id, String(reply?.error ?? 'OpenChrome did not answer'));
  render();
}

/**
 * The point of a mouse event on a screenshot, in its pixels.
 * @param {MouseEvent} e
 * @param {HTMLImageElement} img
 */
function onImage(e, img) {
  return toImagePixels(e.clientX, e.clientY, img.getBoundingClientRect(),
    { width: img.naturalWidth, height: img.naturalHeight });
}

document.addEventListener('click', (e) => {
  const target = /** @type {HTMLElement} */ (e.target);
  const item = /** @type {HTMLElement | null} */ (target.closest('#questions [data-request-id]'));
  if (!item) return;
  const id = item.dataset.requestId ?? '';
  const q = questions.find((x) => x.id === id);
  if (!q) return;
  const img = /** @type {HTMLImageElement | null} */ (target.closest('img[data-shot]'));
  if (img && !busy.has(id)) {
    const at = onImage(e, img);
    if (q.mode === 'point' || q.mode === 'element') send(id, { kind: q.mode, ...at });
    if (q.mode === 'comment') {
      spots.set(id, at);
      render();
    }
    return;
  }
  const b = /** @type {HTMLButtonElement | null} */ (target.closest('button[data-answer]'));
  if (!b || b.disabled) return;
  switch (b.dataset.answer) {
    case 'confirm':
      send(id, { kind: 'confirm' });
      break;
    case 'choice':
      send(id, { kind: 'choice', value: b.dataset.value });
      break;
    case 'comment': {
      const text = /** @type {HTMLTextAreaElement | null} */ (item.querySelector('textarea.note'))?.value ?? '';
      send(id, { kind: 'comment', text, ...(spots.get(id) ?? {}) });
      break;
    }
    case 'skip':
      send(id, { dismissed: true });
      break;
    case 'show-tab':
      showTab(q.tabId);
      break;
  }
});

// A box on a screenshot: drag from one corner to the other.
document.addEventListener('mousedown', (e) => {
  const img = /** @type {HTMLImageElement | null} */ ((/** @type {HTMLElement} */ (e.target)).closest('#questions img[data-shot]'));
  const id = img?.dataset.shot ?? '';
  if (!img || questions.find((q) => q.id === id)?.mode !== 'region' || busy.has(id)) return;
  e.preventDefault();
  drag = { id, from: onImage(e, img) };
});
document.addEventListener('mousemove', (e) => {
  if (!drag) return;
  const img = /** @type {HTMLImageElement | null} */ (document.querySelector(`#questions img[data-shot="${CSS.escape(drag.id)}"]`));
  const band = /** @type {HTMLElement | null} */ (img?.parentElement?.querySelector('.band') ?? null);
  if (!img || !band) return;
  const to = onImage(e, img);
  const sx = img.clientWidth / (img.naturalWidth || 1);
  const sy = img.clientHeight / (img.naturalHeight || 1);
  Object.assign(band.style, {
    display: 'block',
    left: `${Math.min(drag.from.x, to.x) * sx}px`, top: `${Math.min(drag.from.y, to.y) * sy}px`,
    width: `${Math.abs(to.x - drag.from.x) * sx}px`, height: `${Math.abs(to.y - drag.from.y) * sy}px`,
  });
});
document.addEventListener('mouseup', (e) => {
  if (!drag) return;
  const { id, from } = drag;
  drag = undefined;
  const img = /** @type {HTMLImageElement | null} */ (document.querySelector(`#questions img[data-shot="${CSS.escape(id)}"]`));
  if (!img) return;
  const rect = rectFromCorners(from, onImage(e, img));
  if (rect) send(id, { kind: 'region', rect });
  else render(); // a slip of the mouse: the band goes
});

/**
 * Brings a question's tab, and its window, to the front.
 * @param {number} tabId
 */
async function showTab(tabId) {
  try {
    const tab = await chrome.tabs.update(tabId, { active: true });
    if (tab?.windowId !== undefined) await chrome.windows.update(tab.windowId, { focused: true });
  } catch {
    // the tab is gone
  }
}

/**
 * Reads the screenshots of the questions that have one and are not read yet.
 */
async function readShots() {
  const want = questions.filter((q) => q.shot && !shots.has(q.id)).map((q) => SHOT_PREFIX + q.id);
  if (want.length) {
    const stored = await chrome.storage.session.get(want);
    for (const [key, value] of Object.entries(stored)) {
      if (typeof value === 'string') shots.set(key.slice(SHOT_PREFIX.length), value);
    }
  }
  for (const id of [...shots.keys()]) if (!questions.some((q) => q.id === id)) shots.delete(id);
}

/** @param {unknown} value */
async function take(value) {
  questions = /** @type {Question[]} */ (Array.isArray(value) ? value : []);
  for (const map of [spots, notes]) {
    for (const id of [...map.keys()]) if (!questions.some((q) => q.id === id)) map.delete(id);
  }
  await readShots();
  render();
}

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'session' && changes[RECORDS_KEY]) take(changes[RECORDS_KEY].newValue);
});
chrome.storage.session.get(RECORDS_KEY).then((stored) => take(stored[RECORDS_KEY]));
setInterval(tick, 1000);
