// @ts-check
// The recorder: frames. A same-origin frame's recorder hands what happens in
// it to its top frame's recorder, whose page model sees into the frame and
// gives its elements refs of the top frame's screen; a frame of another
// origin reports on its own, without a screen.
'use strict';

/**
 * What frames.js gives the files after it, on the recorder's namespace.
 * @typedef {object} RecorderFrames
 * @property {() => any} topRecorder
 * @property {boolean} crossOriginFrame
 * @property {(local: (...a: any[]) => void, name: string) => (...a: any[]) => void} route
 */

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, RecorderInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.recorder.internals')];
  if (!internals)
    return; // the recorder is installed already (core.js)
  const rec = internals;
  const { API_NAME, g } = rec;

  /**
   * The same-origin top frame's recorder, which records for the frames
   * below it (its page model sees into them and gives their elements refs
   * of its screen); null in the top frame and in cross-origin frames.
   * @returns {any}
   */
  function topRecorder() {
    if (window === window.top)
      return null;
    try {
      const top = /** @type {any} */ (window.top);
      return top && top[API_NAME] && top !== g ? top[API_NAME] : null;
    } catch {
      return null;
    }
  }

  /**
   * A frame of another origin than its top frame: its recorder reports what
   * happens in it, without a screen (see send).
   */
  const crossOriginFrame = (() => {
    if (window === window.top)
      return false;
    try {
      return typeof window.top?.location.href !== 'string';
    } catch {
      return true;
    }
  })();

  /** @param {(...a: any[]) => void} local @param {string} name */
  function route(local, name) {
    return (/** @type {any[]} */ ...args) => {
      const top = topRecorder();
      if (top)
        top.handle(name, ...args);
      else
        local(...args);
    };
  }

  /** @type {RecorderFrames} */
  const provides = { topRecorder, crossOriginFrame, route };
  Object.assign(rec, provides);
})();
