// The agent's hands in the recorded tab ("Ask the agent", host/PROTOCOL.md,
// The agent while recording). The host runs the agent and sends agent.page
// requests; this captures the page model's screen there, or acts on the
// element of a ref with trusted input through chrome.debugger
// (Input.dispatchMouseEvent, Input.insertText, Input.dispatchKeyEvent), so
// Chrome shows that Trailpin is debugging the browser while the agent acts.
// The recorder in the page captures that input exactly as it captures a
// person's: no step is built here, and nothing is decided here.

/** How long the page must not change for its screen to be taken. */
const QUIET_MS = 250;
/** Longest wait for a quiet page (an animation, a ticking clock). */
const QUIET_MAX_MS = 2_000;
/** How long a page load may take before a capture gives up. */
const LOAD_MAX_MS = 30_000;
/** How soon after an act a navigation it caused starts. */
const NAVIGATION_START_MS = 400;
/** Longest a capture or the goal's end waits for a tab that is loading. */
const LOADING_WAIT_MS = 5_000;
/** How often an act looks again for a target that is not ready. */
const RETRY_MS = 100;

/**
 * A key the agent may press: its DOM code, Windows key code and the text it
 * types.
 * @typedef {{code: string, keyCode: number, text?: string}} KeyInfo
 */

/** @type {Record<string, KeyInfo>} */
const NAMED_KEYS = {
  Enter: { code: 'Enter', keyCode: 13, text: '\r' },
  Escape: { code: 'Escape', keyCode: 27 },
  Tab: { code: 'Tab', keyCode: 9 },
  Backspace: { code: 'Backspace', keyCode: 8 },
  Delete: { code: 'Delete', keyCode: 46 },
  ArrowDown: { code: 'ArrowDown', keyCode: 40 },
  ArrowUp: { code: 'ArrowUp', keyCode: 38 },
  ArrowLeft: { code: 'ArrowLeft', keyCode: 37 },
  ArrowRight: { code: 'ArrowRight', keyCode: 39 },
  Home: { code: 'Home', keyCode: 36 },
  End: { code: 'End', keyCode: 35 },
  PageUp: { code: 'PageUp', keyCode: 33 },
  PageDown: { code: 'PageDown', keyCode: 34 },
  Space: { code: 'Space', keyCode: 32, text: ' ' },
  ' ': { code: 'Space', keyCode: 32, text: ' ' },
};

/**
 * What a key name is for dispatchKeyEvent; null for a key the agent cannot
 * press.
 * @param {string} key
 * @returns {(KeyInfo & {key: string}) | null}
 */
export function keyInfo(key) {
  const named = NAMED_KEYS[key];
  if (named) return { key: key === 'Space' ? ' ' : key, ...named };
  if ([...key].length !== 1) return null;
  const upper = key.toUpperCase();
  const letter = /^[A-Z]$/.test(upper);
  const digit = /^[0-9]$/.test(key);
  return {
    key,
    code: letter ? `Key${upper}` : digit ? `Digit${key}` : '',
    keyCode: letter || digit ? upper.charCodeAt(0) : 0,
    text: key,
  };
}

/**
 * The answer to an agent.page request (host/PROTOCOL.md, agent.pageResult).
 * @typedef {{ok: boolean, reason?: 'stale'|'gone'|'failed', error?: string, screen?: unknown}} PageAnswer
 */

/**
 * A request of the host (agent.page).
 * @typedef {object} PageRequest
 * @property {string} op screen, tap, type, select, press, navigate
 * @property {string} [document]
 * @property {string} [ref]
 * @property {string} [text]
 * @property {string} [option]
 * @property {string} [key]
 * @property {string} [url]
 * @property {string} [history]
 * @property {number} [timeoutMs]
 */

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** @param {unknown} e */
const message = (e) => (e instanceof Error ? e.message : String(e));

export class LiveAgent {
  /** @param {{chrome: any}} opts the chrome.* APIs */
  constructor({ chrome }) {
    this.chrome = chrome;
    /** The tab chrome.debugger is attached to, -1 when none. */
    this.attached = -1;
  }

  /** @param {number} tabId */
  async attach(tabId) {
    if (this.attached === tabId) return;
    await this.detach();
    try {
      await this.chrome.debugger.attach({ tabId }, '1.3');
    } catch (e) {
      // Attached already (a worker that restarted while the agent acted).
      if (!/already attached/i.test(message(e))) throw e;
    }
    this.attached = tabId;
  }

  /** Ends the debugging session: Chrome's bar about it goes away. */
  async detach() {
    if (this.attached < 0) return;
    const tabId = this.attached;
    this.attached = -1;
    await this.chrome.debugger.detach({ tabId }).catch(() => {});
  }

  /**
   * @param {string} method
   * @param {Record<string, unknown>} [params]
   */
  send(method, params = {}) {
    return this.chrome.debugger.sendCommand({ tabId: this.attached }, method, params);
  }

  /**
   * Carries out one agent.page request in the tab.
   * @param {number} tabId
   * @param {PageRequest} req
   * @returns {Promise<PageAnswer>}
   */
  async perform(tabId, req) {
    try {
      await this.chrome.tabs.get(tabId);
    } catch {
      return { ok: false, reason: 'gone', error: 'the recorded tab was closed' };
    }
    try {
      switch (req.op) {
        case 'screen': return await this.screen(tabId);
        case 'tap': return await this.tap(tabId, req);
        case 'type': return await this.type(tabId, req);
        case 'select': return await this.choose(tabId, req);
        case 'press': return await this.press(tabId, String(req.key ?? ''));
        case 'navigate': return await this.navigate(tabId, req);
      }
      return { ok: false, reason: 'failed', error: `this extension cannot ${req.op}: update it` };
    } catch (e) {
      return { ok: false, reason: 'failed', error: message(e) };
    }
  }

  /**
   * The tab's screen in the page model's wire form, once the page is loaded
   * and quiet; the recorder's capture, so what the person marked sensitive
   * stays out.
   * @param {number} tabId
   * @returns {Promise<PageAnswer>}
   */
  async screen(tabId) {
    const deadline = Date.now() + LOAD_MAX_MS;
    await this.loaded(tabId);
    let last = '';
    while (Date.now() < deadline) {
      try {
        const [{ result }] = await this.chrome.scripting.executeScript({
          target: { tabId, frameIds: [0] },
          args: [QUIET_MS, QUIET_MAX_MS],
          func: async (/** @type {number} */ quietMs, /** @type {number} */ maxMs) => {
            const g = /** @type {any} */ (globalThis);
            const start = Date.now();
            while ((document.readyState === 'loading' || !g.__trailpinRecorder) && Date.now() - start < maxMs) {
              await new Promise((r) => setTimeout(r, 50));
            }
            if (!g.__trailpinRecorder) return { wait: 'the recorder is not in the page yet' };
            await new Promise((resolve) => {
              /** @type {ReturnType<typeof setTimeout>} */
              let timer;
              const done = () => {
                observer.disconnect();
                clearTimeout(timer);
                resolve(undefined);
              };
              const observer = new MutationObserver(() => {
                clearTimeout(timer);
                timer = setTimeout(done, Date.now() - start > maxMs ? 0 : quietMs);
              });
              observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
              timer = setTimeout(done, quietMs);
            });
            return { wire: g.__trailpinRecorder.screenWire() };
          },
        });
        if (result?.wire) return { ok: true, screen: JSON.parse(result.wire) };
        last = result?.wait ?? 'the page gave no screen';
      } catch (e) {
        // Between two documents: the next one is coming.
        last = message(e);
      }
      await sleep(RETRY_MS);
    }
    return { ok: false, reason: 'failed', error: `the recorded tab gave no screen within ${LOAD_MAX_MS / 1000} s: ${last}` };
  }

  /**
   * Waits, a few seconds at most, while the tab is loading a page (an act's
   * navigation that started later than watch saw).
   * @param {number} tabId
   */
  async loaded(tabId) {
    const until = Date.now() + LOADING_WAIT_MS;
    while (Date.now() < until) {
      const tab = await this.chrome.tabs.get(tabId).catch(() => null);
      if (!tab || tab.status !== 'loading') return;
      await sleep(RETRY_MS);
    }
  }

  /**
   * Scrolls the element of a ref into view and says where to click it,
   * once it is in the viewport, uncovered and still; a ref of another
   * document, or gone, is stale.
   * @param {number} tabId
   * @param {PageRequest} req
   * @returns {Promise<{point?: {x: number, y: number}, answer?: PageAnswer}>}
   */
  async target(tabId, req) {
    const deadline = Date.now() + (req.timeoutMs ?? 10_000);
    let why = '';
    for (;;) {
      /** @type {any} */
      let result;
      try {
        [{ result }] = await this.chrome.scripting.executeScript({
          target: { tabId, frameIds: [0] },
          args: [String(req.ref ?? ''), String(req.document ?? '')],
          func: (/** @type {string} */ ref, /** @type {string} */ doc) => {
            const pm = /** @type {any} */ (globalThis).__trailpinPageModel;
            if (!pm) return { stale: 'the page has loaded another document since the screen was captured' };
            if (pm.documentToken() !== doc) return { stale: 'the page has loaded another document since the screen was captured' };
            const found = pm.elementForRef(ref);
            if (!('element' in found)) return { stale: found.message };
            const p = pm.scrollIntoView(ref);
            if (!('x' in p)) return { stale: p.message };
            return { point: p };
          },
        });
      } catch (e) {
        return { answer: { ok: false, reason: 'stale', error: `the page changed: ${message(e)}` } };
      }
      if (result?.stale) return { answer: { ok: false, reason: 'stale', error: String(result.stale) } };
      const p = result?.point;
      if (p && p.inViewport && !p.covered && !p.animating && p.box.width > 0 && p.box.height > 0) return { point: p };
      why = !p ? 'it has no box' : !p.inViewport ? 'it is outside the viewport' : p.covered ? `another element (${p.hit}) covers it`
        : p.animating ? 'it is still moving' : 'it has no size';
      if (Date.now() > deadline) {
        return { answer: { ok: false, reason: 'failed', error: `${req.ref} cannot be clicked: ${why} (waited ${(req.timeoutMs ?? 10_000) / 1000} s)` } };
      }
      await sleep(RETRY_MS);
    }
  }

  /**
   * A trusted left click at a point of the viewport.
   * @param {number} tabId
   * @param {{x: number, y: number}} p
   */
  async click(tabId, p) {
    await this.attach(tabId);
    const at = { x: p.x, y: p.y };
    await this.send('Input.dispatchMouseEvent', { type: 'mouseMoved', ...at });
    await this.send('Input.dispatchMouseEvent', { type: 'mousePressed', button: 'left', buttons: 1, clickCount: 1, ...at });
    await this.send('Input.dispatchMouseEvent', { type: 'mouseReleased', button: 'left', buttons: 0, clickCount: 1, ...at });
  }

  /**
   * Watches for a navigation of the tab's page from now on: settled()
   * resolves once the navigation an act started (if it started one within
   * a moment of it) has loaded.
   * @param {number} tabId
   * @returns {{settled: () => Promise<void>}}
   */
  watch(tabId) {
    const nav = this.chrome.webNavigation;
    /** @type {(v?: unknown) => void} */
    let started = () => {};
    /** @type {(v?: unknown) => void} */
    let loaded = () => {};
    const start = new Promise((r) => { started = r; });
    const load = new Promise((r) => { loaded = r; });
    /** @param {{tabId: number, frameId: number}} d */
    const onStart = (d) => { if (d.tabId === tabId && d.frameId === 0) started(true); };
    /** @param {{tabId: number, frameId: number}} d */
    const onLoaded = (d) => { if (d.tabId === tabId && d.frameId === 0) loaded(); };
    nav.onBeforeNavigate.addListener(onStart);
    nav.onDOMContentLoaded.addListener(onLoaded);
    nav.onErrorOccurred.addListener(onLoaded);
    const stop = () => {
      nav.onBeforeNavigate.removeListener(onStart);
      nav.onDOMContentLoaded.removeListener(onLoaded);
      nav.onErrorOccurred.removeListener(onLoaded);
    };
    return {
      settled: async () => {
        try {
          const began = await Promise.race([start, sleep(NAVIGATION_START_MS).then(() => false)]);
          if (began) await Promise.race([load, sleep(LOAD_MAX_MS)]);
        } finally {
          stop();
        }
      },
    };
  }

  /**
   * @param {number} tabId
   * @param {PageRequest} req
   * @returns {Promise<PageAnswer>}
   */
  async tap(tabId, req) {
    const t = await this.target(tabId, req);
    if (!t.point) return /** @type {PageAnswer} */ (t.answer);
    const nav = this.watch(tabId);
    await this.click(tabId, t.point);
    await nav.settled();
    return { ok: true };
  }

  /**
   * Clicks the field, selects what it holds and types text over it, as
   * input does (Input.insertText); an empty text deletes what it held.
   * @param {number} tabId
   * @param {PageRequest} req
   * @returns {Promise<PageAnswer>}
   */
  async type(tabId, req) {
    const t = await this.target(tabId, req);
    if (!t.point) return /** @type {PageAnswer} */ (t.answer);
    await this.click(tabId, t.point);
    const [{ result }] = await this.chrome.scripting.executeScript({
      target: { tabId, frameIds: [0] },
      args: [String(req.ref ?? '')],
      func: (/** @type {string} */ ref) => {
        const found = /** @type {any} */ (globalThis).__trailpinPageModel.elementForRef(ref);
        if (!('element' in found)) return { stale: found.message };
        const el = /** @type {HTMLElement} */ (found.element);
        if (document.activeElement !== el && !el.contains(document.activeElement)) el.focus();
        if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
          try {
            el.select();
          } catch {
            // An input type without a selection (email in some browsers).
            el.setSelectionRange?.(0, el.value.length);
          }
          return { ok: true };
        }
        if (el.isContentEditable) {
          const range = document.createRange();
          range.selectNodeContents(el);
          const sel = getSelection();
          sel?.removeAllRanges();
          sel?.addRange(range);
          return { ok: true };
        }
        return { notText: `${el.localName} is not a text field` };
      },
    });
    if (result?.stale) return { ok: false, reason: 'stale', error: String(result.stale) };
    if (result?.notText) return { ok: false, reason: 'failed', error: String(result.notText) };
    const text = String(req.text ?? '');
    if (text) await this.send('Input.insertText', { text });
    else await this.press(tabId, 'Delete');
    return { ok: true };
  }

  /**
   * Chooses an option of a drop-down (<select>) with the keyboard, as a
   * person can: the field focused, arrow keys until the option is chosen.
   * @param {number} tabId
   * @param {PageRequest} req
   * @returns {Promise<PageAnswer>}
   */
  async choose(tabId, req) {
    const t = await this.target(tabId, req);
    if (!t.point) return /** @type {PageAnswer} */ (t.answer);
    const probe = async () => {
      const [{ result }] = await this.chrome.scripting.executeScript({
        target: { tabId, frameIds: [0] },
        args: [String(req.ref ?? ''), String(req.option ?? '')],
        func: (/** @type {string} */ ref, /** @type {string} */ option) => {
          const found = /** @type {any} */ (globalThis).__trailpinPageModel.elementForRef(ref);
          if (!('element' in found)) return { stale: found.message };
          const el = found.element;
          if (!(el instanceof HTMLSelectElement)) return { notSelect: true };
          if (document.activeElement !== el) el.focus();
          const norm = (/** @type {string} */ s) => s.replace(/\s+/g, ' ').trim();
          const want = [...el.options].findIndex((o) => norm(o.label || o.text) === norm(option));
          if (want < 0) return { missing: [...el.options].map((o) => norm(o.label || o.text)) };
          return { delta: want - el.selectedIndex };
        },
      });
      return result;
    };
    for (let tries = 0; tries < 100; tries++) {
      const r = await probe();
      if (r?.stale) return { ok: false, reason: 'stale', error: String(r.stale) };
      if (r?.notSelect) return { ok: false, reason: 'failed', error: 'select chooses in a drop-down; for a list box, tap its option' };
      if (r?.missing) return { ok: false, reason: 'failed', error: `it has no option ${JSON.stringify(req.option)} (it has ${r.missing.map((/** @type {string} */ s) => JSON.stringify(s)).join(', ')})` };
      if (r?.delta === 0) return { ok: true };
      await this.press(tabId, r.delta > 0 ? 'ArrowDown' : 'ArrowUp');
    }
    return { ok: false, reason: 'failed', error: `the option ${JSON.stringify(req.option)} could not be reached with the arrow keys` };
  }

  /**
   * A trusted key press on the focused element.
   * @param {number} tabId
   * @param {string} key
   * @returns {Promise<PageAnswer>}
   */
  async press(tabId, key) {
    const k = keyInfo(key);
    if (!k) return { ok: false, reason: 'failed', error: `${JSON.stringify(key)} is not a key this extension can press: name a key (Enter, Escape, Tab, ArrowDown, …) or one character` };
    await this.attach(tabId);
    const nav = this.watch(tabId);
    /** @type {Record<string, unknown>} */
    const base = { key: k.key, code: k.code, windowsVirtualKeyCode: k.keyCode, nativeVirtualKeyCode: k.keyCode };
    await this.send('Input.dispatchKeyEvent', { type: k.text ? 'keyDown' : 'rawKeyDown', ...base, ...(k.text ? { text: k.text, unmodifiedText: k.text } : {}) });
    await this.send('Input.dispatchKeyEvent', { type: 'keyUp', ...base });
    await nav.settled();
    return { ok: true };
  }

  /**
   * Goes to a URL of the app as typed into the address bar, or back,
   * forward or reload.
   * @param {number} tabId
   * @param {PageRequest} req
   * @returns {Promise<PageAnswer>}
   */
  async navigate(tabId, req) {
    await this.attach(tabId);
    const nav = this.watch(tabId);
    if (req.history === 'back' || req.history === 'forward') {
      const { currentIndex, entries } = await this.send('Page.getNavigationHistory');
      const to = entries[currentIndex + (req.history === 'back' ? -1 : 1)];
      if (!to) return { ok: false, reason: 'failed', error: `there is no page to go ${req.history} to` };
      await this.send('Page.navigateToHistoryEntry', { entryId: to.id });
    } else if (req.history === 'reload') {
      await this.send('Page.reload', {});
    } else {
      await this.send('Page.navigate', { url: String(req.url ?? ''), transitionType: 'typed' });
    }
    await nav.settled();
    return { ok: true };
  }
}
