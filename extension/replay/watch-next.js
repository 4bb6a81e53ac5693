// Resolves with replay's change counter once it moved past since, or after
// ms milliseconds (see watch.js); -1 at once when there is no watcher.
(function nextChange(/** @type {number} */ since, /** @type {number} */ ms) {
  const w = /** @type {any} */ (globalThis).__trailpinWatch;
  return w ? w.next(since, ms) : -1;
})
