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
  /**
   * Common roles and tags, written as their index here instead of a string:
   * each element would otherwise spend its role and tag, with their quotes,
   * on the same few words (and quotes are what the protocol escapes when it
   * moves the text out of the browser). Append only: replay's decoder reads
   * them by position.
   */
  const WIRE_ROLES = ['generic', 'document', 'paragraph', 'link', 'button', 'listitem', 'list', 'heading', 'img',
    'textbox', 'checkbox', 'radio', 'combobox', 'option', 'listbox', 'cell', 'row', 'rowgroup', 'columnheader',
    'rowheader', 'table', 'group', 'region', 'navigation', 'banner', 'main', 'contentinfo', 'complementary', 'form',
    'search', 'article', 'dialog', 'alert', 'status', 'separator', 'spinbutton', 'slider', 'searchbox', 'tab',
    'tablist', 'tabpanel', 'menu', 'menuitem', 'menubar', 'strong', 'emphasis', 'code', 'time', 'figure', 'term',
    'definition', 'none', 'presentation', 'gridcell', 'grid', 'switch', 'progressbar', 'meter', 'insertion', 'deletion',
    'subscript', 'superscript', 'blockquote', 'caption', 'iframe', 'mark', 'math', 'treegrid', 'tree', 'treeitem'];
  /** Common tags, as WIRE_ROLES. Append only. */
  const WIRE_TAGS = ['div', 'span', 'a', 'p', 'li', 'ul', 'ol', 'button', 'input', 'label', 'img', 'svg', 'td', 'tr',
    'th', 'tbody', 'thead', 'table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'header', 'footer', 'nav', 'main',
    'article', 'aside', 'form', 'select', 'option', 'textarea', 'b', 'i', 'strong', 'em', 'small', 'code', 'pre', 'time',
    'br', 'hr', 'html', 'body', 'iframe', 'dialog', 'details', 'summary', 'fieldset', 'legend', 'figure', 'figcaption',
    'blockquote', 'dl', 'dt', 'dd', 'path', 'g', 'use', 'canvas', 'video', 'audio', 'picture', 'source', 'tfoot',
    'caption', 'abbr', 'sup', 'sub', 'mark', 'u', 's', 'cite', 'q', 'kbd', 'optgroup', 'progress', 'meter', 'output'];
  /** @type {Map<string | undefined, number>} */
  const ROLE_CODES = new Map(WIRE_ROLES.map((r, i) => [r, i]));
  /** @type {Map<string | undefined, number>} */
  const TAG_CODES = new Map(WIRE_TAGS.map((t, i) => [t, i]));

  /** Node fields the wire form places by position; the rest go into its extras object. */
  const WIRE_PLACED = new Set(['ref', 'role', 'tag', 'box', 'name', 'text', 'children', ...WIRE_FLAGS]);

  /**
   * Packs a node: a visible text run is its string, a hidden one [string], a
   * secret one 1 (visible) or 0; an element is
   * [ref, role, tag, flags, box|0, name|1|0, text|join|0, extras|0, children|0]
   * with trailing zeros left out (see wireText), a ref "e<N>" written as N, a
   * common role or tag as its index (WIRE_ROLES, WIRE_TAGS), and a name that
   * equals the element's text as 1. replay's decoder reads it back.
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
    const role = ROLE_CODES.get(n.role);
    const tag = TAG_CODES.get(n.tag);
    return [wireRef(n.ref), role === undefined ? n.role : role, tag === undefined ? n.tag : tag, flags,
      b ? [b.x, b.y, b.width, b.height] : 0, !n.name ? 0 : n.name === n.text ? 1 : n.name, wireText(n), extras];
  }

  /**
   * A ref on the wire: "e<N>" (the refs of the captured document itself) as
   * the number N, any other (a frame's prefix) as it is.
   * @param {string | undefined} ref @returns {string | number | undefined}
   */
  function wireRef(ref) {
    if (ref === undefined || ref.charCodeAt(0) !== 101) // e
      return ref;
    const n = Number(ref.slice(1));
    return Number.isSafeInteger(n) && n > 0 && 'e' + n === ref ? n : ref;
  }

  /**
   * Separators by which a node's text may be its children's texts joined:
   * codes 1, 2, 3, and 4, 5, 6 for the texts of its visible children alone.
   */
  const WIRE_JOINS = ['\n', ' ', ''];

  /**
   * An element's text on the wire: most of a page's text is containers
   * repeating what their children say, so when the text is the children's
   * non-empty texts joined by a line break, a space or nothing, the wire
   * says 1, 2 or 3 and the reader joins them again; when it is the texts of
   * the visible children alone (a container with a hidden part), 4, 5 or 6.
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
    /** @type {string[]} */
    const shown = [];
    let length = 0, shownLength = 0;
    for (const c of n.children) {
      if (c.text) {
        parts.push(c.text);
        length += c.text.length;
        if (c.visible) {
          shown.push(c.text);
          shownLength += c.text.length;
        }
      }
    }
    if (!parts.length)
      return text;
    const code = joinCode(parts, length, text);
    if (code)
      return code;
    if (shown.length && shown.length < parts.length) {
      const shownCode = joinCode(shown, shownLength, text);
      if (shownCode)
        return shownCode + WIRE_JOINS.length;
    }
    return text;
  }

  /**
   * The code (1-based) of the separator that joins parts into text, or 0.
   * @param {string[]} parts @param {number} length the parts' total length @param {string} text
   */
  function joinCode(parts, length, text) {
    // Join only where the lengths agree: a container's text can be long.
    for (let i = 0; i < WIRE_JOINS.length; i++) {
      if (length + (parts.length - 1) * WIRE_JOINS[i].length === text.length && parts.join(WIRE_JOINS[i]) === text)
        return i + 1;
    }
    return 0;
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
