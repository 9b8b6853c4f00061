// @ts-check
// watch and changes: what an action did to the page (elements added and
// removed, text and attributes, a trusted click on the element, dialogs);
// check: whether a wait_for condition holds now.

(() => {
  const oc = /** @type {PageNamespace} */ (globalThis.__openchrome);
  if (oc.watch) return; // injected again: the first copy stays
  const { PageError } = oc;
  const { element, lookup, advance, handed } = oc.refs;
  const { isInput, isSelect, inBanner, visible, clippedAway, isDisabled, secretOf, valueOf, roleOf, nameOf, describe, textOf, words, isInvalid, shadowOf, shadowRootsIn, composedContains, INTERACTIVE, BLOCK, APART } = oc.roles;
  const { deepActive, offers } = oc.dom;
  const { states } = oc.tree;

  /** @type {Map<number, Watch>} */
  const watches = new Map();
  let watchSeq = 0;
  /** The watch changes stopped last, for shownControls to ask after. @type {{ id: number, w: Watch } | undefined} */
  let ended;

  // What the page changes on its own, heard from the page script's first
  // read of it: when it last changed, and the elements that change again
  // and again while no action is watched (a clock, a carousel: tickers).
  // A watch leaves out a ticker's words and attributes changing, which are
  // not the action's doing (elements it gains or loses still count: a
  // chat's new message), and says how long the page had been still, but
  // for its tickers, when it began: a page still for seconds that changes
  // after an input with no request between ("Paid" drawn by a timer the
  // click set) changed because of it. Our own banner is not the page.

  /** How long an element's own changes are remembered. */
  const TICKER_MS = 5000;
  /** Changes of one element closer than this to the first are one. */
  const BURST_MS = 150;
  /** How many elements are remembered before the old are forgotten. */
  const CHANGED_MAX = 500;
  /** Longer than any action watches the page. */
  const WATCH_MS = 60_000;
  /** The most a watch says the page has been still: longer than any caller asks. */
  const STILL_CAP_MS = 60_000;
  /** @type {Map<Element, { start: number, last: number, bursts: number }>} */
  const changed = new Map();
  /**
   * When a script last set an element's style or class, unwatched: one
   * that slides a button along frame by frame runs no animation of the
   * document's for getAnimations to show.
   * @type {WeakMap<Element, number>}
   */
  const restyledAt = new WeakMap();
  /**
   * When the page last changed on its own, as far as this script has seen.
   * A page loaded before it came is taken as still since then: what it did
   * as it loaded is no timer of its own, and an agent that navigates and
   * clicks Save at once would otherwise not hear the "Saved" drawn a beat
   * later. One still loading is changing now.
   */
  let stirredAt = document.readyState === 'complete' ? -STILL_CAP_MS : performance.now();
  if (document.readyState !== 'complete') {
    // What it changed as it loaded is forgotten once it has: the page script
    // may come to a page still loading (a frame's, a slow image's).
    document.defaultView?.addEventListener('load', () => { stirredAt = -STILL_CAP_MS; }, { once: true });
  }

  /** @param {MutationRecord} r */
  const ours = (r) => (r.type === 'childList' ? [...r.addedNodes, ...r.removedNodes] : [r.target])
    .every((n) => n.nodeName === 'OPENCHROME-BANNER');

  /** The element a record changed. @param {MutationRecord} r */
  const changedEl = (r) => (r.target.nodeType === Node.ELEMENT_NODE ? /** @type {Element} */ (r.target) : r.target.parentElement);

  /**
   * Whether a record is a ticker's words or attributes changing.
   * @param {MutationRecord} r
   * @param {Set<Element>} tickers
   */
  function ticks(r, tickers) {
    const el = changedEl(r);
    if (!el || !tickers.has(el)) return false;
    return r.type !== 'childList' || [...r.addedNodes, ...r.removedNodes].every((n) => n.nodeType === Node.TEXT_NODE);
  }

  /** The elements that changed on their own in two bursts or more of late. */
  function tickers(now = performance.now()) {
    /** @type {Set<Element>} */
    const out = new Set();
    for (const [el, c] of changed) if (c.bursts >= 2 && now - c.last <= TICKER_MS) out.add(el);
    return out;
  }

  new MutationObserver((records) => {
    const now = performance.now();
    const mine = records.filter((r) => !ours(r));
    // What changes while an action is watched is the action's (a count a
    // click raises each time is no ticker), and leaves the page still: an
    // agent that fills a field and clicks Create at once has not seen the
    // page change on its own. A watch no one stopped (its worker went)
    // stops counting after a while.
    if ([...watches.values()].some((w) => now - w.at < WATCH_MS)) return;
    for (const r of mine) {
      const el = changedEl(r);
      if (!el) continue;
      if (r.type === 'attributes' && (r.attributeName === 'style' || r.attributeName === 'class')) restyledAt.set(el, now);
      const c = changed.get(el);
      if (!c || now - c.last > TICKER_MS) {
        changed.delete(el);
        changed.set(el, { start: now, last: now, bursts: 1 });
      } else {
        if (now - c.start >= BURST_MS) Object.assign(c, { start: now, bursts: c.bursts + 1 });
        c.last = now;
      }
    }
    if (changed.size > CHANGED_MAX) {
      for (const [el, c] of changed) if (now - c.last > TICKER_MS || changed.size > CHANGED_MAX) changed.delete(el);
    }
    const known = tickers(now);
    if (mine.some((r) => !ticks(r, known))) stirredAt = now;
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });

  /**
   * What a text field or editor holds, for a watch to see change;
   * undefined for anything else, and for a secret field.
   * @param {Element | null | undefined} el
   * @returns {string | undefined}
   */
  function fieldValue(el) {
    if (!el || secretOf(el)) return undefined;
    const role = roleOf(el);
    return role === 'textbox' || role === 'searchbox' || (role === 'combobox' && !isSelect(el)) ? valueOf(el, role) ?? '' : undefined;
  }

  /**
   * The one text field e is or holds, if it holds one.
   * @param {Element} e
   */
  function fieldIn(e) {
    if (fieldValue(e) !== undefined) return e;
    const inner = [...e.querySelectorAll('input, textarea, [contenteditable=""], [contenteditable="true"]')].filter((f) => fieldValue(f) !== undefined);
    return inner.length === 1 ? inner[0] : undefined;
  }

  /**
   * The values of doc's text fields but el, the first FIELDS_MAX: what an
   * action may set in others is looked for among them.
   * @param {Document} doc
   * @param {Element | null} el
   * @returns {Map<Element, string | undefined>}
   */
  function fieldValues(doc, el) {
    /** @type {Map<Element, string | undefined>} */
    const out = new Map();
    for (const f of doc.querySelectorAll('input, textarea')) {
      if (out.size >= FIELDS_MAX) break;
      if (f === el) continue;
      const v = fieldValue(f);
      if (v !== undefined) out.set(f, v);
    }
    return out;
  }

  /** How many of a document's fields a watch keeps the values of. */
  const FIELDS_MAX = 200;

  /**
   * What a field the page wrote holds now: textbox "Check-in" now holds
   * "2026-12-08".
   * @param {Element} field
   */
  function fieldNow(field) {
    const value = fieldValue(field);
    return value ? `${describe(field)} now holds ${JSON.stringify(words(value, QUOTED_MAX))}` : `${describe(field)} was emptied`;
  }

  /**
   * A field as a change names it: textbox "Title" holding "Buy milk", focused.
   * @param {Element} field
   */
  function fieldSaid(field) {
    const value = fieldValue(field);
    return `${describe(field)}${value ? ` holding ${JSON.stringify(words(value, QUOTED_MAX))}` : ''}${deepActive() === field ? ', focused' : ''}`;
  }

  /**
   * Whether a node is the document's title or inside it.
   * @param {Node} n
   */
  function inTitle(n) {
    const at = n.nodeType === Node.ELEMENT_NODE ? /** @type {Element} */ (n) : n.parentElement;
    return at?.localName === 'title' && at.parentElement === at.ownerDocument.head;
  }

  class Watch {
    /**
     * @param {Element | null} el
     * @param {boolean} ownMoves whether the element's own moves are waited for
     * @param {boolean} [keys] el is where keys go (it has the focus), not
     *   one the agent named: its value, states and active option are said,
     *   not that it went
     */
    constructor(el, ownMoves, keys = false) {
      this.el = el;
      this.ownMoves = ownMoves;
      this.keys = keys;
      this.trustedClicks = 0;
      this.clicks = 0;
      this.added = 0;
      this.removed = 0;
      this.attrs = 0;
      this.ownAttrs = 0;
      this.texts = 0;
      // Text changes inside the element itself: its words, said whole.
      this.ownTexts = 0;
      /** The elements whose own text changed, to quote when few. @type {Set<Element>} */
      this.textEls = new Set();
      this.name = ownWords(el);
      // An item of a menu or list: picking it closes its list, which is
      // the pick's own doing, not news.
      this.item = !!el && ITEMS.has(roleOf(el));
      // The dialogs a person sees now: one that shows later opened, as the
      // action's doing, whether it was added, unhidden or shown modal.
      // Named now: a dialog that closes has no words a person sees.
      // The element's own document (a same-origin frame's, for its
      // elements), and the shadow roots in it: a web component's toast or
      // dialog changes there, where an observer of the document sees
      // nothing. One that comes during the watch is added as it comes.
      this.doc = el?.ownerDocument ?? document;
      // A same-origin frame's element: the frame, named now, may be taken
      // out by the action (a consent banner's Accept removes its frame).
      this.frameEl = this.doc !== document ? this.doc.defaultView?.frameElement ?? null : null;
      this.frame = this.frameEl ? describe(this.frameEl) : '';
      /** What changes on its own: its words and attributes changing are not said. */
      this.tickers = tickers();
      this.at = performance.now();
      /** @type {Set<Document | ShadowRoot>} */
      this.roots = new Set([this.doc, ...shadowRootsIn(this.doc)]);
      this.dialogsShown = new Map(shownDialogs(this.roots).map((d) => [d, describe(d)]));
      /**
       * The regions that speak to a person (an alert, a status line, a
       * live region, a tooltip) that changed or appeared, in order.
       * @type {Set<Element>}
       */
      this.spoke = new Set();
      /** The first elements added, to quote or to weigh against those removed. @type {Element[]} */
      this.addedEls = [];
      /** The outermost elements the last report saw show. @type {Element[]} */
      this.appeared = [];
      /**
       * The first elements removed, with their words as they went (a row
       * deleted, a toast dismissed), likewise.
       * @type {Array<{ el: Element, text: string }>}
       */
      this.removedEls = [];
      /** Every element removed, to know one put back. @type {WeakSet<Node>} */
      this.taken = new WeakSet();
      /**
       * The elements removed and not put back since: Chrome may record the
       * removal of one twice, when the page's handler of the blur a
       * removal fires draws the list anew inside it.
       * @type {WeakSet<Node>}
       */
      this.out = new WeakSet();
      /**
       * How many times an element taken out was put back: moved (a row of
       * a table sorted anew); and which ones were, to say each once (a row
       * a sortable list moves along under the pointer is put back at each
       * step).
       */
      this.moved = 0;
      /** @type {Set<Element>} */
      this.movedEls = new Set();
      // The states of the element itself a person sees change (a switch
      // turned on, a section expanded), as the tree shows them.
      this.was = stateOf(el);
      // Where a control is and what it is among: a page that draws itself
      // anew (a list rendered again) puts another in its place, whose
      // states are what the action changed.
      this.role = el ? roleOf(el) : '';
      this.spot = el && INTERACTIVE.has(this.role) ? spotOf(el) : undefined;
      this.context = this.spot && el ? contextOf(el) : '';
      /** The control the last report found drawn in its place. @type {Element | undefined} */
      this.successor = undefined;
      // A field's value, which a key may change (Enter that adds a tag and
      // empties the box): never a secret's.
      this.valueWas = fieldValue(el);
      // The other fields' values, which the page may set as the action's
      // answer (a date picker's day writes its field, a title its slug).
      this.fieldsWas = fieldValues(this.doc, el);
      // Whether it took clicks before: one that stops, or says it is at
      // work, is busy with what the input started.
      this.disabledWas = !!el && isDisabled(el);
      // The option a key moves to in a list that keeps the focus
      // (aria-activedescendant): a person sees the highlight move.
      this.activeWas = activeOf(el);
      this.url = location.href;
      this.title = document.title;
      /** When it began, on the document's timeline: the animations it sees start. */
      this.began = Number((el?.ownerDocument ?? document).timeline?.currentTime ?? 0);
      // A menu that opens on :hover or :focus-within changes no DOM: what
      // shows and hides near the element is looked at instead.
      this.near = nearby(el);
      this.wasShown = seen(this.near);
      this.onClick = (/** @type {Event} */ e) => {
        this.clicks++;
        if (e.isTrusted) this.trustedClicks++;
      };
      if (el) el.addEventListener('click', this.onClick, { capture: true });
      // The browser's own validation stopping a submit fires invalid at the
      // first control it complains of; a person sees why in a bubble the
      // DOM does not hold.
      /** @type {{ control: string, message: string } | undefined} */
      this.invalid = undefined;
      this.onInvalid = (/** @type {Event} */ e) => {
        const c = /** @type {HTMLInputElement} */ (e.target);
        if (!this.invalid && c instanceof Element) this.invalid = { control: describe(c), message: c.validationMessage };
      };
      this.doc.addEventListener('invalid', this.onInvalid, { capture: true });
      // A document the action sets leaving (a form it submits, a location
      // it sets) knows at once; the browser tells the worker a moment later,
      // by which time the page may have changed in other ways.
      /** @type {string | undefined} */
      this.leaving = undefined;
      this.nav = /** @type {EventTarget | undefined} */ (this.doc.defaultView?.['navigation']);
      this.onNavigate = (/** @type {any} */ e) => {
        // Not a jump or a pushState (same document), nor a download.
        // Nor one the browser hands to another program (mailto:, tel:).
        if (e.destination?.sameDocument === false && !e.downloadRequest && !e.defaultPrevented &&
          /^(https?|file|blob):/.test(e.destination.url)) this.leaving ??= e.destination.url;
      };
      this.nav?.addEventListener('navigate', this.onNavigate);
      /**
       * The controls the page marked invalid (aria-invalid), as a script
       * checks a form itself: each is said with the words that say why.
       * @type {Set<Element>}
       */
      this.markedInvalid = new Set();
      this.observer = new MutationObserver((records) => this.count(records));
      for (const root of this.roots) this.observe(root);
    }

    /** @param {Document | ShadowRoot} root */
    observe(root) {
      this.roots.add(root);
      this.observer.observe(root, {
        subtree: true, childList: true, characterData: true, attributes: true, attributeOldValue: true,
        attributeFilter: ['open', 'aria-expanded', 'aria-hidden', 'hidden', 'class', 'style', 'disabled', 'aria-checked',
          'aria-selected', 'aria-pressed', 'aria-valuenow', 'aria-valuetext', 'aria-disabled', 'aria-current', 'aria-invalid',
          'aria-sort'],
      });
    }

    /** @param {MutationRecord[]} records */
    count(records) {
      // What is typed into an editor is its value, not a change of the page.
      const editor = /** @type {HTMLElement | null} */ (this.el)?.isContentEditable ? this.el : null;
      for (const r of records) {
        if (editor?.contains(r.target) || ticks(r, this.tickers)) continue;
        // A new title is said apart ("title changed"), not as text of the page.
        if (inTitle(r.target)) continue;
        if (r.type === 'attributes') {
          this.attrs++;
          if (r.target === this.el) this.ownAttrs++;
          if (r.attributeName === 'aria-invalid' && !isInvalid(r.oldValue) && this.markedInvalid.size < INVALID_MAX) {
            this.markedInvalid.add(/** @type {Element} */ (r.target));
          }
          continue;
        }
        this.heard(r);
        const own = !!this.el?.contains(r.target);
        if (r.type === 'characterData') {
          this.texts++;
          if (own) this.ownTexts++;
          this.textIn(r.target.parentElement);
          continue;
        }
        for (const n of r.addedNodes) {
          if (inTitle(n)) continue;
          if (n.nodeType === Node.TEXT_NODE) {
            this.texts++;
            if (own) this.ownTexts++;
            this.textIn(/** @type {Element} */ (r.target));
            continue;
          }
          if (n.nodeType !== Node.ELEMENT_NODE) continue;
          this.added++;
          this.out.delete(n);
          const d = /** @type {Element} */ (n);
          if (this.taken.has(n)) {
            this.moved++;
            this.movedEls.add(d);
          }
          // A component added with its shadow root: what it does next is
          // in there.
          for (const root of shadowRootsIn(d)) this.observe(root);
          if (this.addedEls.length < REDRAWN_MAX) this.addedEls.push(d);
        }
        for (const n of r.removedNodes) {
          if (n.nodeType === Node.ELEMENT_NODE) {
            if (this.out.has(n)) continue;
            this.out.add(n);
            this.removed++;
            this.taken.add(n);
            const d = /** @type {Element} */ (n);
            if (this.removedEls.length < REDRAWN_MAX && !inBanner(d)) this.removedEls.push({ el: d, text: textKey(d) });
          } else if (n.nodeType === Node.TEXT_NODE) {
            this.texts++;
            if (own) this.ownTexts++;
          }
        }
      }
    }

    /**
     * Keeps an element whose words changed (a "Checked" written into a
     * paragraph), the first few.
     * @param {Element | null} at
     */
    textIn(at) {
      if (at && this.textEls.size <= QUOTED) this.textEls.add(at);
    }

    /**
     * Keeps the region a change of text or children speaks through: the
     * live region around it, or one it added.
     * @param {MutationRecord} r
     */
    heard(r) {
      const at = r.target.nodeType === Node.ELEMENT_NODE ? /** @type {Element} */ (r.target) : r.target.parentElement;
      const around = at?.closest(SPEAKS);
      if (around && !inBanner(around)) this.spoke.add(around);
      for (const n of r.addedNodes) {
        if (n.nodeType !== Node.ELEMENT_NODE) continue;
        const d = /** @type {Element} */ (n);
        const inner = d.matches(SPEAKS) ? d : d.querySelector(SPEAKS) ?? shadowRootsIn(d).map((r) => r.querySelector(SPEAKS)).find(Boolean);
        if (inner && !inBanner(inner)) this.spoke.add(inner);
      }
    }

    /**
     * Whether el was added to speak: a region that spoke, or one around
     * such a region that holds no other words.
     * @param {Element} el
     */
    saying(el) {
      for (const s of this.spoke) if (s === el || (el.contains(s) && textKey(el) === textKey(s))) return true;
      return false;
    }

    /** What the regions that spoke say now, shown ones, at most SAID. */
    said() {
      /** @type {string[]} */
      const out = [];
      for (const e of this.spoke) {
        if (out.length === SAID || !e.isConnected || !visible(e)) continue;
        const text = words(textOf(e, true), SAID_MAX);
        if (text) out.push(`${roleOf(e) || 'status'} "${text}"`);
      }
      return out;
    }

    /**
     * The words of the elements added or shown, when they are few enough
     * to quote (an error under a field, a line in a cart), or all of one
     * new list: shown ones, not those a region or a dialog that opened
     * already said.
     * @param {number} count how many there were
     * @param {Element[]} els them, or the first of them
     * @param {string[]} said
     * @param {Element[]} told the regions that spoke and the dialogs that opened
     */
    quoted(count, els, said, told) {
      if (count > QUOTED) return this.quotedTogether(count, els, said, told);
      /** @type {string[]} */
      const out = [];
      for (const e of els.slice(0, QUOTED)) {
        if (!e.isConnected || inBanner(e) || !visible(e) || told.some((s) => s.contains(e) || e.contains(s))) continue;
        const text = words(textOf(e, true), QUOTED_MAX);
        if (text && !said.some((s) => s.includes(text))) out.push(JSON.stringify(text));
        // A field has no words of its own: an editor that opened in place
        // is said by what it is and holds.
        else if (!text) {
          const field = fieldIn(e);
          if (field) out.push(fieldSaid(field));
        }
      }
      return out;
    }

    /**
     * Many elements that are all of one new list (search results drawn in
     * an empty list), quoted as that list's words: `"Apple Apricot Grape"`.
     * @param {number} count
     * @param {Element[]} els
     * @param {string[]} said
     * @param {Element[]} told
     * @returns {string[]}
     */
    quotedTogether(count, els, said, told) {
      const list = els[0]?.parentElement;
      if (!list || els.length !== count || count > REDRAWN_MAX || els.some((e) => e.parentElement !== list) ||
        [...list.children].some((c) => !els.includes(c))) return [];
      return this.quoted(1, [list], said, told);
    }

    report() {
      // Its frame gone, the document lays nothing out: every element in it
      // would count as hidden.
      if (this.frameEl && (!this.frameEl.isConnected || !this.doc.defaultView)) return { frameGone: true, frame: this.frame };
      this.count(this.observer.takeRecords());
      const el = this.el;
      const alive = !!el?.isConnected;
      const dialogsNow = shownDialogs(this.roots);
      const opened = dialogsNow.filter((d) => !this.dialogsShown.has(d));
      const closed = [...this.dialogsShown.keys()].filter((d) => !dialogsNow.includes(d));
      // What showed or hid with a dialog that opened or closed is that
      // dialog's doing, said by its name.
      const inDialog = (/** @type {Element} */ e) => [...opened, ...closed].some((d) => composedContains(d, e));
      // An element removed with a dialog in it (a web component's banner)
      // is that dialog closing, said by its name; as a list gone with the
      // item picked from it is said by the pick.
      const goneWith = new Set(this.removedEls.filter((r) => !r.el.isConnected && closed.some((d) => composedContains(r.el, d))).map((r) => r.el));
      // The list a picked item was in, gone or hidden with it, and the
      // popup that held that list and nothing else.
      const list = this.item && el ? el.closest(LISTS) : null;
      const popup = (/** @type {Element} */ e) => !!list && e.contains(list) && textKey(e) === textKey(list);
      const withItem = list && !alive ? this.removedEls.find((r) => !r.el.isConnected && popup(r.el))?.el : undefined;
      if (withItem) goneWith.add(withItem);
      // What hid as a picked item's list closed, or went with it or a dialog.
      const hidWith = (/** @type {Element} */ e) => (!!list && (list.contains(e) || popup(e))) || [...goneWith].some((g) => g.contains(e));
      let shown = 0;
      let hidden = 0;
      /** @type {Element[]} */
      const appeared = [];
      const seenNow = seen(this.near);
      for (const [i, e] of this.near.entries()) {
        const now = e.isConnected && seenNow[i];
        if (now === this.wasShown[i] || inDialog(e) || (!now && hidWith(e))) continue;
        if (now) {
          shown++;
          // The outermost of what showed: an error line, not its words' span.
          if (!appeared.some((a) => a.contains(e))) appeared.push(e);
        } else {
          hidden++;
        }
      }
      const said = this.said();
      const moves = Math.min(this.moved, this.added, this.removed);
      const moved = Math.min(moves, [...this.movedEls].filter((e) => e.isConnected).length);
      const invalidNow = [...this.markedInvalid].filter((c) => c.isConnected && isInvalid(c.getAttribute('aria-invalid')) && visible(c))
        .map((c) => ({ control: describe(c), message: whyInvalid(c) }));
      // The words under a field that say why it is invalid are said with it;
      // what showed to say them is not counted again.
      const whys = invalidNow.map((i) => i.message).filter(Boolean);
      const quotedBefore = [...said, ...whys];
      const saysWhy = (/** @type {Element} */ e) => {
        const text = words(textOf(e, true), QUOTED_MAX);
        return !!text && whys.some((w) => w.includes(text));
      };
      if (appeared.length && appeared.every(saysWhy)) shown = 0;
      this.appeared = appeared;
      // A dialog that opened is named whole: its words are not quoted again.
      const told = [...this.spoke, ...opened];
      // A region added to speak (a toast that says "Saved"), and a dialog
      // added (or the backdrop that holds it), are said by their words and
      // name, not counted again as elements added.
      const speakers = this.addedEls.filter((e) => e.isConnected && !this.taken.has(e) &&
        (this.saying(e) || opened.some((d) => e === d || (e.contains(d) && textKey(e) === textKey(d)))));
      const successor = alive ? undefined : this.successorOf();
      this.successor = successor;
      const present = alive ? el : successor;
      const now = present ? stateOf(present) : undefined;
      // A state that changed says what the element's own attributes did.
      const restated = !!now && JSON.stringify(now) !== JSON.stringify(this.was);
      // Words that changed on the element itself say what its text did.
      const name = present && this.name ? ownWords(present) : '';
      const renamed = name && name !== this.name ? words(name, QUOTED_MAX) : undefined;
      const value = alive ? fieldValue(el) : undefined;
      return {
        shown,
        hidden,
        trustedClicks: this.trustedClicks,
        clicks: this.clicks,
        // An element taken out and put back (a row of a table sorted anew)
        // moved: it was neither added nor removed.
        added: this.added - moves - speakers.length,
        removed: this.removed - moves - goneWith.size,
        moved: moved || undefined,
        attributes: this.attrs - (restated ? this.ownAttrs : 0),
        texts: this.texts - (renamed ? this.ownTexts : 0),
        // Not the element's own, when its words are said whole.
        textText: this.quoted(this.textEls.size,
          [...this.textEls].filter((e) => !(renamed && el?.contains(e))), quotedBefore, told),
        renamed,
        dialogs: opened.map((d) => describe(d)),
        dialogsClosed: closed.map((d) => /** @type {string} */ (this.dialogsShown.get(d))),
        said,
        addedText: this.quoted(this.added - moves - speakers.length, this.addedEls.filter((e) => !this.taken.has(e)), quotedBefore, told),
        // Gone for good (not moved elsewhere, as a sorted row is), and few.
        removedText: this.removed > QUOTED ? [] : this.removedEls
          .filter((r) => r.text && !r.el.isConnected && !goneWith.has(r.el)).map((r) => JSON.stringify(words(r.text, QUOTED_MAX))),
        redrawn: this.redrawn(speakers, goneWith),
        // Drawn anew in its place, and a state it kept: a click the page
        // lost as it drew (a field's blur that rendered the list again).
        anew: successor ? describe(successor) : undefined,
        still: successor && !restated ? now : undefined,
        shownText: this.quoted(appeared.length, appeared, quotedBefore, told),
        // A menu or a list to pick from came up (a context menu, a "⋯"
        // button's): what it offers can be said with refs.
        listShown: [...appeared, ...this.addedEls].some((e) => e.isConnected &&
          (e.matches(LISTS) || !!e.querySelector(LISTS)) && visible(e)) || undefined,
        urlChanged: location.href !== this.url,
        // Only the fragment changed, and not as a route (#/inbox, #!/inbox)
        // is written: a jump to a part of the page, which draws nothing.
        jumped: location.href !== this.url && location.href.split('#')[0] === this.url.split('#')[0]
          && !/^#[!/]/.test(location.hash),
        titleChanged: document.title !== this.title,
        url: location.href,
        title: document.title,
        // At work on what the input started: "Signing in…", or turned
        // off until it is done (a sign-in's redirect comes after).
        busy: alive && !this.keys && ((!this.disabledWas && isDisabled(el)) || !!el.closest('[aria-busy="true"]') ||
          /(?:…|\.\.\.)$/.test(renamed ?? '')) || undefined,
        // Not when what went with it is quoted (the row its Delete was in).
        elementGone: el && !this.keys && !withItem && !successor && !(this.removed <= QUOTED && this.removedEls
          .some((r) => r.text && r.el !== el && !r.el.isConnected && r.el.contains(el))) ? !alive : undefined,
        leaving: this.leaving,
        active: alive && activeOf(el) !== this.activeWas ? describeActive(activeOf(el)) : undefined,
        state: restated ? { was: this.was, now } : undefined,
        // Other fields the page wrote, said with what they hold now.
        fieldsSet: [...this.fieldsWas].filter(([f, v]) => f.isConnected && fieldValue(f) !== v && visible(f))
          .slice(0, QUOTED).map(([f]) => fieldNow(f)),
        // Its value, as a person sees it now, when the action changed it.
        newValue: value !== undefined && this.valueWas !== undefined && value !== this.valueWas
          ? words(value, QUOTED_MAX) : undefined,
        value: alive && el && !secretOf(el) ? valueOf(el, roleOf(el)) : undefined,
        checked: present && isInput(present) && (present.type === 'checkbox' || present.type === 'radio')
          ? present.checked : undefined,
        focused: alive ? deepActive() === el : undefined,
        invalid: this.invalid,
        invalidNow: invalidNow.length ? invalidNow : undefined,
        settling: this.settling(),
      };
    }

    /**
     * The control of the same kind the page drew where the element was,
     * among the same words (the item it belongs to): not one of another
     * row that came up into its place as its own went.
     * @returns {Element | undefined}
     */
    successorOf() {
      const w = this.doc.defaultView;
      if (!this.spot || !this.el || !w) return undefined;
      const hit = this.doc.elementFromPoint(this.spot.x - w.scrollX, this.spot.y - w.scrollY);
      for (let e = hit, up = 0; e && up < SUCCESSOR_UP; e = e.parentElement, up++) {
        const c = e.tagName === 'LABEL' ? /** @type {HTMLLabelElement} */ (e).control ?? e : e;
        if (c !== this.el && c.isConnected && c.tagName === this.el.tagName && roleOf(c) === this.role &&
          contextOf(c) === this.context) return c;
      }
      return undefined;
    }

    /**
     * What a person sees change when the page drew a part of itself anew
     * (a list rendered again after a row was deleted): the words that went
     * and came, weighed against each other, when they are few; undefined
     * when nothing was both added and removed, or too much to weigh, or
     * more changed than a quote says. An element moved (a sorted row) is
     * not drawn anew; one added and removed meanwhile (a spinner) never
     * showed; one added to speak or a dialog (speakers) is said by its
     * words or name, as is one that went with a dialog or a pick (goneWith).
     * @param {Element[]} speakers
     * @param {Set<Element>} goneWith
     * @returns {{ gone: string[], came: string[], reordered: boolean } | undefined}
     */
    redrawn(speakers, goneWith) {
      if (!this.added || !this.removed || this.added > REDRAWN_MAX || this.removed > REDRAWN_MAX) return undefined;
      const removed = new Set(this.removedEls.map((r) => r.el));
      const goneEls = this.removedEls.filter((r) => !r.el.isConnected && !this.addedEls.includes(r.el) && !goneWith.has(r.el));
      const cameEls = this.addedEls.filter((e) => e.isConnected && !removed.has(e) && !inBanner(e) && !speakers.includes(e));
      if (!goneEls.length || !cameEls.length) return undefined;
      let gone = goneEls.map((r) => r.text);
      let came = cameEls.map(textKey);
      const [was] = goneEls;
      const [now] = cameEls;
      const items = was.el.childElementCount + now.childElementCount;
      if (goneEls.length === 1 && cameEls.length === 1 && was.el.tagName === now.tagName && items > 0 &&
        items <= 2 * REDRAWN_MAX && gone[0] !== came[0] && onlyItems(was.el) && onlyItems(now)) {
        // One list put in place of another: weigh their items.
        gone = [...was.el.children].map(textKey);
        came = [...now.children].map(textKey);
      }
      // Each item gone is matched to the first item come of the same words;
      // kept holds where the matched ones came, in the order they had.
      const taken = came.map(() => false);
      /** @type {string[]} */
      const goneOnly = [];
      /** @type {number[]} */
      const kept = [];
      for (const t of gone) {
        const i = came.findIndex((c, j) => !taken[j] && c === t);
        if (i < 0) {
          goneOnly.push(t);
        } else {
          taken[i] = true;
          kept.push(i);
        }
      }
      const cameOnly = came.filter((_, j) => !taken[j]);
      if (goneOnly.length + cameOnly.length > QUOTED) return undefined;
      return {
        gone: goneOnly.filter(Boolean).map((t) => JSON.stringify(words(t, QUOTED_MAX))),
        came: cameOnly.filter(Boolean).map((t) => JSON.stringify(words(t, QUOTED_MAX))),
        reordered: kept.some((j, k) => k > 0 && j < kept[k - 1]),
      };
    }

    /**
     * How long, in ms, until the transitions and animations that began
     * since the watch did, and that show or hide (an accordion sliding
     * open, a menu fading out), end: what shows is said once they have.
     * Not waited for: endless ones (a spinner), colours and shadows, those
     * on the element or in it (its hover shade, a ripple), and an ancestor
     * that only moves (a card lifting on hover); an ancestor that fades or
     * folds (the modal its Close button is in) is, and so is the element
     * moving when ownMoves (what a drag dropped sliding into place).
     */
    settling() {
      let left = 0;
      const el = this.el;
      for (const a of this.doc.getAnimations?.() ?? []) {
        if (a.playState !== 'running' || (a.startTime !== null && Number(a.startTime) < this.began - 1)) continue;
        const on = a.effect instanceof KeyframeEffect ? a.effect.target : null;
        const props = animated(a);
        const moves = props.some((p) => MOVES.has(p));
        if (el && on && (on === el || el.contains(on))) {
          if (!(this.ownMoves && on === el && moves)) continue;
        } else if (!props.some((p) => HIDES.has(p)) && !(moves && !(el && on?.contains(el)))) {
          continue;
        }
        const t = a.effect?.getComputedTiming();
        const end = Number(t?.endTime);
        if (!t || !Number.isFinite(end)) continue;
        left = Math.max(left, (end - Number(t.localTime ?? 0)) / Math.abs(a.playbackRate || 1));
      }
      return Math.round(left) || undefined;
    }

    stop() {
      if (this.el) this.el.removeEventListener('click', this.onClick, { capture: true });
      this.doc.removeEventListener('invalid', this.onInvalid, { capture: true });
      this.nav?.removeEventListener('navigate', this.onNavigate);
      this.observer.disconnect();
    }
  }

  /** What an animation eases that shows or hides what it is on, as the DOM names it. */
  const HIDES = new Set(['opacity', 'visibility', 'display', 'height', 'maxHeight', 'width', 'maxWidth', 'clipPath']);
  /** What it eases that moves it: a drawer sliding out, or a card lifting on hover. */
  const MOVES = new Set(['transform', 'translate', 'scale']);

  /**
   * The properties an animation or transition eases, camelCased.
   * @param {Animation} a
   * @returns {string[]}
   */
  function animated(a) {
    if (a instanceof CSSTransition) return [a.transitionProperty.replace(/-([a-z])/g, (_, c) => c.toUpperCase())];
    const frames = a.effect instanceof KeyframeEffect ? a.effect.getKeyframes() : [];
    return [...new Set(frames.flatMap((f) => Object.keys(f)))];
  }

  /**
   * The words a person reads on el, which acting on it may change (a
   * button's "Copy" that turns "Copied"): its name. '' for a field, whose
   * name is its label and its words its value, and for an editor.
   * @param {Element | null} el
   * @returns {string}
   */
  function ownWords(el) {
    if (!el || isInput(el) || /** @type {HTMLElement} */ (el).isContentEditable) return '';
    return ['TEXTAREA', 'SELECT'].includes(el.tagName) ? '' : nameOf(el, roleOf(el));
  }

  /** How far above what lies at a control's place its successor may be (a label's span, the label). */
  const SUCCESSOR_UP = 3;

  /**
   * The middle of el on its document, scrolled or not.
   * @param {Element} el
   */
  function spotOf(el) {
    const r = el.getBoundingClientRect();
    const w = el.ownerDocument.defaultView;
    return { x: r.x + r.width / 2 + (w?.scrollX ?? 0), y: r.y + r.height / 2 + (w?.scrollY ?? 0) };
  }

  /**
   * The words around el that are not its own: those of the nearest element
   * above it that says more (the item or row it is in).
   * @param {Element} el
   */
  function contextOf(el) {
    const own = textKey(el);
    for (let e = el.parentElement, up = 0; e && up < CONTEXT_UP; e = e.parentElement, up++) {
      const key = textKey(e);
      if (key !== own) return key.replace(own, '').replace(/\s+/g, ' ').trim();
    }
    return '';
  }

  /** How far above a control contextOf looks for words. */
  const CONTEXT_UP = 4;

  /**
   * The states of el that acting on it may change, as the tree writes them.
   * @param {Element | null} el
   * @returns {ElementState | undefined}
   */
  function stateOf(el) {
    if (!el?.isConnected) return undefined;
    /** @type {PageTreeNode} */
    const n = {};
    states(el, roleOf(el), n);
    return { checked: n.checked, expanded: n.expanded, selected: !!n.selected, sort: n.sort };
  }

  /**
   * Whether a person sees each of els: visible, and inside no panel that
   * shows none of what it holds (an accordion collapsed to no height).
   * @param {Element[]} els
   * @returns {boolean[]}
   */
  function seen(els) {
    /** @type {Map<Element, boolean>} */
    const memo = new Map();
    return els.map((e) => visible(e) && !clippedAway(e, memo));
  }

  /**
   * The dialogs in roots a person sees, outermost only.
   * @param {Iterable<Document | ShadowRoot>} roots
   * @returns {Element[]}
   */
  function shownDialogs(roots) {
    const all = [...roots].flatMap((r) => [...r.querySelectorAll('dialog, [role="dialog"], [role="alertdialog"]')])
      .filter((d) => d.isConnected && !inBanner(d) && (d.tagName !== 'DIALOG' || d.hasAttribute('open')) && visible(d));
    return all.filter((d) => !all.some((o) => o !== d && composedContains(o, d)));
  }

  /** What speaks to a person when it changes. */
  const SPEAKS = '[role="alert"], [role="status"], [role="log"], [role="tooltip"], [aria-live="polite"], [aria-live="assertive"], output';
  /** How many of them a report says, and how much of each. */
  const SAID = 3;
  const SAID_MAX = 80;

  /** How many elements added a report quotes, and how much of each. */
  const QUOTED = 2;
  const QUOTED_MAX = 60;

  /** How many elements added and removed are weighed against each other. */
  const REDRAWN_MAX = 50;

  /** How many controls marked invalid a report names. */
  const INVALID_MAX = 5;

  /**
   * The words that say why a control is invalid, as a person reads them
   * under it: its aria-errormessage, else its aria-describedby; '' when
   * neither shows any.
   * @param {Element} c
   */
  function whyInvalid(c) {
    const root = /** @type {Document | ShadowRoot} */ (c.getRootNode());
    for (const attr of ['aria-errormessage', 'aria-describedby']) {
      const text = (c.getAttribute(attr) ?? '').split(/\s+/).filter(Boolean)
        .map((id) => root.getElementById?.(id))
        .filter((e) => e && visible(e)).map((e) => textOf(/** @type {Element} */ (e), true)).join(' ');
      if (text.trim()) return words(text, QUOTED_MAX);
    }
    return '';
  }

  /**
   * The words of an element, white space folded, as elements are weighed
   * by them: enough to tell two rows apart, not a whole page's. A space
   * goes between the words of elements laid out as blocks, which
   * textContent runs together ("AustriaBelgium" for a list's items); the
   * element may be out of the document already, where there is no style
   * to ask, so its tag says which are.
   * @param {Element} el
   */
  function textKey(el) {
    let out = '';
    const walk = (/** @type {Node} */ n) => {
      for (const c of n.childNodes) {
        if (out.length >= TEXT_KEY_MAX) return;
        if (c.nodeType === Node.TEXT_NODE) {
          out += c.nodeValue;
        } else if (c.nodeType === Node.ELEMENT_NODE && !UNSPOKEN.has(/** @type {Element} */ (c).tagName)) {
          const tag = /** @type {Element} */ (c).tagName;
          const block = BLOCK.has(tag) || APART.has(tag);
          if (block) out += ' ';
          walk(c);
          if (block) out += ' ';
        }
      }
    };
    walk(el);
    return out.slice(0, TEXT_KEY_MAX).replace(/\s+/g, ' ').trim();
  }

  /** Elements whose text no one reads. */
  const UNSPOKEN = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT']);

  /** How much of an element's text textKey reads. */
  const TEXT_KEY_MAX = 2000;

  /**
   * Whether all of el's words are in its child elements (a list's are in
   * its items): none in text of its own.
   * @param {Element} el
   */
  function onlyItems(el) {
    for (const n of el.childNodes) if (n.nodeType === Node.TEXT_NODE && n.nodeValue?.trim()) return false;
    return true;
  }

  /** How many elements around a watched element are looked at. */
  const NEARBY = 300;

  /**
   * The elements near el whose showing or hiding a person would notice
   * after acting on it: the descendants of its parent, then of the
   * elements around that, three levels up, at most NEARBY of them.
   * @param {Element | null} el
   * @returns {Element[]}
   */
  function nearby(el) {
    /** @type {Set<Element>} */
    const out = new Set();
    let a = el?.parentElement;
    for (let level = 0; a && level < 3 && out.size < NEARBY; level++, a = a.parentElement) {
      const walk = a.ownerDocument.createTreeWalker(a, NodeFilter.SHOW_ELEMENT);
      for (let n = walk.nextNode(); n && out.size < NEARBY; n = walk.nextNode()) {
        out.add(/** @type {Element} */ (n));
      }
    }
    return [...out];
  }

  /**
   * watch: starts recording what happens to the page, and whether ref's
   * element receives a click, until changes stops it; with keys and no
   * ref, what happens to the element that has the focus too. stillMs: how
   * long the document had not changed, as far as this script has seen.
   * @param {{ ref?: number, ownMoves?: boolean, keys?: boolean }} args
   */
  function watch({ ref, ownMoves = false, keys = false }) {
    const id = ++watchSeq;
    if (ref === undefined && keys) {
      // Keys go where the focus is: that element is watched, as a named one,
      // when it is in this document (a frame's would have its document
      // watched instead of this one).
      const a = deepActive();
      const at = a && a.ownerDocument === document && a !== document.body && a !== document.documentElement ? a : null;
      watches.set(id, new Watch(at, ownMoves, true));
    } else {
      watches.set(id, new Watch(ref === undefined ? null : element(ref), ownMoves));
    }
    return { watch: id, url: location.href, stillMs: Math.round(Math.min(performance.now() - stirredAt, STILL_CAP_MS)) };
  }

  /**
   * The element el's aria-activedescendant names: the option a list that
   * keeps the focus has active.
   * @param {Element | null | undefined} el
   * @returns {Element | null}
   */
  function activeOf(el) {
    const id = el?.getAttribute('aria-activedescendant');
    if (!el || !id) return null;
    const root = /** @type {Document | ShadowRoot} */ (el.getRootNode());
    return typeof root.getElementById === 'function' ? root.getElementById(id) : el.ownerDocument.getElementById(id);
  }

  /**
   * What a person sees of the active option: its role and words; "none"
   * when the list has none active now.
   * @param {Element | null} el
   */
  function describeActive(el) {
    return el ? words(describe(el), QUOTED_MAX) : 'none';
  }

  /**
   * changes: what a watch has seen so far; stop ends it.
   * @param {{ watch: number, stop?: boolean }} args
   */
  function changes({ watch: id, stop }) {
    const w = watches.get(id);
    if (!w) return { lost: true };
    const r = w.report();
    if (stop) {
      w.stop();
      watches.delete(id);
      ended = { id, w };
    }
    return r;
  }

  /**
   * shownControls: the controls a person can use now in what a watch saw
   * show or be added (the items of a menu that opened on hover), with
   * refs, as dom.offers names them, for the answer to offer: the next
   * click, without a read_page between.
   * @param {{ watch: number, refBase: number, refSkip?: [number, number][] }} args
   */
  function shownControls({ watch: id, refBase, refSkip }) {
    advance(refBase, refSkip);
    const w = watches.get(id) ?? (ended?.id === id ? ended.w : undefined);
    /** @type {Element[]} */
    const controls = [];
    for (const root of w ? [...w.appeared, ...w.addedEls] : []) {
      if (!root.isConnected || controls.some((c) => c.contains(root))) continue;
      for (const e of [root, ...root.querySelectorAll('*')]) {
        if (!controls.includes(e) && INTERACTIVE.has(roleOf(e)) && !isDisabled(e) && !inBanner(e) && visible(e)) controls.push(e);
      }
    }
    return { ...offers(controls), ...handed() };
  }

  /**
   * successor: the control a watch's last report found drawn in its
   * element's place, with a ref, for the answer to name.
   * @param {{ watch: number, refBase: number, refSkip?: [number, number][] }} args
   */
  function successor({ watch: id, refBase, refSkip }) {
    advance(refBase, refSkip);
    const w = watches.get(id) ?? (ended?.id === id ? ended.w : undefined);
    const next = w?.successor?.isConnected ? w.successor : undefined;
    return { ...offers(next ? [next] : []), ...handed() };
  }

  /**
   * check: whether a wait_for condition holds now, and what was seen.
   * @param {{ text?: string, textGone?: string, ref?: number, selector?: string,
   *   predicate?: string, state?: string }} c
   */
  function check(c) {
    if (c.text !== undefined) {
      const found = onPage(c.text);
      return { ok: found, seen: found ? `text "${c.text}" is on the page` : `no text "${c.text}" on the page` };
    }
    if (c.textGone !== undefined) {
      const found = onPage(c.textGone);
      return { ok: !found, seen: found ? `text "${c.textGone}" is still on the page` : `text "${c.textGone}" is gone` };
    }
    if (c.selector !== undefined) {
      let els;
      try {
        els = [...document.querySelectorAll(c.selector)].filter((e) => !inBanner(e));
      } catch {
        throw new PageError('bad_request', `selector ${c.selector} is not valid CSS`);
      }
      const seenNow = seen(els);
      const shown = els.filter((_, i) => seenNow[i]);
      return stateCheck(c.state ?? 'visible', els.length, shown.length, `selector ${c.selector}`, shown[0] ?? els[0]);
    }
    if (c.ref !== undefined) {
      const el = lookup(c.ref);
      const attached = !!el?.isConnected;
      const shown = attached && el ? seen([el])[0] : false;
      return stateCheck(c.state ?? 'visible', attached ? 1 : 0, shown ? 1 : 0, `ref e${c.ref}`, el);
    }
    throw new PageError('bad_request', 'nothing to wait for');
  }

  /**
   * Whether the page shows text, as find reads a query: in any case, with
   * any run of white space for a space. Its body's words first, then those
   * of the shadow roots in it (a web component's toast), which the body's
   * innerText leaves out.
   * @param {string} text
   */
  function onPage(text) {
    const want = text.replace(/\s+/g, ' ').trim().toLowerCase();
    const has = (/** @type {string} */ s) => s.replace(/\s+/g, ' ').toLowerCase().includes(want);
    if (has(document.body?.innerText ?? '')) return true;
    /** @param {Document | ShadowRoot} root */
    const inShadows = (root) => {
      for (const el of root.querySelectorAll('*')) {
        const shadow = shadowOf(el);
        if (!shadow) continue;
        for (const c of shadow.children) {
          if (c instanceof HTMLElement && !UNSHOWN.has(c.tagName) && has(c.innerText)) return true;
        }
        if (inShadows(shadow)) return true;
      }
      return false;
    };
    return inShadows(document);
  }

  /** A menu, or a list to pick from. */
  const LISTS = '[role="menu"], [role="listbox"]';

  /** The roles of what a menu or a list of options holds to pick. */
  const ITEMS = new Set(['option', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem']);

  /** Elements whose innerText is their source, not words a person sees. */
  const UNSHOWN = new Set(['STYLE', 'SCRIPT', 'TEMPLATE']);

  /**
   * @param {string} state visible | hidden | attached | detached | enabled
   * @param {number} attached how many match
   * @param {number} shown how many of them are visible
   * @param {string} what
   * @param {Element | undefined} first
   */
  function stateCheck(state, attached, shown, what, first) {
    const disabled = !!first && isDisabled(first);
    switch (state) {
      case 'visible':
        return { ok: shown > 0, seen: `${what}: ${attached} attached, ${shown} visible` };
      case 'hidden':
        return { ok: shown === 0, seen: `${what}: ${shown} visible` };
      case 'attached':
        return { ok: attached > 0, seen: `${what}: ${attached} attached` };
      case 'detached':
        return { ok: attached === 0, seen: `${what}: ${attached} attached` };
      case 'enabled':
        return { ok: shown > 0 && !disabled, seen: `${what}: ${shown} visible, ${disabled ? 'disabled' : 'enabled'}` };
    }
    throw new PageError('bad_request', `unknown state ${state}`, 'use visible, hidden, attached, detached or enabled');
  }

  /**
   * Whether a script set the style or class of el, or of what holds it,
   * in the last RESTYLED_MS: it may be moving it, and a click waits until
   * its box holds still, as it does for an animation.
   * @param {Element} el
   */
  function restyled(el) {
    const since = performance.now() - RESTYLED_MS;
    for (let e = /** @type {Element | null} */ (el); e; e = e.parentElement) if ((restyledAt.get(e) ?? -Infinity) >= since) return true;
    return false;
  }

  /** How recent a restyling counts as one that may still be moving the element. */
  const RESTYLED_MS = 100;

  oc.watch = { watch, changes, check, shownControls, successor, restyled };
})();
