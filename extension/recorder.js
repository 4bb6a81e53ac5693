// @ts-check
/**
 * The recorder: the content script that watches a recorded tab.
 *
 * The background injects it with chrome.scripting (after the page model's
 * files, pagemodel-files.js) into every frame of a recorded tab, and again
 * after every navigation; nothing of it runs in tabs that are not recorded. It listens in the capture phase,
 * ignores events that scripts made, and reports each interaction to the
 * background with the screen captured before it. The background numbers
 * interactions and sends them to the host.
 *
 * The screen before an interaction must be at hand when it happens (the
 * element may be gone a moment later), without stalling the page: the
 * recorder keeps a capture taken when the page last settled and takes a new
 * one only after the DOM changed (a MutationObserver says so) or a value or
 * state changed that no markup shows (an option chosen, a box checked, a
 * field typed into: their input and change events say so), once the page
 * has been quiet for SETTLE_MS. Only when an interaction comes while a change
 * has not been captured yet does it capture on the spot.
 *
 * A secret field's value never leaves the page: typing into it is reported
 * with the name of the secret to read at replay, never its value.
 *
 * Plain ES2022, a classic script in the extension's isolated world.
 */
(() => {
  'use strict';

  const API_NAME = '__trailpinRecorder';
  /** Quiet time after a DOM change before the screen is captured again. */
  const SETTLE_MS = 120;
  /** Longest a mouse press is taken to belong to the click that follows. */
  const PRESS_MAX_MS = 2000;
  /**
   * Longest a change of the page may come after the pointer entered an
   * element and still be taken as what entering it showed (a menu opened
   * on mouseenter, perhaps after a short delay).
   */
  const HOVER_REVEAL_MS = 1000;
  /** Longest a settled page's capture waits for the browser to be idle. */
  const IDLE_WAIT_MS = 500;
  /** How many interaction timings are kept for the benchmark. */
  const TIMINGS_KEPT = 2000;
  /** Longest an Enter key's keypress is taken to follow its keydown. */
  const KEY_ACTIVATION_MS = 1000;
  /**
   * How long the pointer rests on an element for its highlight to stay when
   * the pointer then goes to the recording bar (crossing other elements on
   * the way) to widen, narrow or take it.
   */
  const PICK_REST_MS = 250;
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

  const g = /** @type {Record<string, any>} */ (/** @type {unknown} */ (globalThis));
  if (g[API_NAME]) {
    g[API_NAME].restart();
    return;
  }

  /** @returns {TrailpinPageModel} the page model */
  const pm = () => g.__trailpinPageModel;

  /**
   * @typedef {{id: string, wire: string}} Captured
   * @typedef {{el: HTMLInputElement | HTMLTextAreaElement | HTMLElement, screen: Captured, ref: string, time: number, start?: string | null}} Typing
   * @typedef {'assertVisible' | 'assertValue' | 'markSensitive' | 'changeMustNot' | null} Pick
   * @typedef {{from: Element | null, at: Element | null}} Picked the element under the pointer, and the one the pick takes
   * @typedef {{el: Element, screen: Captured, time: number}} Over
   */

  const state = {
    running: true,
    /** @type {Captured | null} */
    screen: null,
    dirty: true,
    /** @type {Element[]} what the pointer alone showed when the screen was captured */
    hover: [],
    /** @type {Over | null} the element the pointer last entered, with the screen from before */
    over: null,
    /** @type {Over | null} an entry the page changed right after (a menu its script opened) */
    reveal: null,
    counter: 0,
    /** @type {Set<string>} screen ids whose wire form went out */
    sent: new Set(),
    /** @type {Typing | null} */
    typing: null,
    /** @type {Pick} */
    pick: null,
    /** @type {(p: Pick, taken: boolean) => void} */
    onPick: () => {},
    /** @type {() => void} told when an action is sent (the bar's Assert change) */
    onAction: () => {},
    /** @type {() => void} told when the page opened a dialog that is not recorded */
    onUnrecordedDialog: () => {},
    /** Whether the recorder listens to dialogbridge.js. */
    dialogs: false,
    /** @type {Picked} */
    picked: { from: null, at: null },
    /** @type {Picked} the highlight the pointer last rested on, or the person adjusted */
    rested: { from: null, at: null },
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    restTimer: undefined,
    /** @type {(el: Element | null) => void} */
    onPicked: () => {},
    /** @type {(ref: string, el: Element) => void} told of an element picked as one that must not change */
    onUnchanged: () => {},
    /** @type {Element[]} elements marked sensitive in this document */
    sensitive: [],
    /**
     * @type {string[]} what the person typed into secret fields: kept in
     * the page only, so that no capture carries it where the app shows it
     * again (an API explorer's request with its key, a greeting with the
     * name typed into a masked field)
     */
    secretValues: [],
    /** @type {{el: Element, value: string} | null} the secret field being typed into, with its value now */
    typingSecret: null,
    /** @type {Element | null} the recording bar's host: never recorded */
    bar: null,
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    settleTimer: undefined,
    /** An Enter or Space key is being handled: its click is not the person's. */
    keyActivation: false,
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    keyActivationTimer: undefined,
    /** @type {{el: Element, screen: Captured, time: number} | null} the screen when the mouse went down */
    down: null,
    /** @type {{el: Element, screen: Captured, time: number} | null} the screen when a key went down in a field not being typed into */
    preInput: null,
    /**
     * @type {{el: Element, screen: Captured} | null} the screen when the
     * mouse went down on a select, before its list opened: the open list
     * sets the select's value as the person moves through it, before any
     * change event, and a capture in between would show the choice
     */
    selectOpened: null,
    /** @type {Captured | null} the screen of the click being handled, for the change it makes */
    clickScreen: null,
    /**
     * @type {(() => void) | null} what to send once the page's own handlers
     * of an event have run (whether a chat took an Enter, the selection a
     * list box shows after a click): at the next task, or before anything
     * else is sent, as Chromium runs queued input ahead of timers and the
     * next click would overtake it
     */
    pending: null,
    /** ms of a press not yet counted with its click */
    carriedMs: 0,
    /** @type {number[]} ms spent in each interaction's handlers */
    timings: [],
    /** @type {number[]} ms spent in each settled capture */
    captureTimings: [],
  };

  /**
   * The same-origin top frame's recorder, which records for the frames
   * below it (its page model sees into them and gives their elements refs
   * of its screen); null in the top frame and in cross-origin frames.
   * @returns {any}
   */
  function topRecorder() {
    if (window === window.top)
      return null;
    try {
      const top = /** @type {any} */ (window.top);
      return top && top[API_NAME] && top !== g ? top[API_NAME] : null;
    } catch {
      return null;
    }
  }

  /**
   * A frame of another origin than its top frame: its recorder reports what
   * happens in it, without a screen (see send).
   */
  const crossOriginFrame = (() => {
    if (window === window.top)
      return false;
    try {
      return typeof window.top?.location.href !== 'string';
    } catch {
      return true;
    }
  })();

  // ---------------------------------------------------------------------------
  // Screens

  /**
   * Captures the screen now. At an interaction the capture is incremental:
   * it reuses what the last capture found for the parts of the page that did
   * not change since. When the page has settled it reads the whole page
   * again (fresh), so what an incremental capture cannot see (a shadow root
   * attached later, a rule edited in place) lives at most until the page is
   * next quiet.
   * @param {{fresh?: boolean}} [how] @returns {Captured}
   */
  function captureNow(how) {
    const t0 = performance.now();
    const wire = pm().captureWire({ sensitive: sensitiveNow(), incremental: true, fresh: how?.fresh === true });
    state.hover = pm().hoverRevealed();
    state.counter++;
    const captured = { id: `${pm().documentToken()}-${state.counter}`, wire };
    state.screen = captured;
    state.dirty = false;
    keep(state.captureTimings, performance.now() - t0);
    return captured;
  }

  /**
   * The screen as it is now: the settled capture, or a new one after a
   * change, or after the pointer moved onto or off what only its hover shows
   * (a row's delete button): no mutation says so, and the capture would
   * show the button hidden though the person is about to click it.
   */
  function currentScreen() {
    if (state.dirty || !state.screen || hoverMoved())
      return captureNow();
    return state.screen;
  }

  /** Whether what the pointer alone shows differs from the capture at hand. */
  function hoverMoved() {
    const now = pm().hoverRevealed();
    return now.length !== state.hover.length || now.some((el, i) => el !== state.hover[i]);
  }

  /** Marks the screen stale and captures again once the page is quiet. */
  function changed() {
    state.dirty = true;
    if (crossOriginFrame)
      return; // never sent
    clearTimeout(state.settleTimer);
    state.settleTimer = setTimeout(() => {
      // Capture when the page has nothing else to do; an interaction
      // before that captures at once.
      const capture = () => {
        if (state.running && state.dirty && document.documentElement)
          captureNow({ fresh: true });
      };
      if (typeof requestIdleCallback === 'function')
        requestIdleCallback(capture, { timeout: IDLE_WAIT_MS });
      else
        capture();
    }, SETTLE_MS);
  }

  /** The page changed: this frame's, or its top frame's, capture is stale. */
  function pageChanged() {
    const top = topRecorder();
    if (top)
      top.changed();
    else
      changed();
  }

  const observer = new MutationObserver(() => {
    // Markup that changed right after the pointer entered an element: what
    // entering it showed (a value typed or chosen changes none).
    const over = state.over;
    if (over && !state.reveal && Date.now() - over.time <= HOVER_REVEAL_MS)
      state.reveal = over;
    pageChanged();
  });

  function observe() {
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  }

  // ---------------------------------------------------------------------------
  // Sending

  /**
   * Reports one interaction to the background; adds the screen it names
   * when that screen's wire form has not gone out before.
   * @param {Record<string, unknown>} interaction
   * @param {Captured | null} screen
   */
  function send(interaction, screen) {
    settlePending();
    if (crossOriginFrame) {
      // Its screen would be a page of another origin, which a trail of this
      // app cannot name: the host leaves the action out and says so.
      delete interaction.ref;
      screen = null;
    }
    /** @type {Record<string, unknown>} */
    const msg = {
      to: 'background',
      kind: 'interaction',
      interaction: { time: Date.now(), url: location.href, title: document.title, ...interaction },
    };
    if (screen) {
      /** @type {any} */ (msg.interaction).screen = screen.id;
      if (!state.sent.has(screen.id)) {
        msg.screen = screen.wire;
        state.sent.add(screen.id);
      }
    }
    try {
      const p = chrome.runtime.sendMessage(msg);
      if (p && typeof p.catch === 'function')
        p.catch(() => {});
    } catch {
      // The extension was reloaded: this script is an orphan now.
      stop();
    }
    if (!/^(assert|undo$|markSensitive$)/.test(String(interaction.kind)))
      state.onAction();
  }

  /**
   * Runs an interaction's handler and keeps how long it took.
   * @param {() => void} fn
   */
  function timed(fn, { carry = false } = {}) {
    const t0 = performance.now();
    try {
      fn();
    } finally {
      const ms = performance.now() - t0;
      if (carry) {
        // The press of a click: its cost counts with the click's.
        state.carriedMs += ms;
      } else {
        keep(state.timings, ms + state.carriedMs);
        state.carriedMs = 0;
      }
    }
  }

  /** @param {number[]} list @param {number} ms */
  function keep(list, ms) {
    list.push(ms);
    if (list.length > TIMINGS_KEPT)
      list.shift();
  }

  // ---------------------------------------------------------------------------
  // What an element is

  /** @param {EventTarget | null} t @returns {Element | null} */
  function elementOf(t) {
    return t && /** @type {Node} */ (t).nodeType === 1 ? /** @type {Element} */ (t) : null;
  }

  /** @param {Event} e the event's real target, through open shadow roots */
  function targetOf(e) {
    return elementOf(e.composedPath()[0] || e.target) || elementOf(e.target);
  }

  /** Whether an event happened on the recording bar. @param {Event} e */
  function onBar(e) {
    const bar = state.bar;
    return !!bar && e.composedPath().includes(bar);
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

  /** Whether el is an ARIA slider or spin button (not a native input). @param {Element} el */
  function isAriaRange(el) {
    return el.localName !== 'input' && el.matches(ARIA_RANGES);
  }

  /** Whether typing into el must be recorded as a secret. @param {Element} el */
  function isSecret(el) {
    if (el.localName === 'input' && (/** @type {HTMLInputElement} */ (el)).type === 'password')
      return true;
    const node = pm().describe(el, { sensitive: { elements: state.sensitive } });
    return !!(node && 'secret' in node && node.secret);
  }

  /**
   * A value shorter than this, typed so far into a secret field, is not
   * yet kept out of captures: one or two characters would blank every
   * text that holds them. The value is kept out whole once typed, however
   * short, and from this many characters on while it is being typed (what
   * the leak scanner counts as a leak: storage.MinLeakPrefix).
   */
  const SECRET_PREFIX_MIN = 4;

  /** What the page model must keep out of a capture. */
  function sensitiveNow() {
    const values = [...state.secretValues];
    const live = state.typingSecret;
    if (live && live.value.length >= SECRET_PREFIX_MIN && !values.includes(live.value))
      values.push(live.value);
    return { elements: state.sensitive, values };
  }

  /**
   * Follows the value of a secret field as it is typed, and keeps it once
   * the typing ends.
   * @param {Element} el @param {boolean} done
   */
  function followSecret(el, done) {
    const value = 'value' in el ? String(/** @type {HTMLInputElement} */ (el).value) : '';
    state.typingSecret = done ? null : { el, value };
    if (done && value !== '' && !state.secretValues.includes(value))
      state.secretValues.push(value);
  }

  /**
   * The name of the secret a secret field's value is read from: its label
   * (or name, placeholder, id) in lower-case words joined by dashes.
   * @param {Element} el
   */
  function secretName(el) {
    const node = pm().describe(el, { includeHidden: false });
    const input = /** @type {HTMLInputElement} */ (el);
    const words = [node && 'name' in node ? node.name : undefined, input.name, input.placeholder, input.id, 'secret']
      .find((s) => typeof s === 'string' && /[a-z0-9]/i.test(s)) || 'secret';
    return words.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  }

  /** @param {KeyboardEvent | MouseEvent} e @returns {string[]} */
  function modifiersOf(e) {
    const m = [];
    if (e.altKey) m.push('Alt');
    if (e.ctrlKey) m.push('Control');
    if (e.metaKey) m.push('Meta');
    if (e.shiftKey) m.push('Shift');
    return m;
  }

  // ---------------------------------------------------------------------------
  // Interactions; every entry point here runs in the top frame's recorder
  // for its same-origin frames.

  /**
   * Sends the pending typing as one type of the field's final value, or the
   * pending setting of a value control as one set of the value it ended at
   * (nothing when an ARIA slider did not move).
   */
  function flushTyping() {
    const t = state.typing;
    if (!t)
      return;
    state.typing = null;
    const el = t.el;
    if (isSecret(el)) {
      followSecret(el, true);
      send({ kind: 'type', ref: t.ref, secret: secretName(el), time: t.time }, t.screen);
      return;
    }
    if (valueControl(el) === el) {
      const value = isAriaRange(el) ? el.getAttribute('aria-valuenow') : (/** @type {HTMLInputElement} */ (el)).value;
      if (value !== null && !(isAriaRange(el) && value === t.start))
        send({ kind: 'set', ref: t.ref, value, time: t.time }, t.screen);
      return;
    }
    const value = 'value' in el ? String(/** @type {HTMLInputElement} */ (el).value) : (el.textContent || '');
    send({ kind: 'type', ref: t.ref, value, time: t.time }, t.screen);
  }

  /**
   * Typing into el, or setting it (a value control), begins or goes on;
   * the screen before it is the one now.
   * @param {Element} el
   */
  function typed(el) {
    forgetOver();
    if (isSecret(el))
      followSecret(el, false);
    if (state.typing && state.typing.el === el)
      return;
    flushTyping();
    // The screen before the first key or press, when one went to el: by
    // the input event the field already holds its first character (or the
    // slider its new value), which is no state of the step before.
    const pre = [state.preInput, state.down].find((p) => p && p.el === el && Date.now() - p.time < PRESS_MAX_MS);
    state.preInput = null;
    const screen = pre ? pre.screen : currentScreen();
    state.typing = { el: /** @type {HTMLElement} */ (el), screen, ref: pm().refForElement(el), time: Date.now() };
    if (isAriaRange(el))
      state.typing.start = el.getAttribute('aria-valuenow');
  }

  /**
   * The mouse went down on el: the screen before the click is the one now,
   * before the page's own mousedown handlers change it (a pressed state, a
   * ripple, a menu that opens on press).
   * @param {Element} el
   */
  function mouseDown(el) {
    state.down = { el, screen: currentScreen(), time: Date.now() };
    const select = el.closest('select');
    state.selectOpened = select ? { el: select, screen: state.down.screen } : null;
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
    return currentScreen();
  }

  /**
   * @param {Element} el
   * @param {MouseEvent} e
   * @param {number} count
   */
  function clicked(el, e, count) {
    flushTyping();
    const screen = screenBeforeClick(el);
    const ref = pm().refForElement(el);
    // The change a click on a check box makes comes right after it.
    state.clickScreen = screen;
    setTimeout(() => { state.clickScreen = null; }, 0);
    if (!state.pick)
      sendReveal();
    forgetOver();
    if (state.pick) {
      // What the bar highlighted for this element, as widened or narrowed.
      const { from, at } = state.picked;
      takePick(from === el && at ? at : readsAsOne(state.pick) ? readAsOne(el) : el, screen);
      return;
    }
    /** @type {Record<string, unknown>} */
    const i = { kind: 'click', ref, count, button: ['left', 'middle', 'right'][e.button] || 'left' };
    const mods = modifiersOf(e);
    if (mods.length)
      i.modifiers = mods;
    const listbox = count === 1 && e.button === 0 ? multiListbox(el) : null;
    if (listbox) {
      // The choice is the selection the page shows once its own click
      // handler ran: one select of the list box, named by its label, with
      // no tap of the option or press of the key held for it.
      const boxRef = pm().refForElement(listbox);
      const time = Date.now();
      afterHandlers(() => {
        const options = listbox.isConnected ? selectedInListbox(listbox) : [];
        send(options.length ? { kind: 'select', ref: boxRef, options, time } : { ...i, time }, screen);
      });
      return;
    }
    send(i, screen);
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
    if (r && r.el.isConnected && !crossOriginFrame)
      send({ kind: 'hover', ref: pm().refForElement(r.el), time: r.time }, r.screen);
  }

  /** @param {Element} el @param {Event} _e */
  function changedValue(el, _e) {
    forgetOver();
    const tag = el.localName;
    if (tag === 'select') {
      flushTyping();
      const sel = /** @type {HTMLSelectElement} */ (el);
      const options = [...sel.selectedOptions].map((o) => (o.label || o.text).trim());
      // Chosen with a key: the screen from before the key, which shows the
      // choice before it.
      const pre = state.preInput && state.preInput.el === el && Date.now() - state.preInput.time < PRESS_MAX_MS ? state.preInput : null;
      if (pre)
        state.preInput = null;
      // Chosen in the list a click opened: the screen from that click.
      const opened = !pre && state.selectOpened && state.selectOpened.el === el ? state.selectOpened : null;
      state.selectOpened = null;
      send({ kind: 'select', ref: pm().refForElement(el), options }, pre ? pre.screen : opened ? opened.screen : currentScreen());
      return;
    }
    if (tag !== 'input') {
      if (state.typing && state.typing.el === el)
        flushTyping();
      return;
    }
    const input = /** @type {HTMLInputElement} */ (el);
    if (input.type === 'checkbox' || input.type === 'radio') {
      flushTyping();
      // The screen before the change: the click's, when a click made it.
      send({ kind: input.checked ? 'check' : 'uncheck', ref: pm().refForElement(el) }, state.clickScreen || currentScreen());
      return;
    }
    if (input.type === 'file') {
      flushTyping();
      const files = [...(input.files || [])].map((f) => f.name);
      send({ kind: 'upload', ref: pm().refForElement(el), files }, currentScreen());
      return;
    }
    // A slider's or a spinner's change comes with each key and at the end
    // of each drag: its setting goes on until the person does something
    // else, and is one set of the value it ends at.
    if (state.typing && state.typing.el === el && !valueControl(el))
      flushTyping();
  }

  /** @param {Element | null} el @param {KeyboardEvent} e */
  function pressed(el, e) {
    if (MODIFIER_KEYS.has(e.key))
      return;
    forgetOver();
    if (el && isTextField(el) && !(state.typing && state.typing.el === el))
      state.preInput = { el, screen: currentScreen(), time: Date.now() };
    if (el && el.localName === 'select') {
      // A key chooses in a drop-down at once: the typing before ends here,
      // and the screen before the choice is the one now — or, while keys go
      // on working its open list, the one from before the first: the list
      // shows the option each arrow moves to as the select's value before
      // any change event, and a capture in between (a transition ending)
      // would take the choice for the state before it.
      flushTyping();
      const pre = state.preInput;
      if (pre && pre.el === el && Date.now() - pre.time < PRESS_MAX_MS)
        pre.time = Date.now();
      else
        state.preInput = { el, screen: currentScreen(), time: Date.now() };
    }
    const mods = modifiersOf(e).filter((m) => m !== 'Shift');
    const aria = el && valueControl(el);
    if (aria && isAriaRange(aria) && WIDGET_KEYS.has(e.key) && !mods.length) {
      // A key that moves an ARIA slider: its setting, recorded as the value
      // it ends at.
      typed(aria);
      return;
    }
    const onPage = !el || el === document.body || el === document.documentElement;
    const named = NAMED_KEYS.has(e.key) || (!!el && movesInWidget(el, e.key));
    // A character typed into a field is typing, on a control it works the
    // control (its click is recorded); with the focus on the page it is a
    // shortcut.
    if (!named && !mods.length && (!onPage || e.key.length !== 1))
      return;
    flushTyping();
    /** @type {Record<string, unknown>} */
    const i = { kind: 'press', key: e.key };
    const allMods = modifiersOf(e);
    if (allMods.length && (mods.length || named))
      i.modifiers = allMods;
    let screen = null;
    if (el && !onPage) {
      screen = currentScreen();
      i.ref = pm().refForElement(el);
    }
    if (e.key === 'Enter' && !mods.length && el && isMultiline(el)) {
      // In a text area Enter types a line break, part of the typing, unless
      // the page takes it (a chat's Enter sends): which, its handlers say.
      i.time = Date.now();
      afterHandlers(() => {
        if (e.defaultPrevented)
          send(i, screen);
      });
      return;
    }
    send(i, screen);
  }

  /**
   * Runs fn once the page's handlers of the event being handled have run
   * (see state.pending).
   * @param {() => void} fn
   */
  function afterHandlers(fn) {
    settlePending();
    state.pending = fn;
    setTimeout(settlePending, 0);
  }

  /** Runs what waits for the page's handlers, if anything does. */
  function settlePending() {
    const fn = state.pending;
    state.pending = null;
    if (fn)
      fn();
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
    if (!WIDGET_KEYS.has(key) || isTextField(el) || el.closest('select'))
      return false;
    return el.localName !== 'input' && !!el.closest(WIDGET_ROLES);
  }

  /** @param {{kind: string, message: string, accept: boolean, promptText?: string}} d */
  function dialogAnswered(d) {
    flushTyping();
    /** @type {Record<string, unknown>} */
    const i = { kind: 'dialog', dialogKind: d.kind, message: d.message, accept: d.accept };
    if (d.promptText)
      i.promptText = d.promptText;
    send(i, null);
  }

  // ---------------------------------------------------------------------------
  // Picking: the element an assertion (or a mark) takes. An assertion checks
  // what a person reads as one piece of text, so a click on a fragment of a
  // line (the "open" of "3 tasks open", split into spans) takes the whole
  // line; the recording bar lets the person widen or narrow it before it is
  // taken.

  /** Elements that are a piece of their own, never a fragment of a line. */
  const OWN_PIECE = 'a[href],button,input,select,textarea,img,svg,video,audio,canvas,iframe,[contenteditable],[tabindex],' +
    '[role]:not([role=generic]):not([role=none]):not([role=presentation])';

  /** The text el shows, its lines as the browser renders them. @param {Element} el */
  function shownLines(el) {
    const h = /** @type {HTMLElement} */ (el);
    return (typeof h.innerText === 'string' ? h.innerText : el.textContent || '').trim();
  }

  /** Whether el is laid out inside a line of text, as a part of it. @param {Element} el */
  function inlineFragment(el) {
    if (el.matches(OWN_PIECE))
      return false;
    const view = el.ownerDocument.defaultView;
    const display = view ? view.getComputedStyle(el).display : '';
    return display === 'contents' || display.startsWith('inline');
  }

  /**
   * What a person reads as one piece of text where el is: el, or the nearest
   * ancestor whose text is the whole line el is an inline fragment of (a
   * line of text, not of controls).
   * @param {Element} el
   */
  function readAsOne(el) {
    let at = el;
    for (;;) {
      const up = at.parentElement;
      if (!up || up === at.ownerDocument.body || up === at.ownerDocument.documentElement || !inlineFragment(at))
        return at;
      // A line with a control or a link beside the fragment is more than
      // one piece ("3 tasks open" beside "Clear completed").
      if (shownLines(up).includes('\n') || [...up.querySelectorAll(OWN_PIECE)].some((x) => !at.contains(x)))
        return at;
      at = up;
    }
  }

  /** @param {Element | null} at @param {boolean} rest it stays when the pointer goes to the bar */
  function setPicked(at, from = state.picked.from, rest = true) {
    state.picked = { from, at };
    clearTimeout(state.restTimer);
    if (rest)
      state.rested = state.picked;
    state.onPicked(at);
  }

  /** The pointer went to the recording bar: the highlight it rested on stays. */
  function holdPick() {
    const { from, at } = state.rested;
    if (state.pick && at && at.isConnected && at !== state.picked.at)
      setPicked(at, from);
  }

  /**
   * The pointer is over el while picking: el's piece is highlighted (a mark
   * takes the element itself). The same element keeps what the person
   * widened or narrowed.
   * @param {Element} el
   */
  function pointPick(el) {
    if (!state.pick || el === state.picked.from)
      return;
    setPicked(readsAsOne(state.pick) ? readAsOne(el) : el, el, false);
    state.restTimer = setTimeout(() => { state.rested = state.picked; }, PICK_REST_MS);
  }

  /** The pick takes the element around the highlighted one. */
  function widenPick() {
    const at = state.picked.at;
    const up = at?.parentElement;
    if (at && up && up !== at.ownerDocument.documentElement)
      setPicked(up);
  }

  /**
   * The pick takes an element inside the highlighted one: back towards the
   * one under the pointer, else its first child that shows text.
   */
  function narrowPick() {
    const { at, from } = state.picked;
    if (!at)
      return;
    let down = null;
    if (from && from !== at && at.contains(from)) {
      down = from;
      while (down.parentElement && down.parentElement !== at)
        down = down.parentElement;
    } else {
      down = [...at.children].find((c) => shownLines(c) !== '') || null;
    }
    if (down)
      setPicked(down);
  }

  /**
   * A key pressed while picking: the arrows widen (up) and narrow (down) the
   * highlighted element, Escape ends the pick. Returns whether it was one.
   * @param {string} key
   */
  function pickKey(key) {
    if (!state.pick)
      return false;
    if (key === 'ArrowUp')
      widenPick();
    else if (key === 'ArrowDown')
      narrowPick();
    else if (key === 'Escape')
      setPick(null);
    else
      return false;
    return true;
  }

  /**
   * Whether a pick takes what a person reads as one piece of text (an
   * assertion's target) rather than the element under the pointer.
   * @param {Pick} p
   */
  function readsAsOne(p) {
    return p === 'assertVisible' || p === 'changeMustNot';
  }

  /**
   * The pick takes el: the assertion or the mark is recorded (an element
   * that must not change goes to the bar's Assert change).
   * @param {Element} el @param {Captured} screen the screen before the pick
   */
  function takePick(el, screen) {
    const kind = state.pick;
    if (!kind)
      return;
    // Assert value takes a form field (or the one a label names); on
    // anything else the pick stays on, so nothing wrong is added.
    const field = kind === 'assertValue' ? fieldOf(el) : null;
    if (kind === 'assertValue' && !field)
      return;
    setPick(null, true);
    if (kind === 'changeMustNot') {
      // Kept by the bar for its Assert change, not recorded on its own.
      state.onUnchanged(pm().refForElement(el), el);
      return;
    }
    if (kind === 'markSensitive') {
      state.sensitive.push(el);
      changed();
    }
    if (field)
      send({ kind, ref: pm().refForElement(field), value: field.value }, screen);
    else
      send({ kind, ref: pm().refForElement(el) }, screen);
  }

  /**
   * The form field el is, or the one its label names, or the one field
   * inside it: what Assert value checks.
   * @param {Element} el
   * @returns {HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null}
   */
  function fieldOf(el) {
    const isField = (/** @type {Element | null | undefined} */ e) =>
      e instanceof HTMLInputElement || e instanceof HTMLTextAreaElement || e instanceof HTMLSelectElement;
    if (isField(el))
      return /** @type {any} */ (el);
    const label = el.closest('label');
    if (label && isField(label.control))
      return /** @type {any} */ (label.control);
    const inner = el.querySelectorAll('input, textarea, select');
    return inner.length === 1 ? /** @type {any} */ (inner[0]) : null;
  }

  // ---------------------------------------------------------------------------
  // Listeners (capture phase, trusted events only)

  /** @param {(...a: any[]) => void} local @param {string} name */
  function route(local, name) {
    return (/** @type {any[]} */ ...args) => {
      const top = topRecorder();
      if (top)
        top.handle(name, ...args);
      else
        local(...args);
    };
  }

  /** Tells the recording bar that a dialog was not recorded. */
  function unrecordedDialog() {
    state.onUnrecordedDialog();
  }

  const handlers = {
    unrecordedDialog: route(unrecordedDialog, 'unrecordedDialog'),
    click: route(clicked, 'click'),
    typed: route(typed, 'typed'),
    change: route(changedValue, 'change'),
    press: route(pressed, 'press'),
    dialog: route(dialogAnswered, 'dialog'),
    flush: route(flushTyping, 'flush'),
    down: route(mouseDown, 'down'),
    over: route(pointerOver, 'over'),
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

  /** Whether a click on el belongs to the setting of a value control. @param {Element} el */
  function partOfSetting(el) {
    const pressed = pressedControl.el && Date.now() - pressedControl.time < PRESS_MAX_MS ? pressedControl.el : null;
    return !!valueControl(el) || !!pressed && (pressed === el || el.contains(pressed) || pressed.contains(el));
  }

  /** @type {[string, (e: any) => void][]} */
  const listeners = [
    ['pointerover', (/** @type {PointerEvent} */ e) => {
      if (!e.isTrusted || onBar(e) || currentPick())
        return;
      const el = targetOf(e);
      if (el)
        handlers.over(el);
    }],
    ['pointerdown', (/** @type {PointerEvent} */ e) => {
      if (!e.isTrusted || onBar(e))
        return;
      if (currentPick()) {
        // A pick must not reach the page: the click after it neither.
        e.preventDefault();
        e.stopImmediatePropagation();
      }
      const el = targetOf(e);
      if (el && e.isPrimary) {
        state.carriedMs = 0; // a press no click followed is no interaction
        timed(() => handlers.down(el), { carry: true });
        const control = currentPick() ? null : valueControl(el);
        pressedControl.el = control;
        pressedControl.time = Date.now();
        if (control && isAriaRange(control))
          timed(() => handlers.typed(control)); // a drag begins: the screen before it is the one now
      }
    }],
    ['mousedown', (/** @type {MouseEvent} */ e) => {
      if (e.isTrusted && !onBar(e) && currentPick()) {
        e.preventDefault();
        e.stopImmediatePropagation();
      }
    }],
    ['mouseup', (/** @type {MouseEvent} */ e) => {
      if (e.isTrusted && !onBar(e) && currentPick()) {
        e.preventDefault();
        e.stopImmediatePropagation();
      }
    }],
    ['click', (/** @type {MouseEvent} */ e) => {
      if (!e.isTrusted || onBar(e))
        return;
      const el = targetOf(e);
      if (!el)
        return;
      if (!currentPick() && inSelect(el))
        return; // it opens or closes the list, or chooses: the choice is recorded as select
      if (!currentPick() && e.button === 0 && partOfSetting(el))
        return; // the drag or press that set a value: recorded as set
      if (el === labelForwards.el)
        return; // the click the browser passed on from the label clicked
      const label = /** @type {HTMLLabelElement | null} */ (el.closest('label'));
      const control = label && label.control;
      if (control && control !== el && !control.contains(el) && !currentPick()) {
        labelForwards.el = control;
        setTimeout(() => { labelForwards.el = null; }, 0);
      }
      if (currentPick()) {
        e.preventDefault();
        e.stopImmediatePropagation();
      } else if (e.detail > 1) {
        return; // the dblclick event reports it
      } else if (e.detail === 0 && state.keyActivation) {
        // The click the browser makes of a key: Enter in a form field
        // submits through its default button, Enter on a button clicks it.
        // The key press is recorded; replaying it makes the click again.
        return;
      }
      timed(() => handlers.click(el, e, 1));
    }],
    ['dblclick', (/** @type {MouseEvent} */ e) => {
      if (!e.isTrusted || onBar(e) || currentPick())
        return;
      const el = targetOf(e);
      if (el && (inSelect(el) || valueControl(el)))
        return; // chooses or sets: recorded as select or set
      if (el)
        timed(() => handlers.click(el, e, 2));
    }],
    ['contextmenu', (/** @type {MouseEvent} */ e) => {
      // A right press: no click event follows it, only this (and auxclick,
      // left to it). A context menu opened from the keyboard (button 0) is
      // recorded as its key press.
      if (!e.isTrusted || onBar(e) || currentPick() || e.button !== 2)
        return;
      const el = targetOf(e);
      if (el)
        timed(() => handlers.click(el, e, 1));
    }],
    ['auxclick', (/** @type {MouseEvent} */ e) => {
      // A middle click; a right one is recorded at its contextmenu.
      if (!e.isTrusted || onBar(e) || currentPick() || e.button !== 1)
        return;
      const el = targetOf(e);
      if (el)
        timed(() => handlers.click(el, e, 1));
    }],
    ['input', (/** @type {InputEvent} */ e) => {
      if (!e.isTrusted || onBar(e))
        return;
      const el = targetOf(e);
      if (el && isTextField(el)) {
        timed(() => handlers.typed(el));
        valueChanged();
      }
    }],
    ['change', (/** @type {Event} */ e) => {
      if (!e.isTrusted || onBar(e))
        return;
      const el = targetOf(e);
      if (el) {
        timed(() => handlers.change(el, e));
        valueChanged();
      }
    }],
    ['keydown', (/** @type {KeyboardEvent} */ e) => {
      if (!e.isTrusted || onBar(e) || e.isComposing)
        return;
      if (currentPick()) {
        // The keys of a pick are the bar's, not the page's.
        const top = topRecorder();
        if (top ? top.pickKey(e.key) : pickKey(e.key)) {
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
      timed(() => handlers.press(targetOf(e), e));
    }],
    ['keyup', (/** @type {KeyboardEvent} */ e) => {
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
    ['transitionend', (/** @type {Event} */ e) => { if (!onBar(e)) pageChanged(); }],
    ['animationend', (/** @type {Event} */ e) => { if (!onBar(e)) pageChanged(); }],
  ];

  /**
   * A value or state changed (an option chosen, a box checked, a slider
   * moved, a field typed into): no markup changes with it, so no mutation
   * says the capture is stale. Without this, the next interaction's screen
   * would still show the old value, and the step after would be taken to
   * have made the change. Called after the interaction took its screen.
   */
  function valueChanged() {
    pageChanged();
  }

  function currentPick() {
    const top = topRecorder();
    return top ? top.pick() : state.pick;
  }

  /**
   * @param {Pick} p what the next click picks
   * @param {boolean} [taken] the pick before it was taken (not given up)
   */
  function setPick(p, taken = false) {
    state.pick = p;
    clearTimeout(state.restTimer);
    state.picked = state.rested = { from: null, at: null };
    state.onPicked(null);
    state.onPick(p, taken);
  }

  function start() {
    state.running = true;
    for (const [type, fn] of listeners)
      window.addEventListener(type, fn, true);
    if (document.documentElement)
      observe();
    else
      document.addEventListener('DOMContentLoaded', observe, { once: true });
    // A same-origin frame is part of its top frame's screen.
    const top = topRecorder();
    if (top)
      top.changed();
    else
      changed();
  }

  function stop() {
    if (!state.running)
      return;
    flushTyping();
    state.running = false;
    for (const [type, fn] of listeners)
      window.removeEventListener(type, fn, true);
    observer.disconnect();
    clearTimeout(state.settleTimer);
    setPick(null);
  }

  const api = Object.freeze({
    /** Called when the script is injected again into this document. */
    restart() {
      if (state.running)
        return;
      // A new recording: the host has none of this document's screens.
      state.sent.clear();
      state.screen = null;
      start();
    },
    stop,
    /** Entry point for the recorders of same-origin frames below. */
    handle(/** @type {keyof typeof handlers} */ name, /** @type {any[]} */ ...args) {
      const local = { click: clicked, typed, change: changedValue, press: pressed, dialog: dialogAnswered, flush: flushTyping, down: mouseDown, over: pointerOver, unrecordedDialog }[name];
      if (local)
        /** @type {(...a: any[]) => void} */ (local)(...args);
    },
    changed,
    /** Whether the capture at hand shows the page as it is. */
    settled: () => !state.dirty && !!state.screen,
    pick: () => state.pick,
    /** The recording bar: what the next click picks, and who hears of it. */
    setPick,
    /** @param {(p: Pick, taken: boolean) => void} fn */
    onPick(fn) { state.onPick = fn; },
    /** The element the pick would take now, if any. */
    picked: () => state.picked.at,
    /** @param {(el: Element | null) => void} fn told when the highlighted element changes */
    onPicked(fn) { state.onPicked = fn; },
    /** @param {(ref: string, el: Element) => void} fn told of an element picked as one that must not change */
    onUnchanged(fn) { state.onUnchanged = fn; },
    pointPick,
    holdPick,
    widenPick,
    narrowPick,
    pickKey,
    /** The pick takes the highlighted element. */
    takePicked() {
      const at = state.picked.at;
      if (at)
        takePick(at, currentScreen());
    },
    /** @param {Element} el the recording bar's host element */
    setBar(el) { state.bar = el; },
    /** Records an interaction the recording bar made (asserts, undo). @param {Record<string, unknown>} i */
    record(i) {
      flushTyping();
      send(i, i.kind === 'assertUrl' || i.kind === 'assertNotVisible' ? currentScreen() : null);
    },
    /**
     * For Assert change: what is typed goes out first, then the screen as
     * it is now (settled after the action), kept for the assertChange.
     * @returns {Captured}
     */
    changeScreen() {
      flushTyping();
      return currentScreen();
    },
    /**
     * Records the assertChange the bar made, on the screen changeScreen gave.
     * @param {Record<string, unknown>} i @param {Captured} screen
     */
    recordChange(i, screen) {
      flushTyping();
      send(i, screen);
    },
    /** Called when an action (not a check the bar made) is sent. @param {() => void} fn */
    onAction(fn) { state.onAction = fn; },
    /** Called when the page opened a dialog that is not recorded (see listenToDialogs). @param {() => void} fn */
    onUnrecordedDialog(fn) { state.onUnrecordedDialog = fn; },
    /** dialogbridge.js calls it when its channel is there. */
    listenToDialogs,
    flush: flushTyping,
    /** The screen now, in the wire form, with what the session keeps secret left out. */
    screenWire: () => pm().captureWire({ sensitive: sensitiveNow() }),
    /** Timings for the benchmark, in ms. */
    timings: () => ({ interaction: [...state.timings], capture: [...state.captureTimings] }),
  });
  Object.defineProperty(g, API_NAME, { value: api, configurable: true, enumerable: false, writable: false });
  start();
})();
