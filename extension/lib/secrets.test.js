// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cookieValues, credentialValues, urlValues } from './secrets.js';

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

test('the credentials of an address: in its query and in a fragment written as parameters', () => {
  assert.deepEqual(urlValues('https://app.example/cb?code=4/0AbCdEfGhIj&state=xyz12345&page=2#access_token=ya29.a0AfH6SM&token_type=Bearer&expires_in=3599').sort(),
    ['4/0AbCdEfGhIj', 'ya29.a0AfH6SM'].sort(), 'the code and the token; state, type and expiry are not credentials');
  assert.deepEqual(urlValues('https://shop.example/list;x?sid=0123456789abcdef&q=red+shoes'), ['0123456789abcdef']);
  assert.deepEqual(urlValues('https://docs.example/guide#tokens-and-keys'), [], 'a fragment that names a section');
  assert.deepEqual(urlValues('https://a.example/?api_key=short'), [], 'under 8 characters');
  assert.deepEqual(urlValues('not a url'), []);
});
