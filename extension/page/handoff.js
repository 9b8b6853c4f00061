// @ts-check
// handoffState: what a handoff's before and after snapshots need from the
// page (docs/human.md), and no value the person typed.

(() => {
  const oc = /** @type {PageNamespace} */ (globalThis.__openchrome);
  if (oc.handoff) return; // injected again: the first copy stays
  const { BANNER } = oc.roles;

  const MAX_STORAGE_KEYS = 200;
  const MAX_KEY_CHARS = 200;
  const MAX_FINGERPRINT_ELEMENTS = 100000;

  /**
   * handoffState: what a handoff's before and after snapshots need from the
   * page (docs/human.md): the top frame's localStorage key names, never
   * their values, and the fingerprint of its element structure.
   */
  function handoffState() {
    return { storageKeys: storageKeys(), domFingerprint: domFingerprint(document.documentElement) };
  }

  /**
   * localStorage's key names, sorted, at most 200, each cut to 200
   * characters; [] when the page's storage cannot be read (an opaque
   * origin, storage blocked).
   * @returns {string[]}
   */
  function storageKeys() {
    try {
      const keys = [];
      for (let i = 0; i < localStorage.length; i++) {
        const k = localStorage.key(i);
        if (k !== null) keys.push(k);
      }
      return keys.sort().slice(0, MAX_STORAGE_KEYS).map((k) => k.slice(0, MAX_KEY_CHARS));
    } catch {
      return [];
    }
  }

  /**
   * 'fnv1a64:' and 16 hex digits: FNV-1a 64 over the UTF-8 of one token per
   * element of root's subtree in document order, joined by "\n". A token is
   * `depth:tag` (`depth:input[type]` for inputs), so text, values and every
   * other attribute leave it unchanged. The banner and everything under it
   * are skipped; after 100,000 elements a last token 'truncated' ends it.
   * page/handoff.test.js checks it against a reference implementation.
   * @param {Element | null} root
   * @returns {string}
   */
  function domFingerprint(root) {
    const hash = new Fnv1a64();
    let count = 0;
    let depth = 0;
    let el = root;
    while (el) {
      let down = false;
      if (el.tagName !== BANNER) {
        if (count === MAX_FINGERPRINT_ELEMENTS) {
          hash.token('truncated', count);
          break;
        }
        let tag = el.tagName.toLowerCase();
        if (tag === 'input') tag = `input[${(el.getAttribute('type') ?? 'text').toLowerCase()}]`;
        hash.token(`${depth}:${tag}`, count++);
        down = !!el.firstElementChild;
      }
      if (down) {
        el = el.firstElementChild;
        depth++;
        continue;
      }
      // The next element in document order outside el's subtree.
      while (el && el !== root && !el.nextElementSibling) {
        el = el.parentElement;
        depth--;
      }
      el = el && el !== root ? el.nextElementSibling : null;
    }
    return `fnv1a64:${hash.hex()}`;
  }

  /**
   * FNV-1a 64 in two 32-bit halves (no BigInt on the hot path). The prime is
   * 2^40 + 0x1b3, so h * prime = h * 0x1b3 + (h << 40), mod 2^64.
   */
  class Fnv1a64 {
    constructor() {
      this.hi = 0xcbf29ce4;
      this.lo = 0x84222325;
    }

    /** @param {number} b a byte */
    byte(b) {
      const lo = (this.lo ^ b) >>> 0;
      const low = lo * 0x1b3;
      this.lo = low >>> 0;
      this.hi = (this.hi * 0x1b3 + Math.floor(low / 0x100000000) + ((lo << 8) >>> 0)) >>> 0;
    }

    /**
     * Feeds token, after a "\n" unless it is the first.
     * @param {string} token
     * @param {number} index how many tokens came before
     */
    token(token, index) {
      if (index) this.byte(0x0a);
      for (const ch of token) {
        let c = /** @type {number} */ (ch.codePointAt(0));
        if (c < 0x80) {
          this.byte(c);
          continue;
        }
        if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // a lone surrogate, as TextEncoder
        if (c < 0x800) {
          this.byte(0xc0 | (c >> 6));
        } else if (c < 0x10000) {
          this.byte(0xe0 | (c >> 12));
          this.byte(0x80 | ((c >> 6) & 0x3f));
        } else {
          this.byte(0xf0 | (c >> 18));
          this.byte(0x80 | ((c >> 12) & 0x3f));
          this.byte(0x80 | ((c >> 6) & 0x3f));
        }
        this.byte(0x80 | (c & 0x3f));
      }
    }

    hex() {
      return this.hi.toString(16).padStart(8, '0') + this.lo.toString(16).padStart(8, '0');
    }
  }

  oc.handoff = { handoffState };
})();
