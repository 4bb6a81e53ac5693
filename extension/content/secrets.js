// @ts-check
// The recorder: secrets. A secret field's value never leaves the page: typing
// into it is reported with the name of the secret to read at replay, and
// what was typed is kept out of every capture.
'use strict';

/**
 * What secrets.js gives the files after it, on the recorder's namespace.
 * @typedef {object} RecorderSecrets
 * @property {(el: Element) => boolean} isSecret
 * @property {() => {elements: Element[], values: string[]}} sensitiveNow
 * @property {(el: Element, done: boolean) => void} followSecret
 * @property {(el: Element) => string} secretName
 */

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, RecorderInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.recorder.internals')];
  if (!internals)
    return; // the recorder is installed already (core.js)
  const rec = internals;
  const { state, pm } = rec;

  /** Whether typing into el must be recorded as a secret. @param {Element} el */
  function isSecret(el) {
    if (el.localName === 'input' && (/** @type {HTMLInputElement} */ (el)).type === 'password')
      return true;
    const node = pm().describe(el, { sensitive: { elements: state.sensitive } });
    return !!(node && 'secret' in node && node.secret);
  }

  /**
   * A value shorter than this, typed so far into a secret field, is not
   * yet kept out of captures: one or two characters would blank every
   * text that holds them. The value is kept out whole once typed, however
   * short, and from this many characters on while it is being typed (what
   * the leak scanner counts as a leak: storage.MinLeakPrefix).
   */
  const SECRET_PREFIX_MIN = 4;

  /** What the page model must keep out of a capture. */
  function sensitiveNow() {
    const values = [...state.secretValues];
    const live = state.typingSecret;
    if (live && live.value.length >= SECRET_PREFIX_MIN && !values.includes(live.value))
      values.push(live.value);
    return { elements: state.sensitive, values };
  }

  /**
   * Follows the value of a secret field as it is typed, and keeps it once
   * the typing ends.
   * @param {Element} el @param {boolean} done
   */
  function followSecret(el, done) {
    const value = 'value' in el ? String(/** @type {HTMLInputElement} */ (el).value) : '';
    state.typingSecret = done ? null : { el, value };
    if (done && value !== '' && !state.secretValues.includes(value))
      state.secretValues.push(value);
  }

  /**
   * The name of the secret a secret field's value is read from: its label
   * (or name, placeholder, id) in lower-case words joined by dashes.
   * @param {Element} el
   */
  function secretName(el) {
    const node = pm().describe(el, { includeHidden: false });
    const input = /** @type {HTMLInputElement} */ (el);
    const words = [node && 'name' in node ? node.name : undefined, input.name, input.placeholder, input.id, 'secret']
      .find((s) => typeof s === 'string' && /[a-z0-9]/i.test(s)) || 'secret';
    return words.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  }

  /** @type {RecorderSecrets} */
  const provides = { isSecret, sensitiveNow, followSecret, secretName };
  Object.assign(rec, provides);
})();
