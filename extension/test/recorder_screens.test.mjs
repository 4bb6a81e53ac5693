// Unit tests of when the recorder captures the page again (content/screens.js):
// a capture taken once the page settled serves the next interaction unless the
// page changed since. The page model is a stand-in whose capture says which
// address the page was at.

import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.MutationObserver = class { observe() {} disconnect() {} };
globalThis.location = { href: 'http://127.0.0.1/index.html' };
let captures = 0;
globalThis.__trailpinPageModel = {
  captureWire: () => `${globalThis.location.href} (capture ${++captures})`,
  hoverRevealed: () => [],
  documentToken: () => 'doc',
};
await import('../content/core.js');
await import('../content/screens.js');
const rec = globalThis[Symbol.for('trailpin.recorder.internals')];
rec.sensitiveNow = () => ({ values: [], elements: [] }); // secrets.js's, not loaded here

test('a settled capture serves the next interaction; a link to a fragment, which changes no markup, makes it stale', () => {
  rec.state.dirty = true;
  const first = rec.currentScreen();
  assert.equal(first.wire, 'http://127.0.0.1/index.html (capture 1)');
  assert.equal(rec.currentScreen(), first, 'nothing changed: the same capture');
  // A table of contents' link: the address gains a fragment and the page
  // scrolls; no element changes, so no mutation marks the capture stale.
  globalThis.location.href = 'http://127.0.0.1/index.html#advanced-examples';
  const after = rec.currentScreen();
  assert.equal(after.wire, 'http://127.0.0.1/index.html#advanced-examples (capture 2)',
    'the screen at the next interaction is at the address the page is at');
  assert.equal(rec.currentScreen(), after);
});
