// @ts-check
// find: ranked candidates for a query; field: the form control a person
// would call by a label.

(() => {
  const oc = /** @type {PageNamespace} */ (globalThis.__openchrome);
  if (oc.find) return; // injected again: the first copy stays
  const { PageError } = oc;
  const { refFor, advance, handed } = oc.refs;
  const {
    isInput, isLabel, isOption, BANNER, INTERACTIVE, STRUCTURE, inBanner, roleOf, nameOf, textOf, clip, shadowOf, visible, shownLabel,
    choicesOf, isDisabled, describe, HEADINGS, clipsAll, clippedAway, hrefOf, SVG_NS, frameSource,
  } = oc.roles;

  /** Scores of a closed select's option named so, and of one whose label holds the query. */
  const OPTION_EXACT = 80;
  const OPTION_PART = 50;
  /**
   * The score of an element whose whole text is the query: above a name
   * that holds it among other words (60), below a control's that does (65).
   */
  const TEXT_EXACT = 62;

  /**
   * find: ranked candidates for a query: a role and/or a name, text, label,
   * placeholder or title, or a CSS selector.
   * @param {{ query: string, limit: number, refBase: number, refSkip?: [number, number][] }} args
   */
  function find({ query, limit, refBase, refSkip }) {
    advance(refBase, refSkip);
    let { ranked, total, hidden } = search(query.trim());
    // "the second Add to cart button": one of several alike, by its place
    // in the page. Only when the whole query names nothing ("First name"
    // is a field's name) and the rest names controls: "Last updated" is
    // words of the page.
    const ord = (ranked[0]?.[1].score ?? 0) >= 60 ? undefined : ordinalOf(query.trim());
    const r = ord && search(ord.rest);
    if (ord && r && (r.ranked[0]?.[1].score ?? 0) >= 60) {
      const alike = r.ranked.filter(([, h]) => h.score === r.ranked[0][1].score)
        .sort((a, b) => inPageOrder(a[0], b[0]));
      const pick = alike[ord.n < 0 ? alike.length + ord.n : ord.n - 1];
      if (pick) {
        ranked = [[pick[0], { ...pick[1], why: `${ord.word} of ${alike.length} alike: ${pick[1].why}` }]];
        total = 1;
        hidden = undefined;
      }
    }
    const shown = ranked.slice(0, limit);
    const candidates = shown.map(([el, { score, why, option }]) => {
      const role = roleOf(el);
      const href = role === 'link' ? hrefOf(el) || undefined : undefined;
      // An element only a double or right click reaches says so, as
      // read_page does: a click on it would change nothing.
      const gesture = oc.tree.gestureOf(el);
      return { ref: refFor(el), role: role || el.tagName.toLowerCase(), name: nameOf(el, role), why, score, href, near: near(el), option, gesture,
        /** @type {number | undefined} */ repeats: undefined };
    });
    // A match that is another's twin in a bar the page repeats says so.
    candidates.forEach((c, i) => {
      const j = candidates.findIndex((d, k) => k !== i && d.role === c.role && d.name === c.name && twins(shown[k][0], shown[i][0]));
      if (j >= 0) c.repeats = candidates[j].ref;
    });
    const elsewhere = candidates.length || hidden ? undefined : placedElsewhere(query.trim());
    return { candidates, total, hidden, elsewhere, ...handed() };
  }

  /**
   * For a query that names a control and a place ("Add to cart near Green
   * mug") when nothing matches: the controls of that name the page does
   * show, and where each is, so the answer can say the place is what is
   * missing, not the control. Only a query that joins the two with a word
   * ("near", "for") reads so.
   * @param {string} q
   * @returns {{ name: string, where: string, count: number, alike: Array<{ ref: number, near?: string }> } | undefined}
   */
  function placedElsewhere(q) {
    for (const { name: want, where, joined } of splitsOf(q)) {
      if (!joined) continue;
      /** @type {Element[]} */
      const alike = [];
      let said = '';
      for (const el of allElements(document)) {
        const role = roleOf(el);
        if (!INTERACTIVE.has(role) || !visible(el)) continue;
        const name = nameOf(el, role);
        if (name.toLowerCase() !== want) continue;
        said ||= name;
        alike.push(el);
      }
      if (!alike.length) continue;
      // The place as the query wrote it.
      const at = q.toLowerCase().lastIndexOf(where);
      const place = at < 0 ? where : q.slice(at, at + where.length);
      return { name: said, where: place, count: alike.length, alike: alike.slice(0, ELSEWHERE_MAX).map((el) => ({ ref: refFor(el), near: near(el) || undefined })) };
    }
    return undefined;
  }

  /** The landmarks a site repeats: a navigation bar above and below the page. */
  const REPEATED = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search']);

  /**
   * Whether b, later in the page, is a's twin in a landmark that repeats
   * a's word for word (the navigation bar, with its search box, that many
   * sites put above and below the page, which read_page writes "same as
   * e1"): named alike, in the same place there, it does what a does. A
   * landmark with no words of its own (a search form and its box) says
   * nothing of what its box searches, and repeats nothing.
   * @param {Element} a
   * @param {Element} b
   */
  function twins(a, b) {
    if (a.tagName !== b.tagName || !(inPageOrder(a, b) < 0)) return false;
    const role = roleOf(a);
    if (roleOf(b) !== role || nameOf(a, role) !== nameOf(b, role)) return false;
    const la = repeatedLandmark(a);
    const lb = la && repeatedLandmark(b);
    if (!la || !lb || la === lb || la.contains(lb) || lb.contains(la) || roleOf(la) !== roleOf(lb)) return false;
    const words = readText(la);
    if (!words.trim() || words !== readText(lb)) return false;
    return [...la.querySelectorAll('*')].indexOf(a) === [...lb.querySelectorAll('*')].indexOf(b);
  }

  /**
   * What a person reads of el (jsdom, in tests, has no innerText).
   * @param {Element} el
   */
  function readText(el) {
    return /** @type {HTMLElement} */ (el).innerText ?? el.textContent ?? '';
  }

  /**
   * The outermost landmark of a kind sites repeat that holds el.
   * @param {Element} el
   */
  function repeatedLandmark(el) {
    let found = null;
    for (let up = el.parentElement; up; up = up.parentElement) if (REPEATED.has(roleOf(up))) found = up;
    return found;
  }

  /** How many of the controls placedElsewhere finds it names. */
  const ELSEWHERE_MAX = 3;

  /**
   * The matches that are another match's wrapper: matched as well and for
   * the same reason, because their name is the one control inside them (a
   * <div onclick> around its button). The control is what a person clicks,
   * and the click reaches the wrapper too; they are not two alike.
   * @param {Map<Element, { score: number, why: string }>} hits
   * @returns {Element[]}
   */
  function wrappers(hits) {
    /** @type {Map<string, Set<Element>>} */
    const alike = new Map();
    for (const [el, { score, why }] of hits) {
      const key = `${score} ${why}`;
      const group = alike.get(key);
      if (group) group.add(el);
      else alike.set(key, new Set([el]));
    }
    /** @type {Set<Element>} */
    const out = new Set();
    for (const group of alike.values()) {
      if (group.size < 2) continue;
      for (const el of group) {
        for (let up = el.parentElement; up; up = up.parentElement) {
          if (group.has(up)) out.add(up);
        }
      }
    }
    return [...out];
  }

  /**
   * Sorts a before b when it comes first in the page.
   * @param {Element} a
   * @param {Element} b
   */
  function inPageOrder(a, b) {
    return a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
  }

  /** The words that say which one of several alike, and the place each names. */
  const ORDINALS = new Map([['first', 1], ['second', 2], ['third', 3], ['fourth', 4], ['fifth', 5], ['sixth', 6],
    ['seventh', 7], ['eighth', 8], ['ninth', 9], ['tenth', 10], ['last', -1]]);

  /**
   * The ordinal a query begins with ("the second", "3rd", "last") and the
   * rest of it; undefined when it begins with none.
   * @param {string} q
   * @returns {{ n: number, word: string, rest: string } | undefined}
   */
  function ordinalOf(q) {
    const m = q.match(/^(?:the\s+)?(\p{L}+|\d+(?:st|nd|rd|th))\s+(.+)$/iu);
    if (!m) return undefined;
    const word = m[1].toLowerCase();
    const n = ORDINALS.get(word) ?? (/^\d/.test(word) ? Number.parseInt(word, 10) : undefined);
    return n ? { n, word, rest: m[2] } : undefined;
  }

  /**
   * The elements q names, best first, with how many; or, when none does,
   * the hidden control it names.
   * @param {string} q
   * @returns {{ ranked: Array<[Element, { score: number, why: string, option?: string }]>, total: number, hidden: ReturnType<typeof hiddenAt> | undefined }}
   */
  function search(q) {
    /** @type {Map<Element, { score: number, why: string, option?: string }>} */
    const hits = new Map();
    /** @type {(el: Element, score: number, why: string, option?: string) => void} */
    const add = (el, score, why, option) => {
      const had = hits.get(el);
      if (!had || had.score < score) hits.set(el, { score, why, option });
    };

    // A query is a name, text or label; one whose first word is a role
    // ("button Save", "link 'Next page'") may also be a role, then a name.
    // "Log out" is both: the role log, and the name a person reads.
    /** @type {Reading[]} */
    const readings = [{ roles: [], name: unquote(q).toLowerCase() }];
    const words = q.match(/^([a-z]+)\s+(.+)$/i);
    const first = words?.[1].toLowerCase() ?? '';
    if (words && (INTERACTIVE.has(first) || STRUCTURE.has(first))) {
      readings.push({ roles: [first], name: unquote(words[2]).toLowerCase() });
    }
    // "the Sign in button", "Email field", "search box": a name, then the
    // kind of control a person calls it.
    const kind = kindAtEnd(unquote(q).toLowerCase());
    if (kind) readings.push(kind);
    const roleOnly = INTERACTIVE.has(q.toLowerCase()) || STRUCTURE.has(q.toLowerCase()) ? q.toLowerCase() : '';

    /** A closed select's pickable options, once per select; null when it cannot be picked from now. */
    const picks = new Map();
    /** @param {HTMLSelectElement} sel @returns {Set<string> | null | undefined} */
    const pickable = (sel) => {
      if (!picks.has(sel)) {
        const choices = choicesOf(sel);
        picks.set(sel, choices && (visible(sel) && !isDisabled(sel) ? new Set(choices) : null));
      }
      return picks.get(sel);
    };
    for (const el of allElements(document)) {
      if (isOption(el)) {
        // An option of a closed select: the person sees it once the list
        // opens, and picks it there. The select is what is acted on.
        const sel = el.closest('select');
        const choices = sel ? pickable(sel) : undefined;
        if (sel && choices !== undefined) {
          const label = clip(el.label || el.text);
          const want = readings[0].name;
          const l = label.toLowerCase();
          if (choices?.has(label) && want && l.includes(want)) {
            add(sel, l === want ? OPTION_EXACT : OPTION_PART, `option "${label}"`, label);
          }
          continue;
        }
      }
      if (!visible(el) && !shownLabel(el)) continue;
      const role = roleOf(el);
      // A placeholder or title names an element; so does an SVG shape's <title>.
      const labelled = el.hasAttribute('placeholder') || el.hasAttribute('title') ||
        (el.namespaceURI === SVG_NS && el.querySelector(':scope > title') !== null);
      const said = role || labelled ? nameOf(el, role) : ''; // as the page writes it, for the reason
      const name = said.toLowerCase();
      if (roleOnly && role === roleOnly) add(el, 30, `role ${role}`);
      if (!name && !INTERACTIVE.has(role) && !labelled) {
        // Text containers match on their own text only: a paragraph, and an
        // item of a list, which no name sums up.
        const own = ownText(el).toLowerCase();
        const want = readings[0].name;
        if (want && own.includes(want)) {
          // Text that is the query, whole, says more than a name that holds
          // it among other words (an item "Apples" over a status "order
          // Apples, Bread"), less than a control's name that does.
          const exact = (el.textContent ?? '').replace(/\s+/g, ' ').trim().toLowerCase() === want;
          const score = exact ? TEXT_EXACT + (oc.tree.listenedOn(el) ? 5 : 0) : atWordStart(own, want) ? 20 : 10;
          const target = actionable(el);
          if (target) add(target, score, exact ? `text is "${ownText(el).trim()}"` : `text contains "${want}"`);
        }
        continue;
      }
      for (const { roles: wantRoles, name: wantName } of readings) {
        const wantRole = wantRoles.length > 0;
        if (wantRole && !wantRoles.includes(role)) continue;
        // A match of a role says more than one of a name alone; a name that
        // holds every word of the query, the role word too, says as much.
        const bonus = (INTERACTIVE.has(role) ? 5 : 0) + (wantRole || readings.length > 1 ? 10 : 0);
        if (name && name === wantName) add(el, 90 + bonus, wantRole ? `${role} named "${said}"` : `name is "${said}"`);
        else if (name && name.includes(wantName)) {
          // "one" in "Done" is no name a person means by "One": a match
          // inside a word ranks below an item that says exactly that.
          const word = atWordStart(said, wantName);
          add(el, (word ? 60 : 30) + bonus, `name contains "${wantName}"${word ? '' : ' in a word'}`);
        }
        else {
          for (const [attr, label] of [['placeholder', 'placeholder'], ['title', 'title'], ['aria-label', 'label'], ['name', 'name attribute'], ['id', 'id']]) {
            const raw = el.getAttribute(attr);
            const v = raw?.toLowerCase();
            if (raw && v && (v === wantName || v.includes(wantName))) {
              const score = v === wantName ? 50 : atWordStart(raw, wantName) ? 35 : 15;
              add(el, score + bonus, `${label} ${v === wantName ? 'is' : 'contains'} "${wantName}"`);
              break;
            }
          }
          // A control named apart from what it shows: the "×" of a button
          // named "Close", which a person calls the X button.
          if (SHOWS_NAME.has(role) && wantName && shownText(el) === wantName) add(el, 50 + bonus, `it shows "${wantName}"`);
          // A field the page names nowhere, by the words a person reads
          // beside it (form_input's field does the same).
          if (!name && wantName && CONTROL_ROLES.has(role)) {
            const beside = wordsBefore(el);
            const b = beside.toLowerCase();
            if (b === wantName || b.includes(wantName)) add(el, (b === wantName ? 40 : 20) + bonus, `"${beside}" is beside it`);
          }
        }
      }
    }
    // A query that is a valid selector also matches as CSS.
    try {
      for (const el of document.querySelectorAll(q)) {
        if (visible(el) && !inBanner(el)) add(el, 45, `matches selector ${q}`);
      }
    } catch {
      // not a selector
    }
    // "Edit Bob", "Add to cart near Blue shirt": a control named by part of
    // the query, in the part of the page (a row, a card, a section) the
    // rest names, when nothing answers to the whole.
    if (![...hits.values()].some((h) => h.score >= 60)) {
      for (const { el, score, why } of inContext(q)) add(el, score, why);
    }
    // A match inside a panel collapsed to no height is there but hidden,
    // as read_page leaves it out: said as one, with what opens the panel.
    /** @type {Map<Element, boolean>} */
    const memo = new Map();
    const folded = [...hits.keys()].filter((el) => clippedAway(el, memo));
    for (const el of folded) hits.delete(el);
    for (const el of wrappers(hits)) hits.delete(el);
    const ranked = [...hits].sort((a, b) => b[1].score - a[1].score || inPageOrder(a[0], b[0]));
    const hidden = hits.size ? undefined : folded.length ? hiddenAt(folded[0]) : hiddenMatch(readings, q);
    return { ranked, total: hits.size, hidden };
  }

  /**
   * What a person uses to show a hidden el: the control that says it opens
   * the hidden part el is in (aria-controls, aria-owns, popovertarget: a
   * combobox and its list of options, which is elsewhere in the page), a
   * closed disclosure's summary, or else the nearest shown part around it
   * that says something (a table row, not its cell that holds only the
   * hidden button).
   * @param {Element} el
   * @returns {Element | null}
   */
  function showerOf(el) {
    for (let e = /** @type {Element | null} */ (el); e; e = e.parentElement) {
      // A panel collapsed to no height shows nothing to hover or click.
      if (visible(e) && !clipsAll(e) && !clippedAway(e) && textOf(e, true).trim()) {
        const summary = e.tagName === 'DETAILS' && !(/** @type {HTMLDetailsElement} */ (e).open) ? e.querySelector(':scope > summary') : null;
        return summary ?? e;
      }
      if (!e.id) continue;
      const id = e.id.replace(/["\\]/g, '\\$&'); // quoted in the selector
      const opener = document.querySelector(`[aria-controls~="${id}"], [aria-owns~="${id}"], [popovertarget="${id}"]`);
      if (opener && visible(opener)) return opener;
    }
    return null;
  }

  /**
   * A control named as the query reads that a person cannot see now, and the nearest part
   * of the page around it they can: a menu item shown on hover, a setting
   * in a closed disclosure. A query that finds nothing says where to look.
   * "Delete near Invoice 1002" is one whose name is the query's name and
   * that what a person would hover to show it says the place of.
   * @param {Reading[]} readings the query's
   * @param {string} q the query
   */
  function hiddenMatch(readings, q) {
    /** @type {Array<{ el: Element, name: string }>} */
    const hidden = [];
    for (const el of allElements(document)) {
      const role = roleOf(el);
      if (!INTERACTIVE.has(role) || visible(el) || inBanner(el)) continue;
      // Text under a hidden element is hidden too: the name is its content.
      const name = clip(nameOf(el, role) || el.textContent || '').toLowerCase();
      if (readings.some((r) => r.name && r.name === name && (!r.roles.length || r.roles.includes(role)))) return hiddenAt(el);
      hidden.push({ el, name });
    }
    const splits = splitsOf(q);
    for (const { el, name } of hidden) {
      for (const { name: want, where } of splits) {
        if (name !== want) continue;
        const holder = showerOf(el);
        if (holder && !wordier(holder, PLACE_MAX) && says(where).test(clip(textOf(holder, true)))) return hiddenAt(el);
        if (placeOf(el, where)) return hiddenAt(el);
      }
    }
    return undefined;
  }

  /**
   * What a hidden match says: the control, and where a person would look
   * for it.
   * @param {Element} el
   */
  function hiddenAt(el) {
    // In a dialog that is not open, the dialog is where it is: what
    // opens it is the page's own button, not something around it.
    const dialog = el.closest('dialog, [role="dialog"], [role="alertdialog"]');
    if (dialog && !visible(dialog)) return { name: describe(el), closedIn: describe(dialog) };
    const holder = showerOf(el);
    // A holder so large it is the page (the body, main) shows nothing on hover.
    if (!holder || holder === document.body || holder === document.documentElement ||
      wordier(holder, PLACE_MAX)) return { name: describe(el) };
    return { name: describe(el), holder: { ref: `e${refFor(holder)}`, name: describe(holder) } };
  }

  /** How far up near looks for a heading. */
  const NEAR_LEVELS = 6;

  /**
   * The heading of the part of the page el is in (a product card's, a
   * table row's first cell aside): what tells apart buttons of one name,
   * "Add to cart" near "Blue shirt". The closest heading before el in the
   * nearest ancestor that holds one.
   * @param {Element} el
   * @returns {string | undefined}
   */
  function near(el) {
    let a = el.parentElement;
    for (let level = 0; a && level < NEAR_LEVELS; level++, a = a.parentElement) {
      let best = null;
      for (const h of a.querySelectorAll(HEADINGS)) {
        if (h.contains(el) || el.contains(h)) continue;
        if (!(h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)) break;
        if (visible(h)) best = h;
      }
      if (best) return clip(textOf(best, true)).slice(0, 60) || undefined;
      if (a.tagName === 'TR') {
        // The first cell that says something of its own: a cell holding
        // only a row's "Select row" checkbox says the same in every row.
        for (const cell of a.querySelectorAll(':scope > th, :scope > td')) {
          if (cell.contains(el)) continue;
          const words = wordsBeside(cell, el);
          if (words) return words;
        }
      } else if (a.matches(HOLDERS)) {
        // A list item or card without a heading: what else it says
        // ("Product 2" beside its "Add to cart").
        const rest = wordsBeside(a, el);
        if (rest) return rest;
      }
    }
    return undefined;
  }

  /**
   * The words a person reads in holder beside el: its text and its links',
   * not el's and not those of other controls (a search box's "Go", which
   * says nothing of where it is). Undefined when no word is left.
   * @param {Element} holder
   * @param {Element} el
   * @returns {string | undefined}
   */
  function wordsBeside(holder, el) {
    const words = clip(textOf(holder, 'links', el)).slice(0, NEAR_MAX);
    return /[\p{L}\p{N}]/u.test(words) ? words : undefined;
  }

  /** How much of what holds a control near says. */
  const NEAR_MAX = 60;

  /** Words that join a control's name to where it is: "Edit for Bob". */
  const JOINS = /^(?:near|in|for|of|on|at|beside|under|by|next to|from)$/;
  /** What an agent says before a control's name: "the Save button". */
  const ARTICLES = /^(?:the|a|an)$/;

  /** The controls whose words are what they show (a select's are its options'). */
  const SHOWS_NAME = new Set(['button', 'link', 'tab', 'menuitem']);

  /**
   * The words a control shows, in lower case, a close sign read as the
   * letter x a person calls it by.
   * @param {Element} el
   */
  function shownText(el) {
    return (el.textContent ?? '').replace(/\s+/g, ' ').trim().toLowerCase().replace(/[×✕✖⨯╳]/gu, 'x');
  }

  /**
   * A way to read a query: the roles it names (none: any) and the name.
   * @typedef {{ roles: string[], name: string }} Reading
   */

  const TEXT_ROLES = ['textbox', 'searchbox', 'combobox', 'spinbutton'];
  /**
   * The kinds of control an agent names after a control's name ("the Save
   * button"), and the roles a person means by each (an icon: any).
   * @type {Map<string, string[]>}
   */
  const KIND_ROLES = new Map([
    ['button', ['button']], ['link', ['link']], ['checkbox', ['checkbox', 'switch']], ['radio', ['radio']],
    ['switch', ['switch', 'checkbox']], ['toggle', ['switch', 'checkbox', 'button']], ['slider', ['slider']],
    ['tab', ['tab']], ['option', ['option']], ['dropdown', ['combobox', 'listbox']], ['select', ['combobox', 'listbox']],
    ['menu', ['combobox', 'listbox', 'button']], ['combobox', ['combobox']], ['textarea', ['textbox']],
    ['field', TEXT_ROLES], ['input', TEXT_ROLES], ['textbox', TEXT_ROLES], ['box', TEXT_ROLES], ['icon', []],
    ['header', ['columnheader', 'rowheader']],
  ]);
  /** Words before the kind that say more of it, not of the name ("text field", "radio button"). */
  const KIND_WORDS = new Map([['text', null], ['input', null], ['check', ['checkbox', 'switch']], ['radio', ['radio']], ['drop', ['combobox', 'listbox']],
    ['column', ['columnheader']], ['row', ['rowheader']]]);

  /**
   * The reading of a query that ends with the kind of control a person
   * calls it ("Sign in button", "the Email field", "Remember me check
   * box"): the roles the kind stands for, and the name before it. A word
   * such as "search" in "search box" stays in the name: it is what the box
   * is named. Undefined when the query names no kind, or only a kind.
   * @param {string} q lower case
   * @returns {Reading | undefined}
   */
  function kindAtEnd(q) {
    const words = q.split(/\s+/).filter(Boolean);
    if (words.length > 1 && ARTICLES.test(words[0])) words.shift();
    let roles = KIND_ROLES.get(words[words.length - 1]);
    if (!roles || words.length < 2) return undefined;
    words.pop();
    const more = KIND_WORDS.get(words[words.length - 1]);
    if (more !== undefined && words.length > 1) {
      words.pop();
      if (more) roles = more;
    }
    return { roles, name: words.join(' ') };
  }

  /**
   * words without a leading article or a trailing kind of control: "the
   * Add to cart button" is "Add to cart".
   * @param {string[]} words
   */
  function bare(words) {
    let [from, to] = [0, words.length];
    if (to - from > 1 && ARTICLES.test(words[from])) from++;
    if (to - from > 1 && KIND_ROLES.has(words[to - 1])) to--;
    return words.slice(from, to);
  }

  /** What holds a control together with what it is for: a row, an item, a card. */
  const HOLDERS = 'tr, [role="row"], li, [role="listitem"], article, [role="article"]';

  /**
   * The controls named by a part of query that lie in the part of the page
   * the rest of it names: its row, item, card or section says it, or the
   * heading near it. Each split of the words is tried, the name first or
   * last, with a joining word ("near", "for") or none.
   * @param {string} q
   * @returns {Array<{ el: Element, score: number, why: string }>}
   */
  function inContext(q) {
    const splits = splitsOf(q);
    if (!splits.length) return [];
    /** @type {Array<{ el: Element, score: number, why: string }>} */
    const out = [];
    for (const el of allElements(document)) {
      const role = roleOf(el);
      if (!INTERACTIVE.has(role) || !visible(el)) continue;
      const said = nameOf(el, role);
      const name = said.toLowerCase();
      if (!name) continue;
      for (const { name: want, where, joined } of splits) {
        // Without a joining word, only a whole name: "Save draft" is not the
        // "Save" of a row that mentions a draft.
        if (name !== want && !(joined && name.startsWith(`${want} `))) continue;
        const place = placeOf(el, where);
        if (!place) continue;
        out.push({ el, score: (name === want ? 70 : 55) + (INTERACTIVE.has(role) ? 5 : 0), why: `name is "${said}", ${place}` });
        break;
      }
    }
    return out;
  }

  /**
   * The ways to read q as a control's name and the place it is in: each
   * split of its words, the name first or last, with a joining word
   * ("near", "for") or none.
   * @param {string} q
   * @returns {Array<{ name: string, where: string, joined: boolean }>}
   */
  function splitsOf(q) {
    const words = unquote(q).toLowerCase().split(/\s+/).filter(Boolean);
    /** @type {Array<{ name: string, where: string, joined: boolean }>} */
    const splits = [];
    for (let i = 1; i < words.length; i++) {
      const head = bare(words.slice(0, i));
      const tail = words.slice(i);
      // "Edit for Bob": the name, a join, the place.
      const joined = JOINS.test(tail[0]) ? tail.slice(1) : JOINS.test(tail.slice(0, 2).join(' ')) ? tail.slice(2) : undefined;
      if (joined?.length && head.length) splits.push({ name: head.join(' '), where: bare(joined).join(' '), joined: true });
      splits.push({ name: words.slice(0, i).join(' '), where: tail.join(' '), joined: false }, { name: tail.join(' '), where: words.slice(0, i).join(' '), joined: false });
    }
    return splits;
  }

  /**
   * Where el is, said by what holds it or by the heading near it, when that
   * says where: `in row "Bob User Edit"`, `near "Blue shirt"`.
   * @param {Element} el
   * @param {string} where
   * @returns {string | undefined}
   */
  function placeOf(el, where) {
    const place = says(where);
    const heading = near(el);
    if (heading && place.test(heading)) return `near "${heading}"`;
    /** @param {Element} a */
    const said = (a) => {
      const text = clip(textOf(a, true));
      return place.test(text) ? `in ${roleOf(a) || a.tagName.toLowerCase()} "${text.slice(0, 60)}"` : undefined;
    };
    for (let a = el.parentElement?.closest(HOLDERS); a; a = a.parentElement?.closest(HOLDERS)) {
      // A holder so large it is the page says nothing of where.
      if (wordier(a, PLACE_MAX)) break;
      const at = said(a);
      if (at) return at;
    }
    // A row drawn with plain boxes (div, section): the boxes around el up
    // to the first that holds another control of its name, which is the
    // next row's.
    const role = roleOf(el);
    const name = nameOf(el, role).toLowerCase();
    for (let a = el.parentElement; a && a !== a.ownerDocument.body; a = a.parentElement) {
      if (wordier(a, PLACE_MAX) || alikeIn(a, el, role, name)) return undefined;
      const at = said(a);
      if (at) return at;
    }
    return undefined;
  }

  /** The most elements a box drawn as one row holds. */
  const ROW_MAX = 200;

  /**
   * Whether holder holds a control other than el of el's role and name,
   * shown or not (another row's Delete, shown on hover), or is too big to
   * be one row.
   * @param {Element} holder
   * @param {Element} el
   * @param {string} role
   * @param {string} name in lower case
   */
  function alikeIn(holder, el, role, name) {
    const all = holder.querySelectorAll('*');
    if (all.length > ROW_MAX) return true; // more than a row: a grid, a page
    for (const other of all) {
      if (other !== el && roleOf(other) === role && nameOf(other, role).toLowerCase() === name) return true;
    }
    return false;
  }

  /**
   * Whether a text says where, as whole words.
   * @param {string} where
   */
  function says(where) {
    return new RegExp(`(?:^|[^\\p{L}\\p{N}])${where.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:$|[^\\p{L}\\p{N}])`, 'iu');
  }

  /** The most text a row, item or card that says where a control is holds. */
  const PLACE_MAX = 300;

  /**
   * Whether el holds more than max characters of text, not counting runs
   * of white space; it reads no more than it needs to say so.
   * @param {Element} el
   * @param {number} max
   */
  function wordier(el, max) {
    let n = 0;
    const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      n += (t.nodeValue ?? '').replace(/\s+/g, ' ').length;
      if (n > max) return true;
    }
    return false;
  }

  /** @param {string} s */
  function unquote(s) {
    return s.trim().replace(/^["'](.*)["']$/, '$1');
  }

  /**
   * The nearest ancestor (or self) an agent could act on; a label's control,
   * or null for a label whose control no person can reach.
   * @param {Element} el
   * @returns {Element | null}
   */
  function actionable(el) {
    for (let e = /** @type {Element | null} */ (el); e; e = e.parentElement) {
      if (INTERACTIVE.has(roleOf(e))) return e;
      // A label acts on its control, when a person can see it there: not
      // on a bot's trap field a label beside it names (roles.js trapField).
      if (isLabel(e) && e.control) return visible(e.control) || shownLabel(e.control) ? e.control : null;
    }
    return el;
  }

  /** Letters of scripts written without spaces: a word may start at any of them. */
  const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
  const ALNUM = /[\p{L}\p{N}]/u;

  /**
   * Whether want (in lower case) starts a word somewhere in text: "cart" in
   * "Add to cart" and "save" in "autoSave" do, "one" in "Done" does not.
   * @param {string} text
   * @param {string} want
   */
  function atWordStart(text, want) {
    const lower = text.toLowerCase();
    if (lower.length !== text.length) return lower.includes(want); // a letter whose case changes its length
    for (let i = lower.indexOf(want); i >= 0; i = lower.indexOf(want, i + 1)) {
      const before = text[i - 1];
      const at = text[i];
      if (i === 0 || !ALNUM.test(before) || !ALNUM.test(at) || UNSPACED.test(before)) return true;
      if (before === before.toLowerCase() && at !== at.toLowerCase()) return true; // camelCase
    }
    return false;
  }

  /** @param {Element} el */
  function ownText(el) {
    let s = '';
    for (const c of el.childNodes) if (c.nodeType === Node.TEXT_NODE) s += c.nodeValue;
    return s.replace(/\s+/g, ' ');
  }

  /**
   * Every element of doc, through open shadow roots and same-origin frames.
   * @param {Document | ShadowRoot} doc
   * @returns {Generator<Element>}
   */
  function* allElements(doc) {
    /** @type {Element | null} */
    let banner = null;
    for (const el of doc.querySelectorAll('*')) {
      // Document order: a banner's descendants come right after it.
      if (banner?.contains(el)) continue;
      if (el.tagName === BANNER) {
        banner = el;
        continue;
      }
      yield el;
      const shadow = shadowOf(el);
      if (shadow) yield* allElements(shadow);
      if (el.tagName === 'IFRAME') {
        let inner = null;
        try {
          inner = /** @type {HTMLIFrameElement} */ (el).contentDocument;
        } catch {
          // cross-origin
        }
        if (inner) yield* allElements(inner);
      }
    }
  }

  // --- form fields -------------------------------------------------------------

  const CONTROL_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'checkbox', 'radio', 'switch', 'slider', 'spinbutton']);

  /**
   * field: the form control a person would call label. A group's label (a
   * fieldset legend, a radiogroup's name) with a value picks the radio or
   * checkbox of that group named value (inGroup). With values (a list the
   * group's boxes are to be set to), the answer lists every box of the
   * group and whether values name it, and the values that name none.
   * @param {{ label: string, value?: string, values?: string[], refBase: number, refSkip?: [number, number][] }} args
   */
  function field({ label, value, values, refBase, refSkip }) {
    advance(refBase, refSkip);
    const want = unquote(label).toLowerCase();
    let found = labelled(want, value, values);
    // "Email field", "the password input": the label, then the kind.
    const kind = found.length ? undefined : kindAtEnd(want);
    if (kind) found = labelled(kind.name, value, values, kind.roles);
    if (!found.length) {
      throw new PageError('not_found', `no form field labelled "${label}"`, 'call find or read_page to see the fields');
    }
    found.sort((a, b) => b.score - a.score);
    // Fields a label names alike (a sign-in's Email and a newsletter's):
    // the caller says which, the page cannot. A field of a bar the page
    // repeats below it (a search box) is the first one's twin, and no
    // second choice.
    const best = found.filter((f) => f.score === found[0].score);
    const tied = best.filter((f) => !best.some((g) => twins(g.el, f.el)));
    const { el, group } = tied[0];
    const role = roleOf(el);
    const ref = refFor(el);
    const alike = tied.length > 1 ? tied.map((f) => {
      const r = roleOf(f.el);
      return { ref: refFor(f.el), role: r, name: nameOf(f.el, r), near: near(f.el) };
    }) : undefined;
    if (!group) return { ref, role, name: nameOf(el, role), alike, ...handed() };
    /** @type {{ boxes?: Array<{ ref: number, role: string, name: string, on: boolean }>, missing?: string[] }} */
    const set = {};
    if (values) {
      const on = new Set(values.map((v) => pickInGroup(group, v)));
      set.boxes = boxesOf(group).map((b) => ({ ref: refFor(b), role: roleOf(b), name: nameOf(b, roleOf(b)), on: on.has(b) }));
      const missing = values.filter((v) => !pickInGroup(group, v));
      if (missing.length) set.missing = missing;
    }
    return { ref, role, name: nameOf(el, role), alike, inGroup: true, ...set, ...handed() };
  }

  /**
   * The form fields want names, by their label (or placeholder, name or
   * id), scored; for a group, the radio or checkbox in it value names (or,
   * given values and none of them is named value, its first box).
   * @param {string} want lower case
   * @param {string | undefined} value
   * @param {string[] | undefined} values
   * @param {string[]} [roles] the roles a kind of field named stands for
   * @returns {Array<{ el: Element, score: number, group?: Element | Element[] }>}
   */
  function labelled(want, value, values, roles) {
    /** @type {Array<{ el: Element, score: number, group?: Element | Element[] }>} */
    const found = [];
    /** @param {string[]} names @param {boolean} named */
    const scoreOf = (names, named) => {
      let score = 0;
      for (const [i, n] of names.entries()) {
        const w = i === 0 ? (named ? 1 : 0.9) : 0.6;
        if (n === want) score = Math.max(score, 100 * w);
        else if (n.startsWith(want)) score = Math.max(score, 70 * w);
        else if (n.includes(want)) score = Math.max(score, 50 * w);
      }
      return score;
    };
    /** @param {Element | Element[]} group @param {number} score */
    const pickFrom = (group, score) => {
      const pick = value === undefined ? undefined : pickInGroup(group, value) ?? (values ? boxesOf(group)[0] : null);
      if (pick && (!roles || roles.includes(roleOf(pick)))) found.push({ el: pick, score: score + 1, group });
    };
    /** @type {Map<string, Element[]>} the boxes no group element holds, by their form and name */
    const sets = new Map();
    /** @type {Map<Node, number>} */
    const owners = new Map();
    /** @param {Element} el */
    const addToSet = (el) => {
      if (!isInput(el) || (el.type !== 'radio' && el.type !== 'checkbox') || !el.name) return;
      const holder = el.closest('fieldset, [role=group], [role=radiogroup]');
      if (holder && nameOf(holder, roleOf(holder))) return; // its group's name labels it
      if (!visible(el) && !shownLabel(el)) return;
      const owner = el.form ?? el.getRootNode();
      if (!owners.has(owner)) owners.set(owner, owners.size);
      const key = `${owners.get(owner)}\n${el.type}\n${el.name}`;
      const set = sets.get(key);
      if (set) set.push(el);
      else sets.set(key, [el]);
    };
    for (const el of allElements(document)) {
      const role = roleOf(el);
      addToSet(el);
      const isGroup = role === 'group' || role === 'radiogroup';
      // A button that opens a list to pick from (Headless UI's Listbox) is
      // a select the page draws.
      const picks = role === 'button' && el.getAttribute('aria-haspopup') === 'listbox';
      if (!CONTROL_ROLES.has(role) && !isGroup && !picks && !(isInput(el) && el.type === 'file')) continue;
      if (roles && !isGroup && !roles.includes(picks ? 'combobox' : role)) continue;
      if (!visible(el) && !shownLabel(el)) continue;
      const name = nameOf(el, role);
      // A field the page names nowhere: the words a person reads beside it.
      const names = [name || (isGroup ? '' : wordsBefore(el)), el.getAttribute('placeholder'), el.getAttribute('name'), el.id]
        .filter(Boolean).map((n) => /** @type {string} */ (n).toLowerCase().trim());
      const score = scoreOf(names, !!name);
      if (!score) continue;
      if (isGroup) {
        pickFrom(el, score);
        continue;
      }
      found.push({ el, score });
    }
    // Radios (or checkboxes) that share a name in no fieldset: a group to
    // a person, labelled by the words before the first ("Theme" over
    // light, dark and ayu), though no element says so.
    for (const boxes of sets.values()) {
      if (boxes.length < 2) continue;
      const words = wordsBefore(boxes[0]).toLowerCase();
      const score = words ? scoreOf([words], false) : 0;
      if (score) pickFrom(boxes, score);
    }
    return found;
  }

  /** The most words a label a person reads beside a field holds. */
  const BESIDE_MAX = 60;

  /**
   * The words a person reads as the label of a field the page names
   * nowhere: the header of its table row (or the cell before its own), or
   * else the words just before it: "Phone" in a div above the box. None
   * when another control comes first, or the words are too many for a label.
   * @param {Element} el
   * @returns {string}
   */
  function wordsBefore(el) {
    /** @param {Element | null | undefined} e */
    const said = (e) => (e ? textOf(e, false).replace(/\s+/g, ' ').trim() : '');
    const cell = el.closest('td');
    if (cell?.parentElement) {
      const th = cell.parentElement.querySelector(':scope > th');
      const words = said(th && th !== cell ? th : cell.previousElementSibling);
      if (words) return words.length <= BESIDE_MAX ? words : '';
    }
    const body = el.ownerDocument.body;
    for (let e = /** @type {Element | null} */ (el); e && e !== body; e = e.parentElement) {
      for (let n = e.previousSibling; n; n = n.previousSibling) {
        if (n.nodeType === Node.TEXT_NODE) {
          const words = (n.nodeValue ?? '').replace(/\s+/g, ' ').trim();
          if (words) return words.length <= BESIDE_MAX ? words : '';
          continue;
        }
        if (n.nodeType !== Node.ELEMENT_NODE) continue;
        const sib = /** @type {Element} */ (n);
        if (!visible(sib)) continue;
        // Another field and its label come first: the words are theirs.
        if (CONTROL_ROLES.has(roleOf(sib)) || sib.querySelector('input, select, textarea, [role=textbox], [role=combobox]') ||
          (isLabel(sib) && sib.control)) return '';
        const words = said(sib);
        if (words) return words.length <= BESIDE_MAX ? words : '';
      }
    }
    return '';
  }

  const BOXES = 'input[type=radio], input[type=checkbox], [role=radio], [role=checkbox], [role=switch]';

  /**
   * The radios and checkboxes of group a person sees (or whose label
   * draws them); a group no element holds is its boxes.
   * @param {Element | Element[]} group
   */
  function boxesOf(group) {
    if (Array.isArray(group)) return group;
    return [...group.querySelectorAll(BOXES)].filter((el) => visible(el) || shownLabel(el));
  }

  /**
   * The radio or checkbox in group whose name is value.
   * @param {Element | Element[]} group
   * @param {string} value
   */
  function pickInGroup(group, value) {
    const want = unquote(value).toLowerCase();
    let partial = null;
    for (const el of boxesOf(group)) {
      const n = nameOf(el, roleOf(el)).toLowerCase();
      if (n === want || (isInput(el) && el.value.toLowerCase() === want)) return el;
      if (!partial && n.includes(want)) partial = el;
    }
    return partial;
  }

  /**
   * crossFrames: the shown iframes whose documents this script cannot walk
   * (cross-origin), with refs, for the service worker to search in turn.
   * @param {{ refBase: number, refSkip?: [number, number][] }} args
   */
  function crossFrames({ refBase, refSkip }) {
    advance(refBase, refSkip);
    const frames = [];
    for (const el of allElements(document)) {
      if (el.tagName !== 'IFRAME' || !visible(el)) continue;
      let inner = null;
      try {
        inner = /** @type {HTMLIFrameElement} */ (el).contentDocument;
      } catch {
        // cross-origin
      }
      if (!inner) frames.push({ ref: refFor(el), ...frameSource(el) });
    }
    return { frames, ...handed() };
  }

  oc.find = { find, field, crossFrames };
})();
