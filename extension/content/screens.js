// @ts-check
// The recorder: screens. When to capture the page: once it settled after a
// change, or on the spot when an interaction comes before that.
'use strict';

/**
 * What screens.js gives the files after it, on the recorder's namespace.
 * @typedef {object} RecorderScreens
 * @property {() => RecorderCaptured} currentScreen
 * @property {() => void} changed
 * @property {() => void} pageChanged
 * @property {() => void} observe
 * @property {() => void} unobserve
 */

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, RecorderInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.recorder.internals')];
  if (!internals)
    return; // the recorder is installed already (core.js)
  const rec = internals;
  const { state, pm } = rec;

  /** Quiet time after a DOM change before the screen is captured again. */
  const SETTLE_MS = 120;

  /**
   * Longest a change of the page may come after the pointer entered an
   * element and still be taken as what entering it showed (a menu opened
   * on mouseenter, perhaps after a short delay).
   */
  const HOVER_REVEAL_MS = 1000;

  /** Longest a settled page's capture waits for the browser to be idle. */
  const IDLE_WAIT_MS = 500;

  /**
   * Captures the screen now. At an interaction the capture is incremental:
   * it reuses what the last capture found for the parts of the page that did
   * not change since. When the page has settled it reads the whole page
   * again (fresh), so what an incremental capture cannot see (a shadow root
   * attached later, a rule edited in place) lives at most until the page is
   * next quiet.
   * @param {{fresh?: boolean}} [how] @returns {RecorderCaptured}
   */
  function captureNow(how) {
    const t0 = performance.now();
    const wire = pm().captureWire({ sensitive: rec.sensitiveNow(), incremental: true, fresh: how?.fresh === true });
    state.hover = pm().hoverRevealed();
    state.counter++;
    const captured = { id: `${pm().documentToken()}-${state.counter}`, wire };
    state.screen = captured;
    state.screenHref = location.href;
    state.dirty = false;
    rec.keep(state.captureTimings, performance.now() - t0);
    return captured;
  }

  /**
   * The screen as it is now: the settled capture, or a new one after a
   * change, or after the pointer moved onto or off what only its hover shows
   * (a row's delete button): no mutation says so, and the capture would
   * show the button hidden though the person is about to click it. Or
   * after the address changed with no mutation (a link to a fragment of
   * the page, a pushState that renders nothing new): the capture holds the
   * address, and the step before would end at the old one.
   */
  function currentScreen() {
    if (state.dirty || !state.screen || state.screenHref !== location.href || hoverMoved())
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
    if (rec.crossOriginFrame)
      return; // never sent
    clearTimeout(state.settleTimer);
    state.settleTimer = setTimeout(() => {
      // Capture when the page has nothing else to do; an interaction
      // before that captures at once.
      const capture = () => {
        if (state.running && state.dirty && document.documentElement) {
          captureNow({ fresh: true });
          adoptShadowRoots(document);
        }
      };
      if (typeof requestIdleCallback === 'function')
        requestIdleCallback(capture, { timeout: IDLE_WAIT_MS });
      else
        capture();
    }, SETTLE_MS);
  }

  /** The page changed: this frame's, or its top frame's, capture is stale. */
  function pageChanged() {
    const top = rec.topRecorder();
    if (top)
      top.changed();
    else
      changed();
  }

  const OBSERVED = { subtree: true, childList: true, attributes: true, characterData: true };

  const observer = new MutationObserver((records) => {
    state.changedAt = Date.now();
    for (const r of records) {
      for (const n of Array.from(r.addedNodes)) {
        if (n.nodeType === 1)
          adoptShadowRoots(/** @type {Element} */ (n));
      }
    }
    // Markup that changed right after the pointer entered an element: what
    // entering it showed (a value typed or chosen changes none).
    const over = state.over;
    if (over && !state.reveal && Date.now() - over.time <= HOVER_REVEAL_MS)
      state.reveal = over;
    pageChanged();
  });

  /** @type {WeakSet<ShadowRoot>} */
  let watchedRoots = new WeakSet();

  /**
   * Observes the open shadow roots under top (top's own too), at any depth:
   * a change inside one (a panel a component opens) is no change of the
   * document, and the screen where the step before ends must show it
   * (docs/recording.md, "Shadow DOM"). Roots come with added nodes; a custom
   * element upgraded later attaches its root with no mutation the document
   * sees, so each settled capture looks for new ones too.
   * @param {Element | Document | ShadowRoot} top
   */
  function adoptShadowRoots(top) {
    /** @type {(Element | Document | ShadowRoot)[]} */
    const todo = [top];
    for (let t = todo.pop(); t; t = todo.pop()) {
      const els = Array.from(t.querySelectorAll('*'));
      if (t.nodeType === 1)
        els.push(/** @type {Element} */ (t));
      for (const el of els) {
        const root = el.shadowRoot;
        if (!root)
          continue;
        if (!watchedRoots.has(root)) {
          watchedRoots.add(root);
          observer.observe(root, OBSERVED);
        }
        todo.push(root);
      }
    }
  }

  function observe() {
    // What changed before it watched is not known: count from now.
    state.changedAt = Date.now();
    watchedRoots = new WeakSet();
    observer.observe(document, OBSERVED);
    adoptShadowRoots(document);
  }

  function unobserve() {
    observer.disconnect();
    state.changedAt = 0;
  }

  /** @type {RecorderScreens} */
  const provides = { currentScreen, changed, pageChanged, observe, unobserve };
  Object.assign(rec, provides);
})();
