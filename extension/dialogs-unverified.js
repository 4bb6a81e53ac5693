// @ts-check
/**
 * Runs in the page's own world of a recorded document that dialogs.js did
 * not start with (one loaded before the recording started): the page's
 * scripts ran first there and may have replaced anything this would use,
 * so what it says is never a step. It only says that the page opened a
 * dialog (a `trailpin-dialog` event on window), for the recording bar to
 * tell the person that dialogs on this page are not recorded and how to
 * record them (docs/recording.md, Dialogs). A page that fakes the event
 * makes the bar say so, nothing more.
 */
(() => {
  'use strict';
  const w = /** @type {any} */ (window);
  // dialogs.js started with this document (or the page says it did: then
  // the bar says nothing, and still nothing is recorded).
  if (w[Symbol.for('trailpin.dialogs')] || w[Symbol.for('trailpin.dialogs.unverified')])
    return;
  Object.defineProperty(w, Symbol.for('trailpin.dialogs.unverified'), { value: true });

  const tell = () => window.dispatchEvent(new CustomEvent('trailpin-dialog'));
  for (const name of /** @type {const} */ (['alert', 'confirm', 'prompt'])) {
    const native = window[name];
    w[name] = { [name](/** @type {any[]} */ ...args) {
      tell();
      return Reflect.apply(native, w, args);
    } }[name];
  }
})();
