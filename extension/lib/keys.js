// @ts-check
// Key chords ("Enter", "ctrl+a", "shift+Tab") as the CDP Input.dispatchKeyEvent
// calls that type them, like a US keyboard would.

import { ActionError, opensApp } from './errors.js';

/**
 * One key: what CDP needs to make the page see it as pressed.
 * @typedef {{ key: string, code: string, keyCode: number, text?: string, location?: number }} KeyDef
 */

/** @type {Record<string, KeyDef>} */
const NAMED = {
  Enter: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  Tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  Escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  Backspace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  Delete: { key: 'Delete', code: 'Delete', keyCode: 46 },
  Space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  ArrowUp: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  ArrowDown: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  ArrowLeft: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  ArrowRight: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  Home: { key: 'Home', code: 'Home', keyCode: 36 },
  End: { key: 'End', code: 'End', keyCode: 35 },
  PageUp: { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  PageDown: { key: 'PageDown', code: 'PageDown', keyCode: 34 },
  Insert: { key: 'Insert', code: 'Insert', keyCode: 45 },
  Shift: { key: 'Shift', code: 'ShiftLeft', keyCode: 16, location: 1 },
  Control: { key: 'Control', code: 'ControlLeft', keyCode: 17, location: 1 },
  Alt: { key: 'Alt', code: 'AltLeft', keyCode: 18, location: 1 },
  Meta: { key: 'Meta', code: 'MetaLeft', keyCode: 91, location: 1 },
};
for (let i = 1; i <= 12; i++) NAMED[`F${i}`] = { key: `F${i}`, code: `F${i}`, keyCode: 111 + i };

/** Other names people and models use for the same keys. @type {Record<string, string>} */
const ALIASES = {
  return: 'Enter', enter: 'Enter', tab: 'Tab', esc: 'Escape', escape: 'Escape',
  backspace: 'Backspace', delete: 'Delete', del: 'Delete', space: 'Space', ' ': 'Space',
  up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight',
  arrowup: 'ArrowUp', arrowdown: 'ArrowDown', arrowleft: 'ArrowLeft', arrowright: 'ArrowRight',
  home: 'Home', end: 'End', pageup: 'PageUp', pagedown: 'PageDown', page_up: 'PageUp', page_down: 'PageDown', insert: 'Insert',
  shift: 'Shift', ctrl: 'Control', control: 'Control', alt: 'Alt', option: 'Alt',
  meta: 'Meta', cmd: 'Meta', command: 'Meta', super: 'Meta', win: 'Meta',
};

/** The CDP modifier bit of each modifier key. */
const MODIFIER_BITS = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };

const SHIFTED = '~!@#$%^&*()_+{}|:"<>?';
const UNSHIFTED = '`1234567890-=[]\\;\',./';
/** Key codes of the punctuation keys, in UNSHIFTED order. */
const PUNCT_CODES = [
  ['Backquote', 192], ['Digit1', 49], ['Digit2', 50], ['Digit3', 51], ['Digit4', 52], ['Digit5', 53],
  ['Digit6', 54], ['Digit7', 55], ['Digit8', 56], ['Digit9', 57], ['Digit0', 48], ['Minus', 189],
  ['Equal', 187], ['BracketLeft', 219], ['BracketRight', 221], ['Backslash', 220], ['Semicolon', 186],
  ['Quote', 222], ['Comma', 188], ['Period', 190], ['Slash', 191],
];

/**
 * The key that types one printable character, and whether it needs Shift.
 * @param {string} ch
 * @returns {{ def: KeyDef, shift: boolean } | undefined}
 */
export function charKey(ch) {
  if (/^[a-z]$/.test(ch)) {
    return { def: { key: ch, code: `Key${ch.toUpperCase()}`, keyCode: ch.toUpperCase().charCodeAt(0), text: ch }, shift: false };
  }
  if (/^[A-Z]$/.test(ch)) {
    return { def: { key: ch, code: `Key${ch}`, keyCode: ch.charCodeAt(0), text: ch }, shift: true };
  }
  if (ch === ' ') return { def: NAMED.Space, shift: false };
  let i = UNSHIFTED.indexOf(ch);
  if (i >= 0) {
    const [code, keyCode] = /** @type {[string, number]} */ (PUNCT_CODES[i]);
    return { def: { key: ch, code, keyCode, text: ch }, shift: false };
  }
  i = SHIFTED.indexOf(ch);
  if (i >= 0) {
    const [code, keyCode] = /** @type {[string, number]} */ (PUNCT_CODES[i]);
    return { def: { key: ch, code, keyCode, text: ch }, shift: true };
  }
  return undefined;
}

/**
 * A parsed chord: the modifiers held and the key pressed.
 * @typedef {{ modifiers: number, held: KeyDef[], key: KeyDef }} Chord
 */

/**
 * Whether chord follows the link that has the focus: Enter, with or
 * without modifiers (ctrl+Enter opens it in a new tab).
 * @param {string} chord
 */
export function followsLink(chord) {
  return parseChord(chord).key.key === 'Enter';
}

/**
 * The chord that selects all of a field's text where the browser runs:
 * cmd+A on a Mac, where ctrl+A goes to the line's start; ctrl+A elsewhere.
 * @param {string} platform navigator.platform, e.g. "MacIntel", "Linux x86_64"
 */
export function selectAllChord(platform) {
  return /^Mac/i.test(platform) ? 'meta+a' : 'ctrl+a';
}

/**
 * Whether chord pastes: ctrl+V or cmd+V (with shift: as plain text), and
 * shift+Insert.
 * @param {string} chord
 */
export function pastes(chord) {
  const { modifiers, key } = parseChord(chord);
  return ((modifiers & (MODIFIER_BITS.Control | MODIFIER_BITS.Meta)) !== 0 && key.key.toLowerCase() === 'v') ||
    (key.key === 'Insert' && (modifiers & MODIFIER_BITS.Shift) !== 0);
}

/**
 * Refuses a chord an agent may not press: one that pastes, which would
 * hand the page, and through it the agent, what the person last copied (a
 * password from their password manager); and one that would follow a link
 * to another application: app, the address of the link it is aimed at
 * (what names it), if it is one.
 * @param {string} chord
 * @param {string | undefined} app
 * @param {string | undefined} what
 */
export function refuseChord(chord, app, what) {
  if (pastes(chord)) {
    throw new ActionError('unauthorized', `${chord} would paste what the person last copied, which may be a secret: nothing was pressed`,
      'type the text instead (interact type or fill)');
  }
  if (app && followsLink(chord)) throw opensApp(what, app, 'pressed');
}

/**
 * Parses "ctrl+shift+t", "Enter", "a", "Meta+A". Errors name what is wrong.
 * @param {string} chord
 * @returns {Chord}
 */
export function parseChord(chord) {
  if (typeof chord !== 'string' || !chord.trim()) {
    throw new ActionError('bad_request', 'key is empty', 'pass a key such as "Enter" or a chord such as "ctrl+a"');
  }
  // "+" alone, or as the last part ("ctrl++"), is the plus key.
  const parts = chord === '+' ? ['+'] : chord.endsWith('++') ? [...chord.slice(0, -2).split('+'), '+'] : chord.split('+');
  let modifiers = 0;
  /** @type {KeyDef[]} */
  const held = [];
  let shift = false;
  /** @type {KeyDef | undefined} */
  let key;
  parts.forEach((raw, i) => {
    const part = raw.trim() === '' && raw.length ? ' ' : raw.trim();
    const name = NAMED[part] ? part : ALIASES[part.toLowerCase()];
    const last = i === parts.length - 1;
    if (name && name in MODIFIER_BITS && !last) {
      modifiers |= MODIFIER_BITS[/** @type {keyof typeof MODIFIER_BITS} */ (name)];
      held.push(NAMED[name]);
      if (name === 'Shift') shift = true;
      return;
    }
    if (!last) {
      throw new ActionError('bad_request', `"${part}" in "${chord}" is not a modifier`,
        'modifiers are ctrl, shift, alt and meta (cmd), e.g. "ctrl+shift+t"');
    }
    if (name) {
      key = NAMED[name];
      return;
    }
    // With shift held a letter types its capital, as on a keyboard.
    const ch = part.length === 1 ? charKey(shift ? part.toUpperCase() : part) : undefined;
    if (!ch) {
      throw new ActionError('bad_request', `unknown key "${part}"`,
        'use a character, or Enter, Tab, Escape, Backspace, Delete, Space, Arrow keys, Home, End, PageUp, PageDown, F1-F12');
    }
    if (ch.shift && !shift) {
      modifiers |= MODIFIER_BITS.Shift;
      held.push(NAMED.Shift);
    }
    key = ch.def;
  });
  return { modifiers, held, key: /** @type {KeyDef} */ (key) };
}

/**
 * The Input.dispatchKeyEvent parameters that press and release chord.
 * Modifier chords send no text: ctrl+a selects, it does not type "a".
 * @param {Chord} chord
 * @returns {object[]}
 */
export function chordEvents({ modifiers, held, key }) {
  const events = [];
  let down = 0;
  for (const h of held) {
    down |= MODIFIER_BITS[/** @type {keyof typeof MODIFIER_BITS} */ (h.key)] ?? 0;
    events.push(keyEvent('rawKeyDown', h, down));
  }
  const types = modifiers & ~MODIFIER_BITS.Shift ? undefined : key.text;
  events.push(keyEvent(types ? 'keyDown' : 'rawKeyDown', key, modifiers, types));
  events.push(keyEvent('keyUp', key, modifiers));
  for (const h of [...held].reverse()) {
    down &= ~(MODIFIER_BITS[/** @type {keyof typeof MODIFIER_BITS} */ (h.key)] ?? 0);
    events.push(keyEvent('keyUp', h, down));
  }
  return events;
}

/**
 * @param {string} type
 * @param {KeyDef} def
 * @param {number} modifiers
 * @param {string} [text]
 */
function keyEvent(type, def, modifiers, text) {
  /** @type {Record<string, unknown>} */
  const e = {
    type, key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode,
    nativeVirtualKeyCode: def.keyCode, modifiers,
  };
  if (def.location) e.location = def.location;
  if (text) {
    e.text = text;
    e.unmodifiedText = text;
  }
  return e;
}
