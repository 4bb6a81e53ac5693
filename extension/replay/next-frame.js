// Resolves after two animation frames (a transition started from a nested
// requestAnimationFrame has begun by then; see aim.js), or after a short
// time on a hidden page, which paints none (a second on a shown one: on a
// busy machine a frame can take longer than the short time).
(function nextFrame() {
  return new Promise((r) => { requestAnimationFrame(() => requestAnimationFrame(() => r(0))); setTimeout(() => r(0), document.hidden ? 100 : 1000); });
})
