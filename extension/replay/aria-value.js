// Reads an ARIA slider's or spin button's value (this: the element with the
// role), after focusing it when focus is set: its arrow keys go to the
// focused element. Answers {now: aria-valuenow or null, focused}. The focus
// is read through shadow roots: document.activeElement is the shadow host of
// a control in a shadow root, and the control itself is the deep active
// element (docs/recording.md, "Shadow DOM").
(/** @this {HTMLElement} */ function ariaValue(/** @type {boolean} */ focus = false) {
  if (focus) this.focus();
  /** @type {Element | null} */
  let active = this.ownerDocument.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement)
    active = active.shadowRoot.activeElement;
  let focused = false;
  /** @type {Node | null} */
  let n = active;
  for (; n && !focused; n = n.parentNode && n.parentNode.nodeType === 11 ? /** @type {ShadowRoot} */ (n.parentNode).host : n.parentNode)
    focused = n === this;
  return {now: this.getAttribute('aria-valuenow'), focused};
})
