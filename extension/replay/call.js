// Calls a method of the page model in replay's world and answers in the form
// replay reads: 'text' the method's string as it is, 'json' its value as JSON
// text, 'element' the element it found (a handle) or else its answer as JSON
// text. Null when the page model is missing or older than replay needs: the
// caller installs it and calls again.
(function callPageModel(/** @type {number} */ version, /** @type {'text' | 'json' | 'element'} */ answer,
  /** @type {string} */ method, /** @type {unknown[]} */ args = []) {
  const pm = /** @type {{__trailpinPageModel?: TrailpinPageModel}} */ (/** @type {unknown} */ (globalThis)).__trailpinPageModel;
  if (!pm || pm.version < version)
    return null;
  // The method is named by replay's Go code, not known here.
  const r = /** @type {Record<string, any>} */ (pm)[method](...args);
  if (answer === 'text')
    return r;
  if (answer === 'element')
    return r.element || JSON.stringify(r);
  return JSON.stringify(r);
})
