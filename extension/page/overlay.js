// @ts-check
// The feedback overlay: what a tab shows while an agent waits for the
// person's answer to a question (browser_request_feedback, docs/human.md).
// sw/feedback.js injects it into the tab's top frame (isolated world),
// after the page script, whose page/feedback.js picks the elements, then
// calls __openchromeFeedback.show(question) or .remove().
//
// A hostile page must neither answer nor dismiss it, nor read it: it lives
// in a closed shadow root under an <openchrome-banner> element (the page
// script skips that element, as it does the handoff banner), its styles are
// !important inside the root, its text is set through textContent (the
// prompt comes from an agent), and it acts only on trusted events, which a
// page's script cannot make. A page can still cover it; the side panel,
// which lists every question, is the place the page cannot reach.
//
// The person's marks stay here, as elements; the worker asks the page
// script for their refs once the answer is in (feedbackMarks).
//
// A classic script, not a module, for the reasons page/namespace.js gives.

(() => {
  const VERSION = 2;
  const g = /** @type {any} */ (globalThis);
  if (g.__openchromeFeedback?.version === VERSION) return;
  /** The overlay's element and its keeping (page/shell.js, injected just before). */
  const { make, pin, el } = g.__openchromeShell;
  g.__openchromeFeedback?.remove?.(); // an older overlay, from before an update

  /**
   * @typedef {{ id: string, mode: string, prompt: string,
   *   options: Array<{ label: string, value: string }>,
   *   deadline: number }} Question
   * @typedef {{ x: number, y: number }} Point
   */

  // A copy of MODE_HINTS in lib/feedback.js; lib/panel.test.js checks
  // that the two agree.
  const MODE_HINTS = {
    confirm: 'Confirm, or skip.',
    choose: 'Choose one, or skip.',
    point: 'Click the spot on the page.',
    element: 'Click the element on the page.',
    region: 'Drag a box around the part of the page.',
    comment: 'Click the spot, then write your note.',
  };
  const MARKING = new Set(['point', 'element', 'region', 'comment']);
  const MIN_REGION = 4;

  const CSS = `
    :host { inset: 0 !important; }
    .catcher {
      position: fixed; inset: 0; pointer-events: auto; cursor: crosshair;
      background: rgba(26, 115, 232, .04);
      outline: 3px solid #1a73e8; outline-offset: -3px;
    }
    .card {
      position: fixed; left: 50%; top: 12px; transform: translateX(-50%);
      width: min(520px, calc(100vw - 24px)); pointer-events: auto;
      font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
      color: #202124; background: #fff; border: 2px solid #1a73e8; border-radius: 8px;
      box-shadow: 0 4px 16px rgba(0, 0, 0, .3); padding: 10px 12px;
    }
    .card.low { top: auto; bottom: 12px; }
    .head { display: flex; align-items: center; gap: 8px; }
    .brand { font-weight: 700; color: #1a73e8; }
    .asks { color: #5f6368; flex: 1; }
    .time { font-variant-numeric: tabular-nums; color: #5f6368; }
    .time.up { color: #d93025; font-weight: 600; }
    .prompt { margin: 6px 0; max-height: 8.4em; overflow: auto; overflow-wrap: anywhere; font-weight: 600; }
    .hint { color: #5f6368; margin: 0 0 6px; }
    .actions { display: flex; flex-wrap: wrap; gap: 6px; }
    .note { display: flex; flex-direction: column; gap: 6px; margin-top: 6px; }
    textarea { font: inherit; min-height: 4em; padding: 4px; border: 1px solid #dadce0; border-radius: 4px; resize: vertical; }
    button {
      font: inherit; cursor: pointer; border-radius: 4px; padding: 4px 12px;
      border: 1px solid #dadce0; background: #fff; color: #202124;
    }
    button.primary { background: #1a73e8; border-color: #1a73e8; color: #fff; }
    button.small { padding: 2px 8px; }
    button:disabled { opacity: .5; cursor: default; }
    .error { color: #d93025; margin: 6px 0 0; }
    .box { position: fixed; pointer-events: none; border: 2px solid #1a73e8; background: rgba(26, 115, 232, .15); }
    .pin {
      position: fixed; pointer-events: none; width: 14px; height: 14px; margin: -7px 0 0 -7px;
      border-radius: 50%; background: #d93025; border: 2px solid #fff; box-shadow: 0 0 0 1px #d93025;
    }
    [hidden] { display: none !important; }
  `;

  /** @type {HTMLElement | undefined} the <openchrome-banner> host */
  let host;
  /** @type {Record<string, HTMLElement>} */
  let ui = {};
  /** @type {Question | undefined} what is shown */
  let current;
  /** The elements each request's marks are, until the worker has read them. @type {Map<string, Element[]>} */
  const kept = new Map();
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let ticker;
  /** @type {(() => void) | undefined} unpins the overlay (page/shell.js) */
  let unpin;
  /** Where a region's drag began. @type {Point | undefined} */
  let dragFrom;
  /** The spot a note is about. @type {Point | undefined} */
  let spot;
  /** Whether an answer is on its way. */
  let sending = false;

  /**
   * Shows question q. The same question again changes nothing (the worker
   * asks again after it restarted); another one replaces it.
   * @param {Question} q
   */
  function show(q) {
    if (current?.id === q.id && host?.isConnected) return;
    if (current) remove();
    current = {
      id: String(q.id), mode: String(q.mode), prompt: String(q.prompt), deadline: Number(q.deadline),
      options: Array.isArray(q.options) ? q.options.map((o) => ({ label: String(o.label), value: String(o.value) })) : [],
    };
    build(current);
    if (host) unpin = pin(host);
    tick();
    ticker = setInterval(tick, 1000);
    addEventListener('keydown', onKey, true);
  }

  /**
   * Takes the overlay down; reports whether one was shown. The marks stay
   * until the worker has read them (marks).
   * @returns {boolean}
   */
  function remove() {
    const had = !!host?.isConnected;
    current = undefined;
    unpin?.();
    unpin = undefined;
    clearInterval(ticker);
    ticker = undefined;
    removeEventListener('keydown', onKey, true);
    host?.remove();
    host = undefined;
    ui = {};
    dragFrom = spot = undefined;
    sending = false;
    return had;
  }

  /**
   * The elements the person marked for request id, and forgets them.
   * @param {string} id
   * @returns {Element[] | undefined}
   */
  function marks(id) {
    const out = kept.get(id);
    kept.delete(id);
    return out;
  }

  /** @param {Question} q */
  function build(q) {
    const { host: made, root } = make(CSS);
    host = made;
    /** @param {string} text @param {string} cls @param {(e: Event) => void} on */
    const button = (text, cls, on) => {
      const b = /** @type {HTMLButtonElement} */ (el('button', cls, text));
      b.type = 'button';
      b.addEventListener('click', (e) => {
        if (e.isTrusted) on(e);
      });
      return b;
    };

    const marking = MARKING.has(q.mode);
    ui = {
      catcher: el('div', 'catcher'),
      box: el('div', 'box'),
      pin: el('div', 'pin'),
      card: el('div', 'card'),
      time: el('span', 'time'),
      error: el('p', 'error'),
    };
    ui.box.hidden = true;
    ui.pin.hidden = true;
    ui.error.hidden = true;
    ui.catcher.hidden = !marking;
    ui.card.setAttribute('role', 'dialog');
    ui.card.setAttribute('aria-label', 'OpenChrome: the agent asks');

    const head = el('div', 'head');
    head.append(el('span', 'brand', 'OpenChrome'), el('span', 'asks', 'The agent asks'), ui.time,
      button('⇅', 'small', () => ui.card.classList.toggle('low')));
    const move = /** @type {HTMLElement} */ (head.lastChild);
    move.title = 'Move this box';
    move.setAttribute('aria-label', 'Move this box');
    const actions = el('div', 'actions');
    if (q.mode === 'confirm') actions.append(button('Confirm', 'primary', () => send({ kind: 'confirm' })));
    if (q.mode === 'choose') {
      for (const o of q.options) actions.append(button(o.label, '', () => send({ kind: 'choice', value: o.value })));
    }
    actions.append(button('Skip', '', () => send({ dismissed: true })));
    ui.actions = actions;
    ui.card.append(head, el('p', 'prompt', q.prompt), el('p', 'hint', MODE_HINTS[/** @type {keyof typeof MODE_HINTS} */ (q.mode)] ?? ''), actions);

    if (q.mode === 'comment') {
      ui.note = el('div', 'note');
      ui.text = el('textarea', '');
      ui.text.setAttribute('aria-label', 'Your note');
      ui.note.append(ui.text, button('Send', 'primary', sendNote));
      ui.note.hidden = true;
      ui.card.append(ui.note);
    }
    ui.card.append(ui.error);
    root.append(ui.catcher, ui.box, ui.pin, ui.card);

    ui.catcher.addEventListener('mousemove', onMove);
    ui.catcher.addEventListener('mousedown', onDown);
    ui.catcher.addEventListener('mouseup', onUp);
    ui.catcher.addEventListener('click', onClick);
  }

  /** The page script's part: it picks elements as read_page sees them. */
  function pageScript() {
    return /** @type {PageNamespace | undefined} */ (g.__openchrome)?.feedback;
  }

  /** @param {MouseEvent} e */
  function onMove(e) {
    if (!e.isTrusted || !current || sending) return;
    if (current.mode === 'element') {
      const el = pageScript()?.pick(e.clientX, e.clientY);
      frame(el ? el.getBoundingClientRect() : undefined);
    } else if (current.mode === 'region' && dragFrom) {
      frame(rectOf(dragFrom, { x: e.clientX, y: e.clientY }));
    }
  }

  /** @param {MouseEvent} e */
  function onDown(e) {
    if (!e.isTrusted || current?.mode !== 'region' || sending || e.button !== 0) return;
    e.preventDefault();
    dragFrom = { x: e.clientX, y: e.clientY };
    frame(undefined);
  }

  /** @param {MouseEvent} e */
  function onUp(e) {
    if (!e.isTrusted || current?.mode !== 'region' || !dragFrom || sending) return;
    const r = rectOf(dragFrom, { x: e.clientX, y: e.clientY });
    dragFrom = undefined;
    if (r.width < MIN_REGION || r.height < MIN_REGION) {
      frame(undefined);
      return;
    }
    frame(r);
    keepMarks(pageScript()?.inside(r) ?? []);
    send({ kind: 'region', rect: r });
  }

  /** @param {MouseEvent} e */
  function onClick(e) {
    if (!e.isTrusted || !current || sending) return;
    const at = { x: e.clientX, y: e.clientY };
    const el = pageScript()?.pick(at.x, at.y);
    if (current.mode === 'point' || current.mode === 'element') {
      keepMarks(el ? [el] : []);
      send({ kind: current.mode, ...at });
    } else if (current.mode === 'comment') {
      spot = at;
      keepMarks(el ? [el] : []);
      ui.pin.style.left = `${at.x}px`;
      ui.pin.style.top = `${at.y}px`;
      ui.pin.hidden = false;
      ui.note.hidden = false;
      /** @type {HTMLTextAreaElement} */ (ui.text).focus();
    }
  }

  function sendNote() {
    const text = /** @type {HTMLTextAreaElement} */ (ui.text).value.trim();
    if (!spot || !text) {
      fail(spot ? 'Write your note first.' : 'Click the spot on the page first.');
      return;
    }
    send({ kind: 'comment', text, ...spot });
  }

  /** Escape dismisses the question, in every mode. @param {KeyboardEvent} e */
  function onKey(e) {
    if (!e.isTrusted || e.key !== 'Escape' || !current || sending) return;
    e.preventDefault();
    e.stopPropagation();
    send({ dismissed: true });
  }

  /** @param {Element[]} els */
  function keepMarks(els) {
    if (current) kept.set(current.id, els);
  }

  /**
   * Sends the answer to the worker, which checks that this tab's question
   * is the one named; it takes the overlay down once the answer counts.
   * @param {Record<string, unknown>} answer
   */
  async function send(answer) {
    if (!current || sending) return;
    const id = current.id;
    setSending(true);
    let reply;
    try {
      reply = await chrome.runtime.sendMessage({ type: 'feedback', requestId: id, answer });
    } catch (err) {
      // "Extension context invalidated": OpenChrome was updated or removed.
      reply = { ok: false, error: `OpenChrome cannot be reached (${err instanceof Error ? err.message : String(err)})` };
    }
    if (current?.id !== id) return;
    if (reply?.ok) {
      remove();
      return;
    }
    setSending(false);
    fail(String(reply?.error ?? 'OpenChrome did not answer'));
  }

  /** @param {boolean} on */
  function setSending(on) {
    sending = on;
    for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (ui.card?.querySelectorAll('button') ?? [])) b.disabled = on;
    if (on) ui.error.hidden = true;
  }

  /** @param {string} message */
  function fail(message) {
    ui.error.textContent = message;
    ui.error.hidden = false;
  }

  /** @param {{ x: number, y: number, width: number, height: number } | undefined} r */
  function frame(r) {
    if (!ui.box) return;
    ui.box.hidden = !r;
    if (!r) return;
    Object.assign(ui.box.style, { left: `${r.x}px`, top: `${r.y}px`, width: `${r.width}px`, height: `${r.height}px` });
  }

  /** @param {Point} a @param {Point} b */
  function rectOf(a, b) {
    return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y) };
  }

  function tick() {
    if (!current || !ui.time) return;
    const left = Math.ceil((current.deadline - Date.now()) / 1000);
    ui.time.textContent = left <= 0 ? 'time is up' : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
    ui.time.classList.toggle('up', left <= 0);
  }


  g.__openchromeFeedback = { version: VERSION, show, remove, marks };
})();
