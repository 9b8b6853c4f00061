// @ts-check
/// <reference types="node" />
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ActionError } from './errors.js';
import { checkUrl, urlMatches } from './url.js';

test('http, https, file and about:blank are accepted', () => {
  assert.equal(checkUrl('http://127.0.0.1:8080/a?b#c'), 'http://127.0.0.1:8080/a?b#c');
  assert.equal(checkUrl('https://example.com'), 'https://example.com/');
  assert.equal(checkUrl('HTTPS://Example.COM/x'), 'https://example.com/x');
  assert.equal(checkUrl('file:///tmp/page.html'), 'file:///tmp/page.html');
  assert.equal(checkUrl('about:blank'), 'about:blank');
});

test('everything else is bad_request', () => {
  const refused = [
    'javascript:alert(1)',
    'data:text/html,<b>x</b>',
    'chrome://settings',
    'chrome-extension://abc/page.html',
    'about:version',
    'about:blank#x',
    'ftp://example.com/',
    'blob:https://example.com/uuid',
    'view-source:https://example.com/',
    'example.com',
    '/relative/path',
    '',
    'http://',
  ];
  for (const url of refused) {
    assert.throws(
      () => checkUrl(url),
      (err) => err instanceof ActionError && err.code === 'bad_request',
      url,
    );
  }
  for (const url of [undefined, null, 42, {}]) {
    assert.throws(() => checkUrl(url), ActionError);
  }
});

test('the message names the scheme, not the URL', () => {
  assert.throws(() => checkUrl('javascript:secret()'), (err) => {
    assert.ok(err instanceof ActionError);
    assert.match(err.message, /javascript:/);
    assert.doesNotMatch(err.message, /secret/);
    return true;
  });
});

test('urlMatches: a substring, or a glob when the pattern has *', () => {
  assert.equal(urlMatches('http://127.0.0.1:8080/done?x=1', '/done'), true);
  assert.equal(urlMatches('http://127.0.0.1:8080/start', '/done'), false);
  assert.equal(urlMatches('http://127.0.0.1:8080/done', '*/done'), true);
  assert.equal(urlMatches('http://127.0.0.1:8080/done/more', '*/done'), false, 'a glob matches the whole URL');
  assert.equal(urlMatches('http://a.test/x.html', 'http://a.test/*.html'), true);
  assert.equal(urlMatches('http://a.test/xyhtml', 'http://a.test/*.html'), false, 'the dot is a dot, not any character');
  assert.equal(urlMatches('http://a.test/?q=(1)', '*?q=(1)'), true);
});
