// Unit tests of what a DOM event means as an interaction (content/events.js),
// on stand-ins for elements and events: a click on a label and on its check
// box, typing then Enter, a select's change, keys with modifiers, the keys
// that move in a widget, the setting of a slider.

import { test } from 'node:test';
import assert from 'node:assert/strict';

await import('../content/core.js');
await import('../content/events.js');
const rec = globalThis[Symbol.for('trailpin.recorder.internals')];

/**
 * An element as events.js reads it: its tag, attributes and parent, with
 * closest and matches for the selectors it uses (tags, [attr] and
 * [attr=value], lists of them).
 */
class El {
  constructor(localName, attrs = {}, props = {}) {
    this.nodeType = 1;
    this.localName = localName;
    this.attrs = attrs;
    this.parentElement = null;
    this.isContentEditable = false;
    if ('type' in attrs) this.type = attrs.type;
    Object.assign(this, props);
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

const input = (type, props = {}) => new El('input', { type }, { value: '', ...props });
const key = (k, mods = {}) => ({ key: k, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, ...mods });
const click = (props = {}) => ({ button: 0, detail: 1, ...props });
const plain = { picking: false, pressed: null, forwarded: null, keyActivation: false };
const body = new El('body');

test('a click on a label is the person\'s one click; the one the browser passes on to its check box is not; the change is a check', () => {
  // <label><input type=checkbox> Remember me</label>, clicked on its text.
  const box = input('checkbox', { checked: true });
  const label = new El('label').append(box);
  label.control = box;
  const onLabel = rec.clickMeaning(label, click(), plain);
  assert.deepEqual(onLabel, { record: true, why: 'click', forwardsTo: box });
  // The browser clicks the box itself while the label's click is handled.
  assert.deepEqual(rec.clickMeaning(box, click({ detail: 0 }), { ...plain, forwarded: onLabel.forwardsTo }),
    { record: false, why: 'forwarded', forwardsTo: null });
  assert.deepEqual(rec.changeMeaning(box), { kind: 'check' });

  // The box clicked itself: its click is recorded, nothing is passed on.
  assert.deepEqual(rec.clickMeaning(box, click(), plain), { record: true, why: 'click', forwardsTo: null });
  box.checked = false;
  assert.deepEqual(rec.changeMeaning(box), { kind: 'uncheck' });

  // A label for a box elsewhere (for=...) passes its click on the same way.
  const radio = input('radio', { checked: true });
  const apart = new El('label', { for: 'r' });
  apart.control = radio;
  assert.equal(rec.clickMeaning(apart, click(), plain).forwardsTo, radio);
  assert.deepEqual(rec.changeMeaning(radio), { kind: 'check' });

  // While picking, the click is the pick's and nothing is passed on.
  assert.deepEqual(rec.clickMeaning(label, click(), { ...plain, picking: true }), { record: true, why: 'pick', forwardsTo: null });
});

test('a click on text slotted into a component\'s label is passed on to the box in its shadow root, whose click is not the person\'s', () => {
  // <x-check><span>Weekly report</span></x-check>, whose shadow root holds
  // <label><input type=checkbox> <slot></slot></label>.
  const box = input('checkbox', { checked: false });
  const slot = new El('slot');
  const label = new El('label').append(box, slot);
  label.control = box;
  const root = { host: null };
  label.parentNode = root;
  const host = new El('x-check');
  root.host = host;
  const text = new El('span', {}, { assignedSlot: slot });
  host.append(text);
  const onText = rec.clickMeaning(text, click(), plain);
  assert.deepEqual(onText, { record: true, why: 'click', forwardsTo: box });
  assert.deepEqual(rec.clickMeaning(box, click({ detail: 0 }), { ...plain, forwarded: onText.forwardsTo }),
    { record: false, why: 'forwarded', forwardsTo: null });
});

test('typing then Enter: the characters are typing, sent as one type of the value; Enter is a press on the field', () => {
  const field = input('text', { value: 'milk' });
  for (const k of [key('m'), key('I', { shiftKey: true }), key('Backspace'), key('ArrowLeft')]) {
    assert.equal(rec.keyMeaning(field, k, false), null, `${k.key} is typing`);
  }
  assert.equal(rec.isTextField(field), true);
  assert.deepEqual(rec.typingMeaning(field), { kind: 'type', value: 'milk' });
  assert.deepEqual(rec.keyMeaning(field, key('Enter'), false),
    { press: { kind: 'press', key: 'Enter' }, onElement: true, ifPageTakesIt: false });
  assert.equal(rec.changeMeaning(field).kind, 'endTyping', 'its change ends the typing');

  // In a text area Enter types a line break, unless the page takes it (a chat).
  const area = new El('textarea', {}, { value: 'hello' });
  assert.equal(rec.isTextField(area), true);
  assert.equal(rec.keyMeaning(area, key('Enter'), false).ifPageTakesIt, true);
  assert.equal(rec.keyMeaning(area, key('Enter', { shiftKey: true }), false).ifPageTakesIt, true);
  assert.deepEqual(rec.keyMeaning(area, key('Enter', { ctrlKey: true }), false),
    { press: { kind: 'press', key: 'Enter', modifiers: ['Control'] }, onElement: true, ifPageTakesIt: false });

  // A rich text editor types its text content.
  const editor = new El('div', { contenteditable: '' }, { isContentEditable: true, textContent: 'Dear team' });
  assert.equal(rec.isTextField(editor), true);
  assert.equal(rec.isMultiline(editor), true);
  assert.deepEqual(rec.typingMeaning(editor), { kind: 'type', value: 'Dear team' });

  // Enter typed into it makes a line (a <div>, or a <br>): its text holds
  // the line break, which replay's typing presses as Enter, not the lines
  // run together as its textContent reads.
  const text = (data) => ({ nodeType: 3, data });
  const holding = (tag, ...kids) => {
    const el = new El(tag, {}, { childNodes: kids, textContent: kids.map((k) => k.data ?? k.textContent).join('') });
    kids.forEach((k, i) => { k.nextSibling = kids[i + 1] || null; });
    return el;
  };
  const lines = (...kids) => {
    const el = holding('div', ...kids);
    el.attrs.contenteditable = 'true';
    el.isContentEditable = true;
    return rec.typingMeaning(el).value;
  };
  assert.equal(lines(text('first42'), holding('div', text('Name'))), 'first42\nName');
  assert.equal(lines(text('a'), new El('br'), text('b')), 'a\nb');
  assert.equal(lines(text('abc'), holding('div', new El('br'))), 'abc\n', 'the <br> of an empty line holds its place');
  assert.equal(lines(holding('div', text('a')), holding('div', new El('br')), holding('div', text('b'))), 'a\n\nb');
  assert.equal(lines(holding('b', text('Dear')), text(' team')), 'Dear team', 'inline elements are no lines');
  // All of "John" selected and replaced by Enter, and then x typed: the
  // first line is empty, held by its <br>, and ends once.
  assert.equal(lines(new El('br'), holding('div', new El('br'))), '\n');
  assert.equal(lines(new El('br'), holding('div', text('x'))), '\nx');
  assert.equal(lines(text('abc'), new El('br'), new El('br')), 'abc\n');

  // A check box is no text field: a character there works the control.
  assert.equal(rec.isTextField(input('checkbox')), false);
  assert.equal(rec.keyMeaning(input('checkbox'), key(' '), false), null);
});

test('a select\'s change is one select of the options chosen; the clicks and keys that chose are not actions', () => {
  const one = new El('option', {}, { label: '', text: '  Two ' });
  const select = new El('select', {}, { selectedOptions: [one] }).append(one);
  assert.deepEqual(rec.changeMeaning(select), { kind: 'select', options: ['Two'] });
  const many = new El('select', { multiple: '' }, { selectedOptions: [{ label: 'Red', text: 'r' }, { label: '', text: 'Blue' }] });
  assert.deepEqual(rec.changeMeaning(many), { kind: 'select', options: ['Red', 'Blue'] });

  assert.deepEqual(rec.clickMeaning(select, click(), plain), { record: false, why: 'select', forwardsTo: null });
  assert.deepEqual(rec.clickMeaning(one, click(), plain), { record: false, why: 'select', forwardsTo: null });
  assert.equal(rec.doubleClickIsChoice(one), true);
  assert.equal(rec.keyMeaning(select, key('ArrowDown'), false), null, 'the change says what the key chose');
  assert.equal(rec.movesInWidget(select, 'ArrowDown'), false);
  // While picking, a click on the select is the pick's.
  assert.equal(rec.clickMeaning(select, click(), { ...plain, picking: true }).record, true);
});

test('keys with modifiers: a modifier alone is none; with Control, Alt or Meta a key is a press carrying them all', () => {
  for (const k of ['Control', 'Shift', 'Alt', 'Meta', 'AltGraph', 'CapsLock']) assert.equal(rec.isModifierKey(k), true, k);
  assert.equal(rec.isModifierKey('a'), false);

  const field = input('text');
  assert.deepEqual(rec.keyMeaning(body, key('s', { ctrlKey: true }), true),
    { press: { kind: 'press', key: 's', modifiers: ['Control'] }, onElement: false, ifPageTakesIt: false });
  assert.deepEqual(rec.keyMeaning(field, key('Z', { ctrlKey: true, shiftKey: true }), false).press,
    { kind: 'press', key: 'Z', modifiers: ['Control', 'Shift'] });
  assert.deepEqual(rec.keyMeaning(field, key('k', { metaKey: true, altKey: true }), false).press,
    { kind: 'press', key: 'k', modifiers: ['Alt', 'Meta'] });
  // Shift goes with a named key, and alone makes no character a press.
  assert.deepEqual(rec.keyMeaning(field, key('Tab', { shiftKey: true }), false).press,
    { kind: 'press', key: 'Tab', modifiers: ['Shift'] });
  assert.equal(rec.keyMeaning(field, key('A', { shiftKey: true }), false), null);
  // With the focus on the page a character is a shortcut; Shift is part of the character then.
  assert.deepEqual(rec.keyMeaning(null, key('?', { shiftKey: true }), true).press, { kind: 'press', key: '?' });
  assert.deepEqual(rec.keyMeaning(body, key('j'), true), { press: { kind: 'press', key: 'j' }, onElement: false, ifPageTakesIt: false });
  assert.equal(rec.keyMeaning(body, key('ArrowDown'), true), null, 'scrolling the page is no step');
  assert.deepEqual(rec.keyMeaning(body, key('Escape'), true).press, { kind: 'press', key: 'Escape' });

  const mods = rec.modifiersOf({ altKey: true, ctrlKey: true, metaKey: true, shiftKey: true });
  assert.deepEqual(mods, ['Alt', 'Control', 'Meta', 'Shift']);
});

test('the keys that move in a composite widget are presses; in a field, a select or a slider they are not', () => {
  const item = new El('li', { role: 'menuitem' });
  new El('ul', { role: 'menu' }).append(item);
  assert.deepEqual(rec.keyMeaning(item, key('ArrowDown'), false),
    { press: { kind: 'press', key: 'ArrowDown' }, onElement: true, ifPageTakesIt: false });
  const tab = new El('button', { role: 'tab' });
  new El('div', { role: 'tablist' }).append(tab);
  assert.equal(rec.keyMeaning(tab, key('End'), false).press.key, 'End');
  assert.equal(rec.keyMeaning(new El('button'), key('ArrowDown'), false), null, 'outside a widget the page scrolls');
  const search = input('search');
  new El('div', { role: 'listbox' }).append(search);
  assert.equal(rec.keyMeaning(search, key('ArrowDown'), false), null, 'a field in a widget keeps its keys');

  // An autocomplete field (an ARIA combobox: a text field with a list of
  // suggestions) moves the highlighted suggestion with ArrowUp and ArrowDown,
  // and the Enter after them takes that one: they are presses. The caret keys
  // stay typing, as does ArrowDown in a field with a native datalist, whose
  // choice comes as typed text.
  const combo = input('text', { value: 'ja' });
  combo.attrs.role = 'combobox';
  combo.attrs['aria-autocomplete'] = 'list';
  assert.deepEqual(rec.keyMeaning(combo, key('ArrowDown'), false),
    { press: { kind: 'press', key: 'ArrowDown' }, onElement: true, ifPageTakesIt: false });
  assert.equal(rec.keyMeaning(combo, key('ArrowUp'), false).press.key, 'ArrowUp');
  for (const k of ['ArrowLeft', 'ArrowRight', 'Home', 'End'])
    assert.equal(rec.keyMeaning(combo, key(k), false), null, `${k} moves the caret`);
  const listed = input('text');
  listed.attrs.list = 'browsers';
  assert.equal(rec.keyMeaning(listed, key('ArrowDown'), false), null, 'a datalist choice is typing');

  const knob = new El('div', { role: 'slider', 'aria-valuenow': '5' });
  assert.deepEqual(rec.keyMeaning(knob, key('ArrowRight'), false), { setting: knob });
  assert.notEqual(rec.keyMeaning(knob, key('ArrowRight', { ctrlKey: true }), false).press, undefined, 'with Control it is a press');
});

test('a slider\'s drag, clicks and keys are one set of the value it ends at; an ARIA slider that did not move sets nothing', () => {
  const range = input('range', { value: '30' });
  assert.equal(rec.valueControl(range), range);
  assert.deepEqual(rec.clickMeaning(range, click(), plain), { record: false, why: 'setting', forwardsTo: null });
  // The click a drag ends with lands beside the control it started on.
  const track = new El('div');
  const knob = new El('div', { role: 'slider', 'aria-valuenow': '5' });
  track.append(knob);
  assert.equal(rec.clickMeaning(track, click(), { ...plain, pressed: knob }).why, 'setting');
  assert.equal(rec.clickMeaning(track, click(), plain).why, 'click', 'without the press it is a click');
  assert.equal(rec.clickMeaning(track, click({ button: 2 }), { ...plain, pressed: knob }).why, 'click', 'a right click is a click');
  assert.deepEqual(rec.changeMeaning(range), { kind: 'setting' });
  assert.deepEqual(rec.typingMeaning(range), { kind: 'set', value: '30' });
  assert.equal(rec.typingMeaning(knob, '5'), null);
  knob.attrs['aria-valuenow'] = '7';
  assert.deepEqual(rec.typingMeaning(knob, '5'), { kind: 'set', value: '7' });
  assert.deepEqual(rec.typingMeaning(input('date', { value: '2026-12-06' })), { kind: 'set', value: '2026-12-06' });
});

test('double clicks, clicks made of a key, and files chosen', () => {
  const button = new El('button');
  assert.deepEqual(rec.clickMeaning(button, click({ detail: 2 }), plain), { record: false, why: 'double', forwardsTo: null });
  assert.deepEqual(rec.clickMeaning(button, click({ detail: 0 }), { ...plain, keyActivation: true }),
    { record: false, why: 'key', forwardsTo: null }, 'Enter on a button: the key press is recorded');
  assert.equal(rec.clickMeaning(button, click({ detail: 0 }), plain).record, true, 'a click a screen reader makes');
  assert.equal(rec.doubleClickIsChoice(button), false);

  const file = input('file', { files: [{ name: 'cv.pdf' }, { name: 'photo.png' }] });
  assert.deepEqual(rec.changeMeaning(file), { kind: 'upload', files: ['cv.pdf', 'photo.png'] });

  const option = new El('div', { role: 'option', 'aria-selected': 'true' });
  const box = new El('div', { role: 'listbox', 'aria-multiselectable': 'true' }).append(option);
  assert.equal(rec.multiListbox(option), box);
  box.attrs['aria-multiselectable'] = 'false';
  assert.equal(rec.multiListbox(option), null);
});
