// Replay's change counter (see watch.js), or -1 when this document has no
// watcher yet.
(function changeCount() {
  const w = /** @type {any} */ (globalThis).__trailpinWatch;
  return w ? (w.count ? w.count() : w.n) : -1;
})
