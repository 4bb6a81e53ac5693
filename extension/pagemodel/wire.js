// Page model: the wire form. The same screen, packed for a large transfer
// (replay and the recorder read it; docs/screen-schema.md).
'use strict';

/**
 * What wire.js gives the files after it, on the page model's namespace.
 * @typedef {object} PageModelWire
 * @property {(options?: CaptureOptions) => string} captureWire
 * @property {(n: ScreenNode) => unknown[]} wireHead
 * @property {(n: ScreenNode) => unknown} wireNode
 */

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, PageModelInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.pagemodel.internals')];
  if (!internals)
    return; // this version of the page model or a newer one is installed (core.js)
  const pm = internals;
  const { capture } = pm;

  // ---------------------------------------------------------------------------
  // The wire form: the same screen, packed for a large transfer

  /** Boolean node fields packed into one number, bit i for entry i. Append only. */
  const WIRE_FLAGS = /** @type {const} */ (['visible', 'ariaHidden', 'inert', 'secret', 'disabled', 'required', 'readonly', 'invalid', 'crossOrigin',
    'inTree', 'pointerCursor', 'noPointerEvents', 'block', 'editable']);
  /** Node fields the wire form places by position; the rest go into its extras object. */
  const WIRE_PLACED = new Set(['ref', 'role', 'tag', 'box', 'name', 'text', 'children', ...WIRE_FLAGS]);

  /**
   * Packs a node: a visible text run is its string, a hidden one [string], a
   * secret one 1 (visible) or 0; an element is
   * [ref, role, tag, flags, box|0, name|0, text|join|0, extras|0, children|0]
   * with trailing zeros left out (see wireText). replay's decoder reads it
   * back.
   * @param {ScreenNode} n @returns {unknown}
   */
  function wireNode(n) {
    if (n.tag === '#text') {
      if (n.secret)
        return n.visible ? 1 : 0;
      return n.visible ? n.text : [n.text];
    }
    const out = wireHead(n);
    if (n.children)
      out.push(n.children.map(wireNode));
    else
      out.push(0);
    while (out.length > 3 && out[out.length - 1] === 0)
      out.pop();
    return out;
  }

  /**
   * An element's packed entries before its children (all eight).
   * @param {ScreenNode} n @returns {unknown[]}
   */
  function wireHead(n) {
    let flags = 0;
    for (let i = 0; i < WIRE_FLAGS.length; i++) {
      if (n[WIRE_FLAGS[i]])
        flags |= 1 << i;
    }
    /** @type {Record<string, unknown> | 0} */
    let extras = 0;
    for (const key of Object.keys(n)) {
      if (!WIRE_PLACED.has(key)) {
        if (!extras)
          extras = {};
        extras[key] = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (n))[key];
      }
    }
    const b = n.box;
    return [n.ref, n.role, n.tag, flags, b ? [b.x, b.y, b.width, b.height] : 0, n.name || 0, wireText(n), extras];
  }

  /** Separators by which a node's text may be its children's texts joined: codes 1, 2, 3. */
  const WIRE_JOINS = ['\n', ' ', ''];

  /**
   * An element's text on the wire: most of a page's text is containers
   * repeating what their children say, so when the text is the children's
   * non-empty texts joined by a line break, a space or nothing, the wire
   * says 1, 2 or 3 and the reader joins them again.
   * @param {ScreenNode} n @returns {string | number}
   */
  function wireText(n) {
    const text = n.text;
    if (!text)
      return 0;
    if (!n.children)
      return text;
    /** @type {string[]} */
    const parts = [];
    let length = 0;
    for (const c of n.children) {
      if (c.text) {
        parts.push(c.text);
        length += c.text.length;
      }
    }
    if (!parts.length)
      return text;
    // Join only where the lengths agree: a container's text can be long.
    for (let i = 0; i < WIRE_JOINS.length; i++) {
      if (length + (parts.length - 1) * WIRE_JOINS[i].length === text.length && parts.join(WIRE_JOINS[i]) === text)
        return i + 1;
    }
    return text;
  }

  /**
   * capture() packed for transfer, as JSON text: the screen's own fields,
   * with its root in the wire form (about half the size of the plain JSON).
   * Replay reads this; a screen is the same either way.
   * @param {CaptureOptions} [options] @returns {string}
   */
  function captureWire(options) {
    if (options && typeof options === 'object' && options.incremental === true)
      return pm.captureWireIncremental(options);
    if (options && typeof options === 'object' && options.only !== undefined)
      return pm.captureWireDirected(options);
    const screen = capture(options);
    return JSON.stringify({ ...screen, root: wireNode(screen.root) });
  }

  /** @type {PageModelWire} */
  const provides = { captureWire, wireHead, wireNode };
  Object.assign(pm, provides);
})();
