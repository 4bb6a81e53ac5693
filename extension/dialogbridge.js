// @ts-check
/**
 * The extension's end of dialogs.js (docs/recording.md, Dialogs): runs in
 * the extension's world at document_start, like dialogs.js before any
 * script of the page, takes the node dialogs.js tells answers on (inside a
 * closed shadow root, reached with chrome.dom) out of the document, and
 * hands what is told there to the recorder (globalThis.__trailpinDialogs,
 * in this world only; whichever of the two comes first, they meet). A
 * document this did not run in (one loaded before the recording started)
 * has no such channel: the recorder records none of its dialogs, since the
 * page's scripts ran first and could fake them.
 */
(() => {
  'use strict';
  const API_NAME = '__trailpinDialogs';
  /**
   * Answers kept until the recorder listens (a dialog the page opens while
   * it loads, before the recorder is injected), how many and how long: the
   * recorder comes moments after the page, so an older one is from no
   * recording.
   */
  const KEPT = 20;
  const KEPT_MS = 10_000;
  /** Longest message or prompt text passed on; the browser shows no more either. */
  const MAX_TEXT = 64 * 1024;
  const KINDS = ['alert', 'confirm', 'prompt'];

  const g = /** @type {Record<string, any>} */ (/** @type {unknown} */ (globalThis));
  // dialogs.js gives up where there is no element to hang its node on.
  if (!document.documentElement)
    return;
  const there = document.querySelectorAll('trailpin-dialogs');
  for (const h of there)
    h.remove();
  // A window an earlier document of its origin had (an iframe's first,
  // empty document) keeps that document's channel: dialogs.js wrapped the
  // dialogs then, before any script.
  if (g[API_NAME]) {
    const gone = (/** @type {Event} */ e) => {
      document.removeEventListener('trailpin-dialogs-hello', gone, true);
      /** @type {Element} */ (e.target).remove?.();
    };
    document.addEventListener('trailpin-dialogs-hello', gone, true);
    return;
  }

  /** @typedef {{kind: string, message: string, accept: boolean, promptText?: string}} Dialog */
  /** @type {{dialog: Dialog, at: number}[]} */
  const kept = [];
  /** @type {((d: Dialog) => void) | null} */
  let listener = null;

  /** @param {Event} e */
  const told = (e) => {
    let d;
    try {
      d = JSON.parse(String(/** @type {CustomEvent} */ (e).detail));
    } catch {
      return;
    }
    if (!d || !KINDS.includes(d.kind) || typeof d.message !== 'string' || typeof d.accept !== 'boolean')
      return;
    /** @type {Dialog} */
    const dialog = { kind: d.kind, message: d.message.slice(0, MAX_TEXT), accept: d.accept };
    if (typeof d.promptText === 'string' && d.kind === 'prompt')
      dialog.promptText = d.promptText.slice(0, MAX_TEXT);
    if (listener)
      listener(dialog);
    else if (kept.length < KEPT)
      kept.push({ dialog, at: Date.now() });
  };

  /**
   * Takes dialogs.js's element out of the document and listens on the node
   * inside its closed shadow root; only then can the recorder listen.
   * @param {EventTarget | null} target
   */
  const take = (target) => {
    const host = /** @type {HTMLElement} */ (target);
    if (g[API_NAME] || !host || host.localName !== 'trailpin-dialogs')
      return;
    /** @type {ShadowRoot | null | undefined} */
    let root = null;
    try {
      root = chrome.dom?.openOrClosedShadowRoot(host);
    } catch {
      // Not an element dialogs.js made: nothing to listen to.
    }
    host.remove();
    const node = root && host.shadowRoot === null && root.childElementCount === 1 ? root.firstElementChild : null;
    if (!node)
      return;
    node.addEventListener('dialog', told);
    Object.defineProperty(g, API_NAME, {
      value: Object.freeze({
        /**
         * Tells fn each dialog the person answered in this document,
         * starting with those answered just before.
         * @param {(d: Dialog) => void} fn
         */
        listen(fn) {
          listener = fn;
          for (const { dialog, at } of kept.splice(0))
            if (Date.now() - at < KEPT_MS)
              fn(dialog);
        },
      }),
    });
    // A recorder injected as the document committed came before this.
    g.__trailpinRecorder?.listenToDialogs?.();
  };

  // Chrome does not say which of the two document_start scripts of
  // different worlds runs first; both run before any script of the page.
  // dialogs.js first: its element is the one there. This first: it says
  // hello from its element as it puts it there.
  if (there.length) {
    if (there.length === 1)
      take(there[0]);
  } else {
    const hello = (/** @type {Event} */ e) => {
      document.removeEventListener('trailpin-dialogs-hello', hello, true);
      take(e.target);
    };
    document.addEventListener('trailpin-dialogs-hello', hello, true);
  }
})();
