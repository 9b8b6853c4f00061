// @ts-check
// The browser's name in the hello and browser.health: "Chromium/156",
// "Google Chrome/156", "Microsoft Edge/131", "Brave/131".

/**
 * @typedef {{ brand: string, version: string }} Brand
 *   an entry of navigator.userAgentData.brands
 */

// Chrome adds a made-up "GREASE" brand ("Not)A;Brand", "Not_A Brand", ...)
// so that sites cannot rely on the list; it names no browser.
const GREASE = /not.a.brand/i;

/** User-agent tokens, most specific first, with the name each stands for. */
const UA_TOKENS = [
  ['Edg', 'Microsoft Edge'],
  ['OPR', 'Opera'],
  ['HeadlessChrome', 'HeadlessChrome'],
  ['Chromium', 'Chromium'],
  ['Chrome', 'Chrome'],
];

/**
 * Returns "<brand>/<major version>" for the browser described by brands
 * (preferred) or, failing that, userAgent.
 * @param {{ brands?: readonly Brand[], userAgent?: string }} from
 * @returns {string}
 */
export function browserName({ brands = [], userAgent = '' }) {
  const real = brands.filter((b) => b.brand && !GREASE.test(b.brand));
  // Every Chromium-based browser lists "Chromium" too; a vendor's brand says more.
  const pick = real.find((b) => b.brand !== 'Chromium') ?? real[0];
  if (pick) return `${pick.brand}/${pick.version}`;
  // A vendor's token follows Chrome's in the user agent, so look for it first.
  for (const [token, name] of UA_TOKENS) {
    const m = new RegExp(`\\b${token}/(\\d+)`).exec(userAgent);
    if (m) return `${name}/${m[1]}`;
  }
  return 'unknown';
}
