// @ts-check
/**
 * Runs in the page's own world of a recorded tab (chrome.scripting with
 * world MAIN), because only there can the page's alert, confirm and prompt
 * be seen: it wraps them so that how the person answered a JavaScript dialog
 * reaches the recorder (recorder.js, in the extension's world) as a
 * `trailpin-dialog` event with JSON text, the one thing that crosses worlds.
 * The dialog itself is the browser's own, unchanged. No chrome.debugger.
 */
(() => {
  'use strict';
  const w = /** @type {any} */ (window);
  const MARK = Symbol.for('trailpin.dialogs');
  if (w[MARK])
    return;
  Object.defineProperty(w, MARK, { value: true });

  /** @param {Record<string, unknown>} d */
  const tell = (d) => window.dispatchEvent(new CustomEvent('trailpin-dialog', { detail: JSON.stringify(d) }));

  const { alert, confirm, prompt } = window;
  /** @param {unknown} m */
  const text = (m) => (m === undefined ? '' : String(m));

  window.alert = function (message) {
    alert.call(this, message);
    tell({ kind: 'alert', message: text(message), accept: true });
  };
  window.confirm = function (message) {
    const ok = confirm.call(this, message);
    tell({ kind: 'confirm', message: text(message), accept: ok });
    return ok;
  };
  window.prompt = function (message, value) {
    const answer = prompt.call(this, message, value);
    tell({ kind: 'prompt', message: text(message), accept: answer !== null, promptText: answer ?? '' });
    return answer;
  };
})();
