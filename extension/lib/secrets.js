// @ts-check
// Which of a site's stored values are its credentials: what the engine
// masks in every result from one of its tabs (profile.secrets). Cookies are
// all taken (their values are the session); web storage entries are taken
// when their key names a credential or their value looks like one. Values
// under MIN_SECRET characters are left alone: masking "en" or "true" would
// make pages unreadable and hide nothing.

/** The shortest value masked. */
export const MIN_SECRET = 8;

/** Key names of credentials, as words in any case style. */
const KEY = /(?:^|[^a-z])(?:token|auth|session|sess|secret|jwt|key|password|passwd|credential|bearer|sid|csrf|xsrf|otp|apikey)(?:[^a-z]|$)/i;
/** A JWT, a bearer value, a vendor API key. */
const SHAPES = [
  /^eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*$/,
  /^bearer\s+\S{8,}$/i,
  /^(?:sk-|[rs]k_(?:live|test)_|gh[pousr]_|github_pat_|xox[abposr]-|glpat-|npm_|AIza|AKIA)[\w-]{10,}$/,
];

/**
 * The values among storage entries that are credentials; a JSON value is
 * looked into (a stored {"access_token": "..."}).
 * @param {Array<[string, string]>} entries key, value
 * @returns {string[]}
 */
export function credentialValues(entries) {
  /** @type {Set<string>} */
  const out = new Set();
  for (const [key, value] of entries) collect(key, value, out, 0);
  return [...out];
}

/**
 * @param {string} key
 * @param {unknown} value
 * @param {Set<string>} out
 * @param {number} depth
 */
function collect(key, value, out, depth) {
  if (typeof value === 'string') {
    const v = value.trim();
    if (depth < 2 && (v.startsWith('{') || v.startsWith('['))) {
      try {
        // A JSON value: its fields say which of them are credentials.
        collect('', JSON.parse(v), out, depth + 1);
        return;
      } catch {
        // not JSON after all
      }
    }
    if (v.length >= MIN_SECRET && (named(key) || SHAPES.some((re) => re.test(v)))) out.add(v);
    return;
  }
  if (depth > 6 || !value || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value)) collect(k, v, out, depth + 1);
}

/** @param {string} key */
function named(key) {
  // camelCase and kebab-case split into words: accessToken, api-key.
  return KEY.test(key.replace(/([a-z])([A-Z])/g, '$1_$2'));
}

/**
 * The values of a page address's parameters that are credentials, by the
 * same rule as storage entries: a sign-in that lands with
 * ?access_token=... or #id_token=... (OAuth's implicit flow), a session id
 * in the query. An authorization code (code=, the one the site trades for
 * a token) is one too. The fragment is read as parameters when it is
 * written as them.
 * @param {string} url
 * @returns {string[]}
 */
export function urlValues(url) {
  let u;
  try {
    u = new URL(url);
  } catch {
    return [];
  }
  /** @type {Array<[string, string]>} */
  const entries = [...u.searchParams];
  if (u.hash.includes('=')) entries.push(...new URLSearchParams(u.hash.slice(1)));
  return credentialValues(entries.map(([k, v]) => [k.toLowerCase() === 'code' ? 'token' : k, v]));
}

/**
 * Cookie values worth masking.
 * @param {Array<{ value?: string }>} cookies
 * @returns {string[]}
 */
export function cookieValues(cookies) {
  return [...new Set(cookies.map((c) => String(c.value ?? '').trim()).filter((v) => v.length >= MIN_SECRET))];
}
