// Unit tests of the recording bar's Assert change list (changelist.js):
// what a record.changes reply offers to tick, and the interaction the
// ticks make.

import { test } from 'node:test';
import assert from 'node:assert/strict';

await import('../changelist.js');
const { listModel, interactionFor, addedText } = globalThis.__trailpinChangeList;

const menuReply = {
  seq: 1,
  action: 'click the Menu button',
  navigated: false,
  changes: [
    { key: 'state:m4:m4', text: 'state button "Menu" [m4]: expanded false → true', matcher: '{change: state, selector: {role: button, name: Menu}, to: {expanded: true}}' },
    { key: 'added::m5', text: 'added menu "Main" [m5]', matcher: '{change: added, selector: {role: menu, name: Main}}' },
    { key: 'moved:m9:m9', text: 'moved generic [m9]: (0, 0) → (0, 40)', why: 'no selector names its element alone' },
  ],
  only: false,
  onlyWhy: '“Nothing else changes” needs every change named, and one cannot be: moved generic [m9]',
};

test('lists each change, tickable when it has a matcher', () => {
  const m = listModel(menuReply);
  assert.equal(m.heading, 'What “click the Menu button” changed:');
  assert.equal(m.message, '');
  assert.deepEqual(m.rows.map((r) => [r.key, r.tickable]), [['state:m4:m4', true], ['added::m5', true], ['moved:m9:m9', false]]);
  assert.equal(m.rows[2].why, 'no selector names its element alone');
  assert.deepEqual(m.only, { offered: false, why: menuReply.onlyWhy, label: 'Nothing else changes' });
});

test('the ticks make one assertChange interaction; nothing ticked records nothing', () => {
  const m = listModel({ ...menuReply, only: true });
  assert.deepEqual(interactionFor(m, ['added::m5', 'state:m4:m4'], false),
    { kind: 'assertChange', changes: ['state:m4:m4', 'added::m5'], only: false });
  // An untickable row and an unknown key are never sent.
  assert.deepEqual(interactionFor(m, ['moved:m9:m9', 'nope', 'added::m5'], true),
    { kind: 'assertChange', changes: ['added::m5'], only: true });
  assert.equal(interactionFor(m, [], false), null);
  assert.equal(interactionFor(m, ['moved:m9:m9'], false), null);
  // "Nothing else changes" alone, where it is offered.
  assert.deepEqual(interactionFor(m, [], true), { kind: 'assertChange', changes: [], only: true });
  assert.equal(interactionFor(listModel(menuReply), [], true), null, 'only is not offered when a change cannot be named');
  assert.equal(addedText({ changes: ['a', 'b'], only: true }), 'Added: 2 changes must happen, and nothing else changes.');
});

test('nothing to tick: the host’s message, or a plain one', () => {
  const none = listModel({ message: 'No action recorded yet: do something in the page, then press Assert change.', changes: [] });
  assert.equal(none.rows.length, 0);
  assert.match(none.message, /^No action recorded yet/);
  assert.equal(none.only.offered, false);
  assert.equal(none.heading, '');
  const nothing = listModel({ seq: 2, action: 'click Save', changes: [], only: false });
  assert.match(nothing.message, /changed nothing visible/);
  assert.equal(interactionFor(nothing, [], true), null);
});

test('an action that changed nothing offers “Nothing changes”', () => {
  const m = listModel({ seq: 2, action: 'click Save', changes: [], only: true });
  assert.equal(m.rows.length, 0);
  assert.deepEqual(m.only, { offered: true, why: '', label: 'Nothing changes' });
  assert.match(m.message, /Tick “Nothing changes” to assert that it never does/);
  assert.equal(interactionFor(m, [], false), null);
  const i = interactionFor(m, [], true);
  assert.deepEqual(i, { kind: 'assertChange', changes: [], only: true });
  assert.equal(addedText(i), 'Added: the action changes nothing.');
  // With changes listed, the same box says "Nothing else changes".
  assert.equal(listModel({ ...menuReply, only: true }).only.label, 'Nothing else changes');
});

test('elements picked as ones that must not change go with the ticks, once each', () => {
  const m = listModel({ ...menuReply, only: true });
  assert.deepEqual(interactionFor(m, [], false, ['e7', 'e7', '', 'e9']),
    { kind: 'assertChange', changes: [], only: false, unchanged: ['e7', 'e9'] });
  assert.deepEqual(interactionFor(m, ['added::m5'], false, []), { kind: 'assertChange', changes: ['added::m5'], only: false });
  assert.equal(addedText({ changes: ['a'], only: false, unchanged: ['e7'] }), 'Added: 1 change must happen, and 1 element must not change.');
  assert.equal(addedText({ changes: [], only: false, unchanged: ['e7', 'e9'] }), 'Added: 2 elements must not change.');
});
