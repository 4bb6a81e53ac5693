// The agent's hands in the recorded tab ("Ask the agent", host/PROTOCOL.md,
// The agent while recording). The host runs the agent and sends agent.page
// requests; this captures the page model's screen there, or acts on the
// element of a ref with trusted input through chrome.debugger
// (Input.dispatchMouseEvent, Input.insertText, Input.dispatchKeyEvent), so
// Chrome shows that Trailpin is debugging the browser while the agent acts.
// The recorder in the page captures that input exactly as it captures a
// person's: no step is built here.
//
// The agent acts only on the app (docs/agent.md, What the agent may and may
// not do): every act carries the origins the host allows (the app's base URL
// and its apps.<name>.origins), and is refused (reason "refused") when the
// tab's page, the element's frame, or the page a link or form would open is
// on another origin, each checked at the moment of acting. Typing goes into
// the element the ref names or nowhere: right before the text is inserted,
// the focused element (through shadow roots and same-origin frames) must be
// that element.

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
 * Runs in the recorded tab's top frame (chrome.scripting): waits for the
 * recorder and a loaded document, then until the DOM has not changed for
 * quietMs (maxMs at most), and answers the recorder's screen in the wire
 * form. A page the recorder has watched stay quiet is taken at once: only
 * the rest of the quiet time is waited for. Self-contained: it is
 * serialised into the page.
 * @param {number} quietMs
 * @param {number} maxMs
 * @returns {Promise<{wire?: string, wait?: string}>}
 */
export async function quietScreen(quietMs, maxMs) {
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
    const quiet = Number(g.__trailpinRecorder.quietFor?.()) || 0;
    timer = setTimeout(done, Math.max(0, quietMs - quiet));
  });
  return { wire: g.__trailpinRecorder.screenWire() };
}

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
 * The origin of an http or https URL (scheme://host:port, as URL.origin
 * writes it); '' for any other URL, or none.
 * @param {unknown} url
 * @returns {string}
 */
export function originOf(url) {
  try {
    const u = new URL(String(url ?? ''));
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : '';
  } catch {
    return '';
  }
}

/**
 * The origins an act may run on, as the host sent them: each normalised as
 * originOf writes it, the ones that are not an http or https origin left out.
 * @param {unknown} list
 * @returns {string[]}
 */
export function allowedOrigins(list) {
  if (!Array.isArray(list)) return [];
  return [...new Set(list.map(originOf).filter(Boolean))];
}

/**
 * The origin where is on when it is not one of origins, '' when it is: a URL
 * or an origin; anything that is not on an http or https origin (an error
 * page, a sandboxed frame's "null") is off the app.
 * @param {unknown} where
 * @param {string[]} origins
 * @returns {string}
 */
export function offOrigin(where, origins) {
  const o = originOf(where);
  if (o && origins.includes(o)) return '';
  return o || String(where || 'an unknown origin');
}

/**
 * The answer refusing an act off the app: what is on which origin ("the
 * page is on"), what the app's origins are, and what became of the act.
 * @param {string} what
 * @param {string} origin
 * @param {string[]} origins
 * @param {string} [outcome]
 * @returns {PageAnswer}
 */
function refused(what, origin, origins, outcome = 'nothing was done') {
  return {
    ok: false, reason: 'refused', origin, why: `${what} ${origin}`,
    error: `${what} ${origin}, which is not the app (${origins.join(', ')}): the agent acts only on the app's origins, so ${outcome}. An origin the app trusts (a sign-in or payment page) is listed under apps.<name>.origins in trailpin.yaml`,
  };
}

/**
 * The refusal of an act on an element, from what the page said of it, or
 * null when it may run: the page and the element's frame must be on the
 * app's origins, and so must the http(s) page a link or submit button
 * opens. Nothing said is refused too.
 * @param {unknown} ref
 * @param {Where | undefined} where
 * @param {string[]} origins
 * @returns {PageAnswer | null}
 */
export function offElement(ref, where, origins) {
  if (!where) return { ok: false, reason: 'refused', error: `the page did not say which origin ${ref} is on: update the extension` };
  let off = offOrigin(where.top, origins);
  if (off) return refused('the page is on', off, origins);
  off = offOrigin(where.origin, origins);
  if (off) return refused(`the frame of ${ref} is on`, off, origins);
  if (where.opens && originOf(where.opens)) {
    off = offOrigin(where.opens, origins);
    if (off) return refused(`${ref} would open a page on`, off, origins);
  }
  return null;
}

/**
 * The answer to an agent.page request (host/PROTOCOL.md, agent.pageResult).
 * @typedef {{ok: boolean, reason?: 'stale'|'gone'|'failed'|'refused', error?: string, origin?: string, why?: string, screen?: unknown}} PageAnswer
 */

/**
 * What the page says about the element of a ref at the moment of acting:
 * the origins of the tab's page (top) and of the element's frame, and the
 * http(s) URL a link or submit button would open.
 * @typedef {{top?: string, origin?: string, opens?: string}} Where
 */

/**
 * A request of the host (agent.page).
 * @typedef {object} PageRequest
 * @property {string} op screen, tap, hover, type, select, press, navigate
 * @property {string} [document]
 * @property {string} [ref]
 * @property {string} [text]
 * @property {boolean} [secret] text is a secret's value: typed only into a field the recorder records as secret
 * @property {string} [option]
 * @property {string[]} [options] several labels, for a list box of several choices
 * @property {string} [key]
 * @property {string} [url]
 * @property {string} [history]
 * @property {number} [timeoutMs]
 * @property {string[]} [origins] the app's origins, the only ones an act may run on
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
    /** The origins the act under way may run on (its request's). */
    /** @type {string[]} */
    this.origins = [];
    /** The id of the attached tab's main frame, '' when not known. */
    this.mainFrame = '';
    /** The pages off the origins the tab was stopped from loading during the act under way. */
    /** @type {string[]} */
    this.stopped = [];
    chrome.debugger?.onEvent?.addListener((/** @type {{tabId?: number}} */ source, /** @type {string} */ method, /** @type {any} */ params) => {
      if (method === 'Fetch.requestPaused' && source.tabId === this.attached) this.paused(params);
    });
  }

  /**
   * Attaches chrome.debugger to the tab, and from then on, while it is
   * attached, pauses every page load of its main frame: one off the act's
   * origins is stopped (the tab stays on its page), so that no script of
   * the page can take the agent to another site, whatever it taps or
   * presses.
   * @param {number} tabId
   */
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
    const tree = await this.send('Page.getFrameTree').catch(() => null);
    this.mainFrame = String(tree?.frameTree?.frame?.id ?? '');
    await this.send('Fetch.enable', { patterns: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Request' }] });
  }

  /**
   * A page load paused in the attached tab: one of its main frame that is
   * off the act's origins is stopped (as if cancelled: the tab keeps its
   * page) and remembered for the act's answer; everything else goes on.
   * @param {{requestId: string, frameId?: string, resourceType?: string, request?: {url?: string}}} p
   */
  paused(p) {
    const url = String(p.request?.url ?? '');
    const main = p.resourceType === 'Document' && (!this.mainFrame || p.frameId === this.mainFrame);
    if (main && offOrigin(url, this.origins)) {
      this.stopped.push(url);
      this.send('Fetch.failRequest', { requestId: p.requestId, errorReason: 'Aborted' }).catch(() => {});
      return;
    }
    this.send('Fetch.continueRequest', { requestId: p.requestId }).catch(() => {});
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
    const origins = allowedOrigins(req.origins);
    if (req.op !== 'screen' && !origins.length) {
      return { ok: false, reason: 'refused', error: `the host named no origin the agent may ${req.op} on: update the host (go build -o bin/host ./host)` };
    }
    if (req.op === 'screen') return this.screen(tabId).catch((e) => ({ ok: false, reason: 'failed', error: message(e) }));
    this.origins = origins;
    this.stopped = [];
    /** @type {PageAnswer} */
    let answer;
    try {
      switch (req.op) {
        case 'tap': answer = await this.tap(tabId, req); break;
        case 'hover': answer = await this.hover(tabId, req); break;
        case 'type': answer = await this.type(tabId, req); break;
        case 'select': answer = await this.choose(tabId, req); break;
        case 'press': answer = await this.pressFocused(tabId, String(req.key ?? ''), origins); break;
        case 'navigate': answer = await this.navigate(tabId, req); break;
        default: return { ok: false, reason: 'failed', error: `this extension cannot ${req.op}: update it` };
      }
    } catch (e) {
      answer = { ok: false, reason: 'failed', error: message(e) };
    }
    // The act made the page go off the app (a script, a redirect): the
    // load was stopped, and the act is refused for it.
    const [away] = this.stopped;
    if (away && answer.reason !== 'refused') {
      return refused(`the ${req.op} made the page load ${away}, which is on`, offOrigin(away, origins), origins, 'the load was stopped and the tab kept its page');
    }
    return answer;
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
          func: quietScreen,
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
   * document, or gone, is stale. The answer refuses an element whose page
   * or frame is off the app's origins.
   * @param {number} tabId
   * @param {PageRequest} req
   * @returns {Promise<{point?: {x: number, y: number}, where?: Where, answer?: PageAnswer}>}
   */
  async target(tabId, req) {
    const deadline = Date.now() + (req.timeoutMs ?? 10_000);
    const origins = allowedOrigins(req.origins);
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
            const el = /** @type {Element} */ (found.element);
            // The origins of the page and of the element's frame (an
            // about:blank or srcdoc frame has its creator's; a sandboxed
            // one "null"), and where a link or submit button would go.
            const where = { top: self.origin, origin: el.ownerDocument.defaultView?.origin ?? 'null', opens: '' };
            const link = el.closest('a[href], area[href]');
            const submit = /** @type {HTMLButtonElement | HTMLInputElement | null} */ (el.closest('button, input[type=submit], input[type=image]'));
            if (link) where.opens = /** @type {HTMLAnchorElement} */ (link).href;
            else if (submit?.form && (submit.type === 'submit' || submit.type === 'image')) {
              where.opens = submit.hasAttribute('formaction') ? submit.formAction : submit.form.action;
            }
            const p = pm.scrollIntoView(ref);
            if (!('x' in p)) return { stale: p.message };
            return { point: p, where };
          },
        });
      } catch (e) {
        return { answer: { ok: false, reason: 'stale', error: `the page changed: ${message(e)}` } };
      }
      if (result?.stale) return { answer: { ok: false, reason: 'stale', error: String(result.stale) } };
      const off = offElement(req.ref, result?.where, origins);
      if (off) return { answer: off };
      const p = result?.point;
      if (p && p.inViewport && !p.covered && !p.animating && p.box.width > 0 && p.box.height > 0) return { point: p, where: result.where };
      why = !p ? 'it has no box' : !p.inViewport ? 'it is outside the viewport' : p.covered ? `another element (${p.hit}) covers it`
        : p.animating ? 'it is still moving' : 'it has no size';
      if (Date.now() > deadline) {
        return { answer: { ok: false, reason: 'failed', error: `${req.ref} cannot be clicked: ${why} (waited ${(req.timeoutMs ?? 10_000) / 1000} s)` } };
      }
      await sleep(RETRY_MS);
    }
  }

  /**
   * The refusal when the tab's page is off the app's origins right now (the
   * page it shows, or the one it is loading), null when it is on them.
   * @param {number} tabId
   * @param {string[]} origins
   * @returns {Promise<PageAnswer | null>}
   */
  async tabOffApp(tabId, origins) {
    /** @type {{url?: string, pendingUrl?: string}} */
    let tab;
    try {
      tab = await this.chrome.tabs.get(tabId);
    } catch {
      return { ok: false, reason: 'gone', error: 'the recorded tab was closed' };
    }
    let off = offOrigin(tab.url, origins);
    if (off) return refused('the page is on', off, origins);
    off = tab.pendingUrl ? offOrigin(tab.pendingUrl, origins) : '';
    if (off) return refused('the page the tab is loading is on', off, origins);
    return null;
  }

  /**
   * A trusted left click at a point of the viewport, with modifiers held
   * (CDP's bits: 2 is Control).
   * @param {number} tabId
   * @param {{x: number, y: number}} p
   * @param {number} [modifiers]
   */
  async click(tabId, p, modifiers = 0) {
    await this.attach(tabId);
    const at = { x: p.x, y: p.y, ...(modifiers ? { modifiers } : {}) };
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
    // A move within the document (a new fragment, a pushState) starts
    // and ends at once: no page loads.
    /** @param {{tabId: number, frameId: number}} d */
    const onMoved = (d) => { if (d.tabId === tabId && d.frameId === 0) { started(true); loaded(); } };
    const moves = [nav.onReferenceFragmentUpdated, nav.onHistoryStateUpdated].filter(Boolean);
    nav.onBeforeNavigate.addListener(onStart);
    nav.onDOMContentLoaded.addListener(onLoaded);
    nav.onErrorOccurred.addListener(onLoaded);
    for (const m of moves) m.addListener(onMoved);
    const stop = () => {
      nav.onBeforeNavigate.removeListener(onStart);
      nav.onDOMContentLoaded.removeListener(onLoaded);
      nav.onErrorOccurred.removeListener(onLoaded);
      for (const m of moves) m.removeListener(onMoved);
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
    // The page may have gone elsewhere since the element was found.
    const off = await this.tabOffApp(tabId, allowedOrigins(req.origins));
    if (off) return off;
    const nav = this.watch(tabId);
    await this.click(tabId, t.point);
    await nav.settled();
    return { ok: true };
  }

  /**
   * Rests the pointer on the element of the ref with a trusted mouse move,
   * as a person's pointer does: what the page shows on :hover or
   * mouseenter (a menu) shows. In a recorded tab the recorder records the
   * hover first, on the page as it is before the move, as the headless
   * door does; the host keeps it with the click or check on what it
   * showed, or as a step of its own when it is the last thing done
   * (docs/trail-format.md, hover). The entry the move makes is then no
   * pointer's entry for the next click to send again.
   * @param {number} tabId
   * @param {PageRequest} req
   * @returns {Promise<PageAnswer>}
   */
  async hover(tabId, req) {
    const t = await this.target(tabId, req);
    if (!t.point) return /** @type {PageAnswer} */ (t.answer);
    const off = await this.tabOffApp(tabId, allowedOrigins(req.origins));
    if (off) return off;
    const recorded = await this.recorder(tabId, 'recordHover', [String(req.ref ?? ''), String(req.document ?? '')]);
    if (recorded && recorded.ok === false) return { ok: false, reason: 'stale', error: String(recorded.error ?? 'the element is gone') };
    await this.attach(tabId);
    await this.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: t.point.x, y: t.point.y });
    await this.recorder(tabId, 'hovered', []);
    return { ok: true };
  }

  /**
   * Calls a method of the recorder in the tab's top frame (content/api.js);
   * its answer, or null when the page has no recorder (a tab not recorded).
   * @param {number} tabId
   * @param {'recordHover' | 'hovered'} method
   * @param {string[]} args
   * @returns {Promise<any>}
   */
  async recorder(tabId, method, args) {
    const [{ result }] = await this.chrome.scripting.executeScript({
      target: { tabId, frameIds: [0] },
      args: [method, args],
      func: (/** @type {string} */ m, /** @type {string[]} */ a) => {
        const rec = /** @type {any} */ (globalThis).__trailpinRecorder;
        return rec && typeof rec[m] === 'function' ? rec[m](...a) ?? { ok: true } : null;
      },
    });
    return result ?? null;
  }

  /**
   * Clicks the field, selects what it holds and types text over it, as
   * input does (Input.insertText); an empty text deletes what it held. The
   * text goes into the element of the ref or nowhere: right before it is
   * inserted, that element must have the focus (a page that moves the focus
   * elsewhere when the field gets it is refused), and its frame and the
   * tab's page must be on the app's origins.
   * @param {number} tabId
   * @param {PageRequest} req
   * @returns {Promise<PageAnswer>}
   */
  async type(tabId, req) {
    const origins = allowedOrigins(req.origins);
    const t = await this.target(tabId, req);
    if (!t.point) return /** @type {PageAnswer} */ (t.answer);
    // A page that moves the focus away from the field when it gets it is
    // refused before any input reaches it.
    const first = await this.focusField(tabId, req, 'focused');
    if (!first.ok) return first;
    let off = await this.tabOffApp(tabId, origins);
    if (off) return off;
    await this.click(tabId, t.point);
    // The moment of typing: what the field holds is selected, and the
    // focus, the field's frame and the page are checked, with nothing sent
    // to the page in between but the text.
    const now = await this.focusField(tabId, req, 'typing');
    if (!now.ok) return now;
    off = await this.tabOffApp(tabId, origins);
    if (off) return off;
    const text = String(req.text ?? '');
    if (text) await this.send('Input.insertText', { text });
    else await this.key(tabId, 'Delete');
    return { ok: true };
  }

  /**
   * Focuses the field of a ref and selects what it holds; the answer is ok
   * when the focused element, through shadow roots and same-origin frames,
   * is then that field (or inside it, for an editable region), on the app's
   * origins. moment says when, for the refusal: when the field was
   * focused, or right before the text is typed.
   * @param {number} tabId
   * @param {PageRequest} req
   * @param {'focused' | 'typing'} moment
   * @returns {Promise<PageAnswer>}
   */
  async focusField(tabId, req, moment) {
    /** @type {any} */
    let result;
    try {
      [{ result }] = await this.chrome.scripting.executeScript({
        target: { tabId, frameIds: [0] },
        args: [String(req.ref ?? ''), String(req.document ?? ''), moment, req.secret === true],
        func: (/** @type {string} */ ref, /** @type {string} */ doc, /** @type {string} */ _moment, /** @type {boolean} */ secret) => {
          const pm = /** @type {any} */ (globalThis).__trailpinPageModel;
          if (!pm || pm.documentToken() !== doc) return { stale: 'the page has loaded another document since the screen was captured' };
          const found = pm.elementForRef(ref);
          if (!('element' in found)) return { stale: found.message };
          const el = /** @type {HTMLElement} */ (found.element);
          // A secret's value goes only where the recorder records typing
          // by the secret's name and keeps the value out of every capture.
          if (secret && !(/** @type {any} */ (globalThis).__trailpinRecorder?.isSecret?.(el))) {
            return { notSecret: `${el.localName} is not a password field nor one the person marked sensitive, so the secret was not typed` };
          }
          const own = el.ownerDocument;
          /** The focused element, through shadow roots and same-origin frames. */
          const deepActive = () => {
            /** @type {Element | null} */
            let a = document.activeElement;
            for (;;) {
              if (a?.shadowRoot?.activeElement) {
                a = a.shadowRoot.activeElement;
                continue;
              }
              if (a && (a.localName === 'iframe' || a.localName === 'frame')) {
                /** @type {Document | null} */
                let inner = null;
                try {
                  inner = /** @type {HTMLIFrameElement} */ (a).contentDocument;
                } catch {
                  inner = null;
                }
                // A frame of another origin keeps its focus to itself.
                if (!inner) return { el: a, crossOrigin: true };
                if (inner.activeElement && inner.activeElement !== inner.body) {
                  a = inner.activeElement;
                  continue;
                }
              }
              return { el: a, crossOrigin: false };
            }
          };
          const text = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement;
          if (!text && !el.isContentEditable) return { notText: `${el.localName} is not a text field` };
          const a = deepActive().el;
          if (a !== el && !el.contains(a)) el.focus();
          if (text) {
            try {
              el.select();
            } catch {
              // An input type without a selection (email in some browsers).
              el.setSelectionRange?.(0, el.value.length);
            }
          } else {
            const range = own.createRange();
            range.selectNodeContents(el);
            const sel = own.getSelection();
            sel?.removeAllRanges();
            sel?.addRange(range);
          }
          const active = deepActive();
          /** @param {Element | null} e */
          const name = (e) => {
            if (!e) return 'nothing';
            const label = e.getAttribute('aria-label') || (/** @type {any} */ (e).labels?.[0]?.textContent ?? '').trim() || e.getAttribute('name') || e.id;
            return `${e.localName}${label ? ` "${String(label).slice(0, 60)}"` : ''}${active.crossOrigin ? ' (a frame of another origin)' : ''}`;
          };
          return {
            focused: active.el === el || (!!active.el && el.contains(active.el)),
            active: name(active.el),
            where: { top: self.origin, origin: own.defaultView?.origin ?? 'null' },
          };
        },
      });
    } catch (e) {
      return { ok: false, reason: 'stale', error: `the page changed: ${message(e)}` };
    }
    if (result?.stale) return { ok: false, reason: 'stale', error: String(result.stale) };
    if (result?.notText) return { ok: false, reason: 'failed', error: String(result.notText) };
    if (result?.notSecret) return { ok: false, reason: 'failed', error: String(result.notSecret) };
    const off = offElement(req.ref, result?.where, allowedOrigins(req.origins));
    if (off) return off;
    if (result?.focused !== true) {
      return { ok: false, reason: 'failed', error: `the focus is on ${result?.active ?? 'another element'}, not on ${req.ref}: the page moved it ${moment === 'focused' ? 'when the field was focused' : 'before the text was typed'}, so nothing was typed` };
    }
    return { ok: true };
  }

  /**
   * Chooses options of a list by their labels, as a person can: in a
   * drop-down (<select>, one option) the field focused and arrow keys until
   * the option is chosen; in a list box of several choices (<select
   * multiple>, or an ARIA listbox) a click on the first option and a
   * Control-click on each other one, so that it ends with exactly those
   * selected. A label the list does not have, or several labels for a list
   * that holds one choice, is refused before any input reaches the page.
   * @param {number} tabId
   * @param {PageRequest} req
   * @returns {Promise<PageAnswer>}
   */
  async choose(tabId, req) {
    const origins = allowedOrigins(req.origins);
    const labels = Array.isArray(req.options) ? req.options.map(String) : [];
    const want = labels.length ? labels : [String(req.option ?? '')];
    const t = await this.target(tabId, req);
    if (!t.point) return /** @type {PageAnswer} */ (t.answer);
    const probe = async () => {
      const [{ result }] = await this.chrome.scripting.executeScript({
        target: { tabId, frameIds: [0] },
        args: [String(req.ref ?? ''), String(req.document ?? ''), String(req.option ?? ''), labels],
        func: (/** @type {string} */ ref, /** @type {string} */ doc, /** @type {string} */ option, /** @type {string[]} */ labels) => {
          const pm = /** @type {any} */ (globalThis).__trailpinPageModel;
          if (!pm || pm.documentToken() !== doc) return { stale: 'the page has loaded another document since the screen was captured' };
          const found = pm.elementForRef(ref);
          if (!('element' in found)) return { stale: found.message };
          const el = found.element;
          const native = el instanceof HTMLSelectElement;
          if (!native && el.getAttribute('role') !== 'listbox') return { notSelect: true };
          const own = el.ownerDocument;
          const where = { top: self.origin, origin: own.defaultView?.origin ?? 'null' };
          const norm = (/** @type {string} */ s) => s.replace(/\s+/g, ' ').trim();
          const several = native ? el.multiple : el.getAttribute('aria-multiselectable') === 'true';
          /** @type {string[]} */
          const names = native ? [...el.options].map((o) => norm(o.label || o.text))
            : [...el.querySelectorAll('[role=option]')].filter((o) => o.closest('[role=listbox]') === el)
              .map((o) => norm(o.getAttribute('aria-label') || o.textContent || ''));
          const want = labels.length ? labels : [option];
          const absent = want.filter((w) => !names.includes(norm(w)));
          if (absent.length) return { where, missing: names, absent };
          if (!several && want.length > 1) return { where, single: true };
          // A list box is chosen in by clicks on its options.
          if (several || !native) return { where, list: true };
          if (own.activeElement !== el) el.focus();
          if (own.activeElement !== el) return { where, moved: own.activeElement?.localName ?? 'nothing' };
          return { where, delta: names.indexOf(norm(option || want[0])) - el.selectedIndex };
        },
      });
      return result;
    };
    const quoted = (/** @type {string[]} */ list) => list.map((s) => JSON.stringify(s)).join(', ');
    for (let tries = 0; tries < 100; tries++) {
      const r = await probe();
      if (r?.stale) return { ok: false, reason: 'stale', error: String(r.stale) };
      if (r?.notSelect) return { ok: false, reason: 'failed', error: `${req.ref} is not a drop-down or a list box (<select>, or role listbox): nothing was chosen` };
      const off = offElement(req.ref, r?.where, origins) ?? await this.tabOffApp(tabId, origins);
      if (off) return off;
      if (r?.missing) {
        const absent = r.absent?.length ? r.absent : want;
        return { ok: false, reason: 'failed', error: `${req.ref} has no option ${quoted(absent)} (it has ${quoted(r.missing)}): nothing was chosen` };
      }
      if (r?.single) return { ok: false, reason: 'failed', error: `${req.ref} holds one choice, and ${want.length} options were given (${quoted(want)}): give one; nothing was chosen` };
      if (r?.list) return this.clickOptions(tabId, req, want, origins);
      if (r?.moved) return { ok: false, reason: 'failed', error: `the focus is on ${r.moved}, not on ${req.ref}: the page moved it, so no key was pressed` };
      if (r?.delta === 0) return { ok: true };
      await this.key(tabId, r.delta > 0 ? 'ArrowDown' : 'ArrowUp');
    }
    return { ok: false, reason: 'failed', error: `the option ${JSON.stringify(want[0])} could not be reached with the arrow keys` };
  }

  /**
   * Chooses exactly the options labelled want in the list box of a ref, as
   * a person does: a click on the first, a Control-click on each other one
   * (each scrolled into view in the list, uncovered, on the app's origins);
   * then reads the selection back.
   * @param {number} tabId
   * @param {PageRequest} req
   * @param {string[]} want
   * @param {string[]} origins
   * @returns {Promise<PageAnswer>}
   */
  async clickOptions(tabId, req, want, origins) {
    const ref = String(req.ref ?? '');
    const doc = String(req.document ?? '');
    for (const [i, label] of want.entries()) {
      const deadline = Date.now() + (req.timeoutMs ?? 10_000);
      for (;;) {
        const [{ result: r }] = await this.chrome.scripting.executeScript({
          target: { tabId, frameIds: [0] },
          args: [ref, doc, label],
          func: (/** @type {string} */ ref, /** @type {string} */ doc, /** @type {string} */ label) => {
            const pm = /** @type {any} */ (globalThis).__trailpinPageModel;
            if (!pm || pm.documentToken() !== doc) return { stale: 'the page has loaded another document since the screen was captured' };
            const found = pm.elementForRef(ref);
            if (!('element' in found)) return { stale: found.message };
            const el = found.element;
            const norm = (/** @type {string} */ s) => s.replace(/\s+/g, ' ').trim();
            const options = el instanceof HTMLSelectElement ? [...el.options].map((o) => ({ o, name: norm(o.label || o.text) }))
              : [...el.querySelectorAll('[role=option]')].filter((o) => o.closest('[role=listbox]') === el)
                .map((o) => ({ o, name: norm(o.getAttribute('aria-label') || o.textContent || '') }));
            const option = options.find((x) => x.name === norm(label))?.o;
            if (!option) return { gone: true };
            option.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
            const where = { top: self.origin, origin: option.ownerDocument.defaultView?.origin ?? 'null' };
            return { where, point: pm.point(pm.refForElement(option)) };
          },
        });
        if (r?.stale) return { ok: false, reason: 'stale', error: String(r.stale) };
        if (r?.gone) return { ok: false, reason: 'failed', error: `the option ${JSON.stringify(label)} of ${ref} is gone from the page` };
        const off = offElement(ref, r?.where, origins) ?? await this.tabOffApp(tabId, origins);
        if (off) return off;
        const p = r?.point;
        if (p && p.inViewport && !p.covered && p.box?.width > 0 && p.box?.height > 0) {
          // Control held: the option is added to the choice, not put in its place.
          await this.click(tabId, p, i > 0 ? 2 : 0);
          break;
        }
        if (Date.now() > deadline) {
          const why = !p ? 'it has no box' : !p.inViewport ? 'it is outside the viewport' : p.covered ? `another element (${p.hit}) covers it` : 'it has no size';
          return { ok: false, reason: 'failed', error: `the option ${JSON.stringify(label)} of ${ref} cannot be clicked: ${why}` };
        }
        await sleep(RETRY_MS);
      }
    }
    const [{ result: shown }] = await this.chrome.scripting.executeScript({
      target: { tabId, frameIds: [0] },
      args: [ref, doc],
      func: (/** @type {string} */ ref, /** @type {string} */ doc) => {
        const pm = /** @type {any} */ (globalThis).__trailpinPageModel;
        if (!pm || pm.documentToken() !== doc) return { stale: 'the page has loaded another document while the options were chosen' };
        const found = pm.elementForRef(ref);
        if (!('element' in found)) return { stale: found.message };
        const el = found.element;
        const norm = (/** @type {string} */ s) => s.replace(/\s+/g, ' ').trim();
        if (el instanceof HTMLSelectElement) return { selected: [...el.selectedOptions].map((o) => norm(o.label || o.text)) };
        return {
          selected: [...el.querySelectorAll('[role=option][aria-selected=true]')].filter((o) => o.closest('[role=listbox]') === el)
            .map((o) => norm(o.getAttribute('aria-label') || o.textContent || '')),
        };
      },
    });
    if (shown?.stale) return { ok: false, reason: 'stale', error: String(shown.stale) };
    const norm = (/** @type {string} */ s) => s.replace(/\s+/g, ' ').trim();
    const got = /** @type {string[]} */ (shown?.selected ?? []);
    const wanted = want.map(norm);
    if (got.length !== wanted.length || !wanted.every((w) => got.includes(w))) {
      const list = (/** @type {string[]} */ l) => (l.length ? l.map((s) => JSON.stringify(s)).join(', ') : 'nothing');
      return { ok: false, reason: 'failed', error: `${ref} ended with ${list(got)} selected, not ${list(wanted)}: the page changed the choice` };
    }
    return { ok: true };
  }

  /**
   * The agent's press: a trusted key press on the focused element, once the
   * tab's page and the focused element's frame are on the app's origins,
   * and, for Enter or Space, the page a focused link or a form's submission
   * would open.
   * @param {number} tabId
   * @param {string} key
   * @param {string[]} origins
   * @returns {Promise<PageAnswer>}
   */
  async pressFocused(tabId, key, origins) {
    if (!keyInfo(key)) return this.key(tabId, key);
    /** @type {any} */
    let result;
    try {
      [{ result }] = await this.chrome.scripting.executeScript({
        target: { tabId, frameIds: [0] },
        args: [key],
        func: (/** @type {string} */ key) => {
          /** @type {Element | null} */
          let a = document.activeElement;
          let origin = self.origin;
          for (;;) {
            if (a?.shadowRoot?.activeElement) {
              a = a.shadowRoot.activeElement;
              continue;
            }
            if (a && (a.localName === 'iframe' || a.localName === 'frame')) {
              /** @type {Document | null} */
              let inner = null;
              try {
                inner = /** @type {HTMLIFrameElement} */ (a).contentDocument;
              } catch {
                inner = null;
              }
              if (!inner) {
                // Its frame is of another origin: the key would go there.
                try {
                  origin = new URL(/** @type {HTMLIFrameElement} */ (a).src).origin;
                } catch {
                  origin = 'null';
                }
                break;
              }
              origin = inner.defaultView?.origin ?? 'null';
              a = inner.activeElement;
              continue;
            }
            break;
          }
          let opens = '';
          if (a && (key === 'Enter' || key === ' ' || key === 'Space')) {
            const link = a.closest('a[href], area[href]');
            const form = /** @type {HTMLInputElement} */ (a).form;
            if (link) opens = /** @type {HTMLAnchorElement} */ (link).href;
            else if (form && key === 'Enter') opens = form.action;
          }
          return { where: { top: self.origin, origin, opens } };
        },
      });
    } catch (e) {
      return { ok: false, reason: 'failed', error: `the page changed: ${message(e)}` };
    }
    const off = offElement('the focused element', result?.where, origins) ?? await this.tabOffApp(tabId, origins);
    if (off) return off;
    return this.key(tabId, key);
  }

  /**
   * A trusted key press on the focused element.
   * @param {number} tabId
   * @param {string} key
   * @returns {Promise<PageAnswer>}
   */
  async key(tabId, key) {
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
    const origins = allowedOrigins(req.origins);
    if (req.history === 'back' || req.history === 'forward') {
      await this.attach(tabId);
      const { currentIndex, entries } = await this.send('Page.getNavigationHistory');
      const to = entries[currentIndex + (req.history === 'back' ? -1 : 1)];
      if (!to) return { ok: false, reason: 'failed', error: `there is no page to go ${req.history} to` };
      const off = offOrigin(to.url, origins);
      if (off) return refused(`the page ${req.history} is on`, off, origins);
      const nav = this.watch(tabId);
      await this.send('Page.navigateToHistoryEntry', { entryId: to.id });
      await nav.settled();
      return { ok: true };
    }
    if (req.history === 'reload') {
      const off = await this.tabOffApp(tabId, origins);
      if (off) return off;
      await this.attach(tabId);
      const nav = this.watch(tabId);
      await this.send('Page.reload', {});
      await nav.settled();
      return { ok: true };
    }
    const url = String(req.url ?? '');
    const off = offOrigin(url, origins);
    if (off) return refused(`${url} is on`, off, origins);
    await this.attach(tabId);
    const nav = this.watch(tabId);
    await this.send('Page.navigate', { url, transitionType: 'typed' });
    await nav.settled();
    return { ok: true };
  }
}
