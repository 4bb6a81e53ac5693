// @ts-check
// The recorder: listeners, in the capture phase, for trusted events only; and
// starting and stopping them.
'use strict';

/**
 * What listeners.js gives the files after it, on the recorder's namespace.
 * @typedef {object} RecorderListeners
 * @property {() => void} unrecordedDialog
 * @property {() => void} listenToDialogs
 * @property {() => void} start
 * @property {() => void} stop
 */

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, RecorderInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.recorder.internals')];
  if (!internals)
    return; // the recorder is installed already (core.js)
  const rec = internals;
  const { state, g, PRESS_MAX_MS } = rec;

  /** Longest an Enter key's keypress is taken to follow its keydown. */
  const KEY_ACTIVATION_MS = 1000;

  /** @param {Event} e the event's real target, through open shadow roots */
  function targetOf(e) {
    return rec.elementOf(e.composedPath()[0] || e.target) || rec.elementOf(e.target);
  }

  /** Whether an event happened on the recording bar. @param {Event} e */
  function onBar(e) {
    const bar = state.bar;
    return !!bar && e.composedPath().includes(bar);
  }

  /** Tells the recording bar that a dialog was not recorded. */
  function unrecordedDialog() {
    state.onUnrecordedDialog();
  }

  const handlers = {
    unrecordedDialog: rec.route(unrecordedDialog, 'unrecordedDialog'),
    click: rec.route(rec.clicked, 'click'),
    typed: rec.route(rec.typed, 'typed'),
    beforeTyping: rec.route(rec.beforeTyping, 'beforeTyping'),
    change: rec.route(rec.changedValue, 'change'),
    press: rec.route(rec.pressed, 'press'),
    released: rec.route(rec.released, 'released'),
    dialog: rec.route(rec.dialogAnswered, 'dialog'),
    flush: rec.route(rec.flushTyping, 'flush'),
    down: rec.route(rec.mouseDown, 'down'),
    over: rec.route(rec.pointerOver, 'over'),
    dropped: rec.route(rec.dropped, 'dropped'),
  };

  /**
   * Listens to the dialogs the person answers in this document, told where
   * the page cannot forge them (dialogbridge.js, docs/recording.md), once
   * that channel is there: the recorder may be injected as the document
   * commits, before it. A document loaded before the recording started has
   * none (its scripts ran first and could fake a dialog): none of its
   * dialogs is recorded.
   */
  function listenToDialogs() {
    const channel = g.__trailpinDialogs;
    if (!channel || state.dialogs)
      return;
    state.dialogs = true;
    channel.listen((/** @type {{kind: string, message: string, accept: boolean, promptText?: string}} */ d) => {
      if (state.running)
        handlers.dialog(d);
    });
  }

  listenToDialogs();

  /**
   * The value control the mouse last went down on in this frame, and when:
   * the click a drag ends with lands on it, or on what lies around the
   * point the drag ended, and is part of the setting either way.
   * @type {{el: HTMLElement | null, time: number}}
   */
  const pressedControl = { el: null, time: 0 };

  /**
   * The control a click on its label passes the click on to, while that
   * click is being handled: the browser clicks a label's check box (or
   * button) itself, and the person's one click on the label is recorded.
   * @type {{el: Element | null}}
   */
  const labelForwards = { el: null };

  /**
   * The press a drag may begin with, until the mouse comes up or the
   * drag the page started from it ends.
   * @type {RecorderPress | null}
   */
  let press = null;

  /**
   * The element a drag just recorded started from, while the click the
   * browser makes of its release is handled: that click is part of the drag.
   * @type {{el: Element | null}}
   */
  const dragEnded = { el: null };

  /**
   * Where an event happened in the top frame's viewport: a same-origin
   * frame's point moved by where the frame lies.
   * @param {MouseEvent} e
   */
  function topPoint(e) {
    let x = e.clientX, y = e.clientY;
    /** @type {Window} */
    let w = window;
    try {
      while (w !== w.parent && w.frameElement) {
        const r = w.frameElement.getBoundingClientRect();
        x += r.left + w.frameElement.clientLeft;
        y += r.top + w.frameElement.clientTop;
        w = w.parent;
      }
    } catch {
      // A cross-origin parent: its recorder sends nothing of this frame.
    }
    return { x, y };
  }

  /**
   * The element the person last pressed the left button on, in this frame,
   * where it lay then, and whether the browser made a click of that press.
   * A press can change the page before the mouse comes up: it takes the
   * focus, and a field that commits on blur (a list that adds the typed
   * item on change and draws itself again) moves or replaces what lies
   * under the pointer. The browser then clicks what holds both the pressed
   * element and the one the mouse came up on, or, when the pressed one was
   * taken away, nothing at all. The person aimed at the pressed element:
   * that is the click recorded (docs/recording.md, A press that moves the
   * page under the pointer).
   * @type {{el: Element, time: number, box: string, clicked: boolean} | null}
   */
  let aimed = null;

  /** Where el lies in the viewport, as a string to compare. @param {Element} el */
  function boxOf(el) {
    const r = el.getBoundingClientRect();
    return [r.x, r.y, r.width, r.height].join(' ');
  }

  /**
   * The element a click on el was aimed at: the one the mouse went down on
   * when the page moved it, or took it away, while the button was held
   * (the click then went to what holds both); else el.
   * @param {Element} el @param {MouseEvent} e
   */
  function aimedAt(el, e) {
    const a = aimed;
    if (!a || a.clicked || e.button !== 0 || e.detail !== 1 || a.el === el || Date.now() - a.time >= PRESS_MAX_MS)
      return el;
    if (!a.el.isConnected || boxOf(a.el) !== a.box)
      return a.el;
    return el;
  }

  /** Records the drag press ended with, if it is one; how says how it ended. @param {'release' | 'drop'} how @param {MouseEvent} e */
  function endDrag(how, e) {
    const meant = rec.dragMeaning(press, how, rec.changedDuring(press, state.dirty, state.changedAt));
    if (!meant)
      return;
    press = null;
    const from = meant.from;
    dragEnded.el = from;
    setTimeout(() => { if (dragEnded.el === from) dragEnded.el = null; }, 0);
    const drop = topPoint(e);
    rec.timed(() => handlers.dropped(from, drop));
  }

  /** The value control the mouse went down on a moment ago, if any. */
  function recentlyPressed() {
    return pressedControl.el && Date.now() - pressedControl.time < PRESS_MAX_MS ? pressedControl.el : null;
  }

  /** @type {[string, (e: any) => void][]} */
  const listeners = [
    ['pointerover', (/** @type {PointerEvent} */ e) => {
      // While Assert visible picks, an entry still counts: what it showed
      // (a menu's item) may be what the check takes (interactions.js).
      const pick = rec.currentPick();
      if (!e.isTrusted || onBar(e) || (pick && pick !== 'assertVisible'))
        return;
      const el = targetOf(e);
      if (el)
        handlers.over(el);
    }],
    ['pointerdown', (/** @type {PointerEvent} */ e) => {
      if (!e.isTrusted)
        return;
      if (onBar(e)) {
        aimed = null;
        return;
      }
      if (rec.currentPick()) {
        // A pick must not reach the page: the click after it neither.
        e.preventDefault();
        e.stopImmediatePropagation();
      }
      const el = targetOf(e);
      aimed = el && e.isPrimary && e.button === 0 && !rec.currentPick() ? { el, time: Date.now(), box: boxOf(el), clicked: false } : null;
      if (el && e.isPrimary) {
        state.carriedMs = 0; // a press no click followed is no interaction
        rec.timed(() => handlers.down(el), { carry: true });
        press = !rec.currentPick() && rec.mayDrag(el, e) ? { el, x: e.clientX, y: e.clientY, time: Date.now(), moved: false, native: null } : null;
        const control = rec.currentPick() ? null : rec.valueControl(el);
        pressedControl.el = control;
        pressedControl.time = Date.now();
        if (control && rec.isAriaRange(control))
          rec.timed(() => handlers.typed(control)); // a drag begins: the screen before it is the one now
      }
    }],
    ['pointermove', (/** @type {PointerEvent} */ e) => {
      if (press && !press.moved && e.isTrusted && e.isPrimary && rec.draggedFar(press, e))
        press.moved = true;
    }],
    ['pointerup', (/** @type {PointerEvent} */ e) => {
      if (!e.isTrusted || !e.isPrimary)
        return;
      endDrag('release', e);
      if (!press || !press.native)
        press = null;
      const a = aimed;
      if (a && e.button === 0 && !a.clicked && !dragEnded.el && !a.el.isConnected && Date.now() - a.time < PRESS_MAX_MS) {
        // The pressed element was taken away before the mouse came up: the
        // browser makes no click of the press. Unless a click comes after
        // all, the press is the person's click on it.
        rec.afterHandlers(() => {
          if (!a.clicked && aimed === a && !rec.currentPick()) {
            a.clicked = true;
            rec.timed(() => handlers.click(a.el, e, 1));
          }
        });
      }
    }],
    // An HTML5 drag the page started from the press (its dragstart ran),
    // ended by a drop the page took; a drag with no drop did nothing.
    ['dragstart', (/** @type {DragEvent} */ e) => {
      if (!e.isTrusted || onBar(e) || !press)
        return;
      const el = targetOf(e);
      if (el)
        press.native = el;
    }],
    ['drop', (/** @type {DragEvent} */ e) => {
      if (e.isTrusted && !onBar(e))
        endDrag('drop', e);
    }],
    ['dragend', (/** @type {DragEvent} */ e) => {
      if (e.isTrusted && press && press.native)
        press = null;
    }],
    ['mousedown', (/** @type {MouseEvent} */ e) => {
      if (e.isTrusted && !onBar(e) && rec.currentPick()) {
        e.preventDefault();
        e.stopImmediatePropagation();
      }
    }],
    ['mouseup', (/** @type {MouseEvent} */ e) => {
      if (e.isTrusted && !onBar(e) && rec.currentPick()) {
        e.preventDefault();
        e.stopImmediatePropagation();
      }
    }],
    ['click', (/** @type {MouseEvent} */ e) => {
      if (!e.isTrusted || onBar(e))
        return;
      const target = targetOf(e);
      if (!target)
        return;
      const el = aimedAt(target, e);
      if (aimed)
        aimed.clicked = true;
      const picking = !!rec.currentPick();
      const meant = rec.clickMeaning(el, e, { picking, pressed: recentlyPressed(), forwarded: labelForwards.el, keyActivation: state.keyActivation, dragged: dragEnded.el });
      if (meant.forwardsTo) {
        const control = meant.forwardsTo;
        labelForwards.el = control;
        setTimeout(() => { labelForwards.el = null; }, 0);
      }
      if (picking) {
        e.preventDefault();
        e.stopImmediatePropagation();
      }
      if (meant.record)
        rec.timed(() => handlers.click(el, e, 1));
    }],
    ['dblclick', (/** @type {MouseEvent} */ e) => {
      if (!e.isTrusted || onBar(e) || rec.currentPick())
        return;
      const el = targetOf(e);
      if (el && rec.doubleClickIsChoice(el))
        return; // chooses or sets: recorded as select or set
      if (el)
        rec.timed(() => handlers.click(el, e, 2));
    }],
    ['contextmenu', (/** @type {MouseEvent} */ e) => {
      // A right press: no click event follows it, only this (and auxclick,
      // left to it). A context menu opened from the keyboard (button 0) is
      // recorded as its key press.
      if (!e.isTrusted || onBar(e) || rec.currentPick() || e.button !== 2)
        return;
      const el = targetOf(e);
      if (el)
        rec.timed(() => handlers.click(el, e, 1));
    }],
    ['auxclick', (/** @type {MouseEvent} */ e) => {
      // A middle click; a right one is recorded at its contextmenu.
      if (!e.isTrusted || onBar(e) || rec.currentPick() || e.button !== 1)
        return;
      const el = targetOf(e);
      if (el)
        rec.timed(() => handlers.click(el, e, 1));
    }],
    ['beforeinput', (/** @type {InputEvent} */ e) => {
      // The screen before text goes into a field, while the field does not
      // hold it yet (typing.js, beforeTyping).
      if (!e.isTrusted || onBar(e))
        return;
      const el = targetOf(e);
      if (el && rec.isTextField(el))
        rec.timed(() => handlers.beforeTyping(el), { carry: true });
    }],
    ['input', (/** @type {InputEvent} */ e) => {
      if (!e.isTrusted || onBar(e))
        return;
      const el = targetOf(e);
      if (el && rec.isTextField(el)) {
        rec.timed(() => handlers.typed(el));
        valueChanged();
      }
    }],
    ['change', (/** @type {Event} */ e) => {
      if (!e.isTrusted || onBar(e))
        return;
      const el = targetOf(e);
      if (el) {
        rec.timed(() => handlers.change(el, e));
        valueChanged();
      }
    }],
    ['keydown', (/** @type {KeyboardEvent} */ e) => {
      if (!e.isTrusted || onBar(e) || e.isComposing)
        return;
      if (rec.currentPick()) {
        // The keys of a pick are the bar's, not the page's.
        const top = rec.topRecorder();
        if (top ? top.pickKey(e.key) : rec.pickKey(e.key)) {
          e.preventDefault();
          e.stopImmediatePropagation();
          return;
        }
      }
      if (e.key === 'Enter') {
        // The click comes with the key's keypress, a task of its own; the
        // key's keyup ends it (or, should the keyup never come, a timeout).
        state.keyActivation = true;
        clearTimeout(state.keyActivationTimer);
        state.keyActivationTimer = setTimeout(() => { state.keyActivation = false; }, KEY_ACTIVATION_MS);
      }
      rec.timed(() => handlers.press(targetOf(e), e));
    }],
    ['keyup', (/** @type {KeyboardEvent} */ e) => {
      if (e.isTrusted && !onBar(e))
        handlers.released();
      if (e.key === 'Enter' && state.keyActivation)
        setTimeout(() => { state.keyActivation = false; }, 0);
    }],
    ['pagehide', () => handlers.flush()],
    ['trailpin-dialog', () => {
      // From dialogs-unverified.js, in a document loaded before the
      // recording started: the page may have faked it. The person is told
      // that this page's dialogs are not recorded; nothing is sent.
      if (!g.__trailpinDialogs)
        handlers.unrecordedDialog();
    }],
    // A transition or animation that ended changed what the page shows
    // without a mutation (an icon's bars turned, a panel eased open): the
    // capture taken while it ran is stale. Replay's change watcher counts
    // the same events, so both sides diff the page once it came to rest.
    ['transitionend', (/** @type {Event} */ e) => { if (!onBar(e)) rec.pageChanged(); }],
    ['animationend', (/** @type {Event} */ e) => { if (!onBar(e)) rec.pageChanged(); }],
    // A field the browser turns invalid on its own (:user-invalid, the
    // page model's invalid) changes no markup: a submit tried with a field
    // invalid (its invalid event), a field left after the person edited
    // it, a form submitted or reset. The capture at hand is stale, and the
    // step that did it must end with the field invalid, not the next one
    // that changes the markup (docs/recording.md, Random walks on the real
    // apps: UIkit's seed 9).
    ['invalid', (/** @type {Event} */ e) => { if (e.isTrusted && !onBar(e)) rec.pageChanged(); }],
    ['submit', (/** @type {Event} */ e) => { if (e.isTrusted && !onBar(e)) rec.pageChanged(); }],
    ['reset', (/** @type {Event} */ e) => { if (e.isTrusted && !onBar(e)) rec.pageChanged(); }],
    ['focusin', (/** @type {FocusEvent} */ e) => {
      const el = formField(e);
      focusedField = el ? { el, value: el.value, invalid: userInvalid(el) } : null;
    }],
    ['focusout', (/** @type {FocusEvent} */ e) => {
      const el = formField(e);
      const was = focusedField;
      focusedField = null;
      if (el && (!was || was.el !== el || was.value !== el.value || was.invalid !== userInvalid(el)))
        rec.pageChanged();
    }],
  ];

  /**
   * The field that has the focus, with its value and whether it was
   * invalid (:user-invalid) when it got it: leaving it after an edit may
   * turn it invalid.
   * @type {{el: HTMLInputElement, value: string, invalid: boolean} | null}
   */
  let focusedField = null;

  /** The form field a focus event is about, if it is one (not the bar's). @param {FocusEvent} e */
  function formField(e) {
    if (!e.isTrusted || onBar(e))
      return null;
    const el = targetOf(e);
    const tag = el ? el.localName : '';
    return el && (tag === 'input' || tag === 'textarea' || tag === 'select') ? /** @type {HTMLInputElement} */ (el) : null;
  }

  /** Whether the browser shows el as invalid after the person's input. @param {Element} el */
  function userInvalid(el) {
    try {
      return el.matches(':user-invalid');
    } catch {
      return false;
    }
  }

  /**
   * A value or state changed (an option chosen, a box checked, a slider
   * moved, a field typed into): no markup changes with it, so no mutation
   * says the capture is stale. Without this, the next interaction's screen
   * would still show the old value, and the step after would be taken to
   * have made the change. Called after the interaction took its screen.
   */
  function valueChanged() {
    rec.pageChanged();
  }

  function start() {
    state.running = true;
    for (const [type, fn] of listeners)
      window.addEventListener(type, fn, true);
    if (document.documentElement)
      rec.observe();
    else
      document.addEventListener('DOMContentLoaded', rec.observe, { once: true });
    // A same-origin frame is part of its top frame's screen.
    const top = rec.topRecorder();
    if (top)
      top.changed();
    else
      rec.changed();
  }

  function stop() {
    if (!state.running)
      return;
    rec.flushTyping();
    state.running = false;
    for (const [type, fn] of listeners)
      window.removeEventListener(type, fn, true);
    rec.unobserve();
    clearTimeout(state.settleTimer);
    rec.setPick(null);
  }

  /** @type {RecorderListeners} */
  const provides = { unrecordedDialog, listenToDialogs, start, stop };
  Object.assign(rec, provides);
})();
