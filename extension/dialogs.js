// @ts-check
/**
 * How the person answered the page's alert, confirm and prompt, told where
 * the page cannot forge it (docs/recording.md, Dialogs).
 *
 * Only the page's own world sees those calls, so this runs there (world
 * MAIN), registered while a recording runs to start with every document
 * (background/pagescripts.js, DIALOG_SCRIPTS): at document_start, before any script of
 * the page. It takes now everything it uses later (the dialogs, Reflect,
 * String, JSON, CustomEvent, dispatchEvent), so a page that replaces them
 * afterwards changes nothing here, and it tells each answer on a node inside
 * a closed shadow root whose element dialogbridge.js, in the extension's
 * world, takes out of the document before the page's scripts run: the page
 * never holds that node, so it cannot dispatch there. A dialog is told only
 * after the browser showed it and the person answered it, with the text the
 * browser showed (converted once, here). The dialog itself is the browser's own,
 * unchanged. No chrome.debugger.
 */
(() => {
  'use strict';
  const w = /** @type {any} */ (window);
  const MARK = Symbol.for('trailpin.dialogs');
  const parent = document.documentElement;
  // dialogbridge.js gives up too.
  if (!parent)
    return;
  const XHTML = 'http://www.w3.org/1999/xhtml';

  /**
   * Puts el where dialogbridge.js takes it out of the document, now or as
   * it runs. Exactly one, always, whatever fails: the bridge, if it ran
   * first, waits for one, and must never be left to take the page's.
   * @param {Element} el
   */
  const hello = (el) => {
    parent.append(el);
    el.dispatchEvent(new Event('trailpin-dialogs-hello', { bubbles: true }));
  };

  /** @type {Element | null} */
  let node = null;
  try {
    // A window a document of its own origin had before (an iframe's first,
    // empty document) has the dialogs wrapped already, and that document's
    // scripts may have replaced what this would take; and where
    // dialogs-unverified.js came first, what this would take is its wrapper.
    if (!w[MARK] && !w[Symbol.for('trailpin.dialogs.unverified')]) {
      Object.defineProperty(w, MARK, { value: true });
      const host = document.createElementNS(XHTML, 'trailpin-dialogs');
      const root = host.attachShadow({ mode: 'closed' });
      const span = document.createElementNS(XHTML, 'span');
      root.append(span);
      hello(host);
      node = span;
    }
  } catch {
    // Not an element that takes a shadow root here: told below.
  }
  if (!node) {
    // An element without a shadow root tells the bridge there is nothing to
    // listen to.
    hello(document.createElementNS(XHTML, 'trailpin-dialogs'));
    return;
  }
  const channel = node;

  const apply = Reflect.apply;
  const Str = String;
  const stringify = JSON.stringify;
  const Custom = CustomEvent;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const { alert, confirm, prompt } = window;

  /**
   * @param {string} kind @param {string} message @param {boolean} accept @param {string} [promptText]
   */
  const tell = (kind, message, accept, promptText) => {
    /** @type {Record<string, unknown>} */
    const d = { __proto__: null, kind, message, accept };
    if (promptText !== undefined)
      d.promptText = promptText;
    apply(dispatch, channel, [new Custom('dialog', /** @type {any} */ ({ __proto__: null, detail: stringify(d) }))]);
  };

  // Each wrapper converts the message once, as the browser would, and
  // shows that text: what is told is what was shown. A symbol the browser
  // refuses with a TypeError, as without the wrapper. Methods, so that
  // each keeps the native one's name (and, with rest parameters, length).
  const wrappers = {
    /** @param {unknown[]} args */
    alert(...args) {
      if (typeof args[0] === 'symbol')
        return apply(alert, w, args);
      const message = args.length ? Str(args[0]) : '';
      apply(alert, w, [message]);
      tell('alert', message, true);
    },
    /** @param {unknown[]} args */
    confirm(...args) {
      if (typeof args[0] === 'symbol')
        return apply(confirm, w, args);
      const message = args[0] === undefined ? '' : Str(args[0]);
      const ok = !!apply(confirm, w, [message]);
      tell('confirm', message, ok);
      return ok;
    },
    /** @param {unknown[]} args */
    prompt(...args) {
      if (typeof args[0] === 'symbol' || typeof args[1] === 'symbol')
        return apply(prompt, w, args);
      const message = args[0] === undefined ? '' : Str(args[0]);
      /** @type {string | null} */
      const answer = apply(prompt, w, [message, args[1] === undefined ? '' : Str(args[1])]);
      tell('prompt', message, answer !== null, answer ?? undefined);
      return answer;
    },
  };
  w.alert = wrappers.alert;
  w.confirm = wrappers.confirm;
  w.prompt = wrappers.prompt;
})();
