// Scrolls the element of a ref in the top document into view, waits two
// animation frames (or a short time, on a page that paints none) and says
// where the element was before and after them: one round trip for what tells
// a steady target from a moving one. A transition's box changes only at a
// frame, so both reads must have a frame between them: on a busy machine a
// frame can take longer than the short bound, which is for a document that
// is hidden and paints none; a shown one gets a second. Two frames, because a page that eases a
// dialog in commonly starts the transition from a nested
// requestAnimationFrame: one frame after it appears, it has not begun to move.
// Null when the page model is missing.
(async function aim(/** @type {string} */ ref, token = '') {
  const pm = /** @type {{__trailpinPageModel?: TrailpinPageModel}} */ (/** @type {unknown} */ (globalThis)).__trailpinPageModel;
  if (!pm)
    return null;
  if (pm.documentToken() !== token)
    return JSON.stringify({ error: 'stale', message: 'ref ' + ref + ': the page has loaded another document since' });
  const first = pm.scrollIntoView(ref);
  if ('error' in first && first.error)
    return JSON.stringify(first);
  await new Promise((r) => { requestAnimationFrame(() => requestAnimationFrame(() => r(0))); setTimeout(() => r(0), document.hidden ? 100 : 1000); });
  return JSON.stringify({ first, second: pm.point(ref) });
})
