// Resolves on the next animation frame, or after a short time on a page that
// paints none.
(function nextFrame() {
  return new Promise((r) => { requestAnimationFrame(() => r(0)); setTimeout(() => r(0), 100); });
})
