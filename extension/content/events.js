// @ts-check
// The recorder: what a DOM event means as an interaction. A key, a click or
// a change on an element becomes a press, a click, a select, a check, an
// upload, typing or the setting of a value control, or nothing (a key held
// for the next one, the click the browser passes on from a label). The
// other files do what these say: capture the screen before, send.
//
// Nothing here touches the DOM's globals or chrome.*: it reads only the
// elements and events it is given (their localName, type, attributes,
// closest and matches), so node tests it with stand-ins
// (test/recorder_events.test.mjs).
'use strict';

/**
 * What a key means (keyMeaning): the setting of an ARIA slider or spin
 * button, or a press, with whether it acts on the element (its screen and
 * ref go with it) and whether it counts only if the page takes it (Enter in
 * a text area types a line break unless the page's handler prevents that).
 * @typedef {{setting: HTMLElement} | {press: {kind: 'press', key: string, modifiers?: string[]}, onElement: boolean, ifPageTakesIt: boolean}} RecorderKeyMeaning
 *
 * What a trusted click means (clickMeaning): whether it is recorded as a
 * click, why (or why not), and the control the browser passes it on to (a
 * label's check box), whose click is then not the person's.
 * @typedef {{record: boolean, why: 'select' | 'setting' | 'forwarded' | 'drag' | 'double' | 'key' | 'pick' | 'click', forwardsTo: Element | null}} RecorderClickMeaning
 *
 * What a change event means (changeMeaning): a select of the options
 * chosen, a check or uncheck, an upload of the files chosen; or the typing
 * into the element ends; or the setting of a value control goes on.
 * @typedef {{kind: 'select', options: string[]} | {kind: 'check' | 'uncheck'} | {kind: 'upload', files: string[]} | {kind: 'endTyping' | 'setting'}} RecorderChangeMeaning
 *
 * What typing into an element (or setting it) is once it ends
 * (typingMeaning): one type of its final value, one set of the value it
 * ended at, or nothing (an ARIA slider that did not move).
 * @typedef {{kind: 'type', value: string} | {kind: 'set', value: string} | null} RecorderTypingMeaning
 *
 * A press a drag may begin with (mayDrag): the element the mouse went down
 * on and where, whether the pointer went far enough with the button held
 * (moved), and the element the page started an HTML5 drag of from it
 * (native).
 * @typedef {{el: Element, x: number, y: number, time: number, moved: boolean, native: Element | null}} RecorderPress
 *
 * What events.js gives the files after it, on the recorder's namespace.
 * @typedef {object} RecorderEvents
 * @property {(t: EventTarget | null) => Element | null} elementOf
 * @property {(el: Element) => boolean} isTextField
 * @property {(el: Element) => boolean} inSelect
 * @property {(el: Element) => HTMLElement | null} valueControl
 * @property {(el: Element) => Element | null} multiListbox
 * @property {(el: Element) => boolean} isAriaRange
 * @property {(el: Element) => boolean} isMultiline
 * @property {(el: Element, key: string) => boolean} movesInWidget
 * @property {(e: {altKey: boolean, ctrlKey: boolean, metaKey: boolean, shiftKey: boolean}) => string[]} modifiersOf
 * @property {(key: string) => boolean} isModifierKey
 * @property {(el: Element, pressed: Element | null) => boolean} partOfSetting
 * @property {(el: Element | null, e: KeyboardEvent, onPage: boolean) => RecorderKeyMeaning | null} keyMeaning
 * @property {(el: Element, e: {button: number, detail: number}, ctx: {picking: boolean, pressed: Element | null, forwarded: Element | null, keyActivation: boolean, dragged?: Element | null}) => RecorderClickMeaning} clickMeaning
 * @property {(el: Element) => boolean} doubleClickIsChoice
 * @property {(el: Element) => RecorderChangeMeaning} changeMeaning
 * @property {(el: Element, start?: string | null) => RecorderTypingMeaning} typingMeaning
 * @property {(el: Element, e: {button: number}) => boolean} mayDrag
 * @property {(press: RecorderPress, e: {buttons: number, clientX: number, clientY: number}) => boolean} draggedFar
 * @property {(press: RecorderPress | null, how: 'release' | 'drop', changed: boolean) => {from: Element} | null} dragMeaning
 * @property {(press: RecorderPress | null, dirty: boolean, changedAt: number) => boolean} changedDuring
 */

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, RecorderInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.recorder.internals')];
  if (!internals)
    return; // the recorder is installed already (core.js)
  const rec = internals;

  /** Keys recorded on their own; any key with Control, Alt or Meta is too. */
  const NAMED_KEYS = new Set(['Enter', 'Escape', 'Tab', 'ContextMenu']);

  /**
   * Keys that are held for the next key or click, not pressed for
   * themselves: their keydown is no action (the key or click they go with
   * carries them as modifiers).
   */
  const MODIFIER_KEYS = new Set(['Control', 'Shift', 'Alt', 'Meta', 'AltGraph', 'CapsLock', 'NumLock',
    'ScrollLock', 'Fn', 'FnLock', 'Hyper', 'Super', 'Symbol', 'SymbolLock', 'OS']);

  /** Keys that move through a composite widget (a menu, a list box, tabs). */
  const WIDGET_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

  /** Roles of the widgets whose own script moves the focus on those keys. */
  const WIDGET_ROLES = '[role=menu],[role=menubar],[role=listbox],[role=tree],[role=treegrid],[role=grid],' +
    '[role=tablist],[role=radiogroup],[role=toolbar]';

  /** Input types whose typing is recorded as type (the rest change otherwise). */
  const TEXT_INPUTS = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date',
    'datetime-local', 'month', 'week', 'time', 'color', 'range']);

  /**
   * Input types a person sets by dragging, by keys or with a picker rather
   * than by typing text: a setting is recorded as set, with the value the
   * control ended at, and the clicks and keys that made it are no action.
   */
  const VALUE_INPUTS = new Set(['range', 'number', 'date', 'datetime-local', 'month', 'week', 'time', 'color']);

  /** ARIA controls set the same way; their value is aria-valuenow. */
  const ARIA_RANGES = '[role=slider],[role=spinbutton]';

  /** @param {EventTarget | null} t @returns {Element | null} */
  function elementOf(t) {
    return t && /** @type {Node} */ (t).nodeType === 1 ? /** @type {Element} */ (t) : null;
  }

  /** @param {Element} el */
  function isTextField(el) {
    const tag = el.localName;
    if (tag === 'textarea')
      return true;
    if (tag === 'input')
      return TEXT_INPUTS.has((/** @type {HTMLInputElement} */ (el)).type);
    return /** @type {HTMLElement} */ (el).isContentEditable === true;
  }

  /**
   * Whether el is a <select> (a drop-down or a list box) or one of its
   * options: a click there opens or closes the list, or chooses (in a list
   * box, on the press, with Control or Shift for more than one); the choice
   * is recorded as select, from its change event.
   * @param {Element} el
   */
  function inSelect(el) {
    return !!el.closest('select');
  }

  /**
   * The control el sets a value of (a native slider, spinner, date, time or
   * colour input, or an ARIA slider or spin button el lies in), or null.
   * @param {Element} el @returns {HTMLElement | null}
   */
  function valueControl(el) {
    if (el.localName === 'input')
      return VALUE_INPUTS.has((/** @type {HTMLInputElement} */ (el)).type) ? /** @type {HTMLElement} */ (el) : null;
    const aria = el.closest(ARIA_RANGES);
    return aria && aria.localName !== 'input' ? /** @type {HTMLElement} */ (aria) : null;
  }

  /**
   * The ARIA list box that lets a person choose several options (one with
   * aria-multiselectable) whose option el lies in, or null. A click there
   * chooses: it is recorded as the list box's selection after it.
   * @param {Element} el @returns {Element | null}
   */
  function multiListbox(el) {
    const option = el.closest('[role=option]');
    const listbox = option && option.closest('[role=listbox]');
    return listbox && listbox.localName !== 'select' && listbox.getAttribute('aria-multiselectable') === 'true' ? listbox : null;
  }

  /** Whether el is an ARIA slider or spin button (not a native input). @param {Element} el */
  function isAriaRange(el) {
    return el.localName !== 'input' && el.matches(ARIA_RANGES);
  }

  /** @param {{altKey: boolean, ctrlKey: boolean, metaKey: boolean, shiftKey: boolean}} e a key or mouse event @returns {string[]} */
  function modifiersOf(e) {
    const m = [];
    if (e.altKey) m.push('Alt');
    if (e.ctrlKey) m.push('Control');
    if (e.metaKey) m.push('Meta');
    if (e.shiftKey) m.push('Shift');
    return m;
  }

  /** Whether Enter in el types a line break. @param {Element} el */
  function isMultiline(el) {
    return el.localName === 'textarea' || (/** @type {HTMLElement} */ (el)).isContentEditable === true;
  }

  /**
   * Whether key moves the focus or the choice in the composite widget el is
   * part of: the item a later Enter acts on depends on it. Native fields,
   * drop-downs and sliders record what the key changed instead.
   * @param {Element} el @param {string} key
   */
  function movesInWidget(el, key) {
    if (!WIDGET_KEYS.has(key) || el.closest('select'))
      return false;
    if (isTextField(el)) {
      // An autocomplete field (role=combobox, its suggestions in a list
      // box its script draws) highlights the next or previous suggestion
      // on ArrowDown and ArrowUp, and a later Enter takes that one: the
      // keys are part of what was chosen. The other keys move the caret. A
      // native datalist's choice comes as typed text instead.
      return (key === 'ArrowDown' || key === 'ArrowUp') && el.getAttribute('role') === 'combobox';
    }
    return el.localName !== 'input' && !!el.closest(WIDGET_ROLES);
  }

  /** Whether key is held for the next key or click rather than pressed for itself. @param {string} key */
  function isModifierKey(key) {
    return MODIFIER_KEYS.has(key);
  }

  /**
   * Whether a click on el belongs to the setting of a value control: el is
   * one, or the control the mouse last went down on (pressed, when that was
   * a moment ago) is el, inside it or around it. The click a drag ends with
   * lands on the control, or on what lies around the point the drag ended.
   * @param {Element} el @param {Element | null} pressed
   */
  function partOfSetting(el, pressed) {
    return !!valueControl(el) || !!pressed && (pressed === el || el.contains(pressed) || pressed.contains(el));
  }

  /**
   * What a key pressed on el (the focused element; null when none) means.
   * A character typed into a field is typing, on a control it works the
   * control (its click is recorded); with the focus on the page (onPage) it
   * is a shortcut. Named keys (Enter, Escape, Tab, the context-menu key),
   * the keys that move in a composite widget, and any key with Control,
   * Alt or Meta are presses; the modifiers go with a press when one of
   * those is held, or with a named key (Shift+Tab). A key that moves an
   * ARIA slider is its setting. Call it for keys that are no modifier of
   * their own (isModifierKey).
   * @param {Element | null} el @param {KeyboardEvent} e @param {boolean} onPage
   * @returns {RecorderKeyMeaning | null} null: no interaction of its own
   */
  function keyMeaning(el, e, onPage) {
    const mods = modifiersOf(e).filter((m) => m !== 'Shift');
    const aria = el && valueControl(el);
    if (aria && isAriaRange(aria) && WIDGET_KEYS.has(e.key) && !mods.length) {
      // A key that moves an ARIA slider: its setting, recorded as the value
      // it ends at.
      return { setting: aria };
    }
    const named = NAMED_KEYS.has(e.key) || (!!el && movesInWidget(el, e.key));
    if (!named && !mods.length && (!onPage || e.key.length !== 1))
      return null;
    /** @type {{kind: 'press', key: string, modifiers?: string[]}} */
    const press = { kind: 'press', key: e.key };
    const allMods = modifiersOf(e);
    if (allMods.length && (mods.length || named))
      press.modifiers = allMods;
    // In a text area Enter types a line break, part of the typing, unless
    // the page takes it (a chat's Enter sends): which, its handlers say.
    const ifPageTakesIt = e.key === 'Enter' && !mods.length && !!el && isMultiline(el);
    return { press, onElement: !!el && !onPage, ifPageTakesIt };
  }

  /**
   * The label element el lies in, through the shadow roots and slots of the
   * components it is part of: text slotted into a component's label is
   * that label's, and a click on it is passed on to the label's control in
   * the component's shadow root.
   * @param {Element} el @returns {HTMLLabelElement | null}
   */
  function labelAround(el) {
    /** @type {Element | null} */
    let e = el;
    while (e) {
      if (e.localName === 'label')
        return /** @type {HTMLLabelElement} */ (e);
      const node = /** @type {Element & {assignedSlot?: Element | null, parentNode?: Node | null}} */ (e);
      const parent = /** @type {{host?: Element} | null | undefined} */ (node.parentNode);
      e = node.assignedSlot || e.parentElement || (parent && parent.host) || null;
    }
    return null;
  }

  /**
   * What a trusted click on el means. ctx: whether the person is picking
   * (for an assertion: every click is the pick's), the value control the
   * mouse last went down on a moment ago, the control a click on a label is
   * being passed on to (forwarded), whether an Enter key is being
   * handled (keyActivation: the click the browser makes of it), and the
   * element a drag recorded a moment ago started from (dragged: the click
   * the browser makes of its release is part of it).
   * @param {Element} el @param {{button: number, detail: number}} e
   * @param {{picking: boolean, pressed: Element | null, forwarded: Element | null, keyActivation: boolean, dragged?: Element | null}} ctx
   * @returns {RecorderClickMeaning}
   */
  function clickMeaning(el, e, ctx) {
    if (!ctx.picking && inSelect(el))
      return { record: false, why: 'select', forwardsTo: null }; // it opens or closes the list, or chooses: the choice is recorded as select
    if (!ctx.picking && e.button === 0 && partOfSetting(el, ctx.pressed))
      return { record: false, why: 'setting', forwardsTo: null }; // the drag or press that set a value: recorded as set
    if (el === ctx.forwarded)
      return { record: false, why: 'forwarded', forwardsTo: null }; // the click the browser passed on from the label clicked
    if (!ctx.picking && ctx.dragged && (ctx.dragged === el || el.contains(ctx.dragged) || ctx.dragged.contains(el)))
      return { record: false, why: 'drag', forwardsTo: null }; // the release of a drag, recorded as drag
    // The browser clicks a label's check box (or button) itself: the
    // person's one click on the label is recorded, not that one.
    const label = labelAround(el);
    const control = label && label.control;
    const forwardsTo = control && control !== el && !control.contains(el) && !ctx.picking ? control : null;
    if (ctx.picking)
      return { record: true, why: 'pick', forwardsTo };
    if (e.detail > 1)
      return { record: false, why: 'double', forwardsTo }; // the dblclick event reports it
    if (e.detail === 0 && ctx.keyActivation) {
      // The click the browser makes of a key: Enter in a form field
      // submits through its default button, Enter on a button clicks it.
      // The key press is recorded; replaying it makes the click again.
      return { record: false, why: 'key', forwardsTo };
    }
    return { record: true, why: 'click', forwardsTo };
  }

  /** Whether a double click on el chooses or sets (recorded as select or set), not clicks. @param {Element} el */
  function doubleClickIsChoice(el) {
    return inSelect(el) || !!valueControl(el);
  }

  /**
   * What a change event on el means.
   * @param {Element} el @returns {RecorderChangeMeaning}
   */
  function changeMeaning(el) {
    const tag = el.localName;
    if (tag === 'select') {
      const sel = /** @type {HTMLSelectElement} */ (el);
      return { kind: 'select', options: [...sel.selectedOptions].map((o) => (o.label || o.text).trim()) };
    }
    if (tag !== 'input')
      return { kind: 'endTyping' };
    const input = /** @type {HTMLInputElement} */ (el);
    if (input.type === 'checkbox' || input.type === 'radio')
      return { kind: input.checked ? 'check' : 'uncheck' };
    if (input.type === 'file')
      return { kind: 'upload', files: [...(input.files || [])].map((f) => f.name) };
    // A slider's or a spinner's change comes with each key and at the end
    // of each drag: its setting goes on until the person does something
    // else, and is one set of the value it ends at.
    return valueControl(el) ? { kind: 'setting' } : { kind: 'endTyping' };
  }

  /**
   * What typing into el (not a secret field: secrets.js) or setting it is,
   * once it ends: one type of the field's final value, or one set of the
   * value a value control ended at (nothing when an ARIA slider did not
   * move from start, its value when the setting began).
   * @param {Element} el @param {string | null} [start]
   * @returns {RecorderTypingMeaning}
   */
  function typingMeaning(el, start) {
    if (valueControl(el) === el) {
      const value = isAriaRange(el) ? el.getAttribute('aria-valuenow') : (/** @type {HTMLInputElement} */ (el)).value;
      if (value !== null && !(isAriaRange(el) && value === start))
        return { kind: 'set', value };
      return null;
    }
    const value = 'value' in el ? String(/** @type {HTMLInputElement} */ (el).value) : editableText(el);
    return { kind: 'type', value };
  }

  /** Elements that begin and end a line in text edited in place. */
  const BLOCK_TAGS = new Set(['address', 'article', 'aside', 'blockquote', 'dd', 'div', 'dl', 'dt', 'figure', 'footer',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'ol', 'p', 'pre', 'section', 'table', 'tr', 'ul']);

  /**
   * The text of an editing host (contenteditable) as its lines read: what
   * Enter typed there (a <div> or <br> the browser inserts) is a line break,
   * as replay's typing of "\n" presses Enter. textContent would run the
   * lines together ("first42<div>Name</div>" is not "first42Name"). A <br>
   * ends its line, which may be empty; a block begins and ends one; a line
   * ended by a <br> that ends its block is not ended twice ("John<div><br></div>"
   * is "John\n", "<br><div>x</div>" is "\nx").
   * @param {Element} el
   */
  function editableText(el) {
    const kids = /** @type {{childNodes?: ArrayLike<Node>}} */ (el).childNodes;
    if (!kids || !Array.from(kids).some((k) => k.nodeType === 1))
      return el.textContent || '';
    let out = '';
    let started = false; // a line was begun (text, or a <br> that ends an empty one)
    let broken = false; // the line ends before what comes next
    /** @param {string} s */
    const put = (s) => {
      if (broken && started)
        out += '\n';
      broken = false;
      started = true;
      out += s;
    };
    /** @param {Node} n */
    const walk = (n) => {
      for (const k of Array.from(n.childNodes)) {
        if (k.nodeType === 3) {
          put(/** @type {Text} */ (k).data);
        } else if (k.nodeType === 1) {
          const tag = /** @type {Element} */ (k).localName;
          if (tag === 'br') {
            put('');
            broken = true;
            continue;
          }
          const block = BLOCK_TAGS.has(tag);
          if (block)
            broken = true;
          walk(k);
          if (block)
            broken = true;
        }
      }
    };
    walk(el);
    return out;
  }

  /**
   * How far the pointer must go from where the mouse went down, with the
   * button held, for the press to be a drag rather than a click.
   */
  const DRAG_MIN_PX = 5;

  /**
   * Whether a press on el may begin a drag: a press of the left button,
   * not in a field (a drag there selects text), a select or a value
   * control (a slider's drag is its setting).
   * @param {Element} el @param {{button: number}} e
   */
  function mayDrag(el, e) {
    return e.button === 0 && !isTextField(el) && !inSelect(el) && !valueControl(el);
  }

  /**
   * Whether a move went far enough from the press, with the left button
   * held, for the press to be a drag.
   * @param {RecorderPress} press @param {{buttons: number, clientX: number, clientY: number}} e
   */
  function draggedFar(press, e) {
    return (e.buttons & 1) === 1 && Math.hypot(e.clientX - press.x, e.clientY - press.y) >= DRAG_MIN_PX;
  }

  /**
   * Whether the page changed while press was held (dragMeaning's changed):
   * the capture is stale, or the page changed since the press. A slow drag
   * leaves the page quiet between two moves, and the capture then taken
   * (screens.js, changed) is fresh again at the release, though the list
   * moved its item on the way.
   * @param {RecorderPress | null} press @param {boolean} dirty @param {number} changedAt
   */
  function changedDuring(press, dirty, changedAt) {
    return dirty || (!!press && changedAt >= press.time);
  }

  /**
   * What the end of a press means: a drag from an element, or nothing. A
   * drop (an HTML5 drop event: the page took it) ends the drag the page
   * started from the press, from the element it dragged. A release ends a
   * drag that followed the pointer: one that went far enough, started no
   * HTML5 drag, and changed the page on the way (changed: a list that
   * moves its items; a text selection changes nothing). An HTML5 drag that
   * ends with no drop was refused: nothing happened.
   * @param {RecorderPress | null} press @param {'release' | 'drop'} how @param {boolean} changed
   * @returns {{from: Element} | null}
   */
  function dragMeaning(press, how, changed) {
    if (!press)
      return null;
    if (how === 'drop')
      return press.native ? { from: press.native } : null;
    if (press.native || !press.moved || !changed)
      return null;
    return { from: press.el };
  }

  /** @type {RecorderEvents} */
  const provides = { elementOf, isTextField, inSelect, valueControl, multiListbox, isAriaRange, isMultiline, movesInWidget,
    modifiersOf, isModifierKey, partOfSetting, keyMeaning, clickMeaning, doubleClickIsChoice, changeMeaning, typingMeaning,
    mayDrag, draggedFar, changedDuring, dragMeaning };
  Object.assign(rec, provides);
})();
