// Unit tests of the screen a typing is sent with (content/typing.js,
// content/interactions.js): the screen at its boundary, taken before the
// field holds the text, whether a key types it or the text comes without one
// (a script's or an agent's inserted text), however soon it follows the step
// before. The page model and the capture are stand-ins: each "screen" is
// what the page shows at that moment of the test.

import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.__trailpinPageModel = { refForElement: () => 'e1' };
globalThis.document = { body: {}, documentElement: {} }; // pressed tells the page from an element by them
await import('../content/core.js');
await import('../content/events.js');
await import('../content/typing.js');
await import('../content/interactions.js');
const rec = globalThis[Symbol.for('trailpin.recorder.internals')];
/** The field's beforeinput, as the listener hands it on (nothing where the recorder had none). */
const beforeTyping = (el) => rec.beforeTyping?.(el);
/** A key came up (its keyup), as the listener hands it on. */
const released = () => rec.released?.();

/** What the recorder sent: kind, value or key, and the screen's id. */
const sent = [];
/** The screen a capture now would return. */
let now = null;
let captures = 0;
Object.assign(rec, {
  currentScreen: () => { captures++; return now; },
  send: (i, screen) => sent.push(`${i.kind} ${i.value ?? i.key ?? ''} @${screen ? screen.id : '-'}`),
  isSecret: () => false,
  currentPick: () => null,
});

/** A text field as the recorder reads it. */
const field = {
  nodeType: 1, localName: 'input', type: 'text', value: '', isContentEditable: false,
  closest: () => null, matches: () => false, getAttribute: () => null,
  ownerDocument: new EventTarget(),
};
/**
 * How many timers the typing set off are pending, as typingtimers.js in the
 * page's world answers the recorder's ask (null: it does not run there).
 * @type {number | null}
 */
let timersPending = null;
field.ownerDocument.addEventListener('trailpin-typing-timers-ask', () => {
  if (timersPending !== null)
    field.ownerDocument.dispatchEvent(new CustomEvent('trailpin-typing-timers', { detail: String(timersPending) }));
});
const key = (k) => ({ key: k, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, defaultPrevented: false });
const screen = (id) => ({ id, wire: '' });

/** One key typed into the field as a browser delivers it. */
function typeKey(k) {
  rec.pressed(field, key(k));
  if (k.length === 1) {
    beforeTyping(field);
    field.value += k;
    now = screen(`holds ${field.value}`);
    rec.typed(field);
  }
  released();
}

/** Text put into the field without a key (Input.insertText). */
function insert(text) {
  beforeTyping(field);
  field.value += text;
  now = screen(`holds ${field.value}`);
  rec.typed(field);
}

/** Enter adds the item: the page shows it, and the field is empty. */
function enter(item) {
  rec.pressed(field, key('Enter'));
  field.value = '';
  now = screen(`added ${item}`);
  released();
}

test('each typing is sent with the screen before its text went in, with or without a key, however soon after the Enter before it', () => {
  sent.length = 0;
  rec.state.typing = null;
  rec.state.preInput = null;
  now = screen('empty');
  insert('Buy milk');
  enter('Buy milk');
  insert('Walk the dog'); // at once: nothing captured the page in between
  enter('Walk the dog');
  for (const k of 'Tea') typeKey(k);
  enter('Tea');
  insert('Pay rent');
  enter('Pay rent');
  assert.deepEqual(sent, [
    'type Buy milk @empty',
    'press Enter @holds Buy milk',
    'type Walk the dog @added Buy milk',
    'press Enter @holds Walk the dog',
    'type Tea @added Walk the dog',
    'press Enter @holds Tea',
    'type Pay rent @added Tea',
    'press Enter @holds Pay rent',
  ]);
});

test('a key keeps the screen from when it went down; the typing after a press takes its own', () => {
  sent.length = 0;
  rec.state.typing = null;
  rec.state.preInput = null;
  field.value = '';
  now = screen('before the key');
  rec.pressed(field, key('x'));
  // The page's own keydown handler changed it before the text went in.
  now = screen('after its keydown handler');
  beforeTyping(field);
  field.value = 'x';
  rec.typed(field);
  released();
  assert.equal(rec.state.typing.screen.id, 'before the key');
  rec.pressed(field, key('Enter'));
  field.value = '';
  released();

  // Enter in the field with no typing before it: a press; the text a
  // script puts in later is not typed by that key.
  now = screen('before Enter');
  rec.pressed(field, key('Enter'));
  released();
  now = screen('after Enter');
  insert('y');
  assert.equal(rec.state.typing.screen.id, 'after Enter');
  rec.flushTyping();
});

test('while the typing goes on, no key and no text captures the page again', () => {
  rec.state.typing = null;
  rec.state.preInput = null;
  field.value = '';
  now = screen('start');
  typeKey('a');
  const before = captures;
  typeKey('b');
  insert('cd');
  assert.equal(captures, before);
  assert.equal(rec.state.typing.screen.id, 'start');
  rec.flushTyping();
});

test('a key pressed in the field typed into while the typing\'s timers are pending is sent at once; one after they ran, or elsewhere, is not', () => {
  const send = rec.send;
  /** @type {Record<string, unknown>[]} */
  const presses = [];
  rec.send = (i) => { if (i.kind === 'press') presses.push(i); };
  try {
    rec.state.typing = null;
    rec.state.preInput = null;
    field.value = '';
    now = screen('start');
    // JSONEditor's search box: "hello" and Enter before its search ran
    // (docs/recording.md, JSONEditor's seed 3 at 60 actions).
    for (const k of 'hello') typeKey(k);
    timersPending = 1;
    rec.pressed(field, key('Enter'));
    released();
    // The person looked before pressing: the search has run.
    for (const k of 'ab') typeKey(k);
    timersPending = 0;
    rec.pressed(field, key('Tab'));
    released();
    // A page where typingtimers.js does not run says nothing.
    for (const k of 'cd') typeKey(k);
    timersPending = null;
    rec.pressed(field, key('Enter'));
    released();
    // A key with no typing before it, timers or not.
    timersPending = 1;
    rec.pressed(field, key('Escape'));
    released();
    assert.deepEqual(presses.map((p) => `${p.key} ${p.atOnce ? 'at once' : 'after'}`),
      ['Enter at once', 'Tab after', 'Enter after', 'Escape after']);
  } finally {
    rec.send = send;
    rec.state.escaping = null;
    timersPending = null;
  }
});

/** A drop-down (a select whose list is the browser's pop-up). */
const select = {
  nodeType: 1, localName: 'select', multiple: false, size: 0, isConnected: true,
  closest: (s) => (s === 'select' ? select : null), contains: (n) => n === select,
};
/** A button. */
const button = { nodeType: 1, localName: 'button', closest: () => null, contains: (n) => n === button };
const leftClick = { button: 0, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false };

/** Resets what the tests before left pending. */
function fresh() {
  sent.length = 0;
  rec.state.typing = null;
  rec.state.preInput = null;
  rec.state.down = null;
  rec.state.selectOpened = null;
}

test('what was typed is read at the first press after it, though the page rewrote the field before the next', () => {
  // JSONEditor (walk seed 15, docs/recording.md): a line typed into a key,
  // then a press on a drop-down whose list chose nothing, the key written
  // anew with its line break escaped once the focus left it, and a press on
  // a button: the typing is the text at the drop-down's press.
  fresh();
  field.value = '';
  now = screen('empty');
  for (const k of 'ab') typeKey(k);
  insert('\ncd');
  now = screen('typed');
  rec.mouseDown(select);
  field.value = 'ab\\ncd'; // blur: the page's own writing of the text
  now = screen('rewritten');
  rec.mouseDown(button);
  rec.clicked(button, leftClick, 1);
  assert.deepEqual(sent, ['type ab\ncd @empty', 'click  @typed', 'click  @rewritten']);

  // Typing that goes on after a press is read again at the press after it.
  fresh();
  field.value = '';
  now = screen('empty');
  typeKey('x');
  rec.mouseDown(field);
  typeKey('y');
  rec.mouseDown(button);
  field.value = 'rewritten';
  rec.clicked(button, leftClick, 1);
  assert.deepEqual(sent.slice(0, 1), ['type xy @empty']);
});

test('a press on a drop-down that chose nothing is sent as a click on it once the person does something else; a choice is one select', () => {
  const choose = (option) => {
    select.selectedOptions = [{ label: option }];
    rec.changedValue(select, {});
  };
  // Nothing chosen, then a press elsewhere: the drop-down's click, on the
  // screen from before its press, then the button's.
  fresh();
  now = screen('menu open');
  rec.mouseDown(select);
  now = screen('menu closed');
  rec.mouseDown(button);
  rec.clicked(button, leftClick, 1);
  assert.deepEqual(sent, ['click  @menu open', 'click  @menu closed']);

  // Chosen in its list: one select, no click.
  fresh();
  now = screen('before');
  rec.mouseDown(select);
  now = screen('list open');
  choose('male');
  rec.mouseDown(button);
  assert.deepEqual(sent, ['select  @before']);

  // Chosen with a key on it after the press (no list opened): the same.
  fresh();
  now = screen('before');
  rec.mouseDown(select);
  rec.pressed(select, key('ArrowDown'));
  choose('male');
  released();
  rec.mouseDown(button);
  assert.deepEqual(sent, ['select  @before']);

  // Nothing chosen, then the recording bar asks what the last action
  // changed (or the recording stops): the click goes out first.
  fresh();
  now = screen('before');
  rec.mouseDown(select);
  rec.flushTyping();
  assert.deepEqual(sent, ['click  @before']);

  // A list box shows its options on the page: a press there that chose
  // nothing is no click.
  fresh();
  select.multiple = true;
  rec.mouseDown(select);
  rec.mouseDown(button);
  select.multiple = false;
  assert.deepEqual(sent, []);
});

test('typing that begins on the end of the field\'s text is sent as appended; typing over it is not', () => {
  const raw = [];
  const send = rec.send;
  rec.send = (i) => raw.push(i);
  try {
    rec.state.typing = null;
    rec.state.preInput = null;
    now = screen('holds Buy milk');
    // The caret after the text: each key goes on its end.
    field.value = 'Buy milk';
    for (const k of 'Zebra') typeKey(k);
    rec.flushTyping();
    // Typed over the whole text (selected): the first key replaces it.
    field.value = 'Buy milk';
    rec.pressed(field, key('B'));
    beforeTyping(field);
    field.value = 'B';
    rec.typed(field);
    released();
    for (const k of 'uy milkZ') typeKey(k);
    rec.flushTyping();
    // On the end, then the kept text deleted: the value no longer starts with it.
    field.value = 'Tea';
    typeKey('s');
    field.value = 's';
    rec.typed(field);
    rec.flushTyping();
  } finally {
    rec.send = send;
  }
  assert.deepEqual(raw.map((i) => [i.kind, i.value, i.append ?? false]), [
    ['type', 'Buy milkZebra', true],
    ['type', 'Buy milkZ', false],
    ['type', 's', false],
  ]);
});
