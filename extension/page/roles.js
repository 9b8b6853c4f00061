// @ts-check
// What an element is to a person: its ARIA role, its accessible name, its
// value (never a secret's), whether it shows, and the sets of roles the tree,
// find and the actions sort elements by.

(() => {
  const oc = /** @type {PageNamespace} */ (globalThis.__openchrome);
  if (oc.roles) return; // injected again: the first copy stays

  // --- element kinds ----------------------------------------------------------
  //
  // Tag checks, not instanceof: an element of a same-origin frame is made
  // by that frame's constructors, so `isInput(el)` is false
  // for it in ours.

  /**
   * @param {unknown} n
   * @param {string} tag
   */
  function tagIs(n, tag) {
    return !!n && /** @type {Node} */ (n).nodeType === Node.ELEMENT_NODE && /** @type {Element} */ (n).tagName === tag;
  }
  /** @param {unknown} n @returns {n is HTMLInputElement} */
  const isInput = (n) => tagIs(n, 'INPUT');
  /** @param {unknown} n @returns {n is HTMLTextAreaElement} */
  const isTextArea = (n) => tagIs(n, 'TEXTAREA');
  /** @param {unknown} n @returns {n is HTMLSelectElement} */
  const isSelect = (n) => tagIs(n, 'SELECT');
  /** @param {unknown} n @returns {n is HTMLLabelElement} */
  const isLabel = (n) => tagIs(n, 'LABEL');
  /** @param {unknown} n @returns {n is HTMLOptionElement} */
  const isOption = (n) => tagIs(n, 'OPTION');
  /** @param {unknown} n @returns {n is HTMLIFrameElement} */
  const isFrame = (n) => tagIs(n, 'IFRAME');
  /** @param {unknown} n @returns {n is HTMLProgressElement | HTMLMeterElement} */
  const isGauge = (n) => tagIs(n, 'PROGRESS') || tagIs(n, 'METER');
  /** @param {unknown} n @returns {n is Element} */
  const isElement = (n) => !!n && /** @type {Node} */ (n).nodeType === Node.ELEMENT_NODE;
  /** Controls whose labels name them (the "labelable" elements). @param {Element} el */
  const labelable = (el) => ['INPUT', 'TEXTAREA', 'SELECT', 'BUTTON', 'METER', 'PROGRESS', 'OUTPUT'].includes(el.tagName);

  // The ids that labels name in their for attribute, per document or shadow
  // root, gathered once per call (page/entry.js starts each with
  // beginCall): a control's .labels walks its whole tree, which on a page
  // of 20,000 buttons, asked of each, took half a minute.
  /** @type {Map<Node, Set<string>>} */
  let forIds = new Map();

  // The shadow roots the extension API found, by host, from the roots pass
  // that sw/clickables.js runs before a read (it asks of every element, and
  // so does the read's walk just after: 25 ms each on a long page) until the
  // end of the call that follows, and never for more than a second: a root
  // attached in between shows on the next read.
  /** @type {WeakMap<Element, ShadowRoot | null> | undefined} */
  let asked;
  let askedAt = 0;
  const SHADOWS_KEPT_MS = 1000;

  /** Starts keeping what shadowOf asks the extension API. */
  function keepShadows() {
    asked = new WeakMap();
    askedAt = performance.now();
  }

  /** Starts a call: the page may have changed since the last one. */
  function beginCall() {
    forIds = new Map();
    if (asked && performance.now() - askedAt > SHADOWS_KEPT_MS) asked = undefined;
  }

  /** Ends a call: what it was told, and what it found, holds no longer. */
  function endCall() {
    asked = undefined;
    drawnCache = undefined;
  }

  /**
   * The labels of a labelable control; its .labels is asked only when a
   * label may be there: one around it, or one whose for is its id.
   * @param {HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | HTMLButtonElement} control
   * @returns {HTMLLabelElement[]}
   */
  function labelsOf(control) {
    let maybe = !!control.closest('label');
    if (!maybe && control.id) {
      const root = /** @type {Document | ShadowRoot | Element} */ (control.getRootNode());
      let ids = forIds.get(root);
      if (!ids) {
        ids = new Set();
        for (const l of root.querySelectorAll('label[for]')) ids.add(/** @type {HTMLLabelElement} */ (l).htmlFor);
        forIds.set(root, ids);
      }
      maybe = ids.has(control.id);
    }
    return maybe && control.labels ? [...control.labels] : [];
  }

  // --- roles and names ----------------------------------------------------

  const SVG_NS = 'http://www.w3.org/2000/svg';
  /** Input types no text is typed into: readonly means nothing to them. */
  const UNTYPED = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'range', 'color', 'hidden']);

  // The handoff banner's element (page/banner.js): OpenChrome's, not the
  // page's, so no tree, text, search or fingerprint shows it.
  const BANNER = 'OPENCHROME-BANNER';
  /** @param {Element} el */
  const inBanner = (el) => !!el.closest('openchrome-banner');
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'TITLE', 'BASE', BANNER]);
  /** Elements whose content is only for browsers that cannot draw them. */
  const FALLBACK = new Set(['CANVAS', 'VIDEO', 'AUDIO', 'PROGRESS', 'METER']);
  const INTERACTIVE = new Set([
    'link', 'button', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option',
    'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'switch', 'slider', 'spinbutton',
    'treeitem', 'gridcell', 'video', 'audio',
  ]);
  // Roles kept as a node even without a name: they structure the page.
  const STRUCTURE = new Set([
    'navigation', 'main', 'banner', 'contentinfo', 'complementary', 'search', 'form', 'region',
    'dialog', 'alertdialog', 'alert', 'status', 'log', 'list', 'listitem', 'table', 'row', 'cell',
    'columnheader', 'rowheader', 'grid', 'heading', 'group', 'radiogroup', 'menu', 'menubar',
    'tablist', 'tabpanel', 'toolbar', 'tree', 'img', 'figure', 'iframe', 'code', 'blockquote',
    'term', 'definition', 'separator', 'progressbar', 'meter', 'article', 'math', 'note',
  ]);
  // Containers that get a ref, so read_page can read just them.
  const SECTION = new Set([
    'navigation', 'main', 'banner', 'contentinfo', 'complementary', 'search', 'form', 'region',
    'dialog', 'alertdialog', 'table', 'grid', 'iframe', 'menu', 'listbox', 'tablist', 'tabpanel', 'tree',
  ]);
  const NAME_FROM_CONTENT = new Set([
    'link', 'button', 'heading', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option',
    'treeitem', 'cell', 'gridcell', 'columnheader', 'rowheader', 'checkbox', 'radio', 'switch',
    'tooltip', 'term', 'status',
  ]);
  const BLOCK = new Set([
    'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BR', 'DD', 'DETAILS', 'DIALOG', 'DIV', 'DL', 'DT',
    'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6',
    'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'TD',
    'TH', 'TR', 'UL', 'CAPTION', 'TBODY', 'THEAD', 'TFOOT',
    // An SVG <text> is placed on its own (a chart's title, an axis label):
    // its tag name keeps the case it was written in.
    'text',
  ]);
  // DPUB-ARIA's kinds of link (a footnote's mark, its way back, an entry of
  // a glossary): links to a reader and to whoever acts on them.
  const LINKS = new Set(['doc-backlink', 'doc-noteref', 'doc-biblioref', 'doc-glossref']);
  /** Every heading, as a selector. */
  const HEADINGS = 'h1, h2, h3, h4, h5, h6, [role="heading"]';
  /** Controls whose text is read apart from what is next to them. */
  const APART = new Set(['BUTTON', 'SELECT', 'TEXTAREA', 'OPTION']);
  // Elements that flow within a line of text.
  const INLINE = new Set([
    'A', 'ABBR', 'B', 'BDI', 'BDO', 'BUTTON', 'CITE', 'CODE', 'DATA', 'DFN', 'EM', 'I', 'IMG',
    'INPUT', 'KBD', 'LABEL', 'MARK', 'OUTPUT', 'Q', 'S', 'SAMP', 'SELECT', 'SMALL', 'SPAN',
    'STRONG', 'SUB', 'SUP', 'TEXTAREA', 'TIME', 'U', 'VAR',
  ]);
  const NAME_MAX = 150;
  const VALUE_MAX = 200;

  const XLINK = 'http://www.w3.org/1999/xlink';
  /** Roles that are checked or not. */
  const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

  /**
   * Where a link goes, whole: an HTML link's href as the browser resolves
   * it, or an SVG link's (href, or the older xlink:href, whose property
   * is no string); undefined when it has none.
   * @param {Element} el
   * @returns {string | undefined}
   */
  function hrefOf(el) {
    const raw = el.getAttribute('href') ?? el.getAttributeNS(XLINK, 'href');
    if (raw === null) return undefined;
    if (el.tagName === 'A' || el.tagName === 'AREA') return /** @type {HTMLAnchorElement} */ (el).href || raw;
    try {
      return new URL(raw, el.baseURI).href;
    } catch {
      return raw;
    }
  }

  /**
   * The element's ARIA role: explicit, else implicit; '' for generic.
   * @param {Element} el
   * @returns {string}
   */
  function roleOf(el) {
    const explicit = el.getAttribute('role')?.trim().split(/\s+/)[0];
    if (explicit && LINKS.has(explicit)) return 'link';
    if (explicit && explicit !== 'presentation' && explicit !== 'none') return explicit;
    if (explicit) return '';
    const tag = el.tagName;
    switch (tag) {
      case 'A':
      case 'AREA':
        return el.hasAttribute('href') ? 'link' : '';
      case 'a': // SVG's, in a chart or a diagram
        return hrefOf(el) === undefined ? '' : 'link';
      case 'BUTTON':
        return 'button';
      case 'VIDEO':
      case 'AUDIO':
        // A player a person can start and stop; without controls, a
        // picture that moves.
        return el.hasAttribute('controls') ? tag.toLowerCase() : '';
      case 'INPUT':
        return inputRole(/** @type {HTMLInputElement} */ (el));
      case 'SELECT': {
        const s = /** @type {HTMLSelectElement} */ (el);
        return s.multiple || s.size > 1 ? 'listbox' : 'combobox';
      }
      case 'OPTION':
        return 'option';
      case 'TEXTAREA':
        return 'textbox';
      case 'H1': case 'H2': case 'H3': case 'H4': case 'H5': case 'H6':
        return 'heading';
      case 'NAV':
        return 'navigation';
      case 'MAIN':
        return 'main';
      case 'HEADER':
        return landmarkScoped(el) ? '' : 'banner';
      case 'FOOTER':
        return landmarkScoped(el) ? '' : 'contentinfo';
      case 'ASIDE':
        return 'complementary';
      case 'FORM':
        return hasOwnName(el) ? 'form' : '';
      case 'SECTION':
        return hasOwnName(el) ? 'region' : '';
      case 'SEARCH':
        return 'search';
      case 'UL': case 'OL': case 'MENU':
        return 'list';
      case 'LI':
        return 'listitem';
      case 'DT':
        return 'term';
      case 'DD':
        return 'definition';
      case 'TABLE':
        return 'table';
      case 'TR':
        return 'row';
      case 'TD':
        return 'cell';
      case 'TH':
        return el.closest('thead') || el.getAttribute('scope') === 'col' ? 'columnheader' : 'rowheader';
      case 'IMG':
        return el.getAttribute('alt') === '' ? '' : 'img';
      case 'DIALOG':
        return 'dialog';
      case 'FIELDSET':
        return 'group';
      case 'DETAILS':
        return 'group';
      case 'SUMMARY':
        return 'button';
      case 'PROGRESS':
        return 'progressbar';
      case 'METER':
        return 'meter';
      case 'HR':
        return 'separator';
      case 'FIGURE':
        return 'figure';
      case 'IFRAME':
      case 'FRAME':
        return 'iframe';
      case 'PRE':
        return 'code';
      case 'BLOCKQUOTE':
        return 'blockquote';
      case 'OUTPUT':
        return 'status';
    }
    if (el.hasAttribute('contenteditable') && /** @type {HTMLElement} */ (el).isContentEditable &&
        !el.parentElement?.isContentEditable) {
      return 'textbox';
    }
    if (el.hasAttribute('onclick') || (el.hasAttribute('tabindex') && el.getAttribute('tabindex') !== '-1')) {
      return 'button';
    }
    return '';
  }

  /** @param {HTMLInputElement} el */
  function inputRole(el) {
    switch (el.type) {
      case 'hidden':
        return '';
      case 'checkbox':
        return el.getAttribute('role') === 'switch' ? 'switch' : 'checkbox';
      case 'radio':
        return 'radio';
      case 'range':
        return 'slider';
      case 'number':
        return 'spinbutton';
      case 'button': case 'submit': case 'reset': case 'image':
        return 'button';
      case 'search':
        return el.hasAttribute('list') ? 'combobox' : 'searchbox';
      case 'file':
        return 'button';
      default:
        return el.hasAttribute('list') ? 'combobox' : 'textbox';
    }
  }

  /** A header or footer inside an article or section is not a landmark. @param {Element} el */
  function landmarkScoped(el) {
    return !!el.parentElement?.closest('article, aside, main, nav, section');
  }

  /** @param {Element} el */
  function hasOwnName(el) {
    return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || el.hasAttribute('title');
  }

  /**
   * The accessible name, simplified from accname-1.2: labelledby, label,
   * the control's own labels, content for the roles that take it, alt,
   * placeholder, title.
   * @param {Element} el
   * @param {string} role
   * @returns {string}
   */
  function nameOf(el, role) {
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      const root = /** @type {Document | ShadowRoot} */ (el.getRootNode());
      const text = by.split(/\s+/)
        .map((id) => root.getElementById?.(id) ?? el.ownerDocument.getElementById(id))
        .map((t) => (t ? textOf(t, false) : ''))
        .join(' ');
      if (text.trim()) return clip(text);
    }
    const label = el.getAttribute('aria-label');
    if (label?.trim()) return clip(label);
    if (labelable(el)) {
      const control = /** @type {HTMLInputElement} */ (el);
      const labels = labelsOf(control).map((l) => textOf(l, true, el)).join(' ');
      if (labels.trim()) return clip(labels);
      if (isInput(el)) {
        if (['button', 'submit', 'reset'].includes(el.type)) {
          return clip(el.value || { submit: 'Submit', reset: 'Reset' }[el.type] || '');
        }
        if (el.type === 'image') return clip(el.alt || el.value || 'Submit');
        if (el.type === 'file') return clip(el.title || 'Choose file');
      }
    }
    if (el.tagName === 'FIELDSET') {
      const legend = el.querySelector(':scope > legend');
      if (legend) return clip(textOf(legend, true));
    }
    if (el.tagName === 'TABLE') {
      const caption = /** @type {HTMLTableElement} */ (el).caption;
      if (caption) return clip(textOf(caption, true));
    }
    if (el.tagName === 'FIGURE') {
      const caption = el.querySelector(':scope > figcaption');
      if (caption) return clip(textOf(caption, true));
    }
    if (el.tagName === 'IMG' || el.tagName === 'AREA') {
      const alt = el.getAttribute('alt');
      if (alt?.trim()) return clip(alt);
    }
    if (el.tagName === 'IFRAME') {
      const title = el.getAttribute('title');
      if (title?.trim()) return clip(title);
    }
    if (el.namespaceURI === SVG_NS) {
      // A shape's <title> names it (a chart's bar: "Q1: 80"), as alt does an image.
      const title = el.querySelector(':scope > title')?.textContent;
      if (title?.trim()) return clip(title);
    }
    if (NAME_FROM_CONTENT.has(role)) {
      // A heading's name leaves out the links inside it (they are listed
      // as its children); a link or button takes all its content.
      const text = textOf(el, role !== 'heading') || drawnText(el);
      if (text) return clip(text);
    }
    const placeholder = el.getAttribute('placeholder') ?? el.getAttribute('aria-placeholder');
    if (placeholder?.trim()) return clip(placeholder);
    const title = el.getAttribute('title');
    if (title?.trim()) return clip(title);
    return '';
  }

  /**
   * The text an element shows, for names: text nodes, alt text and labels
   * of its visible descendants, white space collapsed, at most NAME_MAX
   * characters gathered.
   * @param {Element} root
   * @param {boolean | 'links'} intoInteractive whether to include the text
   *   of interactive descendants, or of links only
   * @param {Element} [skip] an element to leave out (a control inside its label)
   */
  function textOf(root, intoInteractive, skip) {
    let out = '';
    /** @param {Node} node */
    const visit = (node) => {
      if (out.length > NAME_MAX) return;
      if (node.nodeType === Node.TEXT_NODE) {
        out += node.nodeValue;
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) return;
      const el = /** @type {Element} */ (node);
      if (el === skip || SKIP.has(el.tagName) || el.getAttribute('aria-hidden') === 'true') return;
      if (el !== root && !visible(el)) return;
      if (el !== root && intoInteractive !== true) {
        const role = roleOf(el);
        if (INTERACTIVE.has(role) && !(intoInteractive === 'links' && role === 'link')) return;
      }
      const label = el !== root ? el.getAttribute('aria-label') : null;
      if (label) {
        out += ` ${label} `;
        return;
      }
      if (el.tagName === 'IMG') {
        out += el.getAttribute('alt') ?? '';
        return;
      }
      if (el.namespaceURI === SVG_NS) {
        // An icon names itself with its <title>, as alt does for an image.
        const title = el.querySelector(':scope > title')?.textContent?.trim();
        if (title) {
          out += ` ${title} `;
          return;
        }
      }
      if (isInput(el) && el !== root && !secretOf(el)) {
        // A box's or a radio's value ("on" unless set) is for the form:
        // no one sees it. A field's is what it shows; a button's, its label.
        if (!UNSEEN_VALUE.has(el.type)) out += ` ${el.value} `;
        return;
      }
      // Blocks, and controls side by side ("I agree" "Cancel"), read apart;
      // so does an element laid out as a block (a screen-reader-only span,
      // which is positioned; the items of a flex row), as Chrome reads it.
      const apart = BLOCK.has(el.tagName) || APART.has(el.tagName) || (el !== root && laidApart(el));
      if (apart) out += ' ';
      // What its style sheet writes around it is part of it, as Chrome
      // names it: "Save " before a button's "draft".
      const [before, after] = drawnIn(el.ownerDocument).has(el) ? drawnAround(el) : ['', ''];
      out += before;
      for (const child of childrenOf(el)) visit(child);
      out += after;
      if (apart) out += ' ';
    };
    visit(root);
    return out.replace(/\s+/g, ' ').trim();
  }

  /**
   * Whether CSS lays el out apart from the text beside it: a block, a flex
   * or grid item (blockified), or an element taken out of the flow.
   * @param {Element} el
   */
  function laidApart(el) {
    const cs = getComputedStyle(el);
    return !cs.display.startsWith('inline') && cs.display !== 'contents' || cs.position === 'absolute' || cs.position === 'fixed';
  }

  /** How many elements drawnText looks at. */
  const DRAWN_MAX = 20;

  /**
   * The words a style sheet draws on el and inside it (::before and
   * ::after content): what names a control whose label is in CSS. An icon
   * font's glyph (a private-use character) is not a word.
   * @param {Element} root
   */
  function drawnText(root) {
    let out = '';
    const walk = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    /** @type {Node | null} */
    let n = root;
    for (let seen = 0; n && seen < DRAWN_MAX; n = walk.nextNode(), seen++) {
      const el = /** @type {Element} */ (n);
      if (el !== root && !visible(el)) continue;
      out += ` ${contentOf(el, '::before')} ${contentOf(el, '::after')} `;
    }
    return clip(out.replace(/[\uE000-\uF8FF]/g, ''));
  }

  /**
   * The text of a pseudo-element's content: its strings and attr() values.
   * @param {Element} el
   * @param {string} pseudo
   */
  function contentOf(el, pseudo) {
    const c = getComputedStyle(el, pseudo).content;
    if (!c || c === 'none' || c === 'normal') return '';
    return contentWords(c, (name) => el.getAttribute(name));
  }

  /**
   * The words a CSS content value writes: its strings and attr() values.
   * An image (url(), image-set(), a gradient) writes none, though its URL
   * is quoted (an icon drawn as `url("data:image/svg+xml,<svg …>")`); its
   * alternative text, after a "/", names it when nothing before writes.
   * Counters and quotes are left out.
   * @param {string} content
   * @param {(name: string) => string | null} attr an attribute of the element
   */
  function contentWords(content, attr) {
    const FUNCTION = /([\w-]+)\(/y;
    const parts = ['', ''];
    let part = 0;
    for (let i = 0; i < content.length;) {
      const c = content[i];
      if (c === '"' || c === "'") {
        const end = stringEnd(content, i);
        // Serialized, a string escapes its quote, its backslashes and its
        // control characters (a line break is "\a ").
        parts[part] += content.slice(i + 1, end).replace(/\\([0-9a-fA-F]{1,6}) ?|\\(.)/g,
          (_, hex, ch) => hex ? String.fromCodePoint(Math.min(parseInt(hex, 16), 0xfffd)) : ch);
        i = end + 1;
      } else if (c === '/') {
        part = 1;
        i++;
      } else {
        FUNCTION.lastIndex = i;
        const fn = FUNCTION.exec(content);
        if (!fn) {
          i++;
          continue;
        }
        const end = parenEnd(content, i + fn[0].length);
        if (fn[1] === 'attr') parts[part] += attr(content.slice(i + fn[0].length, end).trim().split(/[\s,]/)[0]) ?? '';
        i = end + 1;
      }
    }
    return parts[0].trim() ? parts[0] : parts[1];
  }

  /**
   * Where the string that opens at s[start] closes (its quote's index).
   * @param {string} s
   * @param {number} start
   */
  function stringEnd(s, start) {
    let i = start + 1;
    while (i < s.length && s[i] !== s[start]) i += s[i] === '\\' ? 2 : 1;
    return i;
  }

  /**
   * Where the parenthesis open before s[start] closes, past the strings
   * and parentheses inside.
   * @param {string} s
   * @param {number} start
   */
  function parenEnd(s, start) {
    let depth = 1;
    let i = start;
    for (; i < s.length; i++) {
      if (s[i] === '"' || s[i] === "'") i = stringEnd(s, i);
      else if (s[i] === '(') depth++;
      else if (s[i] === ')' && --depth === 0) break;
    }
    return i;
  }

  /**
   * Whether a content value writes words: an attr(), or a string that is
   * more than an icon font's glyphs (private-use characters).
   * @param {string} content
   */
  const writes = (content) => /attr\(/.test(content) ||
    contentWords(content, () => 'x').replace(/[\uE000-\uF8FF\s]/g, '') !== '';
  /** A ::before or ::after (or CSS2's :before), and what follows it. */
  const PSEUDO = /::?(?:before|after)\b.*$/i;

  /**
   * The elements of doc whose ::before or ::after a style sheet may give
   * words (a "NEW" badge, a table cell's label on a phone, a required
   * field's asterisk): asking every element's pseudo-elements costs a read
   * of a long page half its time, and the sheets say which can have any.
   * A sheet from another origin cannot be read; what it draws is missed.
   * @param {Document} doc
   * @returns {Set<Element>}
   */
  function drawnOn(doc) {
    /** @type {string[]} */
    const selectors = [];
    /** @param {CSSRuleList} rules */
    const collect = (rules) => {
      for (const r of rules) {
        if (r instanceof CSSImportRule) {
          if (r.styleSheet) sheet(r.styleSheet);
        } else if (r instanceof CSSStyleRule) {
          if (PSEUDO.test(r.selectorText) && writes(r.style.content)) {
            for (const one of splitSelectors(r.selectorText)) {
              const base = one.replace(PSEUDO, '').trim();
              selectors.push(!base || /[>+~]$/.test(base) ? `${base} *`.trim() : base);
            }
          }
          if (r.cssRules?.length) collect(r.cssRules); // nested rules
        } else if ('cssRules' in r) {
          collect(/** @type {CSSGroupingRule} */ (r).cssRules); // @media, @supports, @layer
        }
      }
    };
    /** @param {CSSStyleSheet} s */
    const sheet = (s) => {
      try {
        collect(s.cssRules);
      } catch {
        // another origin's
      }
    };
    for (const s of doc.styleSheets) sheet(s);
    for (const s of doc.adoptedStyleSheets ?? []) sheet(s);
    /** @type {Set<Element>} */
    const out = new Set();
    /** @param {string} sel */
    const add = (sel) => {
      for (const el of doc.querySelectorAll(sel)) out.add(el);
    };
    if (!selectors.length) return out;
    try {
      add(selectors.join(','));
    } catch {
      // One selector this browser parses only with its pseudo-element
      // spoils the list; the others still count.
      for (const sel of selectors) {
        try {
          add(sel);
        } catch {
          // that one
        }
      }
    }
    return out;
  }

  /**
   * A selector list's selectors: split at its commas, not those inside
   * :is(a, b) or an attribute's value.
   * @param {string} list
   */
  function splitSelectors(list) {
    const out = [];
    let depth = 0;
    let quote = '';
    let start = 0;
    for (let i = 0; i < list.length; i++) {
      const c = list[i];
      if (quote) {
        if (c === '\\') i++;
        else if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') depth--;
      else if (c === ',' && depth === 0) {
        out.push(list.slice(start, i));
        start = i + 1;
      }
    }
    out.push(list.slice(start));
    return out;
  }

  // The elements a style sheet may write words around (drawnOn), found once
  // per call, by the walk or by the first name that asks (page/entry.js
  // ends each call with endCall, which lets them go).
  /** @type {Map<Document, Set<Element>> | undefined} */
  let drawnCache;

  /** @param {Document} doc */
  function drawnIn(doc) {
    drawnCache ??= new Map();
    let drawn = drawnCache.get(doc);
    if (!drawn) drawnCache.set(doc, drawn = drawnOn(doc));
    return drawn;
  }

  /**
   * What el's ::before and ::after write, as text next to its own: an
   * icon font's glyph (a private-use character) is not a word, and a
   * pseudo-element drawn as a block, or set off by a margin or padding (a
   * "New" badge after "Inbox"), stands apart from the text around it.
   * @param {Element} el
   * @returns {[string, string]}
   */
  function drawnAround(el) {
    /** @param {string} pseudo @param {'Left' | 'Right'} facing */
    const one = (pseudo, facing) => {
      const t = contentOf(el, pseudo).replace(/[\uE000-\uF8FF]/g, '');
      if (!t.trim()) return '';
      const style = getComputedStyle(el, pseudo);
      const apart = !style.display.startsWith('inline') ||
        parseFloat(style[`margin${facing}`]) > 0 || parseFloat(style[`padding${facing}`]) > 0;
      return apart ? ` ${t} ` : t;
    };
    return [one('::before', 'Right'), one('::after', 'Left')];
  }

  /** @param {string} s */
  function clip(s) {
    const t = s.replace(/\s+/g, ' ').trim();
    return t.length > NAME_MAX ? `${t.slice(0, NAME_MAX)}…` : t;
  }

  // A closed shadow root is hidden from the page's scripts, not from the
  // person: they see what it draws. The isolated world may read it.
  const openOrClosed = globalThis.chrome?.dom?.openOrClosedShadowRoot;
  // The elements attachShadow accepts besides custom ones: asking the
  // extension API of every other element of a long page costs a walk time.
  const HOSTS = new Set(['ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BODY', 'DIV', 'FOOTER', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6',
    'HEADER', 'MAIN', 'NAV', 'P', 'SECTION', 'SPAN']);

  /**
   * el's shadow root, open or closed; never the banner's, which is ours.
   * @param {Element} el
   * @returns {ShadowRoot | null}
   */
  function shadowOf(el) {
    if (el.shadowRoot) return el.shadowRoot;
    if (!openOrClosed || el.tagName === BANNER || !(el.tagName.includes('-') || HOSTS.has(el.tagName))) return null;
    let root = asked?.get(el);
    if (root === undefined) {
      root = /** @type {ShadowRoot | null} */ (openOrClosed(/** @type {HTMLElement} */ (el)));
      asked?.set(el, root);
    }
    return root;
  }

  /**
   * Whether inner is outer or lies inside it, through the shadow roots
   * between them (contains stops at a shadow root).
   * @param {Element} outer
   * @param {Element} inner
   */
  function composedContains(outer, inner) {
    for (let n = /** @type {Node | null} */ (inner); n; ) {
      if (n === outer) return true;
      n = n.parentNode ?? (n.nodeType === Node.DOCUMENT_FRAGMENT_NODE ? /** @type {ShadowRoot} */ (n).host ?? null : null);
    }
    return false;
  }

  /**
   * The shadow roots in root (an element's own too), and those in them
   * (shadowOf's, open or closed): a web component's dialog or toast is one
   * a person sees.
   * @param {Document | ShadowRoot | Element} root
   * @returns {ShadowRoot[]}
   */
  function shadowRootsIn(root) {
    /** @type {ShadowRoot[]} */
    const out = [];
    const els = root.nodeType === Node.ELEMENT_NODE ? [/** @type {Element} */ (root), ...root.querySelectorAll('*')] : root.querySelectorAll('*');
    for (const el of els) {
      const shadow = shadowOf(el);
      if (shadow) out.push(shadow, ...shadowRootsIn(shadow));
    }
    return out;
  }

  /**
   * The children to walk: a shadow root's, a slot's assigned nodes, an
   * element's own otherwise.
   * @param {Element} el
   * @returns {Iterable<Node>}
   */
  function childrenOf(el) {
    const shadow = shadowOf(el);
    if (shadow) return shadow.childNodes;
    if (el.tagName === 'SLOT') {
      const assigned = /** @type {HTMLSlotElement} */ (el).assignedNodes({ flatten: true });
      if (assigned.length) return assigned;
    }
    return el.childNodes;
  }

  /**
   * Whether a person sees el or could click it: not hidden by display,
   * content-visibility or visibility, and not both transparent and passed
   * through by clicks (a menu or modal faded out with opacity: 0;
   * pointer-events: none). A transparent element that takes clicks (a file
   * input laid over the button a page draws) is one a person uses, when it
   * has a box to click.
   * @param {Element} el
   * @returns {boolean}
   */
  function visible(el) {
    // An image map's area has no box: a person sees it as part of its image.
    if (el.tagName === 'AREA') {
      const img = mapImage(el);
      return !!img && visible(img);
    }
    // checkVisibility is one native call: display:none anywhere above,
    // content-visibility, visibility:hidden, opacity 0 anywhere above.
    if (el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return !scaledAway(el) && !trapField(el);
    if (el.checkVisibility({ visibilityProperty: true })) {
      // Transparent and of no size, a bot's trap (a honeypot field): no
      // person sees it or can click it.
      if (!el.firstElementChild) {
        const r = el.getBoundingClientRect();
        if (r.width <= 0 || r.height <= 0) return false;
      }
      return getComputedStyle(el).pointerEvents !== 'none' && !scaledAway(el);
    }
    if (getComputedStyle(el).display !== 'contents') return false;
    // No box of its own, so never "visible" to checkVisibility (a slot, a
    // wrapper a layout dissolves): it shows as what holds it does, and what
    // it holds is looked at in turn.
    const up = el.parentElement ?? /** @type {ShadowRoot | null} */ (el.parentNode?.nodeType === Node.DOCUMENT_FRAGMENT_NODE ? el.parentNode : null)?.host;
    return !up || visible(up);
  }

  /**
   * Whether el is a text field drawn nowhere a person could see it — a box
   * of a pixel or less (clipped away, as text for screen readers is), or
   * wholly above or left of the page, where no scrolling reaches — and kept
   * from the keyboard too (tabindex -1, aria-hidden): a bot's trap (a
   * honeypot), which no person fills, and a form filled into it is thrown
   * away as a bot's. A field a person reaches by Tab, though hidden till
   * then, is not one.
   * @param {Element} el
   */
  function trapField(el) {
    if (!(isTextArea(el) || (isInput(el) && !UNTYPED.has(el.type))) || editorInput(el)) return false;
    const tabindex = el.getAttribute('tabindex');
    if (!(tabindex !== null && Number.parseInt(tabindex, 10) < 0) && !el.closest('[aria-hidden="true"]')) return false;
    const r = el.getBoundingClientRect();
    const view = el.ownerDocument.defaultView;
    if ((r.width <= 1 && r.height <= 1) || r.right + (view?.scrollX ?? 0) <= 0 || r.bottom + (view?.scrollY ?? 0) <= 0) return true;
    // Clipped to nothing by itself or a box around it (clip: rect(0 0 0 0),
    // which text for screen readers is given).
    for (let e = /** @type {Element | null} */ (el); e; e = e.parentElement) if (clippedToNothing(getComputedStyle(e))) return true;
    return false;
  }

  /**
   * Whether a positioned element's clip rectangle has no area, as text for
   * screen readers is given (clip: rect(0 0 0 0)): nothing of it shows.
   * @param {CSSStyleDeclaration} cs its computed style
   */
  function clippedToNothing(cs) {
    if ((cs.position !== 'absolute' && cs.position !== 'fixed') || !cs.clip.startsWith('rect(')) return false;
    // rect(top, right, bottom, left)
    const [top, right, bottom, left] = cs.clip.slice(5, -1).split(/[\s,]+/).map(parseFloat);
    return bottom <= top || right <= left;
  }

  /** Code editors that take keys in a textarea of their own and draw the text elsewhere. */
  const EDITORS = '.ace_editor, .monaco-editor, .CodeMirror';

  /**
   * Whether el is the textarea a code editor (Ace, Monaco, CodeMirror 5)
   * hides to take a person's keys: what it holds is not the editor's text,
   * which the editor draws beside it, a line at a time. Selecting its own
   * text selects none of the editor's.
   * @param {Element} el
   */
  function editorInput(el) {
    return isTextArea(el) && !!el.closest(EDITORS);
  }

  /**
   * The controls a page hides by scaling them to nothing (a floating action
   * button that exits so): read_page leaves them out, as a click finds no
   * box to press. A panel scaled so is clipsAll's.
   */
  /** Input types whose value is not shown in the page. */
  const UNSEEN_VALUE = new Set(['checkbox', 'radio', 'hidden']);

  const SCALED = new Set(['BUTTON', 'A', 'INPUT', 'SELECT', 'TEXTAREA', 'IMG']);

  /** @param {Element} el */
  function scaledAway(el) {
    if (!SCALED.has(el.tagName)) return false;
    const cs = getComputedStyle(el);
    // A transform does nothing to a link laid out inline, in a line of
    // text; the others are replaced elements, which it always moves.
    return (el.tagName !== 'A' || cs.display !== 'inline') && flattened(cs);
  }

  /**
   * Whether el draws none of its content but the elements that say they
   * show (a closed details's summary): its text a person does not see. A
   * canvas or a player draws its picture, and a progress bar or a meter
   * its bar, not the words put in it for browsers that cannot.
   * @param {Element} el
   */
  function drawsNoContent(el) {
    const tag = el.tagName;
    return FALLBACK.has(tag) || (tag === 'DETAILS' && !(/** @type {HTMLDetailsElement} */ (el).open)) ||
      el.getAttribute('hidden') === 'until-found';
  }

  /**
   * Whether el shows none of what it holds: it has no width or no height
   * and clips what overflows it, as a collapsed accordion's panel
   * (max-height: 0; overflow: hidden) does. checkVisibility says such
   * content is visible; a person sees none of it. Not the body or the
   * root: their overflow is the viewport's, and a body with no height
   * (an app drawn in a fixed or absolute root) still shows it all.
   * @param {Element} el
   */
  function clipsAll(el) {
    if (!el.firstChild || INLINE.has(el.tagName)) return false;
    const doc = el.ownerDocument;
    if (el === doc.body || el === doc.documentElement) return false;
    // The style first: this is asked of every element read_page walks, and
    // reading a box costs twice what reading a style does; few clip.
    const cs = getComputedStyle(el);
    if (flattened(cs)) return true;
    if (cs.overflowX === 'visible' && cs.overflowY === 'visible') return false;
    if (cs.display === 'contents' || cs.display.startsWith('inline')) return false;
    const r = el.getBoundingClientRect();
    return r.width <= 0 || r.height <= 0;
  }

  /**
   * What is drawn out of el, a panel that shows none of what it holds
   * (clipsAll): the elements fixed to the viewport, and those absolutely
   * positioned against a containing block outside it (a chat button a
   * collapsed bar draws in a corner). Nothing escapes a panel flattened by
   * a transform: a transform contains fixed elements too.
   * @param {Element} el
   * @returns {Element[]}
   */
  function drawnOutOf(el) {
    /** @type {Element[]} */
    const out = [];
    const walk = (/** @type {Element} */ e, /** @type {boolean} */ contained) => {
      for (const child of childrenOf(e)) {
        if (child.nodeType !== Node.ELEMENT_NODE) continue;
        const c = /** @type {Element} */ (child);
        const cs = getComputedStyle(c);
        if (cs.display === 'none') continue;
        if (cs.position === 'fixed' || (cs.position === 'absolute' && !contained)) out.push(c);
        else walk(c, contained || containsAbsolute(cs));
      }
    };
    const cs = getComputedStyle(el);
    if (!flattened(cs)) walk(el, containsAbsolute(cs));
    return out;
  }

  /**
   * Whether el is a pane a person scrolls to see more of what it holds (a
   * message list, a sidebar, a virtual list that draws rows as they come
   * into view): it scrolls up and down, and what it holds is taller than
   * it. Not the body or the root: theirs is the page's own scroll. Not
   * sideways: a wide code block's lines are read whole already.
   * @param {Element} el
   */
  function scrolls(el) {
    if (!el.firstChild || INLINE.has(el.tagName)) return false;
    const doc = el.ownerDocument;
    if (el === doc.body || el === doc.documentElement) return false;
    const y = getComputedStyle(el).overflowY;
    return (y === 'auto' || y === 'scroll' || y === 'overlay') && el.scrollHeight > el.clientHeight + 1;
  }

  /**
   * Whether a transform squashes an element flat (scale(0) on either axis,
   * or turned edge-on), as a menu or a tooltip is hidden by scaling it
   * down: it and everything in it, fixed or absolute, are drawn in no area.
   * checkVisibility says they are visible. So is what content-visibility:
   * hidden keeps from being drawn; checkVisibility knows that, but asking
   * each element in it for its style makes Chrome lay it out and log so.
   * @param {CSSStyleDeclaration} cs the element's computed style
   */
  function flattened(cs) {
    if (cs.contentVisibility === 'hidden') return true;
    const t = cs.transform;
    if (t && t !== 'none') {
      const m = t.slice(t.indexOf('(') + 1, -1).split(',').map(Number);
      // matrix(a, b, c, d, e, f), or matrix3d with the same plane first.
      const [a, b, c, d] = t.startsWith('matrix3d') ? [m[0], m[1], m[4], m[5]] : m;
      if (Math.abs(a * d - b * c) < 1e-6) return true;
    }
    const scale = cs.scale;
    return !!scale && scale !== 'none' && scale.split(' ').some((v) => Number.parseFloat(v) === 0);
  }

  /**
   * The element el is laid out in: its slot when it is slotted, the host
   * of the shadow root it is the top of.
   * @param {Element} el
   * @returns {Element | null}
   */
  function layoutParent(el) {
    return el.assignedSlot ?? el.parentElement ?? /** @type {ShadowRoot | null} */ (el.parentNode)?.host ?? null;
  }

  /**
   * Whether el is a containing block for the absolutely positioned
   * elements in it: they are drawn, and clipped, within it.
   * @param {CSSStyleDeclaration} cs el's computed style
   */
  function containsAbsolute(cs) {
    return cs.position !== 'static' || cs.transform !== 'none';
  }

  /**
   * Whether an ancestor that shows none of what it holds (clipsAll) hides
   * el. Only the ancestors el's containing blocks pass through clip it:
   * an absolutely positioned element escapes those inside its positioned
   * one, a fixed one escapes all but a transformed one (a menu drawn out
   * of a collapsed bar still shows).
   * @param {Element} el
   * @param {Map<Element, boolean>} [memo] clipsAll's answers, kept across calls
   */
  function clippedAway(el, memo) {
    // A code editor's textarea kept in a box of no size (CodeMirror 5's) is
    // where the editor's keys go, not something hidden.
    if (editorInput(el)) return false;
    const clips = (/** @type {Element} */ a) => {
      let v = memo?.get(a);
      if (v === undefined) {
        v = clipsAll(a);
        memo?.set(a, v);
      }
      return v;
    };
    // Most elements are in no such panel: say so before reading any style.
    let any = false;
    for (let a = layoutParent(el); a && !any; a = layoutParent(a)) any = clips(a);
    if (!any) return false;
    let absolute = false;
    let fixed = false;
    for (let e = el, a = layoutParent(el); a; e = a, a = layoutParent(a)) {
      const position = getComputedStyle(e).position;
      if (position === 'fixed') fixed = true;
      else if (position === 'absolute') absolute = true;
      // A fixed element is drawn and clipped within a transformed ancestor.
      if (fixed && getComputedStyle(a).transform === 'none') continue;
      if (absolute && !fixed && !containsAbsolute(getComputedStyle(a))) continue;
      absolute = fixed = false;
      if (clips(a)) return true;
    }
    return false;
  }

  /**
   * The image an area's map is drawn on; null when no image uses the map.
   * @param {Element} area
   * @returns {HTMLImageElement | null}
   */
  function mapImage(area) {
    const map = area.closest('map');
    const name = map?.getAttribute('name') || map?.id;
    if (!name) return null;
    for (const img of area.ownerDocument.querySelectorAll('img[usemap]')) {
      if (img.getAttribute('usemap') === `#${name}`) return /** @type {HTMLImageElement} */ (img);
    }
    return null;
  }

  /**
   * The label a person clicks for a checkbox, radio or file input that the
   * page hides (display:none, hidden) to draw its own in the label: that
   * label is the control as a person sees it. Undefined for any other
   * element, or when no label of it shows.
   * @param {Element} el
   * @returns {HTMLLabelElement | undefined}
   */
  function shownLabel(el) {
    if (!isInput(el) || !['checkbox', 'radio', 'file'].includes(el.type)) return undefined;
    for (const label of labelsOf(el)) if (visible(label)) return label;
    return undefined;
  }

  /**
   * Whether el is where the hand cursor starts: it shows cursor:pointer and
   * its parent another, so el is the thing a person would click, not text
   * inside it.
   * @param {Element} el
   */
  function startsPointer(el) {
    if (getComputedStyle(el).cursor !== 'pointer') return false;
    const parent = el.parentElement ?? /** @type {ShadowRoot | null} */ (el.parentNode)?.host;
    return !parent || getComputedStyle(parent).cursor !== 'pointer';
  }

  /**
   * Whether an aria-invalid value says invalid: "true", "grammar",
   * "spelling"; not absent, "" or "false".
   * @param {string | null} v
   */
  function isInvalid(v) {
    return v !== null && v !== '' && v !== 'false';
  }

  /**
   * Why a control's value must not be shown: 'password', 'secret', or ''.
   * @param {Element} el
   */
  function secretOf(el) {
    if (!(isInput(el) || isTextArea(el))) return '';
    if (isInput(el) && el.type === 'password') return 'password';
    const ac = (el.getAttribute('autocomplete') ?? '').toLowerCase();
    if (/password|one-time-code|cc-number|cc-csc|cc-exp/.test(ac)) return 'secret';
    const id = `${el.name} ${el.id}`.toLowerCase();
    if (/pass(word|wd|code)?\b|pwd|secret|token|otp|\bpin\b|cvv|cvc|ssn|api[-_]?key/.test(id)) return 'secret';
    // Drawn as dots by its style sheet, as a password field is.
    if (/^(disc|circle|square)$/.test(getComputedStyle(el).getPropertyValue('-webkit-text-security'))) return 'password';
    // A password field its "show" button turned into text: a person reads
    // "Password" beside it.
    const said = labelsOf(el).map((l) => l.textContent).join(' ') + ` ${el.getAttribute('aria-label') ?? ''} ${el.getAttribute('placeholder') ?? ''}`;
    if (/\b(password|passcode|passphrase|pin|cvv|cvc|security code)\b/i.test(said)) return 'secret';
    return '';
  }

  /**
   * The options a person can pick from a closed select's list, by label;
   * undefined for anything else. The list is the browser's own, drawn
   * outside the page, so the select itself says what it offers. Hidden and
   * disabled options cannot be picked.
   * @param {Element} el
   * @returns {string[] | undefined}
   */
  function choicesOf(el) {
    if (!isSelect(el) || el.multiple || el.size > 1) return undefined;
    return [...el.options].filter((o) => !o.disabled && !o.hidden && !o.closest('optgroup[disabled]'))
      .map((o) => clip(o.label || o.text)).filter(Boolean);
  }

  /**
   * A control's current value, when it has one worth showing: at most
   * VALUE_MAX characters of a text, or, whole, all of it (what fill checks
   * the field kept).
   * @param {Element} el
   * @param {string} role
   * @param {boolean} [whole]
   * @returns {string | undefined}
   */
  function valueOf(el, role, whole = false) {
    const cut = whole ? (/** @type {string} */ v) => v : clipped;
    if (isSelect(el)) {
      const picked = [...el.selectedOptions].map((o) => o.label || o.text);
      return el.multiple ? picked.join(', ') : picked[0];
    }
    if (isInput(el)) {
      if (['checkbox', 'radio', 'button', 'submit', 'reset', 'image'].includes(el.type)) return undefined;
      if (el.type === 'file') return el.files?.length ? `${el.files.length} file(s)` : undefined;
      return el.value ? cut(el.value) : undefined;
    }
    if (isTextArea(el)) return el.value && !editorInput(el) ? cut(el.value) : undefined;
    if (role === 'textbox' && /** @type {HTMLElement} */ (el).isContentEditable) {
      const t = /** @type {HTMLElement} */ (el).innerText.trim();
      return t ? cut(t) : undefined;
    }
    if (isGauge(el)) return String(el.value);
    if (role === 'video' || role === 'audio') return playing(/** @type {HTMLMediaElement} */ (el));
    if (role === 'combobox' && !el.querySelector('input, textarea, [contenteditable]')) {
      // A combobox drawn with elements shows its choice as its text.
      const t = /** @type {HTMLElement} */ (el).innerText?.trim().replace(/\s+/g, ' ');
      if (t) return cut(t);
    }
    const now = el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow');
    return now ?? undefined;
  }

  /**
   * Where a player is: "playing 0:12 / 2:31", "paused 0:00", ", muted".
   * @param {HTMLMediaElement} m
   */
  function playing(m) {
    const time = (/** @type {number} */ t) => {
      const s = Math.floor(t);
      const h = Math.floor(s / 3600);
      const mm = String(Math.floor(s / 60) % 60);
      const ss = String(s % 60).padStart(2, '0');
      return h ? `${h}:${mm.padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
    };
    const at = `${m.paused ? 'paused' : 'playing'} ${time(m.currentTime || 0)}`;
    const of = Number.isFinite(m.duration) ? ` / ${time(m.duration)}` : '';
    return `${at}${of}${m.muted ? ', muted' : ''}`;
  }

  /**
   * Whether a control a person sees and can focus refuses typing: a
   * readonly input or textarea (the attribute means nothing to checkboxes,
   * buttons, ranges or colours), or aria-readonly.
   * @param {Element} el
   * @returns {boolean}
   */
  function readOnly(el) {
    if (isInput(el)) {
      return el.readOnly && !UNTYPED.has(el.type);
    }
    if (isTextArea(el)) return el.readOnly;
    return el.getAttribute('aria-readonly') === 'true';
  }

  /** @param {string} v */
  function clipped(v) {
    return v.length > VALUE_MAX ? `${v.slice(0, VALUE_MAX)}…` : v;
  }

  /**
   * Whether el takes no input now: disabled itself or by the fieldset
   * around it (:disabled), said to be (aria-disabled), or inside an inert
   * subtree, which no click or focus reaches.
   * @param {Element} el
   */
  function isDisabled(el) {
    if (el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true') return true;
    for (let e = /** @type {Element | null} */ (el); e; e = e.parentElement ?? /** @type {ShadowRoot | null} */ (e.parentNode)?.host ?? null) {
      if (/** @type {HTMLElement} */ (e).inert) return true;
    }
    return false;
  }

  /**
   * Whether a person sees an aria-hidden element: assistive technology
   * skips it, but a person sees its box when it has one where the page can
   * be scrolled to (not parked at -9999px, as text for no one is). Its
   * buttons are as clickable as any.
   * @param {Element} el
   */
  function seenThoughAriaHidden(el) {
    if (!el.checkVisibility({ opacityProperty: true })) return false; // faded out: no one sees it
    const r = el.getBoundingClientRect();
    const view = el.ownerDocument.defaultView;
    return r.width > 0 && r.height > 0 && r.right + (view?.scrollX ?? 0) > 0 && r.bottom + (view?.scrollY ?? 0) > 0;
  }

  /** A short, safe description of an element: role or tag, and its name. @param {Element} el */
  function describe(el) {
    const role = roleOf(el) || el.tagName.toLowerCase();
    // A dialog a person knows by its title, or else by what it says: its
    // buttons are not its name.
    const dialog = role === 'dialog' || role === 'alertdialog';
    const title = dialog ? el.querySelector(HEADINGS) : null;
    const said = title && visible(title) ? title : el;
    const name = nameOf(el, role) || words((dialog && clip(textOf(said, false))) || clip(textOf(said, true)), 40);
    if (name) return `${role} "${name}"`;
    // A nameless frame (a consent manager's, an ad's) by where it is from.
    const src = isFrame(el) ? /** @type {HTMLIFrameElement} */ (el).src : '';
    const host = /^https?:/.test(src) ? new URL(src).host : '';
    return host ? `${role} from ${host}` : role;
  }

  /**
   * Where a frame element whose document this script cannot walk shows it,
   * for the service worker to find that document among the tab's frames:
   * its URL as Chrome reports the frame's (about:srcdoc for a srcdoc), and
   * its path from the top window (its place among its window's frames, that
   * window's among its parent's, and so on up), which the frame's own
   * script can tell too. The path tells apart frames of one URL (two
   * srcdocs, one of them sandboxed) and finds a frame inside a same-origin
   * frame read in place. A frame in a shadow root is among no window's
   * frames: it has no path.
   * @param {Element} el
   * @returns {{ url: string, path?: number[] }}
   */
  function frameSource(el) {
    const f = /** @type {HTMLIFrameElement} */ (el);
    const url = f.hasAttribute('srcdoc') ? 'about:srcdoc' : f.src || 'about:blank';
    const path = f.contentWindow ? framePath(f.contentWindow) : undefined;
    return path ? { url, path } : { url };
  }

  /**
   * A window's place among its parent's frames, its parent's among its
   * grandparent's, and so on, from the top; undefined when one is not
   * there. The service worker asks a frame for its own (sw/page-script.js
   * framePath, a copy of this).
   * @param {Window} win
   * @returns {number[] | undefined}
   */
  function framePath(win) {
    const path = [];
    for (let w = win; w !== w.parent; w = w.parent) {
      const up = w.parent;
      let i = 0;
      while (i < up.frames.length && up.frames[i] !== w) i++;
      if (i === up.frames.length) return undefined;
      path.unshift(i);
    }
    return path;
  }

  /**
   * s cut to at most max characters, at the end of a word, marked cut.
   * @param {string} s
   * @param {number} max
   */
  function words(s, max) {
    if (s.length <= max) return s;
    const cut = s.slice(0, max);
    const space = cut.lastIndexOf(' ');
    return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?…-]+$/, '')}…`;
  }

  /**
   * The number of each item of a numbered list: from its start (or, when
   * reversed, its length) on, an item's value attribute setting its own.
   * @param {HTMLOListElement} ol
   * @returns {Map<Element, number>}
   */
  function numbersOf(ol) {
    const items = [...ol.children].filter((c) => c.tagName === 'LI' && getComputedStyle(c).display === 'list-item');
    const start = ol.getAttribute('start');
    let n = start !== null && Number.isFinite(parseInt(start, 10)) ? parseInt(start, 10) : ol.reversed ? items.length : 1;
    const out = new Map();
    for (const li of items) {
      const v = parseInt(li.getAttribute('value') ?? '', 10);
      if (Number.isFinite(v)) n = v;
      out.set(li, n);
      n += ol.reversed ? -1 : 1;
    }
    return out;
  }

  /**
   * The marker of item n in a list-style-type: "3.", "c.", "iii.";
   * undefined for none and for bullets.
   * @param {number} n
   * @param {string} type
   */
  function markerOf(n, type) {
    switch (type) {
      case 'none': case 'disc': case 'circle': case 'square': case 'disclosure-open': case 'disclosure-closed':
        return undefined;
      case 'decimal-leading-zero':
        return `${n < 10 && n >= 0 ? '0' : ''}${n}.`;
      case 'lower-alpha': case 'lower-latin':
        return n > 0 ? `${alpha(n)}.` : `${n}.`;
      case 'upper-alpha': case 'upper-latin':
        return n > 0 ? `${alpha(n).toUpperCase()}.` : `${n}.`;
      case 'lower-roman':
        return n > 0 && n < 4000 ? `${roman(n).toLowerCase()}.` : `${n}.`;
      case 'upper-roman':
        return n > 0 && n < 4000 ? `${roman(n)}.` : `${n}.`;
      default:
        return `${n}.`;
    }
  }

  /** 1 a, 26 z, 27 aa. @param {number} n */
  function alpha(n) {
    let s = '';
    for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(97 + ((k - 1) % 26)) + s;
    return s;
  }

  /** @param {number} n */
  function roman(n) {
    const steps = /** @type {Array<[number, string]>} */ ([[1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'],
      [90, 'XC'], [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']]);
    let s = '';
    let k = n;
    for (const [v, r] of steps) for (; k >= v; k -= v) s += r;
    return s;
  }

  oc.roles = {
    isElement, isInput, isTextArea, isSelect, isLabel, isOption, isFrame, beginCall, endCall, keepShadows, hrefOf,
    BANNER, SKIP, INTERACTIVE, STRUCTURE, CHECKABLE, SVG_NS, XLINK, HEADINGS, SECTION, BLOCK, INLINE, APART, UNTYPED,
    inBanner, roleOf, nameOf, hasOwnName, textOf, clip, words, shadowOf, composedContains, shadowRootsIn, childrenOf, numbersOf, markerOf, visible, clippedToNothing, clipsAll, flattened, drawnOutOf, scrolls, drawsNoContent, containsAbsolute, clippedAway, layoutParent, mapImage, seenThoughAriaHidden, isDisabled, startsPointer, shownLabel, secretOf, isInvalid, valueOf, choicesOf, readOnly, describe, frameSource,
    drawnOn, drawnIn, drawnAround, splitSelectors, contentWords, editorInput,
  };
})();
