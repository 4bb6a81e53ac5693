// Unit tests of what the end of a press means (content/events.js): a drag
// the page followed with the pointer, an HTML5 drag the page took the drop
// of, or nothing (a click, a text selection, a refused drop), and the click
// the browser makes of a drag's release.

import { test } from 'node:test';
import assert from 'node:assert/strict';

await import('../content/core.js');
await import('../content/events.js');
const rec = globalThis[Symbol.for('trailpin.recorder.internals')];

/** An element as events.js reads it for a press: its tag, type and parent. */
class El {
  constructor(localName, attrs = {}) {
    this.nodeType = 1;
    this.localName = localName;
    this.attrs = attrs;
    this.parentElement = null;
    this.isContentEditable = false;
    if ('type' in attrs) this.type = attrs.type;
  }
  append(...kids) {
    for (const k of kids) k.parentElement = this;
    return this;
  }
  getAttribute(name) {
    return name in this.attrs ? String(this.attrs[name]) : null;
  }
  matches(selectors) {
    return selectors.split(',').some((s) => {
      const m = /^([a-z]*)((?:\[[^\]]+\])*)$/.exec(s.trim());
      if (!m) throw new Error(`the stand-in cannot match ${s}`);
      if (m[1] && m[1] !== this.localName) return false;
      return [...m[2].matchAll(/\[([^=\]]+)(?:=([^\]]+))?\]/g)]
        .every(([, name, value]) => (value === undefined ? name in this.attrs : this.getAttribute(name) === value));
    });
  }
  closest(selectors) {
    for (let e = this; e; e = e.parentElement) if (e.matches(selectors)) return e;
    return null;
  }
  contains(other) {
    for (let e = other; e; e = e.parentElement) if (e === this) return true;
    return false;
  }
}

const plain = { picking: false, pressed: null, forwarded: null, keyActivation: false };

test('a left press on a card may begin a drag; one in a field, a select or on a slider may not', () => {
  assert.equal(rec.mayDrag(new El('li'), { button: 0 }), true);
  assert.equal(rec.mayDrag(new El('li'), { button: 2 }), false);
  assert.equal(rec.mayDrag(new El('input', { type: 'text' }), { button: 0 }), false);
  assert.equal(rec.mayDrag(new El('input', { type: 'range' }), { button: 0 }), false);
  const select = new El('select');
  const option = new El('option');
  select.append(option);
  assert.equal(rec.mayDrag(option, { button: 0 }), false);
});

test('a press is a drag once the pointer went 5 pixels with the button held', () => {
  const press = { el: new El('li'), x: 100, y: 100, moved: false, native: null };
  assert.equal(rec.draggedFar(press, { buttons: 1, clientX: 102, clientY: 102 }), false);
  assert.equal(rec.draggedFar(press, { buttons: 1, clientX: 100, clientY: 106 }), true);
  assert.equal(rec.draggedFar(press, { buttons: 0, clientX: 100, clientY: 160 }), false, 'the button is up: a hover, no drag');
});

test('a release after a drag that changed the page is a drag from the pressed element', () => {
  const item = new El('li');
  const press = { el: item, x: 0, y: 0, moved: true, native: null };
  assert.deepEqual(rec.dragMeaning(press, 'release', true), { from: item });
  assert.equal(rec.dragMeaning(press, 'release', false), null, 'a text selection changes nothing on the page');
  assert.equal(rec.dragMeaning({ ...press, moved: false }, 'release', true), null, 'a click');
  assert.equal(rec.dragMeaning(null, 'release', true), null);
});

test('a page that changed while the press was held changed, though a capture on the way is fresh', () => {
  const press = { el: new El('li'), x: 0, y: 0, time: 1000, moved: true, native: null };
  assert.equal(rec.changedDuring(press, true, 0), true, 'the capture is stale');
  assert.equal(rec.changedDuring(press, false, 1400), true, 'the list moved its item, then a capture came before the release');
  assert.equal(rec.changedDuring(press, false, 900), false, 'the last change came before the press');
  assert.equal(rec.changedDuring(null, false, 1400), false);
});

test('an HTML5 drag is recorded at its drop, from the element the page dragged; its release is not', () => {
  const card = new El('li', { draggable: 'true' });
  const text = new El('span');
  card.append(text);
  const press = { el: text, x: 0, y: 0, moved: true, native: card };
  assert.deepEqual(rec.dragMeaning(press, 'drop', true), { from: card });
  assert.equal(rec.dragMeaning(press, 'release', true), null);
  assert.equal(rec.dragMeaning({ ...press, native: null }, 'drop', true), null, 'a drop of something dragged from elsewhere');
});

test('the click the browser makes of a drag\'s release is part of the drag, not a click', () => {
  const list = new El('ul');
  const item = new El('li');
  list.append(item);
  assert.deepEqual(rec.clickMeaning(item, { button: 0, detail: 1 }, { ...plain, dragged: item }), { record: false, why: 'drag', forwardsTo: null });
  assert.deepEqual(rec.clickMeaning(list, { button: 0, detail: 1 }, { ...plain, dragged: item }), { record: false, why: 'drag', forwardsTo: null },
    'pressed on one item and released on another: the click goes to the list around both');
  assert.equal(rec.clickMeaning(new El('button'), { button: 0, detail: 1 }, { ...plain, dragged: item }).record, true);
});
