// A press on a drop-down (this: a <select> whose list is the browser's
// pop-up) that opens no list: the trail never works in that list (a choice
// is a select action), and an open one would take the keys and presses that
// follow. With step 'guard', before the press: the next trusted mousedown in
// the document, if it lands on the drop-down, has its default action (the
// list opening, and the focus moving) prevented; the page's own handlers see
// it all the same (an app's menu that closes on a press outside it). Answers
// whether this is a drop-down. With step 'focus', after the press: the
// drop-down takes the focus, as the press would have given it (a field that
// commits on blur does so). Answers whether it has it.
(/** @this {HTMLSelectElement} */ function dropDownPress(/** @type {string} */ step) {
  const select = this;
  if (select.localName !== 'select' || select.multiple || select.size > 1) return false;
  const win = select.ownerDocument.defaultView;
  if (!win) return false;
  if (step === 'focus') {
    select.focus();
    return select.ownerDocument.activeElement === select ||
      (select.getRootNode() instanceof win.ShadowRoot && /** @type {ShadowRoot} */ (select.getRootNode()).activeElement === select);
  }
  /** @param {MouseEvent} e */
  const guard = (e) => {
    if (!e.isTrusted) return;
    win.removeEventListener('mousedown', guard, true);
    const at = e.composedPath()[0];
    if (at instanceof win.Node && (at === select || select.contains(at))) e.preventDefault();
  };
  win.addEventListener('mousedown', guard, true);
  return true;
})
