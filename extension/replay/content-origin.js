// Where the content box of an iframe (this) starts in its document's
// viewport, as the page model measures it.
(/** @this {Element} */ function contentOrigin() {
  const pm = /** @type {{__trailpinPageModel: TrailpinPageModel}} */ (/** @type {unknown} */ (globalThis)).__trailpinPageModel;
  return pm.contentOrigin(this);
})
