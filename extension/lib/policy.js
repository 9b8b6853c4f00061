// @ts-check
// The person's site policy as the extension applies it to navigations a
// click or a script starts in an agent tab: the same decision as
// host/policy's Check (protocol/testdata/policy.json is both sides' test).
// The daemon sends the rules with the side panel's state.

/**
 * Rules: every list of allowed must hold the URL's origin, none of blocked
 * may, and file: URLs only with allowFile.
 * error: the config cannot be read, and nothing is allowed.
 * @typedef {{ allowed?: string[][], blocked?: string[], allowFile?: boolean, error?: string }} Rules
 */

/**
 * A refusal: what to tell the agent.
 * @typedef {{ message: string, hint: string }} Refusal
 */

/**
 * Whether an agent tab may reach url under rules.
 * @param {Rules | undefined} rules undefined: the defaults (no local files)
 * @param {string} url
 * @returns {Refusal | undefined} undefined when it may
 */
export function check(rules, url) {
  if (rules?.error) {
    return { message: `the site policy cannot be read (${rules.error}): no navigation is allowed`, hint: 'openchrome doctor says how to fix ~/.openchrome/config.json' };
  }
  let u;
  try {
    u = new URL(url);
  } catch {
    return { message: `${url} is not a URL`, hint: 'navigate to an http or https URL' };
  }
  const scheme = u.protocol.slice(0, -1);
  if (scheme === 'file') {
    return rules?.allowFile ? undefined : {
      message: 'file: URLs are off: agents do not open your local files',
      hint: 'set "allowFileURLs": true in ~/.openchrome/config.json to allow them',
    };
  }
  if (scheme === 'about' && u.pathname === 'blank') return undefined;
  if (scheme === 'data' || scheme === 'blob') return undefined;
  if (scheme !== 'http' && scheme !== 'https') {
    return { message: `${scheme}: URLs are not web pages agents open`, hint: 'navigate to an http or https URL' };
  }
  const host = u.hostname.toLowerCase().replace(/\.$/, '').replace(/^\[|\]$/g, '');
  const port = u.port || (scheme === 'https' ? '443' : '80');
  const origin = `${scheme}://${u.host}`;
  for (const rule of rules?.blocked ?? []) {
    if (matches(rule, scheme, host, port)) {
      return { message: `${origin} is blocked by the rule "${rule}"`, hint: "the person's blockedOrigins say no; ask them, or work elsewhere" };
    }
  }
  for (const list of rules?.allowed ?? []) {
    if (!list.some((rule) => matches(rule, scheme, host, port))) {
      return {
        message: `${origin} is not among the allowed origins (${list.join(', ')})`,
        hint: "the person's allowedOrigins (or this client's --allowed-origins) say where agents may go",
      };
    }
  }
  return undefined;
}

/**
 * Whether one rule, [scheme://]host[:port] with host "*" or "*.domain",
 * takes an origin.
 * @param {string} rule
 * @param {string} scheme
 * @param {string} host
 * @param {string} port
 */
function matches(rule, scheme, host, port) {
  let rest = rule.trim().toLowerCase();
  const k = rest.indexOf('://');
  if (k >= 0) {
    if (rest.slice(0, k) !== scheme) return false;
    rest = rest.slice(k + 3);
  }
  rest = rest.replace(/\/$/, '');
  const colon = rest.lastIndexOf(':');
  if (colon > 0 && /^\d+$/.test(rest.slice(colon + 1)) && !rest.endsWith(']')) {
    if (rest.slice(colon + 1) !== port) return false;
    rest = rest.slice(0, colon);
  }
  rest = rest.replace(/^\[|\]$/g, '');
  if (rest === '*') return true;
  if (rest.startsWith('*.')) {
    const domain = rest.slice(2);
    return host === domain || host.endsWith(`.${domain}`);
  }
  return host === rest;
}

/**
 * The rules in a state frame's data, if it has any.
 * @param {unknown} state
 * @returns {Rules | undefined}
 */
export function rulesOf(state) {
  const p = /** @type {{ policy?: unknown } | undefined} */ (state)?.policy;
  return p && typeof p === 'object' ? /** @type {Rules} */ (p) : undefined;
}

/**
 * One line saying what the rules allow, for the side panel.
 * @param {Rules | undefined} rules
 * @returns {string}
 */
export function policyLine(rules) {
  const parts = [];
  const allowed = rules?.allowed ?? [];
  parts.push(allowed.length ? `only ${allowed.map((l) => l.join(', ')).join(' and ')}` : 'every site');
  if (rules?.blocked?.length) parts.push(`never ${rules.blocked.join(', ')}`);
  parts.push(rules?.allowFile ? 'local files allowed' : 'no local files');
  return `Agents may open: ${parts.join('; ')}`;
}
