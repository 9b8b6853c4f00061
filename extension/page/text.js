// @ts-check
// text: the readable main content as Markdown; crawl: what a crawl keeps of
// a page.

(() => {
  const oc = /** @type {PageNamespace} */ (globalThis.__openchrome);
  if (oc.text) return; // injected again: the first copy stays
  const {
    isElement, SKIP, BLOCK, inBanner, childrenOf, visible, clipsAll, drawnOutOf, drawsNoContent, seenThoughAriaHidden, numbersOf, markerOf, drawnIn, drawnAround, hrefOf, XLINK,
  } = oc.roles;
  const CONTROL_BOXES = new Set(['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA']);

  /**
   * The readable main content as Markdown.
   */
  function text() {
    const root = document.querySelector('main, [role="main"], article') ?? document.body;
    const md = new Markdown(location.href);
    if (root) md.block(root);
    return { url: location.href, title: document.title, markdown: md.done(), ...(document.contentType === 'application/pdf' ? { pdf: true } : {}) };
  }

  class Markdown {
    /** @param {string} base */
    constructor(base) {
      this.base = base;
      /** @type {string[]} */
      this.out = [];
      this.line = '';
      this.indent = '';
      /** Elements a style sheet may write words around (roles.drawnIn). */
      this.drawn = drawnIn(document);
    }

    /**
     * What a style sheet writes before and after el's own content.
     * @param {Node} node
     * @returns {[string, string]}
     */
    around(node) {
      return isElement(node) && this.drawn.has(/** @type {Element} */ (node)) ? drawnAround(/** @type {Element} */ (node)) : ['', ''];
    }

    flush() {
      const t = this.line.replace(/[ \t]+/g, ' ').trim();
      if (t) this.out.push(this.indent + t);
      this.line = '';
    }

    gap() {
      this.flush();
      if (this.out.length && this.out[this.out.length - 1] !== '') this.out.push('');
    }

    /** @param {Node} node */
    block(node) {
      const [before, after] = this.around(node);
      this.line += before;
      for (const child of isElement(node) ? shownChildren(/** @type {Element} */ (node)) : node.childNodes) this.node(child);
      this.line += after;
    }

    /** @param {Node} node */
    node(node) {
      if (node.nodeType === Node.TEXT_NODE) {
        this.line += (node.nodeValue ?? '').replace(/\s+/g, ' ');
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) return;
      const el = /** @type {Element} */ (node);
      if (SKIP.has(el.tagName) || (el.getAttribute('aria-hidden') === 'true' && !seenThoughAriaHidden(el)) || !visible(el)) return;
      // A collapsed panel (max-height: 0, overflow: hidden) shows none of
      // its words, but those drawn out of it.
      if (clipsAll(el)) {
        for (const c of drawnOutOf(el)) this.node(c);
        return;
      }
      const tag = el.tagName;
      if (/^H[1-6]$/.test(tag)) {
        this.gap();
        this.out.push(`${'#'.repeat(Number(tag[1]))} ${this.inline(el)}`);
        this.gap();
        return;
      }
      switch (tag) {
        case 'P': case 'DIV': case 'SECTION': case 'ARTICLE': case 'MAIN': case 'HEADER': case 'FOOTER':
        case 'ASIDE': case 'NAV': case 'FORM': case 'FIELDSET': case 'FIGURE': case 'DETAILS':
          this.gap();
          this.block(el);
          this.gap();
          return;
        case 'BR':
          this.flush();
          return;
        case 'HR':
          this.gap();
          this.out.push('---');
          this.gap();
          return;
        case 'UL': case 'OL':
          this.list(el, tag === 'OL');
          return;
        case 'PRE': {
          const code = /** @type {HTMLElement} */ (el).innerText.replace(/\n$/, '');
          if (!code.trim()) return; // an empty log a script fills later shows nothing
          this.gap();
          this.out.push('```', ...code.split('\n'), '```');
          this.gap();
          return;
        }
        case 'BLOCKQUOTE': {
          this.gap();
          const inner = new Markdown(this.base);
          inner.block(el);
          for (const l of inner.done().split('\n')) this.out.push(`> ${l}`.trimEnd());
          this.gap();
          return;
        }
        case 'TABLE':
          this.table(/** @type {HTMLTableElement} */ (el));
          return;
        case 'DL':
          this.gap();
          for (const item of el.children) {
            if (item.tagName === 'DT') this.out.push(`**${this.inline(item)}**`);
            else if (item.tagName === 'DD') this.out.push(`: ${this.inline(item)}`);
          }
          this.gap();
          return;
        case 'IFRAME':
          return;
      }
      this.line += this.inlineNode(el);
    }

    /**
     * @param {Element} el
     * @param {boolean} ordered
     */
    list(el, ordered) {
      this.flush();
      const numbers = ordered ? numbersOf(/** @type {HTMLOListElement} */ (el)) : undefined;
      for (const li of el.children) {
        if (li.tagName !== 'LI' || !visible(li)) continue;
        const sub = new Markdown(this.base);
        sub.block(li);
        const lines = sub.done().split('\n').filter((l) => l !== '');
        const n = numbers?.get(li);
        const marker = n === undefined ? undefined : markerOf(n, getComputedStyle(li).listStyleType);
        const bullet = marker ? `${marker} ` : '- ';
        lines.forEach((l, i) => this.out.push(this.indent + (i === 0 ? bullet : '  ') + l));
      }
      this.gap();
    }

    /** @param {HTMLTableElement} table */
    table(table) {
      this.gap();
      const rows = [...table.rows].filter((r) => visible(r));
      rows.forEach((row, i) => {
        const cells = [...row.cells].map((c) => this.inline(c).replace(/\|/g, '\\|'));
        this.out.push(`| ${cells.join(' | ')} |`);
        if (i === 0) this.out.push(`|${cells.map(() => ' --- ').join('|')}|`);
      });
      this.gap();
    }

    /**
     * An element's content as one line of inline Markdown.
     * @param {Element} el
     * @returns {string}
     */
    inline(el) {
      return this.spaced(el).trim();
    }

    /**
     * An element's content as inline Markdown, keeping a space at either
     * end: "<b>Total </b>12" reads "Total 12", not "Total12".
     * @param {Element} el
     * @returns {string}
     */
    spaced(el) {
      const [before, after] = this.around(el);
      let s = before;
      for (const child of shownChildren(el)) s += this.inlineNode(child);
      return (s + after).replace(/\s+/g, ' ');
    }

    /**
     * One node as inline Markdown: text as it is, an element with its
     * markup around its content.
     * @param {Node} child
     * @returns {string}
     */
    inlineNode(child) {
      if (child.nodeType === Node.TEXT_NODE) return child.nodeValue ?? '';
      if (child.nodeType !== Node.ELEMENT_NODE) return '';
      const c = /** @type {Element} */ (child);
      if (SKIP.has(c.tagName) || !visible(c)) return '';
      const spaced = this.spaced(c);
      const inner = spaced.trim();
      /** @param {string} md the markup around inner, kept between its spaces */
      const around = (md) => (inner ? spaced.replace(inner, () => md) : spaced);
      switch (c.tagName) {
        case 'A':
        case 'a': { // an SVG link
          const href = c.getAttribute('href') ?? c.getAttributeNS(XLINK, 'href');
          // A javascript: link goes nowhere a reader can follow.
          return href && inner && !/^\s*javascript:/i.test(href)
            ? around(`[${inner}](${relative(this.base, hrefOf(c) ?? href)})`) : spaced;
        }
        case 'STRONG': case 'B':
          return around(`**${inner}**`);
        case 'EM': case 'I':
          return around(`*${inner}*`);
        case 'CODE': case 'KBD': case 'SAMP':
          return around(`\`${inner}\``);
        case 'DEL': case 'S': case 'STRIKE':
          // A price struck through is not the price.
          return around(`~~${inner}~~`);
        case 'IMG': {
          const alt = c.getAttribute('alt');
          return alt ? `![${alt}]` : '';
        }
        case 'BR':
          return ' ';
        default:
          // A block, or a control drawn as a box of its own, stands apart
          // from the words beside it.
          return BLOCK.has(c.tagName) || CONTROL_BOXES.has(c.tagName) ? ` ${inner} ` : spaced;
      }
    }

    done() {
      this.flush();
      while (this.out.length && this.out[this.out.length - 1] === '') this.out.pop();
      return this.out.join('\n');
    }
  }

  /**
   * The children of el a person sees the words of: only its elements when
   * it draws none of its own (a closed details, a canvas's fallback).
   * @param {Element} el
   * @returns {Iterable<Node>}
   */
  function shownChildren(el) {
    const children = childrenOf(el);
    return drawsNoContent(el) ? [...children].filter((c) => c.nodeType === Node.ELEMENT_NODE) : children;
  }

  /**
   * url relative to base, as short as it stays unambiguous.
   * @param {string} base
   * @param {string} url
   */
  function relative(base, url) {
    try {
      const b = new URL(base);
      const u = new URL(url, b);
      if (u.origin !== b.origin) return u.href;
      if (u.pathname === b.pathname && u.search === b.search) return u.hash || u.pathname;
      const from = b.pathname.split('/').slice(0, -1);
      const to = u.pathname.split('/');
      let i = 0;
      while (i < from.length && i < to.length - 1 && from[i] === to[i]) i++;
      return '../'.repeat(from.length - i) + to.slice(i).join('/') + u.search + u.hash;
    } catch {
      return url;
    }
  }

  /**
   * crawl: what a crawl keeps of a page: its content in the form asked for,
   * and where its links go (absolute http(s) URLs, without fragments, each
   * once, in document order).
   * @param {{ output: 'markdown' | 'text' | 'links' }} args
   */
  function crawl({ output }) {
    /** @type {Set<string>} */
    const links = new Set();
    for (const a of document.querySelectorAll('a[href], area[href]')) {
      if (inBanner(a)) continue;
      try {
        const u = new URL(hrefOf(a) ?? '', location.href);
        if (u.protocol !== 'http:' && u.protocol !== 'https:') continue;
        u.hash = '';
        links.add(u.href);
      } catch {
        // not a URL
      }
    }
    let content;
    if (output === 'markdown') content = text().markdown;
    else if (output === 'text') {
      const root = document.querySelector('main, [role="main"], article') ?? document.body;
      content = /** @type {HTMLElement | null} */ (root)?.innerText.trim() ?? '';
    }
    return { url: location.href, title: document.title, content, links: [...links] };
  }

  oc.text = { text, crawl };
})();
