// Reads an ARIA slider's or spin button's value (this: the element with the
// role), after focusing it when focus is set: its arrow keys go to the
// focused element. Answers {now: aria-valuenow or null, focused}.
(/** @this {HTMLElement} */ function ariaValue(/** @type {boolean} */ focus = false) {
  if (focus) this.focus();
  const active = document.activeElement;
  return {now: this.getAttribute('aria-valuenow'), focused: !!active && (active === this || this.contains(active))};
})
