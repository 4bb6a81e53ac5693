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
  new MutationObserver(bump).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  for (const t of ['input', 'change', 'scroll', 'focusin', 'focusout', 'transitionend', 'animationend', 'toggle', 'load', 'resize', 'pageshow'])
    addEventListener(t, bump, true);
  w.next = (since, ms) => new Promise((resolve) => {
    if (w.n !== since) { resolve(w.n); return; }
    const timer = setTimeout(() => { w.waiters = w.waiters.filter((f) => f !== done); resolve(w.n); }, ms);
    const done = () => { clearTimeout(timer); resolve(w.n); };
    w.waiters.push(done);
  });
  Object.defineProperty(g, '__trailpinWatch', {value: w});
  return w.n;
})
