// @ts-check
/**
 * The recorder: the content script that watches a recorded tab.
 *
 * The background injects its files with chrome.scripting (after the page
 * model's files, pagemodel-files.js; in the order content-files.js gives)
 * into every frame of a recorded tab, and again after every navigation;
 * nothing of it runs in tabs that are not recorded. It listens in the capture
 * phase, ignores events that scripts made, and reports each interaction to
 * the background with the screen captured before it. The background numbers
 * interactions and sends them to the host.
 *
 * The screen before an interaction must be at hand when it happens (the
 * element may be gone a moment later), without stalling the page: the
 * recorder keeps a capture taken when the page last settled and takes a new
 * one only after the DOM changed (a MutationObserver says so) or a value or
 * state changed that no markup shows (an option chosen, a box checked, a
 * field typed into: their input and change events say so), once the page
 * has been quiet for SETTLE_MS (screens.js). Only when an interaction comes
 * while a change has not been captured yet does it capture on the spot: on
 * the interaction's first event (a pointerdown, a keydown, a beforeinput),
 * before it changes the page, as that screen is also where the step before
 * ends (docs/recording.md, The step's boundary).
 *
 * A secret field's value never leaves the page: typing into it is reported
 * with the name of the secret to read at replay, never its value
 * (secrets.js).
 *
 * The files, by concern: core.js (this one: the namespace and the state the
 * files share), events.js (what a DOM event means as an interaction; no DOM
 * or chrome globals, so node tests it), frames.js (same-origin frames report
 * through their top frame's recorder), secrets.js, screens.js (capture
 * scheduling), sending.js, typing.js, interactions.js, picker.js (the
 * assertion picker), listeners.js and api.js (the one global,
 * `__trailpinRecorder`, which the recording bar and the background use).
 *
 * The files run in one world and share one namespace object, which this file
 * creates and api.js removes once the recorder is installed; each file takes
 * what it needs from it and adds what it provides (the Recorder* types say
 * what). Calls between files go through the namespace at call time.
 *
 * Plain ES2022, classic scripts in the extension's isolated world.
 *
 * This file: the namespace, the state the files share, the page model.
 */
'use strict';

/**
 * @typedef {{id: string, wire: string}} RecorderCaptured a screen captured, with its id
 * @typedef {{el: HTMLInputElement | HTMLTextAreaElement | HTMLElement, screen: RecorderCaptured, ref: string, time: number, start?: string | null, atPress?: RecorderTypingMeaning, kept?: string}} RecorderTyping
 * @typedef {'assertVisible' | 'assertValue' | 'markSensitive' | 'changeMustNot' | null} RecorderPick
 * @typedef {{from: Element | null, at: Element | null}} RecorderPicked the element under the pointer, and the one the pick takes
 * @typedef {{el: Element, screen: RecorderCaptured, time: number}} RecorderOver
 */

/**
 * The recorder's state in a document, shared by its files.
 * @typedef {object} RecorderState
 * @property {boolean} running
 * @property {RecorderCaptured | null} screen
 * @property {string} screenHref the address the page was at when screen was captured
 * @property {boolean} dirty
 * @property {number} changedAt when the observer last saw the DOM change (ms since the epoch; 0 when it is not observing)
 * @property {Element[]} hover what the pointer alone showed when the screen was captured
 * @property {RecorderOver | null} over the element the pointer last entered, with the screen from before
 * @property {RecorderOver | null} reveal an entry the page changed right after (a menu its script opened)
 * @property {number} counter
 * @property {Set<string>} sent screen ids whose wire form went out
 * @property {RecorderTyping | null} typing
 * @property {RecorderPick} pick
 * @property {(p: RecorderPick, taken: boolean) => void} onPick
 * @property {() => void} onAction told when an action is sent (the bar's Assert change)
 * @property {() => void} onUnrecordedDialog told when the page opened a dialog that is not recorded
 * @property {boolean} dialogs whether the recorder listens to dialogbridge.js
 * @property {RecorderPicked} picked
 * @property {RecorderPicked} rested the highlight the pointer last rested on, or the person adjusted
 * @property {ReturnType<typeof setTimeout> | undefined} restTimer
 * @property {(el: Element | null) => void} onPicked
 * @property {(ref: string, el: Element) => void} onUnchanged told of an element picked as one that must not change
 * @property {Element[]} sensitive elements marked sensitive in this document
 * @property {string[]} secretValues what the person typed into secret fields: kept in
 *   the page only, so that no capture carries it where the app shows it
 *   again (an API explorer's request with its key, a greeting with the
 *   name typed into a masked field)
 * @property {{el: Element, value: string} | null} typingSecret the secret field being typed into, with its value now
 * @property {Element | null} bar the recording bar's host: never recorded
 * @property {ReturnType<typeof setTimeout> | undefined} settleTimer
 * @property {boolean} keyActivation an Enter or Space key is being handled: its click is not the person's
 * @property {ReturnType<typeof setTimeout> | undefined} keyActivationTimer
 * @property {{el: Element, screen: RecorderCaptured, time: number} | null} down the screen when the mouse went down
 * @property {{el: Element, screen: RecorderCaptured, time: number, held?: boolean} | null} preInput the
 *   screen when a key went down in a field not being typed into (held until
 *   its keyup: the text the key types is part of it), or when text was
 *   about to go into such a field without a key (its beforeinput)
 * @property {{el: Element, value: string} | null} textBefore a text field (input or text area) not being
 *   typed into, with the value it held when text was about to go into it (its beforeinput)
 * @property {Element | null} escaping a text field Escape is held down in, recorded as a press:
 *   the browser's own action of that key (a search field cleared) is the press's, not typing
 * @property {{el: Element, screen: RecorderCaptured, time: number, tap: boolean} | null} selectOpened the screen when the
 *   mouse went down on a select, before its list opened: the open list
 *   sets the select's value as the person moves through it, before any
 *   change event, and a capture in between would show the choice. With
 *   tap (a drop-down, whose list is the browser's pop-up), a press that
 *   chose nothing by the time the person does something else is sent as
 *   a click on the drop-down (interactions.js, unchosenPress)
 * @property {RecorderCaptured | null} clickScreen the screen of the click being handled, for the change it makes
 * @property {(() => void) | null} pending what to send once the page's own handlers
 *   of an event have run (whether a chat took an Enter, the selection a
 *   list box shows after a click): at the next task, or before anything
 *   else is sent, as Chromium runs queued input ahead of timers and the
 *   next click would overtake it
 * @property {number} carriedMs ms of a press not yet counted with its click
 * @property {number[]} timings ms spent in each interaction's handlers
 * @property {number[]} captureTimings ms spent in each settled capture
 */

/**
 * What core.js gives the files after it, on the recorder's namespace.
 * @typedef {object} RecorderCore
 * @property {string} API_NAME the one global the recorder installs
 * @property {number} PRESS_MAX_MS longest a mouse press (or a key) is taken to belong to what follows it
 * @property {Record<string, any>} g the global object
 * @property {RecorderState} state
 * @property {() => TrailpinPageModel} pm the page model
 * @property {(list: number[], ms: number) => void} keep keeps a timing
 */

/**
 * What the files share while the recorder is installed: what each adds.
 * @typedef {RecorderCore & RecorderEvents & RecorderFrames & RecorderSecrets & RecorderScreens & RecorderSending &
 *   RecorderTypingFns & RecorderInteractions & RecorderPicker & RecorderListeners} RecorderInternals
 */

(() => {
  'use strict';

  const API_NAME = '__trailpinRecorder';
  /** Where the files find the namespace while they install the recorder. */
  const INTERNALS = Symbol.for('trailpin.recorder.internals');
  /** Longest a mouse press is taken to belong to the click that follows. */
  const PRESS_MAX_MS = 2000;
  /** How many interaction timings are kept for the benchmark. */
  const TIMINGS_KEPT = 2000;

  const g = /** @type {Record<string | symbol, any>} */ (/** @type {unknown} */ (globalThis));
  if (g[API_NAME]) {
    // Injected again into a document that has its recorder: the files
    // after this one find no namespace and do nothing.
    delete g[INTERNALS];
    g[API_NAME].restart();
    return;
  }

  /** @returns {TrailpinPageModel} the page model */
  const pm = () => g.__trailpinPageModel;

  /** @type {RecorderState} */
  const state = {
    running: true,
    screen: null,
    screenHref: '',
    dirty: true,
    changedAt: 0,
    hover: [],
    over: null,
    reveal: null,
    counter: 0,
    sent: new Set(),
    typing: null,
    pick: null,
    onPick: () => {},
    onAction: () => {},
    onUnrecordedDialog: () => {},
    dialogs: false,
    picked: { from: null, at: null },
    rested: { from: null, at: null },
    restTimer: undefined,
    onPicked: () => {},
    onUnchanged: () => {},
    sensitive: [],
    secretValues: [],
    typingSecret: null,
    bar: null,
    settleTimer: undefined,
    keyActivation: false,
    keyActivationTimer: undefined,
    down: null,
    preInput: null,
    textBefore: null,
    escaping: null,
    selectOpened: null,
    clickScreen: null,
    pending: null,
    carriedMs: 0,
    timings: [],
    captureTimings: [],
  };

  /** @param {number[]} list @param {number} ms */
  function keep(list, ms) {
    list.push(ms);
    if (list.length > TIMINGS_KEPT)
      list.shift();
  }

  /** @type {RecorderCore} */
  const provides = { API_NAME, PRESS_MAX_MS, g, state, pm, keep };
  Object.defineProperty(g, INTERNALS, {
    value: /** @type {RecorderInternals} */ (/** @type {unknown} */ ({ ...provides })),
    configurable: true, enumerable: false, writable: false,
  });
})();
