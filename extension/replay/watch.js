// Installs replay's change watcher in the world (once per document) and
// answers its counter, which every mutation and user-visible event bumps.
// next(since, ms) resolves with the counter once it moved past since (on the
// next animation frame, so a burst of mutations is one change) or after ms
// milliseconds. Replay adds it to every new document beside the page model.
(function installWatch() {
  /**
   * @typedef {object} Watch
   * @property {number} n
   * @property {(() => void)[]} waiters
   * @property {(since: number, ms: number) => Promise<number>} [next]
   * @property {() => number} [count] the counter, after watching new shadow roots
   */
  const g = /** @type {{__trailpinWatch?: Watch}} */ (/** @type {unknown} */ (globalThis));
  if (g.__trailpinWatch) return g.__trailpinWatch.n;
  /** @type {Watch} */
  const w = {n: 0, waiters: []};
  const wake = () => {
    const ws = w.waiters;
    w.waiters = [];
    for (const f of ws) f();
  };
  let queued = false;
  const bump = () => {
    w.n++;
    if (queued || !w.waiters.length) return;
    queued = true;
    const fire = () => { if (queued) { queued = false; wake(); } };
    requestAnimationFrame(fire);
    setTimeout(fire, 50);
  };
  // Every open shadow root is watched too: a change inside one (a panel
  // opening in a component) is no change of the document. Roots come with
  // added nodes, and a custom element upgraded later attaches its root with
  // no mutation the document sees, so each read of the counter looks for
  // new ones as well (docs/recording.md, "Shadow DOM").
  const what = {subtree: true, childList: true, attributes: true, characterData: true};
  /** @type {WeakSet<ShadowRoot>} */
  const watched = new WeakSet();
  /** @param {MutationRecord[]} records */
  const changed = (records) => {
    for (const r of records) {
      for (const n of Array.from(r.addedNodes)) {
        if (n.nodeType === 1) adopt(/** @type {Element} */ (n));
      }
    }
    bump();
  };
  const observer = new MutationObserver(changed);
  /**
   * Watches the open shadow roots under top (and top's own), at any depth;
   * true when one was new.
   * @param {Element | Document | ShadowRoot} top
   */
  const adopt = (top) => {
    let found = false;
    /** @type {(Element | Document | ShadowRoot)[]} */
    const todo = [top];
    for (let t = todo.pop(); t; t = todo.pop()) {
      const els = Array.from(t.querySelectorAll('*'));
      if (t.nodeType === 1) els.push(/** @type {Element} */ (t));
      for (const e of els) {
        const root = e.shadowRoot;
        if (!root) continue;
        if (!watched.has(root)) {
          watched.add(root);
          observer.observe(root, what);
          found = true;
        }
        todo.push(root);
      }
    }
    return found;
  };
  observer.observe(document, what);
  adopt(document);
  for (const t of ['input', 'change', 'scroll', 'focusin', 'focusout', 'transitionend', 'animationend', 'toggle', 'load', 'resize', 'pageshow'])
    addEventListener(t, bump, true);
  w.count = () => {
    if (adopt(document)) bump();
    return w.n;
  };
  w.next = (since, ms) => new Promise((resolve) => {
    w.count?.();
    if (w.n !== since) { resolve(w.n); return; }
    const timer = setTimeout(() => { w.waiters = w.waiters.filter((f) => f !== done); resolve(w.n); }, ms);
    const done = () => { clearTimeout(timer); resolve(w.n); };
    w.waiters.push(done);
  });
  Object.defineProperty(g, '__trailpinWatch', {value: w});
  return w.n;
})
