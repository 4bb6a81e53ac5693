// Says whether the element of a ref is still in the page: {} when it is, the
// page model's {error, message, …} when not (a cross-origin frame answers
// which frame holds it). With a document token, a page that has loaded
// another document since the ref was given out makes every ref stale.
// Null when the page model is missing.
(function findRef(/** @type {number} */ version, /** @type {string} */ ref, /** @type {string} */ local,
  token = '') {
  const pm = /** @type {{__trailpinPageModel?: TrailpinPageModel}} */ (/** @type {unknown} */ (globalThis)).__trailpinPageModel;
  if (!pm || pm.version < version)
    return null;
  if (token && pm.documentToken() !== token)
    return JSON.stringify({ error: 'stale', message: 'ref ' + ref + ': the page has loaded another document since' });
  const r = pm.elementForRef(local);
  return JSON.stringify('element' in r && r.element ? {} : r);
})
