// @ts-check
/**
 * The recording bar's Assert change list, without the page: what the
 * host's record.changes reply (host/PROTOCOL.md) offers to tick, and the
 * assertChange interaction the person's ticks make. A classic script
 * injected before recordbar.js (and loaded by the node tests); it defines
 * globalThis.__trailpinChangeList.
 */
(() => {
  'use strict';
  const g = /** @type {Record<string, any>} */ (/** @type {unknown} */ (globalThis));
  if (g.__trailpinChangeList)
    return;

  /**
   * @typedef {{key: string, text: string, matcher?: string, why?: string}} Offer
   * @typedef {{seq?: number, action?: string, navigated?: boolean, changes?: Offer[], only?: boolean, onlyWhy?: string, message?: string}} ChangesReply
   * @typedef {{key: string, text: string, matcher: string, tickable: boolean, why: string}} Row
   * @typedef {{heading: string, message: string, rows: Row[], only: {offered: boolean, why: string, label: string}}} ListModel
   */

  /**
   * What the bar lists for a record.changes reply: a heading naming the
   * action, each change with whether it can be ticked, and whether
   * "nothing else changes" can be. A reply with nothing to tick gives its
   * message and no rows. An action that changed nothing offers "Nothing
   * changes" (the trail's changed: false: the action must keep doing
   * nothing) where the host says so.
   * @param {ChangesReply} reply
   * @returns {ListModel}
   */
  function listModel(reply) {
    const changes = Array.isArray(reply?.changes) ? reply.changes : [];
    /** @type {Row[]} */
    const rows = changes.map((c) => ({
      key: String(c.key),
      text: String(c.text),
      matcher: c.matcher ? String(c.matcher) : '',
      tickable: !!c.matcher,
      why: c.matcher ? '' : String(c.why || 'it cannot be named'),
    }));
    const offered = !!reply?.only && (rows.length > 0 || !!reply?.action);
    let message = reply?.message ? String(reply.message) : '';
    if (!message && rows.length === 0)
      message = offered
        ? 'The last action changed nothing visible on the page. Tick “Nothing changes” to assert that it never does, or Cancel.'
        : 'The last action changed nothing visible on the page: there is nothing to tick.';
    if (!message && !rows.some((r) => r.tickable))
      message = 'No change of the last action can be named by a selector: there is nothing to tick.';
    const heading = reply?.action
      ? `What “${reply.action}” changed${reply.navigated ? ' (the page moved to another address)' : ''}:`
      : '';
    return {
      heading: rows.length ? heading : '',
      message,
      rows,
      only: {
        offered,
        why: reply?.onlyWhy ? String(reply.onlyWhy) : '',
        label: rows.length ? 'Nothing else changes' : 'Nothing changes',
      },
    };
  }

  /**
   * The assertChange interaction for the ticked changes and the elements
   * picked as ones that must not change, or null when there is neither
   * (confirming then records nothing).
   * @param {ListModel} model
   * @param {Iterable<string>} ticked keys of the ticked rows
   * @param {boolean} only "nothing else changes" is ticked
   * @param {Iterable<string>} [unchanged] refs of the elements that must not change
   * @returns {{kind: 'assertChange', changes: string[], only: boolean, unchanged?: string[]} | null}
   */
  function interactionFor(model, ticked, only, unchanged = []) {
    const want = new Set(ticked);
    const changes = model.rows.filter((r) => r.tickable && want.has(r.key)).map((r) => r.key);
    const withOnly = only && model.only.offered;
    const refs = [...new Set(unchanged)].filter((r) => typeof r === 'string' && r !== '');
    if (changes.length === 0 && !withOnly && refs.length === 0)
      return null;
    /** @type {{kind: 'assertChange', changes: string[], only: boolean, unchanged?: string[]}} */
    const i = { kind: 'assertChange', changes, only: withOnly };
    if (refs.length)
      i.unchanged = refs;
    return i;
  }

  /**
   * What the bar says once the assertion is added.
   * @param {{changes: string[], only: boolean, unchanged?: string[]}} i
   */
  function addedText(i) {
    const n = i.changes.length;
    const u = i.unchanged?.length ?? 0;
    if (n === 0 && i.only && u === 0)
      return 'Added: the action changes nothing.';
    const parts = [];
    if (n)
      parts.push(n === 1 ? '1 change must happen' : `${n} changes must happen`);
    if (u)
      parts.push(u === 1 ? '1 element must not change' : `${u} elements must not change`);
    if (i.only)
      parts.push('nothing else changes');
    return `Added: ${parts.join(', and ')}.`;
  }

  g.__trailpinChangeList = Object.freeze({ listModel, interactionFor, addedText });
})();
