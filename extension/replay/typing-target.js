// Where an action on this element lands now: the origin of its document
// (its frame's, for an element in a frame) and whether it, or an element
// inside it, has the focus typed keys go to: its document's, and, in a
// frame, the page's (a frame keeps its active element when the focus
// moves to another frame; the top document's moves with it).
(/** @this {Element} */ function typingTarget() {
  const doc = this.ownerDocument;
  /** @type {Element | null} */
  let active = doc.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) {
    active = active.shadowRoot.activeElement;
  }
  const inFrame = doc.defaultView !== doc.defaultView?.top;
  const focused = !!active && (active === this || this.contains(active)) && (!inFrame || doc.hasFocus());
  return { origin: doc.location.origin, focused };
})
