// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cookieValues, credentialValues } from './secrets.js';

test('storage credentials by key name, by shape, and inside JSON', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
  const got = credentialValues([
    ['accessToken', 'tok-1234567890'],
    ['api-key', 'k-abcdefgh'],
    ['user_session', 'sess-abcdefgh'],
    ['prefs', jwt], // a key that says nothing: its value is a JWT
    ['github', 'ghp_abcdefghijklmnopqrstuvwxyz0123'],
    ['auth', JSON.stringify({ access_token: 'nested-secret-1', user: { name: 'Ada Lovelace' } })],
    ['profile', JSON.stringify({ refreshToken: 'nested-secret-2', theme: 'dark-mode-on' })],
    ['theme', 'solarized-dark'], // neither
    ['token', 'short'], // under 8 characters
    ['keyboard', 'qwerty-layout'], // "key" inside a word is not a key name
  ]);
  assert.deepEqual(got.sort(), [
    'ghp_abcdefghijklmnopqrstuvwxyz0123', 'k-abcdefgh', 'nested-secret-1', 'nested-secret-2', 'sess-abcdefgh',
    'tok-1234567890', jwt,
  ].sort());
});

test('cookie values, long enough, once', () => {
  assert.deepEqual(cookieValues([{ value: 'CANARY-COOKIE-7f3a91' }, { value: 'en' }, { value: 'CANARY-COOKIE-7f3a91' }, {}]),
    ['CANARY-COOKIE-7f3a91']);
});
