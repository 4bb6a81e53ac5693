// @ts-check
// The recorder: interactions. What a press, a click, a change, a key or a
// dialog's answer does: the screen before it, and what is sent (events.js
// says what the event means). Every entry point here runs in the top
// frame's recorder for its same-origin frames (frames.js).
'use strict';

/**
 * What interactions.js gives the files after it, on the recorder's namespace.
 * @typedef {object} RecorderInteractions
 * @property {() => void} unchosenPress
 * @property {(el: Element) => void} mouseDown
 * @property {(el: Element, e: MouseEvent, count: number) => void} clicked
 * @property {(el: Element) => void} pointerOver
 * @property {() => void} forgetOver
 * @property {(el: Element, e: Event) => void} changedValue
 * @property {(el: Element | null, e: KeyboardEvent) => void} pressed
 * @property {() => void} released
 * @property {(d: {kind: string, message: string, accept: boolean, promptText?: string}) => void} dialogAnswered
 * @property {(el: Element, drop: {x: number, y: number}) => void} dropped
 */

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, RecorderInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.recorder.internals')];
  if (!internals)
    return; // the recorder is installed already (core.js)
  const rec = internals;
  const { state, pm, PRESS_MAX_MS } = rec;
  /**
   * How many timers the typing set off are still pending in el's document,
   * as typingtimers.js in the page's world follows them (0 where it does
   * not run). A key pressed while one is came before the page acted on the
   * typing (a search box's debounce): it is sent at once (atOnce), and
   * replay presses it without the wait after a type, which the person did
   * not take (docs/trail-format.md, press).
   * @param {Element} el
   */
  function typingTimersPending(el) {
    const doc = el.ownerDocument;
    let n = 0;
    const told = (/** @type {Event} */ e) => { n = Number(/** @type {CustomEvent} */ (e).detail) || 0; };
    doc.addEventListener('trailpin-typing-timers', told, true);
    try {
      doc.dispatchEvent(new CustomEvent('trailpin-typing-timers-ask'));
    } finally {
      doc.removeEventListener('trailpin-typing-timers', told, true);
    }
    return n;
  }

  /**
   * The mouse went down on el: the screen before the click is the one now,
   * before the page's own mousedown handlers change it (a pressed state, a
   * ripple, a menu that opens on press).
   * @param {Element} el
   */
  function mouseDown(el) {
    const screen = rec.currentScreen();
    const select = /** @type {HTMLSelectElement | null} */ (el.closest('select'));
    // A drop-down pressed before, where nothing was chosen: its press is
    // sent now (flushTyping sends it, after the typing it ended).
    if (state.selectOpened && state.selectOpened.el !== select)
      rec.flushTyping();
    state.down = { el, screen, time: Date.now() };
    // The press ends the typing before it (its click or drop sends it):
    // what was typed is the field's text now, before the focus leaves it
    // and the page rewrites it on blur (JSONEditor writes a line break
    // typed into a key as "\n"), as the step's end is the screen now.
    // The first press after the last text counts: a press that sends
    // nothing (a drop-down opened, nothing chosen) still took the focus,
    // and what the field holds at a later press is the page's rewriting,
    // not typing (typed() reads again when the typing goes on).
    const t = state.typing;
    if (t && !rec.isSecret(t.el) && t.atPress === undefined)
      t.atPress = rec.typingMeaning(t.el, t.start);
    if (!select)
      state.selectOpened = null;
    else if (!state.selectOpened)
      state.selectOpened = { el: select, screen, time: Date.now(), tap: isDropDown(select) && !rec.currentPick() };
  }

  /**
   * Whether select is a drop-down: its list is the browser's pop-up, which
   * a press opens (a list box, multiple or with a size, shows its options
   * on the page, and a press there chooses).
   * @param {HTMLSelectElement} select
   */
  function isDropDown(select) {
    return !select.multiple && !(select.size > 1);
  }

  /**
   * A press on a drop-down that chose nothing, once the person does
   * something else: the press is sent as a click on the drop-down, on the
   * screen from before it. It changed the page all the same: it took the
   * focus (a field before it committed on blur), and an app that closes its
   * menu on any press outside it (JSONEditor) closed it. Replay presses the
   * drop-down without opening the browser's list (docs/recording.md, A
   * press on a drop-down that chooses nothing). A choice is sent as one
   * select instead (changedValue), with no click.
   */
  function unchosenPress() {
    const o = state.selectOpened;
    if (!o || !o.tap)
      return;
    state.selectOpened = null;
    if (!o.el.isConnected || rec.crossOriginFrame)
      return;
    rec.send({ kind: 'click', ref: pm().refForElement(o.el), count: 1, button: 'left', time: o.time }, o.screen);
  }

  /**
   * The screen before a click on el: the one taken when the mouse went down
   * on it (or inside it), else the current one.
   * @param {Element} el
   */
  function screenBeforeClick(el) {
    const down = state.down;
    state.down = null;
    if (down && el.contains(down.el) && Date.now() - down.time < PRESS_MAX_MS)
      return down.screen;
    return rec.currentScreen();
  }

  /**
   * @param {Element} el
   * @param {MouseEvent} e
   * @param {number} count
   */
  function clicked(el, e, count) {
    rec.flushTyping();
    const screen = screenBeforeClick(el);
    const ref = pm().refForElement(el);
    // The change a click on a check box makes comes right after it.
    state.clickScreen = screen;
    setTimeout(() => { state.clickScreen = null; }, 0);
    // A check the picker takes on what entering an element showed (a menu's
    // item) needs the pointer there too, as a click on it does.
    if (!state.pick || state.pick === 'assertVisible')
      sendReveal();
    forgetOver();
    if (state.pick) {
      // What the bar highlighted for this element, as widened or narrowed.
      const { from, at } = state.picked;
      rec.takePick(from === el && at ? at : rec.readsAsOne(state.pick) ? rec.readAsOne(el) : el, screen);
      return;
    }
    /** @type {Record<string, unknown>} */
    const i = { kind: 'click', ref, count, button: ['left', 'middle', 'right'][e.button] || 'left' };
    const mods = rec.modifiersOf(e);
    if (mods.length)
      i.modifiers = mods;
    const listbox = count === 1 && e.button === 0 ? rec.multiListbox(el) : null;
    if (listbox) {
      // The choice is the selection the page shows once its own click
      // handler ran: one select of the list box, named by its label, with
      // no tap of the option or press of the key held for it.
      const boxRef = pm().refForElement(listbox);
      const time = Date.now();
      rec.afterHandlers(() => {
        const options = listbox.isConnected ? selectedInListbox(listbox) : [];
        rec.send(options.length ? { kind: 'select', ref: boxRef, options, time } : { ...i, time }, screen);
      });
      return;
    }
    rec.send(i, screen);
  }

  /**
   * The pointer entered el. What its script shows then (a menu opened on
   * mouseenter) changes the page right after: the entry is kept, with the
   * screen from before it, for the click that follows, and the host keeps
   * the hover when that click's element was not shown before it.
   * @param {Element} el
   */
  function pointerOver(el) {
    if (state.reveal || state.dirty || !state.screen)
      return; // the first entry that changed the page counts; a stale screen shows nothing
    state.over = { el, screen: state.screen, time: Date.now() };
  }

  /** Another interaction came: an entry before it shows nothing the next click needs. */
  function forgetOver() {
    state.reveal = null;
    state.over = null;
  }

  /** Sends the entry that changed the page before the click it led to. */
  function sendReveal() {
    const r = state.reveal;
    state.reveal = null;
    state.over = null;
    if (r && r.el.isConnected && !rec.crossOriginFrame)
      rec.send({ kind: 'hover', ref: pm().refForElement(r.el), time: r.time }, r.screen);
  }

  /** @param {Element} el @param {Event} _e */
  function changedValue(el, _e) {
    forgetOver();
    const meant = rec.changeMeaning(el);
    switch (meant.kind) {
      case 'select': {
        // The choice a press on the drop-down led to: no click is sent for
        // the press.
        const opened = state.selectOpened && state.selectOpened.el === el ? state.selectOpened : null;
        state.selectOpened = null;
        rec.flushTyping();
        // Chosen with a key: the screen from before the key, which shows the
        // choice before it.
        const pre = state.preInput && state.preInput.el === el && Date.now() - state.preInput.time < PRESS_MAX_MS ? state.preInput : null;
        if (pre)
          state.preInput = null;
        // Chosen in the list a click opened: the screen from that click.
        rec.send({ kind: 'select', ref: pm().refForElement(el), options: meant.options }, pre ? pre.screen : opened ? opened.screen : rec.currentScreen());
        return;
      }
      case 'check':
      case 'uncheck':
        rec.flushTyping();
        // The screen before the change: the click's, when a click made it.
        rec.send({ kind: meant.kind, ref: pm().refForElement(el) }, state.clickScreen || rec.currentScreen());
        return;
      case 'upload':
        rec.flushTyping();
        rec.send({ kind: 'upload', ref: pm().refForElement(el), files: meant.files }, rec.currentScreen());
        return;
      case 'endTyping':
        if (state.typing && state.typing.el === el)
          rec.flushTyping();
        return;
      case 'setting':
        // Goes on until the person does something else (typing.js).
        return;
    }
  }

  /** @param {Element | null} el @param {KeyboardEvent} e */
  function pressed(el, e) {
    if (rec.isModifierKey(e.key))
      return;
    state.escaping = null;
    forgetOver();
    if (el && rec.isTextField(el) && !(state.typing && state.typing.el === el))
      state.preInput = { el, screen: rec.currentScreen(), time: Date.now(), held: true };
    if (el && el.localName === 'select') {
      // A key chooses in a drop-down at once: the typing before ends here,
      // and the screen before the choice is the one now — or, while keys go
      // on working its open list, the one from before the first: the list
      // shows the option each arrow moves to as the select's value before
      // any change event, and a capture in between (a transition ending)
      // would take the choice for the state before it. A press on it
      // before is not sent yet: the key may choose.
      const opened = state.selectOpened && state.selectOpened.el === el ? state.selectOpened : null;
      if (opened)
        state.selectOpened = null;
      rec.flushTyping();
      if (opened)
        state.selectOpened = opened;
      const pre = state.preInput;
      if (pre && pre.el === el && Date.now() - pre.time < PRESS_MAX_MS)
        pre.time = Date.now();
      else
        state.preInput = { el, screen: rec.currentScreen(), time: Date.now() };
    }
    const onPage = !el || el === document.body || el === document.documentElement;
    const meant = rec.keyMeaning(el, e, onPage);
    if (!meant)
      return; // typing, or a key that works the control it is on
    if ('setting' in meant) {
      rec.typed(meant.setting);
      return;
    }
    const typing = state.typing;
    const atOnce = !!typing && !!el && typing.el === el && typingTimersPending(el) > 0;
    rec.flushTyping();
    if (state.preInput && state.preInput.el === el && el && rec.isTextField(el))
      state.preInput = null; // a press, not the typing's start: text after it has its own boundary
    // Escape in a search field clears it, as the browser's own action of
    // the key: that change is the press's effect (its step ends with it,
    // and replay's press makes it again), not typing of an empty text.
    state.escaping = e.key === 'Escape' && el && rec.isTextField(el) ? el : null;
    /** @type {Record<string, unknown>} */
    const i = { ...meant.press, ...(atOnce ? { atOnce: true } : {}) };
    let screen = null;
    if (meant.onElement && el) {
      screen = rec.currentScreen();
      i.ref = pm().refForElement(el);
    }
    if (meant.ifPageTakesIt) {
      i.time = Date.now();
      rec.afterHandlers(() => {
        if (e.defaultPrevented)
          rec.send(i, screen);
      });
      return;
    }
    rec.send(i, screen);
  }

  /** A key came up: text that goes into a field after it was not typed by it. */
  function released() {
    if (state.preInput)
      state.preInput.held = false;
    state.escaping = null;
  }

  /** @param {{kind: string, message: string, accept: boolean, promptText?: string}} d */
  function dialogAnswered(d) {
    rec.flushTyping();
    /** @type {Record<string, unknown>} */
    const i = { kind: 'dialog', dialogKind: d.kind, message: d.message, accept: d.accept };
    if (d.promptText)
      i.promptText = d.promptText;
    rec.send(i, null);
  }

  /**
   * The names of the options selected in an ARIA list box (its own, not a
   * nested one's), as replay finds options by.
   * @param {Element} listbox @returns {string[]}
   */
  function selectedInListbox(listbox) {
    return [...listbox.querySelectorAll('[role=option][aria-selected=true]')]
      .filter((o) => o.closest('[role=listbox]') === listbox)
      .map((o) => {
        const node = pm().describe(o, { includeHidden: false });
        return node && 'name' in node && node.name ? node.name : (o.textContent || '').replace(/\s+/g, ' ').trim();
      })
      .filter((name) => name !== '');
  }

  /**
   * el was dragged and dropped at drop (in the top frame's viewport): a
   * drag, on the screen from when the mouse went down on it, before the
   * page moved anything (host/PROTOCOL.md, record.interaction).
   * @param {Element} el @param {{x: number, y: number}} drop
   */
  function dropped(el, drop) {
    rec.flushTyping();
    forgetOver();
    const down = state.down;
    state.down = null;
    const screen = down && (el.contains(down.el) || down.el.contains(el)) ? down.screen : rec.currentScreen();
    rec.send({ kind: 'drag', ref: pm().refForElement(el), drop: { x: Math.round(drop.x), y: Math.round(drop.y) } }, screen);
  }

  /** @type {RecorderInteractions} */
  const provides = { unchosenPress, mouseDown, clicked, pointerOver, forgetOver, changedValue, pressed, released, dialogAnswered, dropped };
  Object.assign(rec, provides);
})();
