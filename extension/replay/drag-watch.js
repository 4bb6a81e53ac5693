// Watches for the HTML5 drag a page starts while replay drags this element
// (browser/input_drag.go). Called with 'watch' before the mouse is pressed,
// it listens in this element's window for the next dragstart; called with
// 'started' after each move, it answers {started} whether one came that the
// page did not prevent (a prevented dragstart starts no drag: the page
// follows the pointer itself).
(/** @this {Element} */ function dragWatch(/** @type {string} */ what = '') {
  const w = /** @type {Window & {__trailpinDragWatch?: {event: Event | null}}} */ (this.ownerDocument.defaultView);
  if (!w)
    return {started: false};
  if (what === 'watch') {
    /** @type {{event: Event | null}} */
    const watch = {event: null};
    w.__trailpinDragWatch = watch;
    w.addEventListener('dragstart', (e) => { watch.event = e; }, {capture: true, once: true});
    return {started: false};
  }
  const watch = w.__trailpinDragWatch;
  return {started: !!watch && !!watch.event && !watch.event.defaultPrevented};
})
