// Page model: refs. Elements are numbered in document order on the first
// capture of a document (e12; frames prefixed f1e3), the numbering kept on the
// document so that every copy of the page model shares it, and a ref is turned
// back into its element, or into the frame that holds it.
'use strict';

/**
 * What refs.js gives the files after it, on the page model's namespace.
 * @typedef {object} PageModelRefs
 * @property {(frame: string, token: string) => { frame: string; } | RefError} bindFrame
 * @property {() => string} documentToken
 * @property {(ref: string) => RefFound | RefError} elementForRef
 * @property {(frame: string) => RefFound | RefError} frameElement
 * @property {(reg: FrameRegistry, doc: Document) => number} frameNumberOfDoc
 * @property {(reg: FrameRegistry, iframe: Element) => number} frameNumberOfRemote
 * @property {(state: RefState) => FrameRegistry} frameRegistryOf
 * @property {(el: Element) => string} refForElement
 * @property {(state: RefState, el: Element) => string} refName
 * @property {(doc: Document) => RefState} refStateOf
 * @property {(doc: Document, ref: string) => RefFound | RefError} resolveRef
 */

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, PageModelInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.pagemodel.internals')];
  if (!internals)
    return; // this version of the page model or a newer one is installed (core.js)
  const pm = internals;
  const { flatChildren, isElement, isOmitted, withCaches } = pm;

  // ---------------------------------------------------------------------------
  // Ref numbering, kept on each document so every copy of this script shares it.

  const REF_STATE = Symbol.for('trailpin.pagemodel.refs.v1');
  const forgetElement = new FinalizationRegistry((/** @type {{map: Map<number, WeakRef<Element>>, n: number}} */ held) => {
    const ref = held.map.get(held.n);
    if (ref && !ref.deref())
      held.map.delete(held.n);
  });

  /** A random name for a document; crypto.randomUUID needs a secure context. */
  function newToken() {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, b => b.toString(16).padStart(2, '0')).join('');
  }

  /** @param {Document} doc @returns {RefState} */
  function refStateOf(doc) {
    const holder = /** @type {Record<symbol, RefState | undefined>} */ (/** @type {unknown} */ (doc));
    let state = holder[REF_STATE];
    if (!state) {
      state = { next: 1, numberOf: new WeakMap(), elementOf: new Map(), names: [], numbered: false, token: newToken() };
      Object.defineProperty(doc, REF_STATE, { value: state, enumerable: false });
    }
    return state;
  }

  /** @param {RefState} state @param {Element} el @returns {number} */
  function refNumber(state, el) {
    let n = state.numberOf.get(el);
    if (n === undefined) {
      n = state.next++;
      state.numberOf.set(el, n);
      state.elementOf.set(n, new WeakRef(el));
      forgetElement.register(el, { map: state.elementOf, n });
    }
    return n;
  }

  /** The ref of el in its document, without a frame prefix. @param {RefState} state @param {Element} el */
  function refName(state, el) {
    const n = refNumber(state, el);
    let name = state.names[n];
    if (name === undefined)
      name = state.names[n] = 'e' + n;
    return name;
  }

  /** @param {RefState} state @returns {FrameRegistry} */
  function frameRegistryOf(state) {
    if (!state.frames)
      state.frames = { next: 1, numberOfDoc: new WeakMap(), numberOfRemote: new WeakMap(), byNumber: new Map() };
    return state.frames;
  }

  /** @param {FrameRegistry} reg @param {Document} doc */
  function frameNumberOfDoc(reg, doc) {
    let k = reg.numberOfDoc.get(doc);
    if (k === undefined) {
      k = reg.next++;
      reg.numberOfDoc.set(doc, k);
      reg.byNumber.set(k, { doc: new WeakRef(doc) });
    }
    return k;
  }

  /**
   * A cross-origin frame's number follows its iframe element. This document
   * cannot see which document the frame shows, so the caller that captures
   * the frame binds the number to that document's token (bindFrame): when
   * the frame shows another document, it gets a new number, and a ref never
   * names an element of an earlier document.
   * @param {FrameRegistry} reg @param {Element} iframe
   */
  function frameNumberOfRemote(reg, iframe) {
    let entry = reg.numberOfRemote.get(iframe);
    if (!entry)
      entry = newRemoteFrame(reg, iframe, '');
    return entry.k;
  }

  /** @param {FrameRegistry} reg @param {Element} iframe @param {string} token */
  function newRemoteFrame(reg, iframe, token) {
    const entry = { k: reg.next++, iframe: new WeakRef(iframe), token };
    reg.numberOfRemote.set(iframe, entry);
    reg.byNumber.set(entry.k, { remote: entry });
    return entry;
  }

  // ---------------------------------------------------------------------------
  // Refs back to elements

  /**
   * Numbers every element of doc in document order without capturing, so a
   * ref asked for before the first capture gets the number a capture would
   * have given it.
   * @param {Document} doc
   */
  function ensureNumbered(doc) {
    const state = refStateOf(doc);
    if (state.numbered || !doc.documentElement)
      return;
    withCaches({}, () => {
      /** @param {Element} el */
      const walk = (el) => {
        if (isOmitted(el))
          return;
        refNumber(state, el);
        const kids = flatChildren(el);
        if (!kids)
          return;
        for (let i = 0; i < kids.length; i++) {
          const kid = kids[i];
          if (isElement(kid))
            walk(kid);
        }
      };
      walk(/** @type {Element} */ (doc.documentElement));
    });
    state.numbered = true;
  }

  /**
   * The element a ref names in doc, or why there is none.
   * @param {Document} doc @param {string} ref @returns {RefFound | RefError}
   */
  function resolveRef(doc, ref) {
    if (typeof ref !== 'string')
      return { error: 'bad-ref', message: 'a ref is a string like "e12" or "f1e3"' };
    const m = /^(?:f(\d+))?e(\d+)$/.exec(ref);
    const chain = /^f(\d+)(f\d+.*)$/.exec(ref);
    if (!m && !chain)
      return { error: 'bad-ref', message: `"${ref}" is not a ref: refs look like "e12", or "f1e3" inside frame 1` };
    let target = doc;
    const frameNumber = chain ? Number(chain[1]) : m && m[1] ? Number(m[1]) : 0;
    if (frameNumber) {
      const reg = refStateOf(doc).frames;
      const entry = reg ? reg.byNumber.get(frameNumber) : undefined;
      if (!entry)
        return { error: 'unknown', message: `ref ${ref}: no frame f${frameNumber} has been captured in this page` };
      if (entry.remote) {
        const remote = entry.remote;
        const iframe = remote.iframe.deref();
        if (!iframe || !iframe.isConnected)
          return { error: 'stale', message: `ref ${ref}: frame f${frameNumber} is gone from the page` };
        if (reg && reg.numberOfRemote.get(iframe) !== remote)
          return { error: 'stale', message: `ref ${ref}: frame f${frameNumber} has loaded another document since` };
        if (!remote.token)
          return { error: 'unknown', message: `ref ${ref}: the content of frame f${frameNumber} was never captured` };
        return {
          error: 'cross-origin', message: `ref ${ref} is inside cross-origin frame f${frameNumber}; ask the page model of that frame`,
          frame: 'f' + frameNumber, rest: chain ? chain[2] : 'e' + (m ? m[2] : ''), token: remote.token,
        };
      }
      const frameDoc = entry.doc ? entry.doc.deref() : undefined;
      if (!frameDoc || !frameDoc.defaultView || !frameDoc.defaultView.frameElement || !frameDoc.defaultView.frameElement.isConnected)
        return { error: 'stale', message: `ref ${ref}: the document of frame f${frameNumber} is gone` };
      if (chain)
        return resolveRef(frameDoc, chain[2]);
      target = frameDoc;
    }
    const n = Number(m ? m[2] : 0);
    // Numbering is the same on every load of an unchanged page, so a ref
    // asked for before this document's first capture means what it meant.
    ensureNumbered(target);
    const state = refStateOf(target);
    const weak = state.elementOf.get(n);
    if (!weak) {
      if (n >= 1 && n < state.next)
        return { error: 'stale', message: `ref ${ref}: its element is gone from the page` };
      return { error: 'unknown', message: `ref ${ref} was never given out in this page` };
    }
    const el = weak.deref();
    if (!el || !el.isConnected || el.ownerDocument !== target)
      return { error: 'stale', message: `ref ${ref}: its element is gone from the page` };
    return { element: el };
  }

  /**
   * The ref of an element (numbered now if the page was never captured).
   * @param {Element} el @returns {string}
   */
  function refForElement(el) {
    if (!el || el.nodeType !== 1)
      throw new TypeError('page model: refForElement needs an element');
    const doc = el.ownerDocument;
    ensureNumbered(document);
    if (doc === document)
      return 'e' + refNumber(refStateOf(doc), el);
    const reg = frameRegistryOf(refStateOf(document));
    ensureNumbered(doc);
    return 'f' + frameNumberOfDoc(reg, doc) + 'e' + refNumber(refStateOf(doc), el);
  }

  /**
   * The element a ref names: {element} or {error, message}. error is one of
   * "bad-ref", "unknown", "stale" or "cross-origin" (then frame and rest say
   * which frame's page model to ask, and with which ref).
   * @param {string} ref @returns {RefFound | RefError}
   */
  function elementForRef(ref) {
    return resolveRef(document, ref);
  }

  /**
   * The iframe element that holds the frame with this ref prefix ("f3"): the
   * caller captures a cross-origin frame through it.
   * @param {string} frame @returns {RefFound | RefError}
   */
  function frameElement(frame) {
    const m = typeof frame === 'string' ? /^f(\d+)$/.exec(frame) : null;
    if (!m)
      return { error: 'bad-ref', message: `"${frame}" is not a frame prefix like "f3"` };
    const k = Number(m[1]);
    const reg = refStateOf(document).frames;
    const entry = reg ? reg.byNumber.get(k) : undefined;
    if (!reg || !entry)
      return { error: 'unknown', message: `no frame ${frame} has been captured in this page` };
    let el = entry.remote ? entry.remote.iframe.deref() : undefined;
    if (entry.remote) {
      if (!el || !el.isConnected || reg.numberOfRemote.get(el) !== entry.remote)
        return { error: 'stale', message: `frame ${frame} is gone or has loaded another document` };
    } else {
      const doc = entry.doc ? entry.doc.deref() : undefined;
      el = doc && doc.defaultView && doc.defaultView.frameElement ? doc.defaultView.frameElement : undefined;
      if (!el || !el.isConnected)
        return { error: 'stale', message: `frame ${frame} is gone` };
    }
    return { element: el };
  }

  /**
   * Binds cross-origin frame `frame` ("f3") to the token of the document the
   * caller found in it (Screen.document of that frame's capture). The answer
   * is the frame's prefix from now on: the same, or a new one when the frame
   * shows another document than the one bound before; then the caller
   * renames the refs it captured there.
   * @param {string} frame @param {string} token @returns {{frame: string} | RefError}
   */
  function bindFrame(frame, token) {
    const m = typeof frame === 'string' ? /^f(\d+)$/.exec(frame) : null;
    if (!m || typeof token !== 'string' || !token)
      return { error: 'bad-ref', message: 'bindFrame needs a frame prefix like "f3" and a document token' };
    const reg = refStateOf(document).frames;
    const entry = reg ? reg.byNumber.get(Number(m[1])) : undefined;
    const remote = entry && entry.remote;
    const iframe = remote ? remote.iframe.deref() : undefined;
    if (!reg || !remote || !iframe || !iframe.isConnected || reg.numberOfRemote.get(iframe) !== remote)
      return { error: 'stale', message: `frame ${frame} is gone or was renumbered` };
    if (!remote.token || remote.token === token) {
      remote.token = token;
      return { frame };
    }
    return { frame: 'f' + newRemoteFrame(reg, iframe, token).k };
  }

  /** The token of this document (Screen.document). */
  function documentToken() {
    return refStateOf(document).token;
  }

  /** @type {PageModelRefs} */
  const provides = { bindFrame, documentToken, elementForRef, frameElement, frameNumberOfDoc,
    frameNumberOfRemote, frameRegistryOf, refForElement, refName, refStateOf, resolveRef };
  Object.assign(pm, provides);
})();
