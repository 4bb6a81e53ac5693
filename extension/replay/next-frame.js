// Resolves after two animation frames (a transition started from a nested
// requestAnimationFrame has begun by then; see aim.js), or after a short
// time on a page that paints none.
(function nextFrame() {
  return new Promise((r) => { requestAnimationFrame(() => requestAnimationFrame(() => r(0))); setTimeout(() => r(0), 100); });
})
