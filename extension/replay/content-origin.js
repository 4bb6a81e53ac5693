// Where the content box of an iframe (this) starts in its document's
// viewport, as the page model measures it.
(/** @this {Element} */ function contentOrigin() {
  return /** @type {any} */ (globalThis).__trailpinPageModel.contentOrigin(this);
})
