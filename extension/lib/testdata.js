// @ts-check
/// <reference types="node" />
// Loads the golden vectors in protocol/testdata/, which the Go suite decodes
// too. Tests only.

import { readFileSync } from 'node:fs';

/**
 * @typedef {{ name: string, channel: 'agent' | 'browser',
 *   frame?: Record<string, unknown>, raw?: string }} Golden
 */

/**
 * @param {string} name a file in protocol/testdata/
 * @returns {any} the parsed JSON (each test knows its shape)
 */
export function loadGolden(name) {
  const url = new URL(`../../protocol/testdata/${name}`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8'));
}
