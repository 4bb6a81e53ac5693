// @ts-check
/**
 * The Trailpin page model: how Trailpin sees a page.
 *
 * One script, used twice: the extension injects it as a content script while
 * recording, and replay evaluates it through the DevTools protocol (Go embeds
 * this file). A selector that matched while recording is judged on the same
 * model in CI, so everything that decides what a node is — its ref, role,
 * accessible name, text, visibility and whether it is secret — lives here.
 *
 * It installs one global, `__trailpinPageModel` (see the API at the end of
 * the file and docs/screen-schema.md). Installing it twice is harmless: the
 * newest version wins and ref numbering is kept on the document, so refs never
 * restart. It never changes the page: no attributes, no styles, no DOM nodes.
 *
 * Plain ES2022, no dependencies; it must run as a classic script in an
 * isolated world.
 */
(() => {
  'use strict';

  const API_NAME = '__trailpinPageModel';
  /** Version of this script; a newer script replaces an older one. */
  const SCRIPT_VERSION = 1;
  /** recorder.ScreenSchema: bump when a field of the screen changes meaning. */
  const SCREEN_SCHEMA = 1;

  const g = /** @type {Record<string, any>} */ (/** @type {unknown} */ (globalThis));
  if (g[API_NAME] && typeof g[API_NAME].version === 'number' && g[API_NAME].version >= SCRIPT_VERSION)
    return;

  // ---------------------------------------------------------------------------
  // Types

  /**
   * @typedef {{x: number, y: number, width: number, height: number}} Box
   *
   * @typedef {object} ScreenNode
   * @property {string} [ref]
   * @property {string} [role]
   * @property {string} [name]
   * @property {string} [description]
   * @property {string} [text]
   * @property {string} [tag]
   * @property {string} [id]
   * @property {string} [testId]
   * @property {string} [label]
   * @property {string} [placeholder]
   * @property {string} [title]
   * @property {string} [url]
   * @property {string} [value]
   * @property {string} [checked]
   * @property {string} [pressed]
   * @property {boolean} [expanded]
   * @property {boolean} [selected]
   * @property {boolean} [disabled]
   * @property {number} [level]
   * @property {boolean} [required]
   * @property {boolean} [readonly]
   * @property {boolean} [invalid]
   * @property {Box} [box]
   * @property {boolean} [visible]
   * @property {boolean} [ariaHidden]
   * @property {boolean} [inert]
   * @property {boolean} [covered]
   * @property {boolean} [secret]
   * @property {string} [frame]
   * @property {boolean} [crossOrigin]
   * @property {ScreenNode[]} [children]
   *
   * @typedef {object} Screen
   * @property {number} schema
   * @property {string} document token of the captured document
   * @property {string} url
   * @property {string} title
   * @property {{width: number, height: number}} viewport
   * @property {string} [focused]
   * @property {ScreenNode} root
   *
   * @typedef {object} CaptureOptions
   * @property {string[]} [testIdAttributes] attributes read as the test id, first present wins
   * @property {{refs?: string[], elements?: Element[], values?: string[]}} [sensitive]
   *   what the session marked sensitive: elements (by ref or directly) whose
   *   whole subtree is secret, and values whose every appearance is secret
   * @property {'interactive'|'none'} [coverage] which nodes get `covered` (default interactive)
   * @property {string[]} [coverRefs] more refs to hit-test at their centre
   * @property {string} [refPrefix] prefix for every ref (a cross-origin frame's `f<K>`)
   * @property {boolean} [incremental] captureWire only: reuse what the last incremental capture
   *   found for the parts of the page that did not change since (the recorder)
   * @property {boolean} [fresh] with incremental: read the whole page again (and keep what it
   *   found for the next incremental capture)
   *
   * @typedef {object} RefState numbering of one document, kept on the document
   * @property {number} next
   * @property {WeakMap<Element, number>} numberOf
   * @property {Map<number, WeakRef<Element>>} elementOf
   * @property {string[]} names ref strings by number, made once
   * @property {boolean} numbered whether a first numbering walk has happened
   * @property {string} token identifies this document among all others
   * @property {FrameRegistry} [frames]
   *
   * @typedef {object} FrameRegistry frames below a captured document, numbered f1, f2…
   * @property {number} next
   * @property {WeakMap<Document, number>} numberOfDoc same-origin frames, by document
   * @property {WeakMap<Element, RemoteFrame>} numberOfRemote cross-origin frames, by iframe element (the current document)
   * @property {Map<number, {doc?: WeakRef<Document>, remote?: RemoteFrame}>} byNumber
   *
   * @typedef {object} RemoteFrame a cross-origin frame's number and the document it names
   * @property {number} k
   * @property {WeakRef<Element>} iframe
   * @property {string} token the frame document's token once a caller bound it; '' before
   *
   * @typedef {object} Walk one document being walked by a capture
   * @property {Document} doc
   * @property {RefState} refs
   * @property {string} prefix prefix of refs in this document ('' or 'f3')
   * @property {string} rootPrefix prefix of the capture's root document
   * @property {FrameRegistry} registry the root document's frame registry
   * @property {number} ox offset of this document's viewport in the top viewport
   * @property {number} oy
   * @property {Element | null} modal the document's topmost modal dialog
   *
   * @typedef {object} Inherited what an element's parent tells it
   * @property {boolean} notRendered display:none (or unslotted, or skipped content) on the way down
   * @property {boolean} clipped a zero-size ancestor clips its overflow
   * @property {boolean} ariaHidden
   * @property {boolean} inert
   * @property {boolean} insideModal
   * @property {boolean} secret a marked-sensitive ancestor
   * @property {boolean} inSelect option of a drop-down select (rendered in a popup)
   * @property {boolean} needLatent an ancestor is not painted and reads the text its content would show
   *
   * @typedef {object} Visit the result of walking one element
   * @property {ScreenNode} node
   * @property {string} raw text this element adds to a visible parent's text
   * @property {string} latent text it adds to a hidden parent's text (as if shown)
   * @property {boolean} shown the element or something in it is visible
   * @property {boolean} ownNone the element itself is display:none
   *
   * @typedef {{element: Element}} RefFound
   * @typedef {{error: string, message: string, frame?: string, rest?: string, token?: string}} RefError
   */

  // ---------------------------------------------------------------------------
  // Constants

  /** Elements that are never part of the rendered page. */
  const NEVER_RENDERED = new Set(['head', 'script', 'style', 'template', 'noscript', 'link', 'meta', 'title', 'base']);
  /** SVG elements that only define things and are never painted themselves. */
  const SVG_NEVER_RENDERED = new Set(['defs', 'title', 'desc', 'metadata', 'clipPath', 'mask', 'linearGradient',
    'radialGradient', 'pattern', 'filter', 'symbol', 'marker', 'style', 'script']);
  /** Elements whose children are not rendered as part of the page. */
  const CHILDREN_NOT_RENDERED = new Set(['textarea', 'video', 'audio', 'canvas', 'object', 'embed', 'iframe', 'frame', 'img', 'input']);
  /** Tags that are never part of the accessibility tree (accname step 2A). */
  const IGNORED_FOR_ARIA = new Set(['script', 'style', 'noscript', 'template']);

  const HTML_NS = 'http://www.w3.org/1999/xhtml';
  const SVG_NS = 'http://www.w3.org/2000/svg';

  /** Roles Trailpin reports, named as Playwright names them (ARIA 1.2). */
  const ARIA_ROLES = new Set(['alert', 'alertdialog', 'application', 'article', 'banner', 'blockquote', 'button',
    'caption', 'cell', 'checkbox', 'code', 'columnheader', 'combobox', 'complementary', 'contentinfo', 'definition',
    'deletion', 'dialog', 'directory', 'document', 'emphasis', 'feed', 'figure', 'form', 'generic', 'grid', 'gridcell',
    'group', 'heading', 'img', 'insertion', 'link', 'list', 'listbox', 'listitem', 'log', 'main', 'mark', 'marquee',
    'math', 'meter', 'menu', 'menubar', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'navigation', 'none', 'note',
    'option', 'paragraph', 'presentation', 'progressbar', 'radio', 'radiogroup', 'region', 'row', 'rowgroup',
    'rowheader', 'scrollbar', 'search', 'searchbox', 'separator', 'slider', 'spinbutton', 'status', 'strong',
    'subscript', 'superscript', 'switch', 'tab', 'table', 'tablist', 'tabpanel', 'term', 'textbox', 'time', 'timer',
    'toolbar', 'tooltip', 'tree', 'treegrid', 'treeitem']);
  // "iframe" is not an ARIA role: Playwright's snapshots name frames so, and so
  // does a screen; an author's role="iframe" means nothing.

  /** Global ARIA attributes, and the roles on which each is prohibited (ARIA 1.2 §6.4). */
  const GLOBAL_ARIA = [
    ['aria-atomic'], ['aria-busy'], ['aria-controls'], ['aria-current'], ['aria-describedby'], ['aria-details'],
    ['aria-dropeffect'], ['aria-flowto'], ['aria-grabbed'], ['aria-hidden'], ['aria-keyshortcuts'],
    ['aria-label', 'caption code deletion emphasis generic insertion paragraph presentation strong subscript superscript'],
    ['aria-labelledby', 'caption code deletion emphasis generic insertion paragraph presentation strong subscript superscript'],
    ['aria-live'], ['aria-owns'], ['aria-relevant'], ['aria-roledescription', 'generic'],
  ].map(([attr, prohibited]) => ({ attr, prohibited: new Set((prohibited || '').split(' ').filter(Boolean)) }));

  /** Roles that cannot be named (ARIA 1.2 "name from: prohibited"). */
  const NAME_PROHIBITED = new Set(['caption', 'code', 'deletion', 'emphasis', 'generic', 'insertion',
    'mark', 'paragraph', 'presentation', 'none', 'strong', 'subscript', 'suggestion', 'superscript', 'time']);
  /** Roles named from their content wherever they are. */
  const NAME_FROM_CONTENT = new Set(['button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link',
    'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'row', 'rowheader', 'switch', 'tab', 'tooltip',
    'treeitem']);
  /** Roles that pass their content on when they sit inside a node named from content. */
  const NAME_FROM_CONTENT_INSIDE = new Set(['', 'generic', 'caption', 'code', 'contentinfo', 'definition', 'deletion',
    'emphasis', 'insertion', 'list', 'listitem', 'mark', 'none', 'paragraph', 'presentation', 'region', 'row',
    'rowgroup', 'section', 'strong', 'subscript', 'superscript', 'table', 'term', 'time']);

  /** Roles that take part in aria-checked, aria-pressed, … (ARIA 1.2 "supported states"). */
  const CHECKED_ROLES = new Set(['checkbox', 'menuitemcheckbox', 'menuitemradio', 'radio', 'switch']);
  const CHECKED_IF_SET_ROLES = new Set(['option', 'treeitem']);
  const SELECTED_ROLES = new Set(['gridcell', 'option', 'row', 'tab', 'rowheader', 'columnheader', 'treeitem']);
  const EXPANDED_ROLES = new Set(['application', 'button', 'checkbox', 'combobox', 'gridcell', 'link', 'listbox',
    'menuitem', 'row', 'rowheader', 'tab', 'treeitem', 'columnheader', 'menuitemcheckbox', 'menuitemradio', 'switch']);
  const LEVEL_ROLES = new Set(['heading', 'listitem', 'row', 'treeitem']);
  const DISABLED_ROLES = new Set(['application', 'button', 'composite', 'gridcell', 'group', 'input', 'link',
    'menuitem', 'scrollbar', 'separator', 'tab', 'checkbox', 'columnheader', 'combobox', 'grid', 'listbox', 'menu',
    'menubar', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'radiogroup', 'row', 'rowheader', 'searchbox',
    'select', 'slider', 'spinbutton', 'switch', 'tablist', 'textbox', 'toolbar', 'tree', 'treegrid', 'treeitem']);
  const READONLY_ROLES = new Set(['checkbox', 'combobox', 'grid', 'gridcell', 'listbox', 'radiogroup', 'slider',
    'spinbutton', 'textbox', 'columnheader', 'rowheader', 'searchbox', 'switch', 'treegrid']);
  const REQUIRED_ROLES = new Set(['checkbox', 'combobox', 'gridcell', 'listbox', 'radiogroup', 'spinbutton',
    'textbox', 'searchbox', 'tree', 'treegrid', 'columnheader', 'rowheader']);
  const RANGE_ROLES = new Set(['progressbar', 'scrollbar', 'slider', 'spinbutton', 'meter']);
  /** Roles a person acts on: these nodes get a hit test at their centre. */
  const INTERACTIVE_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'textbox', 'searchbox',
    'combobox', 'listbox', 'option', 'slider', 'spinbutton', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab',
    'treeitem', 'gridcell', 'scrollbar']);

  /** <input> types and their roles where they are not textbox-like (HTML-AAM). */
  const INPUT_ROLES = /** @type {Record<string, string>} */ ({
    button: 'button', checkbox: 'checkbox', image: 'button', number: 'spinbutton', radio: 'radio',
    range: 'slider', reset: 'button', submit: 'button', file: 'button',
  });
  /** Input types whose current value a person sees as text in the field. */
  const VALUE_INPUT_TYPES = new Set(['text', 'search', 'email', 'tel', 'url', 'number', 'date', 'time',
    'datetime-local', 'month', 'week', 'color', 'range', 'password']);
  /** Input types that may fall back to their placeholder for a name. */
  const PLACEHOLDER_INPUT_TYPES = new Set(['text', 'password', 'number', 'search', 'tel', 'email', 'url']);

  /**
   * autocomplete field names whose value is secret: one-time codes and card
   * details beyond the holder's name (HTML "autofill field names").
   */
  const SECRET_AUTOCOMPLETE = new Set(['current-password', 'new-password', 'one-time-code', 'cc-number', 'cc-csc',
    'cc-exp', 'cc-exp-month', 'cc-exp-year']);

  const DEFAULT_TEST_ID_ATTRIBUTES = ['data-testid', 'data-test-id', 'data-test'];

  /** Ancestors that stop header and footer from being page landmarks (HTML-AAM). */
  const SECTIONING_FOR_LANDMARKS = 'article:not([role]), aside:not([role]), main:not([role]), nav:not([role]), ' +
    'section:not([role]), [role=article], [role=complementary], [role=main], [role=navigation], [role=region]';

  /** Parents through which role="none" on a container passes to its required children. */
  const PRESENTATION_PASSES = /** @type {Record<string, string[]>} */ ({
    dd: ['dl', 'div'], div: ['dl'], dt: ['dl', 'div'], li: ['ol', 'ul', 'menu'], tbody: ['table'], td: ['tr'],
    tfoot: ['table'], th: ['tr'], thead: ['table'], tr: ['thead', 'tbody', 'tfoot', 'table'],
  });

  /** Box numbers are rounded to hundredths of a CSS pixel: finer is noise. */
  const BOX_PRECISION = 100;

  // ---------------------------------------------------------------------------
  // Ref numbering, kept on each document so every copy of this script shares it.

  const REF_STATE = Symbol.for('trailpin.pagemodel.refs.v1');
  const forgetElement = new FinalizationRegistry((/** @type {{map: Map<number, WeakRef<Element>>, n: number}} */ held) => {
    const ref = held.map.get(held.n);
    if (ref && !ref.deref())
      held.map.delete(held.n);
  });

  /** A random name for a document; crypto.randomUUID needs a secure context. */
  function newToken() {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, b => b.toString(16).padStart(2, '0')).join('');
  }

  /** @param {Document} doc @returns {RefState} */
  function refStateOf(doc) {
    const holder = /** @type {Record<symbol, RefState | undefined>} */ (/** @type {unknown} */ (doc));
    let state = holder[REF_STATE];
    if (!state) {
      state = { next: 1, numberOf: new WeakMap(), elementOf: new Map(), names: [], numbered: false, token: newToken() };
      Object.defineProperty(doc, REF_STATE, { value: state, enumerable: false });
    }
    return state;
  }

  /** @param {RefState} state @param {Element} el @returns {number} */
  function refNumber(state, el) {
    let n = state.numberOf.get(el);
    if (n === undefined) {
      n = state.next++;
      state.numberOf.set(el, n);
      state.elementOf.set(n, new WeakRef(el));
      forgetElement.register(el, { map: state.elementOf, n });
    }
    return n;
  }

  /** The ref of el in its document, without a frame prefix. @param {RefState} state @param {Element} el */
  function refName(state, el) {
    const n = refNumber(state, el);
    let name = state.names[n];
    if (name === undefined)
      name = state.names[n] = 'e' + n;
    return name;
  }

  /** @param {RefState} state @returns {FrameRegistry} */
  function frameRegistryOf(state) {
    if (!state.frames)
      state.frames = { next: 1, numberOfDoc: new WeakMap(), numberOfRemote: new WeakMap(), byNumber: new Map() };
    return state.frames;
  }

  /** @param {FrameRegistry} reg @param {Document} doc */
  function frameNumberOfDoc(reg, doc) {
    let k = reg.numberOfDoc.get(doc);
    if (k === undefined) {
      k = reg.next++;
      reg.numberOfDoc.set(doc, k);
      reg.byNumber.set(k, { doc: new WeakRef(doc) });
    }
    return k;
  }

  /**
   * A cross-origin frame's number follows its iframe element. This document
   * cannot see which document the frame shows, so the caller that captures
   * the frame binds the number to that document's token (bindFrame): when
   * the frame shows another document, it gets a new number, and a ref never
   * names an element of an earlier document.
   * @param {FrameRegistry} reg @param {Element} iframe
   */
  function frameNumberOfRemote(reg, iframe) {
    let entry = reg.numberOfRemote.get(iframe);
    if (!entry)
      entry = newRemoteFrame(reg, iframe, '');
    return entry.k;
  }

  /** @param {FrameRegistry} reg @param {Element} iframe @param {string} token */
  function newRemoteFrame(reg, iframe, token) {
    const entry = { k: reg.next++, iframe: new WeakRef(iframe), token };
    reg.numberOfRemote.set(iframe, entry);
    reg.byNumber.set(entry.k, { remote: entry });
    return entry;
  }

  // ---------------------------------------------------------------------------
  // Per-call caches: the DOM may change between calls, never during one.

  /**
   * @typedef {object} Caches
   * @property {Map<Element, CSSStyleDeclaration | null>} style
   * @property {Map<Element, number>} flags what is known of an element's visibility (FLAG_* bits)
   * @property {Map<Element, string | null>} role
   * @property {Map<Element, string>} content name-from-content contributions in a plain descendant traversal
   * @property {Map<Element, boolean>} secret
   * @property {Map<Element, boolean>} markedSecret
   * @property {Map<Document, Element | null>} modal
   * @property {Map<Node, ContentScan>} contentScans
   * @property {Map<Node, Map<Element, HTMLLabelElement[]>>} labels the labels of each tree, by control
   * @property {Set<Element>} hostContent shadow hosts given generated content by :host rules
   * @property {boolean} probeAll a ::part() or ::slotted() rule may give generated text anywhere
   * @property {string[]} sensitiveValues
   * @property {Set<Element>} sensitiveElements
   * @property {Map<Element, Node>} roots the tree (document or shadow root) of each element the capture walked
   * @property {Map<Element, boolean>} ariaDisabled whether aria-disabled="true" reaches an element
   */

  /** @type {Caches | null} */
  let cache = null;

  // Bits of Caches.flags: each fact has a bit saying it is known.
  const NOT_RENDERED_KNOWN = 1, NOT_RENDERED = 2, ARIA_EXCLUDED_KNOWN = 4, ARIA_EXCLUDED = 8,
    INSIDE_MODAL_KNOWN = 16, INSIDE_MODAL = 32, PSEUDO_KNOWN = 64, PSEUDO = 128;

  /** @param {Element} el @param {number} known @param {number} bit @returns {boolean | undefined} */
  function knownFlag(el, known, bit) {
    const f = caches().flags.get(el);
    return f !== undefined && (f & known) ? (f & bit) !== 0 : undefined;
  }

  /** @param {Element} el @param {number} known @param {number} bit @param {boolean} value */
  function setFlag(el, known, bit, value) {
    const c = caches();
    c.flags.set(el, (c.flags.get(el) || 0) | known | (value ? bit : 0));
  }

  /**
   * @template T
   * @param {{values?: string[], elements?: Element[]}} sensitive
   * @param {() => T} fn
   * @returns {T}
   */
  function withCaches(sensitive, fn) {
    if (cache)
      return fn();
    cache = {
      style: new Map(), flags: new Map(), role: new Map(),
      content: new Map(), secret: new Map(), markedSecret: new Map(), modal: new Map(),
      contentScans: new Map(), hostContent: new Set(), probeAll: false, labels: new Map(),
      sensitiveValues: (sensitive.values || []).map(v => collapseSpaces(String(v))).filter(v => v.length > 0),
      sensitiveElements: new Set(sensitive.elements || []),
      roots: new Map(), ariaDisabled: new Map(),
    };
    try {
      return fn();
    } finally {
      cache = null;
    }
  }

  /** @returns {Caches} */
  function caches() {
    if (!cache)
      throw new Error('page model: caches used outside a capture');
    return cache;
  }

  // ---------------------------------------------------------------------------
  // DOM helpers

  /** @param {Node} n @returns {n is Element} */
  function isElement(n) { return n.nodeType === 1; }

  /** @param {Element} el */
  function tagOf(el) {
    return el.localName;
  }

  /** @param {Element} el */
  function isHTML(el) { return el.namespaceURI === HTML_NS; }

  /**
   * The parent in the flat tree: the slot a node is assigned to, the shadow
   * host of a shadow root's child, or the parent element.
   * @param {Node} n @returns {Element | null}
   */
  function flatParent(n) {
    const slot = /** @type {Element | Text} */ (n).assignedSlot;
    if (slot)
      return slot;
    const p = n.parentNode;
    if (!p)
      return null;
    if (p.nodeType === 11)
      return /** @type {ShadowRoot} */ (p).host || null;
    return p.nodeType === 1 ? /** @type {Element} */ (p) : null;
  }

  /** The parent element, or the shadow host for a shadow root's child. @param {Element} el */
  function parentOrHost(el) {
    if (el.parentElement)
      return el.parentElement;
    const p = el.parentNode;
    return p && p.nodeType === 11 ? /** @type {ShadowRoot} */ (p).host : null;
  }

  /** closest() that continues past shadow roots. @param {Element} el @param {string} selector */
  function closestAcrossShadow(el, selector) {
    /** @type {Element | null} */
    let e = el;
    while (e) {
      const found = e.closest(selector);
      if (found)
        return found;
      const root = e.getRootNode();
      e = root.nodeType === 11 ? /** @type {ShadowRoot} */ (root).host : null;
    }
    return null;
  }

  /** Whether node lies inside el in the flat or DOM tree. @param {Element} el @param {Node | null} node */
  function containsAcross(el, node) {
    for (let n = node; n; n = flatParent(n) || (n.parentNode && n.parentNode.nodeType === 11 ? /** @type {ShadowRoot} */ (n.parentNode).host : null)) {
      if (n === el)
        return true;
    }
    return false;
  }

  /**
   * The tree (document or shadow root) el belongs to: known for every element
   * a capture walks, so the walk up that getRootNode does is not repeated.
   * @param {Element} el @returns {Document | ShadowRoot}
   */
  function treeRoot(el) {
    return /** @type {Document | ShadowRoot} */ (caches().roots.get(el) || el.getRootNode());
  }

  /** @param {Element} el @returns {CSSStyleDeclaration | null} */
  function styleOf(el) {
    const c = caches();
    let st = c.style.get(el);
    if (st === undefined) {
      const view = el.ownerDocument.defaultView;
      st = view ? view.getComputedStyle(el) : null;
      c.style.set(el, st);
    }
    return st;
  }

  /**
   * Elements named by an IDREF list, looked up in the element's own tree
   * (document or shadow root); the first element wins for a duplicated id.
   * @param {Element} el @param {string | null} list @returns {Element[]}
   */
  function idRefs(el, list) {
    if (!list)
      return [];
    const root = treeRoot(el);
    if (!root || typeof root.getElementById !== 'function')
      return [];
    /** @type {Element[]} */
    const out = [];
    for (const id of list.split(/[ \t\n\f\r]+/)) {
      if (!id)
        continue;
      const found = root.getElementById(id);
      if (found && !out.includes(found))
        out.push(found);
    }
    return out;
  }

  /**
   * Where el's children in the flat tree are: the nodes assigned to a slot
   * (an array), or the node whose child list they are (el, or its shadow
   * root); null when its children are not rendered (form controls, media,
   * frames). Walk a node's list with firstChild/nextSibling: cheaper than
   * childNodes.
   * @param {Element} el @param {string} [tag] its tag, when the caller has it
   * @param {boolean} [html] whether it is an HTML element, with tag
   * @returns {Node[] | Node | null}
   */
  function flatChildSource(el, tag = tagOf(el), html = isHTML(el)) {
    if (html) {
      if (CHILDREN_NOT_RENDERED.has(tag))
        return null;
      if (tag === 'slot') {
        const assigned = /** @type {HTMLSlotElement} */ (el).assignedNodes();
        if (assigned.length)
          return assigned;
      }
    }
    return el.shadowRoot || el;
  }

  /**
   * The child nodes of el in the flat tree, or null (see flatChildSource).
   * @param {Element} el @returns {ArrayLike<Node> | null}
   */
  function flatChildren(el) {
    const src = flatChildSource(el);
    return src === null || Array.isArray(src) ? src : src.childNodes;
  }

  /**
   * Whether el never appears in a screen (not rendered by its nature).
   * @param {Element} el @param {string} [tag] @param {boolean} [html]
   */
  function isOmitted(el, tag = tagOf(el), html = isHTML(el)) {
    if (html)
      return NEVER_RENDERED.has(tag);
    if (el.namespaceURI === SVG_NS)
      return SVG_NEVER_RENDERED.has(tag);
    return false;
  }

  /** @param {Element} el */
  function isSelectDropDown(el) {
    const s = /** @type {HTMLSelectElement} */ (el);
    return tagOf(el) === 'select' && isHTML(el) && !s.multiple && s.size <= 1;
  }

  /** The select an option or optgroup belongs to. @param {Element} el */
  function owningSelect(el) {
    const t = tagOf(el);
    if (t !== 'option' && t !== 'optgroup')
      return null;
    for (let p = el.parentElement; p; p = p.parentElement) {
      const pt = tagOf(p);
      if (pt === 'select')
        return p;
      if (pt !== 'optgroup' && pt !== 'datalist')
        return null;
    }
    return null;
  }

  // ---------------------------------------------------------------------------
  // Visibility

  /**
   * Which children a parent does not render: all of them under
   * content-visibility:hidden, all but the summary in a closed <details>,
   * or none (null).
   * @param {Element} parent @param {string} [tag] its tag, when the caller has it
   * @returns {{all: boolean, except: Element | null} | null}
   */
  function skippedChildren(parent, tag = tagOf(parent)) {
    const st = styleOf(parent);
    if (st && st.contentVisibility === 'hidden')
      return { all: true, except: null };
    if (tag === 'details' && isHTML(parent) && !(/** @type {HTMLDetailsElement} */ (parent).open)) {
      let summary = null;
      for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
        if (tagOf(c) === 'summary') {
          summary = c;
          break;
        }
      }
      return { all: true, except: summary };
    }
    return null;
  }

  /** Whether the parent does not render this child's box. @param {Element} parent @param {Node} child */
  function skipsChild(parent, child) {
    const skip = skippedChildren(parent);
    return !!skip && skip.all && child !== skip.except;
  }

  /**
   * Whether el produces no box: display:none on it or an ancestor, content
   * skipped by an ancestor, or a light child no slot takes.
   * @param {Element} el @returns {boolean}
   */
  function notRendered(el) {
    let r = knownFlag(el, NOT_RENDERED_KNOWN, NOT_RENDERED);
    if (r !== undefined)
      return r;
    const st = styleOf(el);
    if (!el.isConnected || (st !== null && st.display === 'none')) {
      r = true;
    } else {
      const parent = flatParent(el);
      if (!parent) {
        r = false;
      } else if (parent === el.parentElement && parent.shadowRoot && !(/** @type {Element} */ (el)).assignedSlot) {
        r = true;
      } else {
        r = notRendered(parent) || skipsChild(parent, el);
      }
    }
    setFlag(el, NOT_RENDERED_KNOWN, NOT_RENDERED, r);
    return r;
  }

  /** @param {Document} doc @returns {Element | null} the topmost modal dialog */
  function modalOf(doc) {
    const c = caches();
    let m = c.modal.get(doc);
    if (m === undefined) {
      m = null;
      try {
        const all = doc.querySelectorAll(':modal');
        m = all.length ? all[all.length - 1] : null;
      } catch {
        m = null;
      }
      c.modal.set(doc, m);
    }
    return m;
  }

  /** @param {Element} el @returns {boolean} */
  function insideModal(el) {
    let r = knownFlag(el, INSIDE_MODAL_KNOWN, INSIDE_MODAL);
    if (r === undefined) {
      const modal = modalOf(el.ownerDocument);
      const parent = flatParent(el) || parentOrHost(el);
      r = !!modal && (el === modal || (!!parent && insideModal(parent)));
      setFlag(el, INSIDE_MODAL_KNOWN, INSIDE_MODAL, r);
    }
    return r;
  }

  /** Whether an open modal dialog makes el inert. @param {Element} el */
  function inertByModal(el) {
    const modal = modalOf(el.ownerDocument);
    return !!modal && !insideModal(el) && !containsAcross(el, modal);
  }

  /**
   * Whether el is taken out of the accessibility tree by aria-hidden or inert
   * (its own or an ancestor's), or sits behind a modal dialog.
   * @param {Element} el @returns {boolean}
   */
  function ariaExcluded(el) {
    let r = knownFlag(el, ARIA_EXCLUDED_KNOWN, ARIA_EXCLUDED);
    if (r !== undefined)
      return r;
    if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert') || inertByModal(el)) {
      r = true;
    } else {
      const parent = flatParent(el) || parentOrHost(el);
      r = !!parent && ariaExcluded(parent);
    }
    setFlag(el, ARIA_EXCLUDED_KNOWN, ARIA_EXCLUDED, r);
    return r;
  }

  /** Whether el is hidden for accessibility purposes (accname "hidden"). @param {Element} el @returns {boolean} */
  function hiddenForAria(el) {
    if (isHTML(el) && IGNORED_FOR_ARIA.has(tagOf(el)))
      return true;
    const select = owningSelect(el);
    if (select)
      return hiddenForAria(select) || (tagOf(el) === 'option' && ariaExcluded(el));
    if (notRendered(el) || ariaExcluded(el))
      return true;
    if (tagOf(el) === 'slot')
      return false;
    const st = styleOf(el);
    return !!st && st.visibility !== 'visible';
  }

  // ---------------------------------------------------------------------------
  // Roles (WAI-ARIA 1.2, HTML-AAM), named as Playwright names them

  /** @param {Element} el @returns {string | null} */
  function explicitRole(el) {
    const attr = el.hasAttributes() ? el.getAttribute('role') : null;
    if (!attr)
      return null;
    for (const token of attr.trim().split(/[ \t\n\f\r]+/)) {
      const role = token.toLowerCase();
      if (role === 'image')
        return 'img';
      if (ARIA_ROLES.has(role))
        return role;
    }
    return null;
  }

  /** @param {Element} el @param {string | null} role */
  function hasGlobalAria(el, role) {
    for (const { attr, prohibited } of GLOBAL_ARIA) {
      if (el.hasAttribute(attr) && !prohibited.has(role || ''))
        return true;
    }
    return false;
  }

  /** @param {Element} el */
  function hasValidTabIndex(el) {
    const v = el.getAttribute('tabindex');
    return v !== null && /^\s*[-+]?\d+\s*$/.test(v);
  }

  /** Whether the element is disabled by HTML (disabled attribute, fieldset, optgroup). @param {Element} el */
  function nativelyDisabled(el) {
    if (!isHTML(el))
      return false;
    const tag = tagOf(el);
    if (!['button', 'input', 'select', 'textarea', 'option', 'optgroup', 'fieldset'].includes(tag))
      return false;
    if (el.hasAttribute('disabled'))
      return true;
    if (tag === 'option') {
      const group = el.parentElement;
      if (group && tagOf(group) === 'optgroup' && group.hasAttribute('disabled'))
        return true;
    }
    for (let fs = el.parentElement ? el.parentElement.closest('fieldset[disabled]') : null; fs; fs = fs.parentElement ? fs.parentElement.closest('fieldset[disabled]') : null) {
      const legend = Array.from(fs.children).find(c => tagOf(c) === 'legend');
      if (!legend || !legend.contains(el))
        return true;
    }
    return false;
  }

  /** @param {Element} el */
  function isFocusable(el) {
    if (nativelyDisabled(el))
      return false;
    if (hasValidTabIndex(el))
      return true;
    if (!isHTML(el))
      return false;
    const tag = tagOf(el);
    if (['button', 'select', 'textarea', 'details', 'iframe'].includes(tag))
      return true;
    if (tag === 'input')
      return (/** @type {HTMLInputElement} */ (el)).type !== 'hidden';
    if (tag === 'a' || tag === 'area')
      return el.hasAttribute('href');
    if (tag === 'summary') {
      const parent = el.parentElement;
      return !!parent && tagOf(parent) === 'details';
    }
    return (/** @type {HTMLElement} */ (el)).isContentEditable && !!el.parentElement && !(/** @type {HTMLElement} */ (el.parentElement)).isContentEditable;
  }

  /** The role of a th, the way Chromium decides it when scope is not given. @param {Element} th */
  function headerCellRole(th) {
    const scope = (th.getAttribute('scope') || '').toLowerCase();
    if (scope === 'col' || scope === 'colgroup')
      return 'columnheader';
    if (scope === 'row' || scope === 'rowgroup')
      return 'rowheader';
    const next = th.nextElementSibling;
    const prev = th.previousElementSibling;
    if (!next && !prev) {
      const row = th.parentElement;
      if (row && tagOf(row) === 'tr') {
        const table = /** @type {HTMLTableElement | null} */ (closestAcrossShadow(row, 'table'));
        if (table && table.rows.length <= 1)
          return null;
      }
      return 'columnheader';
    }
    const isTH = (/** @type {Element | null} */ e) => !!e && tagOf(e) === 'th';
    const isFilledTD = (/** @type {Element | null} */ e) => !!e && tagOf(e) === 'td' && (!!(e.textContent || '').trim() || e.children.length > 0);
    if (isTH(next) && isTH(prev))
      return 'columnheader';
    if (isFilledTD(next) || isFilledTD(prev))
      return 'rowheader';
    return 'columnheader';
  }

  /** @param {Element} el @returns {string | null} */
  function nativeRole(el) {
    if (el.namespaceURI === SVG_NS) {
      const tag = tagOf(el);
      if (tag === 'svg')
        return 'img';
      if (tag === 'a')
        return el.hasAttribute('href') || el.hasAttribute('xlink:href') ? 'link' : null;
      return null;
    }
    if (!isHTML(el))
      return tagOf(el) === 'math' ? 'math' : null;
    switch (tagOf(el)) {
      case 'a': case 'area': return el.hasAttribute('href') ? 'link' : null;
      case 'article': return 'article';
      case 'aside': return 'complementary';
      case 'blockquote': return 'blockquote';
      case 'button': return 'button';
      case 'caption': return 'caption';
      case 'code': return 'code';
      case 'datalist': return 'listbox';
      case 'dd': return 'definition';
      case 'del': return 'deletion';
      case 'details': return 'group';
      case 'dfn': return 'term';
      case 'dialog': return 'dialog';
      case 'dt': return 'term';
      case 'em': return 'emphasis';
      case 'fieldset': return 'group';
      case 'figure': return 'figure';
      case 'footer': return closestAcrossShadow(el, SECTIONING_FOR_LANDMARKS) ? null : 'contentinfo';
      case 'form': return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'form' : null;
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
      case 'header': return closestAcrossShadow(el, SECTIONING_FOR_LANDMARKS) ? null : 'banner';
      case 'hr': return 'separator';
      case 'html': return 'document';
      case 'iframe': case 'frame': return 'iframe';
      case 'img':
        return el.getAttribute('alt') === '' && !el.getAttribute('title') && !hasGlobalAria(el, null) && !hasValidTabIndex(el) ? 'presentation' : 'img';
      case 'input': return inputRole(/** @type {HTMLInputElement} */ (el));
      case 'ins': return 'insertion';
      case 'li': return 'listitem';
      case 'main': return 'main';
      case 'mark': return 'mark';
      case 'math': return 'math';
      case 'menu': return 'list';
      case 'meter': return 'meter';
      case 'nav': return 'navigation';
      case 'ol': return 'list';
      case 'optgroup': return 'group';
      case 'option': return 'option';
      case 'output': return 'status';
      case 'p': return 'paragraph';
      case 'progress': return 'progressbar';
      case 'search': return 'search';
      case 'section': return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : null;
      case 'select': {
        const s = /** @type {HTMLSelectElement} */ (el);
        return s.multiple || s.size > 1 ? 'listbox' : 'combobox';
      }
      case 'strong': return 'strong';
      case 'sub': return 'subscript';
      case 'sup': return 'superscript';
      case 'table': return 'table';
      case 'tbody': case 'thead': case 'tfoot': return 'rowgroup';
      case 'td': {
        const table = closestAcrossShadow(el, 'table');
        const tr = table ? explicitRole(table) : null;
        return tr === 'grid' || tr === 'treegrid' ? 'gridcell' : 'cell';
      }
      case 'textarea': return 'textbox';
      case 'th': return headerCellRole(el);
      case 'time': return 'time';
      case 'tr': return 'row';
      case 'ul': return 'list';
      default: return null;
    }
  }

  /** @param {HTMLInputElement} input @returns {string | null} */
  function inputRole(input) {
    const type = (input.type || '').toLowerCase();
    if (type === 'hidden')
      return null;
    if (['email', 'search', 'tel', 'text', 'url', ''].includes(type)) {
      const list = idRefs(input, input.getAttribute('list'))[0];
      if (list && tagOf(list) === 'datalist')
        return 'combobox';
      return type === 'search' ? 'searchbox' : 'textbox';
    }
    return INPUT_ROLES[type] || 'textbox';
  }

  /** @param {Element} el @param {string | null} role */
  function resolvesPresentation(el, role) {
    return hasGlobalAria(el, role) || isFocusable(el);
  }

  /** The implicit role, after role="none" on a list or table passes to its items. @param {Element} el */
  function implicitRole(el) {
    const role = nativeRole(el);
    if (!role)
      return null;
    /** @type {Element} */
    let child = el;
    for (;;) {
      const parents = PRESENTATION_PASSES[tagOf(child)];
      const parent = parentOrHost(child);
      if (!parents || !parent || !parents.includes(tagOf(parent)))
        break;
      const parentRole = explicitRole(parent);
      if ((parentRole === 'none' || parentRole === 'presentation') && !resolvesPresentation(parent, parentRole))
        return parentRole;
      child = parent;
    }
    return role;
  }

  /**
   * The element's ARIA role, or null for none (reported as "generic").
   * @param {Element} el @returns {string | null}
   */
  function roleOf(el) {
    const c = caches();
    let role = c.role.get(el);
    if (role !== undefined)
      return role;
    const explicit = explicitRole(el);
    if (!explicit) {
      role = implicitRole(el);
    } else if (explicit === 'none' || explicit === 'presentation') {
      const implicit = implicitRole(el);
      role = resolvesPresentation(el, implicit) ? implicit : explicit;
    } else {
      role = explicit;
    }
    c.role.set(el, role);
    return role;
  }

  // ---------------------------------------------------------------------------
  // Secrets

  /** @param {string} s */
  function collapseSpaces(s) {
    return s.replace(/[\s\u00a0]+/g, ' ').trim();
  }

  /** Whether s shows a value the session marked sensitive. @param {string | null | undefined} s */
  function showsSensitive(s) {
    if (!s)
      return false;
    const values = caches().sensitiveValues;
    if (!values.length)
      return false;
    const flat = collapseSpaces(s);
    return values.some(v => flat.includes(v));
  }

  /** The last autofill field name of an autocomplete attribute. @param {Element} el */
  function autofillField(el) {
    const tokens = (el.getAttribute('autocomplete') || '').toLowerCase().trim().split(/[ \t\n\f\r]+/).filter(t => t && t !== 'webauthn');
    return tokens.length ? tokens[tokens.length - 1] : '';
  }

  /** Whether el or an ancestor was marked sensitive by the session. @param {Element} el @returns {boolean} */
  function markedSecret(el) {
    const c = caches();
    if (!c.sensitiveElements.size)
      return false;
    let r = c.markedSecret.get(el);
    if (r === undefined) {
      const parent = flatParent(el) || parentOrHost(el);
      r = c.sensitiveElements.has(el) || (!!parent && markedSecret(parent));
      c.markedSecret.set(el, r);
    }
    return r;
  }

  /**
   * Whether the value of this control is secret: passwords, one-time codes,
   * card numbers and codes, masked text, or a value marked sensitive.
   * @param {Element} el
   */
  function secretControl(el) {
    if (!isHTML(el))
      return false;
    const tag = tagOf(el);
    if (tag !== 'input' && tag !== 'textarea' && tag !== 'select')
      return false;
    if (tag === 'input' && (/** @type {HTMLInputElement} */ (el)).type === 'password')
      return true;
    if (SECRET_AUTOCOMPLETE.has(autofillField(el)))
      return true;
    const st = styleOf(el);
    const security = st ? st.getPropertyValue('-webkit-text-security') : '';
    if (security && security !== 'none')
      return true;
    return showsSensitive(/** @type {HTMLInputElement} */ (el).value);
  }

  /**
   * Whether el is secret: it contributes no text to anything and carries no
   * value or text of its own.
   * @param {Element} el @returns {boolean}
   */
  function isSecret(el) {
    const c = caches();
    // Without anything marked sensitive, only form controls can be secret.
    if (!c.sensitiveValues.length && !c.sensitiveElements.size && !FORM_CONTROLS.has(el.localName))
      return false;
    let r = c.secret.get(el);
    if (r === undefined) {
      r = markedSecret(el) || secretControl(el) || ownTextShowsSensitive(el);
      c.secret.set(el, r);
    }
    return r;
  }

  const FORM_CONTROLS = new Set(['input', 'textarea', 'select']);

  /** Whether a text child of el shows a sensitive value. @param {Element} el */
  function ownTextShowsSensitive(el) {
    if (!caches().sensitiveValues.length)
      return false;
    let run = '';
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3) {
        run += n.nodeValue || '';
      } else if (n.nodeType === 1) {
        if (showsSensitive(run))
          return true;
        run = '';
      }
    }
    return showsSensitive(run);
  }

  // ---------------------------------------------------------------------------
  // CSS generated content

  /**
   * Reads a computed `content` value: strings and attr() are kept, the part
   * after "/" (alternative text) wins when present, other tokens are dropped.
   * @param {Element} el @param {string} value @param {boolean} altOnly
   * @returns {string | undefined}
   */
  function parseContent(el, value, altOnly) {
    if (!value || value === 'none' || value === 'normal')
      return undefined;
    /** @type {string[]} */
    let parts = [];
    /** @type {string[] | null} */
    let alt = null;
    let i = 0;
    while (i < value.length) {
      const ch = value[i];
      if (ch === '"' || ch === "'") {
        let s = '';
        i++;
        while (i < value.length && value[i] !== ch) {
          if (value[i] === '\\' && i + 1 < value.length) {
            const hex = /^[0-9a-fA-F]{1,6} ?/.exec(value.slice(i + 1, i + 8));
            if (hex) {
              s += String.fromCodePoint(parseInt(hex[0], 16) || 0xfffd);
              i += 1 + hex[0].length;
            } else {
              s += value[i + 1];
              i += 2;
            }
          } else {
            s += value[i++];
          }
        }
        i++;
        (alt || parts).push(s);
      } else if (ch === '/') {
        alt = [];
        i++;
      } else if (value.startsWith('attr(', i)) {
        const end = value.indexOf(')', i);
        const name = value.slice(i + 5, end < 0 ? value.length : end).trim().split(/\s+/)[0];
        (alt || parts).push(el.getAttribute(name) || '');
        i = end < 0 ? value.length : end + 1;
      } else if (/\s/.test(ch)) {
        i++;
      } else {
        // counters, quotes, images: not text we can read; skip the token
        let depth = 0;
        while (i < value.length) {
          const c2 = value[i];
          if (c2 === '(')
            depth++;
          else if (c2 === ')')
            depth--;
          else if (depth === 0 && (/\s/.test(c2) || c2 === '/'))
            break;
          i++;
          if (depth === 0 && c2 === ')')
            break;
        }
      }
    }
    if (alt)
      return alt.join('');
    if (altOnly)
      return undefined;
    return parts.join('');
  }

  /**
   * @typedef {object} ContentScan which elements of one tree (a document or a
   *   shadow root) a `content` declaration may reach
   * @property {boolean} all a style sheet could not be read: look at every element
   * @property {Set<Element>} pseudo elements a ::before/::after rule with content may match
   * @property {Set<Element>} own elements a rule gives `content` directly (alternative text)
   */

  /** Splits a selector list at its top-level commas. @param {string} list */
  function splitSelectors(list) {
    /** @type {string[]} */
    const out = [];
    let depth = 0, start = 0, quote = '';
    for (let i = 0; i < list.length; i++) {
      const ch = list[i];
      if (quote) {
        if (ch === '\\')
          i++;
        else if (ch === quote)
          quote = '';
      } else if (ch === '"' || ch === "'") {
        quote = ch;
      } else if (ch === '(' || ch === '[') {
        depth++;
      } else if (ch === ')' || ch === ']') {
        depth--;
      } else if (ch === ',' && depth === 0) {
        out.push(list.slice(start, i).trim());
        start = i + 1;
      }
    }
    out.push(list.slice(start).trim());
    return out.filter(Boolean);
  }

  /** A `content` value that may produce text. @param {string} v */
  function contentMayShowText(v) {
    const t = v.trim();
    return !!t && t !== 'none' && t !== 'normal' && t !== '""' && t !== "''" && t !== 'initial' && t !== 'unset';
  }

  const PSEUDO_ELEMENT = /::?(before|after)\b/i;

  /**
   * Reads the style sheets of a tree once per call and finds the elements
   * that rules with `content` can reach, so generated content is looked up
   * for those elements only: asking every element for its ::before style is
   * the single most expensive step of a capture otherwise.
   * @param {Document | ShadowRoot} root @returns {ContentScan}
   */
  function contentScan(root) {
    const c = caches();
    let scan = c.contentScans.get(root);
    if (scan)
      return scan;
    /** @type {ContentScan} */
    const result = { all: false, pseudo: new Set(), own: new Set() };
    /** @type {string[]} */
    const pseudoBases = [];
    /** @type {string[]} */
    const ownSelectors = [];

    /** @param {CSSRuleList} rules @param {string} parent */
    const visitRules = (rules, parent) => {
      for (let i = 0; i < rules.length; i++) {
        const rule = rules[i];
        if (rule instanceof CSSStyleRule) {
          const selectors = splitSelectors(rule.selectorText).map(sel => {
            if (!parent)
              return sel;
            return sel.includes('&') ? sel.split('&').join(':is(' + parent + ')') : ':is(' + parent + ') ' + sel;
          });
          if (contentMayShowText(rule.style.getPropertyValue('content'))) {
            for (const sel of selectors) {
              const m = PSEUDO_ELEMENT.exec(sel);
              if (!m) {
                ownSelectors.push(sel);
                continue;
              }
              if (/::slotted|::part/i.test(sel)) {
                // these reach into other trees: look at every element
                c.probeAll = true;
                continue;
              }
              let base = sel.slice(0, m.index).trim();
              if (/:host/i.test(base)) {
                if (root.nodeType === 11)
                  c.hostContent.add(/** @type {ShadowRoot} */ (root).host);
                continue;
              }
              if (!base || /[>+~]$/.test(base))
                base += '*';
              pseudoBases.push(base);
            }
          }
          if (rule.cssRules && rule.cssRules.length)
            visitRules(rule.cssRules, selectors.join(', '));
        } else if (rule instanceof CSSImportRule) {
          if (rule.styleSheet)
            visitSheet(rule.styleSheet);
        } else if ('cssRules' in rule && /** @type {CSSGroupingRule} */ (rule).cssRules) {
          visitRules(/** @type {CSSGroupingRule} */ (rule).cssRules, parent);
        }
      }
    };
    /** @param {CSSStyleSheet} sheet */
    const visitSheet = (sheet) => {
      let rules;
      try {
        rules = sheet.cssRules;
      } catch {
        result.all = true; // a cross-origin sheet without CORS
        return;
      }
      visitRules(rules, '');
    };
    try {
      for (const sheet of Array.from(root.styleSheets))
        visitSheet(sheet);
      for (const sheet of root.adoptedStyleSheets || [])
        visitSheet(sheet);
    } catch {
      result.all = true;
    }
    if (!result.all) {
      /** @param {string[]} selectors @param {Set<Element>} into */
      const collect = (selectors, into) => {
        for (const sel of selectors) {
          try {
            for (const el of Array.from(root.querySelectorAll(sel)))
              into.add(el);
          } catch {
            result.all = true;
          }
        }
      };
      collect(pseudoBases, result.pseudo);
      collect(ownSelectors, result.own);
    }
    c.contentScans.set(root, result);
    return result;
  }

  /** Whether a rule may give el a ::before or ::after box with text. @param {Element} el */
  function mayHavePseudoText(el) {
    const c = caches();
    // probeAll can turn on later in a capture (a ::slotted or ::part rule in
    // a shadow tree met later), so it is not part of what is remembered.
    if (c.probeAll)
      return true;
    const known = knownFlag(el, PSEUDO_KNOWN, PSEUDO);
    if (known !== undefined)
      return known;
    if (el.shadowRoot)
      contentScan(el.shadowRoot); // its :host rules reach el
    const scan = contentScan(treeRoot(el));
    const r = scan.all || scan.pseudo.has(el) || c.hostContent.has(el);
    setFlag(el, PSEUDO_KNOWN, PSEUDO, r);
    return r || c.probeAll;
  }

  /**
   * Text of the ::before or ::after box, padded with spaces when the box is
   * not inline; undefined when there is none.
   * @param {Element} el @param {'::before' | '::after'} which
   * @returns {string | undefined}
   */
  function pseudoText(el, which) {
    if (!mayHavePseudoText(el))
      return undefined;
    const view = el.ownerDocument.defaultView;
    if (!view)
      return undefined;
    const st = view.getComputedStyle(el, which);
    const content = st.content;
    if (!content || content === 'none' || content === 'normal')
      return undefined;
    if (st.display === 'none' || st.visibility !== 'visible')
      return undefined;
    let text = parseContent(el, content, false);
    if (text !== undefined && st.display !== 'inline')
      text = ' ' + text + ' ';
    return text;
  }

  /** The alternative text given by `content` on the element itself. @param {Element} el */
  function ownContentAlt(el) {
    const scan = contentScan(treeRoot(el));
    if (!scan.all && !scan.own.has(el))
      return undefined;
    const st = styleOf(el);
    if (!st)
      return undefined;
    const content = st.content;
    if (!content || content === 'none' || content === 'normal')
      return undefined;
    return parseContent(el, content, true);
  }

  // ---------------------------------------------------------------------------
  // Accessible names and descriptions (accname 1.2, HTML-AAM)

  /**
   * @typedef {object} NameWalk
   * @property {Set<Element>} visited
   * @property {boolean} includeHidden
   * @property {{hidden: boolean}} [labelledBy]
   * @property {{hidden: boolean}} [describedBy]
   * @property {{hidden: boolean}} [label]
   * @property {{hidden: boolean}} [nativeAlt]
   * @property {'self' | 'descendant'} [target]
   */

  /** Collapse ASCII whitespace and trim it: accname's flat string. @param {string} s */
  function flat(s) {
    return s.replace(/[ \t\n\f\r]+/g, ' ').replace(/^ | $/g, '');
  }

  /** @param {string} s */
  function hasText(s) {
    return /[^ \t\n\f\r]/.test(s);
  }

  /** @param {Element} el */
  function labelledByElements(el) {
    const attr = el.getAttribute('aria-labelledby');
    if (attr === null)
      return null;
    const refs = idRefs(el, attr);
    return refs.length ? refs : null;
  }

  /** @param {Element} el @returns {HTMLLabelElement[]} */
  function labelsOf(el) {
    if (!isHTML(el) || !LABELABLE.has(tagOf(el)))
      return [];
    // element.labels searches its whole tree on every call: map the labels of
    // each tree once per capture instead.
    const c = caches();
    const root = treeRoot(el);
    let map = c.labels.get(root);
    if (!map) {
      map = new Map();
      const labels = /** @type {Document | ShadowRoot} */ (root).querySelectorAll ? /** @type {Document | ShadowRoot} */ (root).querySelectorAll('label') : [];
      for (const label of Array.from(labels)) {
        const control = /** @type {HTMLLabelElement} */ (label).control;
        if (!control)
          continue;
        const list = map.get(control);
        if (list)
          list.push(/** @type {HTMLLabelElement} */ (label));
        else
          map.set(control, [/** @type {HTMLLabelElement} */ (label)]);
      }
      c.labels.set(root, map);
    }
    return map.get(el) || [];
  }

  /** Elements a <label> can label (HTML "labelable elements"). */
  const LABELABLE = new Set(['button', 'input', 'meter', 'output', 'progress', 'select', 'textarea']);

  /** @param {NameWalk} w @returns {NameWalk} */
  function fresh(w) {
    return { visited: w.visited, includeHidden: w.includeHidden };
  }

  /** @param {HTMLLabelElement[]} labels @param {NameWalk} w */
  function nameFromLabels(labels, w) {
    return labels
      .map(label => textAlternative(label, { ...fresh(w), label: { hidden: hiddenForAria(label) } }))
      .filter(hasText)
      .join(' ');
  }

  /**
   * The value an embedded control contributes to a name it is part of
   * (accname step 2C), or undefined when el is not such a control.
   * @param {Element} el @param {string | null} role @param {NameWalk} w @param {NameWalk} childWalk
   * @returns {string | undefined}
   */
  function embeddedControlText(el, role, w, childWalk) {
    const tag = tagOf(el);
    if (role === 'textbox' || role === 'searchbox') {
      w.visited.add(el);
      if (tag === 'input' || tag === 'textarea')
        return /** @type {HTMLInputElement} */ (el).value;
      return el.textContent || '';
    }
    if (role === 'combobox' || role === 'listbox') {
      w.visited.add(el);
      /** @type {Element[]} */
      let chosen;
      if (tag === 'select') {
        const s = /** @type {HTMLSelectElement} */ (el);
        chosen = Array.from(s.selectedOptions);
        if (!chosen.length && s.options.length)
          chosen = [s.options[0]];
      } else {
        const list = role === 'combobox' ? ownedDescendants(el).find(e => roleOf(e) === 'listbox') : el;
        chosen = list ? ownedDescendants(list).filter(e => e.getAttribute('aria-selected') === 'true' && roleOf(e) === 'option') : [];
      }
      if (!chosen.length && tag === 'input')
        return /** @type {HTMLInputElement} */ (el).value;
      // A combobox without a list shows its value as its own text.
      if (!chosen.length && role === 'combobox' && tag !== 'select')
        return el.textContent || '';
      return chosen.map(o => textAlternative(o, childWalk)).join(' ');
    }
    if (role && RANGE_ROLES.has(role)) {
      w.visited.add(el);
      if (el.hasAttribute('aria-valuetext'))
        return el.getAttribute('aria-valuetext') || '';
      if (el.hasAttribute('aria-valuenow'))
        return el.getAttribute('aria-valuenow') || '';
      if (tag === 'input' || tag === 'meter' || tag === 'progress')
        return el.getAttribute('value') || '';
      return '';
    }
    if (role === 'menu') {
      w.visited.add(el);
      return '';
    }
    return undefined;
  }

  /** Descendants, plus elements owned through aria-owns. @param {Element} el */
  function ownedDescendants(el) {
    const out = Array.from(el.querySelectorAll('*'));
    for (const owned of idRefs(el, el.getAttribute('aria-owns')))
      out.push(owned, ...Array.from(owned.querySelectorAll('*')));
    return out;
  }

  /**
   * The name a host language gives el (accname step 2E, HTML-AAM), or
   * undefined to go on with the next step.
   * @param {Element} el @param {string | null} role @param {Element[] | null} labelledBy
   * @param {NameWalk} w @param {NameWalk} childWalk
   * @returns {string | undefined}
   */
  function hostLanguageName(el, role, labelledBy, w, childWalk) {
    const tag = tagOf(el);
    const title = el.getAttribute('title') || '';
    if (el.namespaceURI === SVG_NS) {
      for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
        if (tagOf(c) === 'title' && c.namespaceURI === SVG_NS) {
          w.visited.add(el);
          return textAlternative(c, { ...childWalk, labelledBy: { hidden: true } });
        }
      }
      if (tag === 'a') {
        const t = el.getAttribute('xlink:title') || '';
        if (hasText(t)) {
          w.visited.add(el);
          return t;
        }
      }
      return undefined;
    }
    if (!isHTML(el))
      return undefined;
    if (tag === 'input') {
      const input = /** @type {HTMLInputElement} */ (el);
      const type = input.type;
      if (type === 'button' || type === 'submit' || type === 'reset') {
        w.visited.add(el);
        if (hasText(input.value))
          return input.value;
        if (type === 'submit')
          return 'Submit';
        if (type === 'reset')
          return 'Reset';
        return title;
      }
      if (type === 'file') {
        w.visited.add(el);
        const labels = labelsOf(el);
        if (labels.length && !w.labelledBy)
          return nameFromLabels(labels, w);
        // The button's own caption, as Chromium shows it, after the title.
        return hasText(title) ? title : 'Choose File';
      }
      if (type === 'image') {
        w.visited.add(el);
        const labels = labelsOf(el);
        if (labels.length && !w.labelledBy)
          return nameFromLabels(labels, w);
        const alt = el.getAttribute('alt') || '';
        if (hasText(alt))
          return alt;
        if (hasText(title))
          return title;
        return 'Submit';
      }
    }
    // Browsers read alt even when aria-labelledby gave nothing.
    if (tag === 'img' || tag === 'area') {
      w.visited.add(el);
      const alt = el.getAttribute('alt') || '';
      return hasText(alt) ? alt : title;
    }
    if (labelledBy)
      return undefined;
    switch (tag) {
      case 'button': {
        const labels = labelsOf(el);
        if (labels.length) {
          w.visited.add(el);
          return nameFromLabels(labels, w);
        }
        return undefined;
      }
      case 'output': {
        w.visited.add(el);
        const labels = labelsOf(el);
        return labels.length ? nameFromLabels(labels, w) : title;
      }
      case 'input': case 'textarea': case 'select': {
        w.visited.add(el);
        const labels = labelsOf(el);
        if (labels.length)
          return nameFromLabels(labels, w);
        const usesPlaceholder = tag === 'textarea' || (tag === 'input' && PLACEHOLDER_INPUT_TYPES.has((/** @type {HTMLInputElement} */ (el)).type));
        if (!usesPlaceholder || hasText(title))
          return title;
        return el.getAttribute('placeholder') || el.getAttribute('aria-placeholder') || '';
      }
      case 'fieldset': case 'figure': case 'table': {
        w.visited.add(el);
        const captionTag = tag === 'fieldset' ? 'legend' : tag === 'figure' ? 'figcaption' : 'caption';
        for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
          if (tagOf(c) === captionTag) {
            const text = textAlternative(c, { ...childWalk, nativeAlt: { hidden: hiddenForAria(c) } });
            if (tag !== 'table' || hasText(text))
              return text;
          }
        }
        if (tag === 'table') {
          const summary = el.getAttribute('summary') || '';
          return hasText(summary) ? summary : undefined;
        }
        return title;
      }
      case 'optgroup': {
        const label = el.getAttribute('label') || '';
        if (hasText(label)) {
          w.visited.add(el);
          return label;
        }
        return undefined;
      }
      default:
        return undefined;
    }
  }

  /**
   * The text alternative of el in the walk w (accname 1.2, section 4.3.2).
   * @param {Element} el @param {NameWalk} w @returns {string}
   */
  function textAlternative(el, w) {
    if (w.visited.has(el))
      return '';
    const plainDescendant = w.target === 'descendant' && !w.labelledBy && !w.describedBy && !w.label && !w.nativeAlt && !w.includeHidden;
    if (plainDescendant) {
      const known = caches().content.get(el);
      if (known !== undefined)
        return known;
    }
    const text = computeTextAlternative(el, w);
    if (plainDescendant)
      caches().content.set(el, text);
    return text;
  }

  /** @param {Element} el @param {NameWalk} w @returns {string} */
  function computeTextAlternative(el, w) {
    /** @type {NameWalk} */
    const childWalk = { ...w, target: w.target === 'self' ? 'descendant' : w.target };

    // A secret element adds nothing to other names; its own name only comes
    // from what labels it.
    const secret = isSecret(el);
    if (secret && w.target !== 'self') {
      w.visited.add(el);
      return '';
    }

    // 2A: hidden, and not reached through a reference to a hidden node.
    if (!w.includeHidden) {
      const viaHidden = !!(w.labelledBy?.hidden || w.describedBy?.hidden || w.nativeAlt?.hidden || w.label?.hidden);
      if ((isHTML(el) && IGNORED_FOR_ARIA.has(tagOf(el))) || (!viaHidden && hiddenForAria(el))) {
        w.visited.add(el);
        // visibility:hidden can be undone below: such children still count.
        return onlyVisibilityHidden(el) ? visibleDescendantsText(el, childWalk) : '';
      }
    }

    // 2B: aria-labelledby, unless already following one.
    const labelledBy = labelledByElements(el);
    if (!w.labelledBy && labelledBy) {
      const parts = labelledBy.map(ref => textAlternative(ref, {
        visited: w.visited, includeHidden: w.includeHidden, labelledBy: { hidden: hiddenForAria(ref) },
      }));
      const joined = parts.join(' ');
      if (hasText(joined))
        return joined;
    }

    const role = roleOf(el);
    const tag = tagOf(el);

    // 2C: a control embedded in a label or in content contributes its value.
    if (w.label || w.labelledBy || w.target === 'descendant') {
      if (!labelledBy || !labelledBy.includes(el)) {
        const value = embeddedControlText(el, role, w, childWalk);
        if (value !== undefined)
          return secret ? '' : value;
      }
    }

    // 2D: aria-label (a slot is never in the accessibility tree, so its own
    // label is not read).
    const ariaLabel = tag === 'slot' ? '' : el.getAttribute('aria-label') || '';
    if (hasText(ariaLabel)) {
      w.visited.add(el);
      return ariaLabel;
    }

    // 2E: what the host language says (labels, alt, legend, caption…).
    if (role !== 'presentation' && role !== 'none') {
      const native = hostLanguageName(el, role, labelledBy, w, childWalk);
      if (native !== undefined)
        return native;
    }

    // 2F-2H: name from content.
    const summary = tag === 'summary' && role !== 'presentation' && role !== 'none';
    const fromContent = NAME_FROM_CONTENT.has(role || '') || summary ||
      (w.target === 'descendant' && NAME_FROM_CONTENT_INSIDE.has(role || '')) ||
      !!w.labelledBy || !!w.describedBy || !!w.label || !!w.nativeAlt;
    if (fromContent && !secret) {
      w.visited.add(el);
      const text = contentText(el, childWalk);
      // The name of the node itself loses the edge spaces of its content,
      // no-break spaces included, as Chromium's layout does.
      if (w.target === 'self' && hasText(text))
        return text.trim();
      if (w.target !== 'self' && text)
        return text;
    }

    // 2I: tooltip.
    if ((role !== 'presentation' && role !== 'none') || tag === 'iframe' || tag === 'frame') {
      w.visited.add(el);
      const title = el.getAttribute('title') || '';
      if (hasText(title))
        return title;
    }
    w.visited.add(el);
    return '';
  }

  /** Whether el is hidden only by visibility, which a descendant can undo. @param {Element} el */
  function onlyVisibilityHidden(el) {
    if (notRendered(el) || ariaExcluded(el) || (isHTML(el) && IGNORED_FOR_ARIA.has(tagOf(el))))
      return false;
    const st = styleOf(el);
    return !!st && st.visibility !== 'visible';
  }

  /**
   * What the element children of a visibility:hidden element add to a name:
   * its own text is not painted, children made visible again are.
   * @param {Element} el @param {NameWalk} w
   */
  function visibleDescendantsText(el, w) {
    let out = '';
    const kids = flatChildren(el);
    if (!kids)
      return '';
    for (let i = 0; i < kids.length; i++) {
      const n = kids[i];
      if (isElement(n))
        out += ' ' + textAlternative(n, w) + ' ';
    }
    return out;
  }

  /**
   * The text of el's content for a name: generated content, children in the
   * flat tree and owned elements, with spaces around boxes that are not inline.
   * @param {Element} el @param {NameWalk} w @returns {string}
   */
  function contentText(el, w) {
    let out = pseudoText(el, '::before') || '';
    const replaced = ownContentAlt(el);
    if (replaced !== undefined) {
      out += replaced;
    } else {
      /** @param {Node} n */
      const add = (n) => {
        if (n.nodeType === 3) {
          const data = n.nodeValue || '';
          if (!showsSensitive(data))
            out += data;
        } else if (isElement(n)) {
          const part = textAlternative(n, w);
          const st = styleOf(n);
          const display = st ? st.display : 'inline';
          out += display !== 'inline' || tagOf(n) === 'br' ? ' ' + part + ' ' : part;
        }
      };
      const assigned = tagOf(el) === 'slot' && isHTML(el) ? /** @type {HTMLSlotElement} */ (el).assignedNodes() : [];
      if (assigned.length) {
        for (const n of assigned)
          add(n);
      } else {
        for (let n = el.firstChild; n; n = n.nextSibling) {
          if (!(/** @type {Element} */ (n)).assignedSlot)
            add(n);
        }
        if (el.shadowRoot) {
          for (let n = el.shadowRoot.firstChild; n; n = n.nextSibling)
            add(n);
        }
        for (const owned of idRefs(el, el.getAttribute('aria-owns')))
          add(owned);
      }
    }
    out += pseudoText(el, '::after') || '';
    return out;
  }

  /**
   * The accessible name of el. With includeHidden, hidden content counts as
   * if it were shown: a hidden node is named as it will be when it appears.
   * @param {Element} el @param {boolean} includeHidden @returns {{name: string, fromTitle: boolean}}
   */
  function accessibleName(el, includeHidden) {
    const role = roleOf(el);
    if (role && NAME_PROHIBITED.has(role))
      return NO_NAME;
    // Most elements are named neither by ARIA nor by a title nor by their
    // language: skip the walk for them, and read a leaf's content directly.
    if (isHTML(el) && (!el.hasAttributes() || (!el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby') && !el.hasAttribute('title')))) {
      const tag = tagOf(el);
      if (!HOST_NAMED.has(tag) || (tag === 'button' && labelsOf(el).length === 0)) {
        if (tag !== 'summary' && (role === null || !NAME_FROM_CONTENT.has(role)))
          return NO_NAME;
        if (el.firstElementChild === null && !el.shadowRoot && tag !== 'slot' && (!el.hasAttributes() || !el.hasAttribute('aria-owns')) && !isSecret(el)) {
          const own = contentScan(treeRoot(el));
          const data = el.textContent || '';
          if (!own.all && !own.own.has(el) && !showsSensitive(data)) {
            const text = (pseudoText(el, '::before') || '') + data + (pseudoText(el, '::after') || '');
            return hasText(text) ? { name: flat(text.trim()), fromTitle: false } : NO_NAME;
          }
        }
      }
    }
    const name = flat(textAlternative(el, { visited: new Set(), includeHidden, target: 'self' }));
    const title = el.getAttribute('title');
    return { name, fromTitle: !!title && name === flat(title) };
  }

  const NO_NAME = Object.freeze({ name: '', fromTitle: false });
  /** Tags the host language names (accname step 2E) besides ARIA and content. */
  const HOST_NAMED = new Set(['input', 'textarea', 'select', 'button', 'output', 'fieldset', 'figure', 'table', 'img', 'area', 'optgroup']);

  /**
   * The accessible description of el (accname 1.2 and HTML-AAM): aria-describedby,
   * aria-description, then the title when it did not give the name.
   * @param {Element} el @param {boolean} includeHidden @param {boolean} nameFromTitle
   */
  function accessibleDescription(el, includeHidden, nameFromTitle) {
    if (el.hasAttribute('aria-describedby')) {
      const refs = idRefs(el, el.getAttribute('aria-describedby'));
      const text = refs.map(ref => textAlternative(ref, {
        visited: new Set(), includeHidden, describedBy: { hidden: hiddenForAria(ref) },
      })).join(' ');
      const desc = flat(text);
      if (desc)
        return desc;
    }
    if (el.hasAttribute('aria-description')) {
      const desc = flat(el.getAttribute('aria-description') || '');
      if (desc)
        return desc;
    }
    if (!nameFromTitle) {
      const title = flat(el.getAttribute('title') || '');
      if (title)
        return title;
    }
    return '';
  }

  // ---------------------------------------------------------------------------
  // States

  /** @param {string | null} v */
  function ariaTristate(v) {
    if (v === 'true')
      return 'true';
    if (v === 'mixed')
      return 'mixed';
    return 'false';
  }

  /** Whether aria-disabled="true" applies to el through its ancestors. @param {Element} el @returns {boolean} */
  function ariaDisabledChain(el) {
    const known = caches().ariaDisabled;
    let r = known.get(el);
    if (r === undefined) {
      const v = el.hasAttributes() ? (el.getAttribute('aria-disabled') || '').toLowerCase() : '';
      if (v === 'true' || v === 'false') {
        r = v === 'true';
      } else {
        const parent = parentOrHost(el);
        r = !!parent && ariaDisabledChain(parent);
      }
      known.set(el, r);
    }
    return r;
  }

  /**
   * Adds states that apply to el's role to node.
   * @param {Element} el @param {string} role @param {ScreenNode} node @param {boolean} hasAttrs
   */
  function addStates(el, role, node, hasAttrs) {
    const tag = isHTML(el) ? tagOf(el) : '';
    const input = tag === 'input' ? /** @type {HTMLInputElement} */ (el) : null;
    if (input && (input.type === 'checkbox' || input.type === 'radio')) {
      node.checked = input.type === 'checkbox' && input.indeterminate ? 'mixed' : String(input.checked);
    } else if (CHECKED_ROLES.has(role) || (CHECKED_IF_SET_ROLES.has(role) && el.hasAttribute('aria-checked'))) {
      node.checked = ariaTristate(el.getAttribute('aria-checked'));
    }
    if (role === 'button' && el.hasAttribute('aria-pressed'))
      node.pressed = ariaTristate(el.getAttribute('aria-pressed'));
    if (tag === 'details') {
      node.expanded = (/** @type {HTMLDetailsElement} */ (el)).open;
    } else if (EXPANDED_ROLES.has(role) && el.hasAttribute('aria-expanded')) {
      node.expanded = el.getAttribute('aria-expanded') === 'true';
    }
    if (tag === 'option') {
      node.selected = (/** @type {HTMLOptionElement} */ (el)).selected;
    } else if (SELECTED_ROLES.has(role) && el.hasAttribute('aria-selected')) {
      node.selected = el.getAttribute('aria-selected') === 'true';
    }
    if (nativelyDisabled(el) || (DISABLED_ROLES.has(role) && ariaDisabledChain(el)))
      node.disabled = true;
    if (tag.length === 2 && tag[0] === 'h' && tag[1] >= '1' && tag[1] <= '6') {
      node.level = tag.charCodeAt(1) - 48;
    } else if (LEVEL_ROLES.has(role)) {
      const level = Number(el.getAttribute('aria-level'));
      if (Number.isInteger(level) && level >= 1)
        node.level = level;
      else if (role === 'heading')
        node.level = 2; // ARIA's default level for role=heading
    }
    const native = tag === 'input' || tag === 'select' || tag === 'textarea';
    if ((native && el.hasAttribute('required')) || (REQUIRED_ROLES.has(role) && el.getAttribute('aria-required') === 'true'))
      node.required = true;
    if ((native && tag !== 'select' && el.hasAttribute('readonly')) || (READONLY_ROLES.has(role) && el.getAttribute('aria-readonly') === 'true'))
      node.readonly = true;
    const invalid = hasAttrs ? (el.getAttribute('aria-invalid') || '').trim().toLowerCase() : '';
    if ((invalid && invalid !== 'false') || (native && matchesSafely(el, ':user-invalid')))
      node.invalid = true;
  }

  /** @param {Element} el @param {string} selector */
  function matchesSafely(el, selector) {
    try {
      return el.matches(selector);
    } catch {
      return false;
    }
  }

  /**
   * The current value of a control, as a person sees it; undefined for
   * elements without one.
   * @param {Element} el @param {string} role
   * @returns {string | undefined}
   */
  function controlValue(el, role) {
    if (isHTML(el)) {
      const tag = tagOf(el);
      if (tag === 'input') {
        const input = /** @type {HTMLInputElement} */ (el);
        return VALUE_INPUT_TYPES.has(input.type) ? input.value : undefined;
      }
      if (tag === 'textarea')
        return (/** @type {HTMLTextAreaElement} */ (el)).value;
      if (tag === 'select')
        return Array.from((/** @type {HTMLSelectElement} */ (el)).selectedOptions).map(o => collapseSpaces(o.label)).join(', ');
      if (tag === 'progress' || tag === 'meter')
        return el.hasAttribute('value') ? String((/** @type {HTMLProgressElement} */ (el)).value) : undefined;
    }
    if (RANGE_ROLES.has(role)) {
      const v = el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow');
      return v === null ? undefined : v;
    }
    return undefined;
  }

  /** Text a button-like input shows. @param {HTMLInputElement} input */
  function inputCaption(input) {
    const type = input.type;
    if (type === 'button' || type === 'submit' || type === 'reset')
      return input.value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '');
    return '';
  }

  /** The text of the labels that label a control. @param {Element} el */
  function labelText(el) {
    const labels = labelsOf(el);
    if (labels.length)
      return flat(nameFromLabels(labels, { visited: new Set([el]), includeHidden: true }));
    const by = labelledByElements(el);
    if (by)
      return flat(by.map(ref => textAlternative(ref, { visited: new Set([el]), includeHidden: true, labelledBy: { hidden: true } })).join(' '));
    return flat(el.getAttribute('aria-label') || '');
  }

  /** Controls whose label a person uses to find them. @param {Element} el @param {string} role */
  function isLabelable(el, role) {
    return LABELABLE_ROLES.has(role) || (LABELABLE_TAGS.has(tagOf(el)) && isHTML(el));
  }

  const LABELABLE_TAGS = new Set(['input', 'select', 'textarea', 'meter', 'output', 'progress']);
  const LABELABLE_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'switch', 'slider', 'spinbutton', 'listbox']);

  /** @param {Element} el @param {string} role */
  function isInteractive(el, role) {
    if (INTERACTIVE_ROLES.has(role))
      return true;
    if (isHTML(el) && tagOf(el) === 'summary')
      return true;
    return el.hasAttributes() && hasValidTabIndex(el) && Number(el.getAttribute('tabindex')) >= 0;
  }

  // ---------------------------------------------------------------------------
  // Text: bottom-up, as a person reads it

  /** Separator a box puts around its text, by its display type. @param {string} display @param {string} tag */
  function separatorFor(display, tag) {
    if (tag === 'br')
      return '\n';
    if (display === 'inline' || display === 'contents' || display === 'none' || display === 'ruby' || display === 'ruby-text')
      return '';
    if (display.startsWith('inline') || display === 'table-cell')
      return ' ';
    return '\n';
  }

  /** Characters a text run drops or changes: soft hyphen, zero-width space, no-break space, icon glyphs. */
  const UNUSUAL_CHARACTERS = /[\u00ad\u200b\u00a0\ue000-\uf8ff]/;

  /**
   * Text of one text node as it renders: whitespace collapsed (line feeds
   * kept where CSS preserves them), soft hyphens and zero-width spaces
   * dropped, no-break spaces read as spaces.
   * @param {string} data @param {boolean} keepBreaks
   */
  function renderedRun(data, keepBreaks) {
    let s = data;
    if (UNUSUAL_CHARACTERS.test(s))
      s = s.replace(/[\u00ad\u200b]/g, '').replace(/\u00a0/g, ' ').replace(/[\ue000-\uf8ff]/g, '');
    if (keepBreaks)
      return s.replace(/\r\n?/g, '\n').replace(/[ \t\f]+/g, ' ');
    return s.replace(/[ \t\n\f\r]+/g, ' ');
  }

  /**
   * DESIGN §3 normalisation: collapse spaces and tabs, trim each line, drop
   * empty lines, keep line breaks.
   * @param {string} raw
   */
  function normalizeText(raw) {
    if (!NEEDS_NORMALIZING.test(raw))
      return raw;
    return raw.replace(/[ \t]+/g, ' ').replace(/ ?\n[ \n]*/g, '\n').replace(/^[ \n]+|[ \n]+$/g, '');
  }

  /** Text that is not yet normalised: edge space, double space, tab or line break. */
  const NEEDS_NORMALIZING = /^[ \n]|[ \n]$|[\t\n]| {2}/;

  /** @param {Element} el */
  function keepsLineBreaks(el) {
    const st = styleOf(el);
    if (!st)
      return false;
    const collapse = st.getPropertyValue('white-space-collapse');
    if (collapse)
      return collapse !== 'collapse';
    return /^(pre|pre-wrap|pre-line|break-spaces)$/.test(st.whiteSpace);
  }

  // ---------------------------------------------------------------------------
  // Capture

  /** @param {number} v */
  function round(v) {
    return Math.round(v * BOX_PRECISION) / BOX_PRECISION;
  }

  /**
   * @typedef {object} CaptureRun state of one capture call
   * @property {string[]} testIdAttributes
   * @property {boolean} coverInteractive
   * @property {Set<Element>} coverAlso
   * @property {CoverItem[]} toCover
   * @property {Map<Document, Walk>} walks
   */

  /**
   * @typedef {{el: Element, node: ScreenNode, x: number, y: number, doc: Document, via?: ScreenNode}} CoverItem
   * via: the root of the reused subtree the node came with (incremental captures)
   */

  /** @type {CaptureRun | null} */
  let run = null;

  /**
   * What an element gathers from its children while it is walked.
   * @typedef {object} Gathered
   * @property {ScreenNode[]} children
   * @property {string} raw text of the painted content
   * @property {string} latent text of the content as if shown
   * @property {boolean} shown a child is visible
   * @property {boolean} sensitive a text child shows a sensitive value
   */

  /**
   * Adds one run of text (consecutive text nodes) to what el gathers.
   * @param {Gathered} acc @param {string} data @param {boolean} keepBreaks
   * @param {boolean} visible @param {boolean} needLatent
   */
  function addTextRun(acc, data, keepBreaks, visible, needLatent) {
    if (showsSensitive(data)) {
      acc.sensitive = true;
      /** @type {ScreenNode} */
      const secretRun = { tag: '#text', secret: true };
      if (visible)
        secretRun.visible = true;
      acc.children.push(secretRun);
      return;
    }
    const runRaw = renderedRun(data, keepBreaks);
    if (visible)
      acc.raw += runRaw;
    if (needLatent)
      acc.latent += runRaw;
    const text = normalizeText(runRaw);
    if (!text)
      return;
    /** @type {ScreenNode} */
    const textNode = { text, tag: '#text' };
    if (visible) {
      textNode.visible = true;
      acc.shown = true;
    }
    acc.children.push(textNode);
  }

  /**
   * Walks el and its flat-tree subtree.
   * @param {Element} el @param {Walk} walk @param {Inherited} up @param {boolean} skipped the parent does not render this child
   * @param {Document | ShadowRoot} root the tree el belongs to
   * @returns {Visit | null}
   */
  function visitElementFull(el, walk, up, skipped, root) {
    const tag = tagOf(el);
    const html = isHTML(el);
    if (isOmitted(el, tag, html))
      return null;
    const r = /** @type {CaptureRun} */ (run);
    const c = caches();
    const hasAttrs = el.hasAttributes();
    /** @type {ScreenNode} */
    const node = { ref: walk.prefix + refName(walk.refs, el) };
    c.roots.set(el, root);

    const st = styleOf(el);
    const display = st ? st.display : 'inline';
    const ownNone = display === 'none';
    const gone = up.notRendered || skipped || ownNone;

    const ariaHidden = up.ariaHidden || (hasAttrs && el.getAttribute('aria-hidden') === 'true');
    const modal = walk.modal;
    const inModal = up.insideModal || el === modal;
    const inert = up.inert || (hasAttrs && el.hasAttribute('inert')) || (!!modal && !inModal && !containsAcross(el, modal));
    c.flags.set(el, NOT_RENDERED_KNOWN | ARIA_EXCLUDED_KNOWN | INSIDE_MODAL_KNOWN |
      (gone ? NOT_RENDERED : 0) | (ariaHidden || inert ? ARIA_EXCLUDED : 0) | (inModal ? INSIDE_MODAL : 0));

    // Options of a drop-down select only show in its popup: never painted here.
    const inSelect = up.inSelect;
    const styleShown = !st || st.visibility === 'visible';
    const paints = !gone && !up.clipped && !inSelect && styleShown;
    let x = 0, y = 0, width = 0, height = 0;
    const hasBox = !gone && display !== 'contents';
    if (hasBox) {
      const rect = el.getBoundingClientRect();
      x = rect.left;
      y = rect.top;
      width = rect.width;
      height = rect.height;
    }
    if (incRun && hasBox)
      incRun.boxes.set(el, [x, y, width, height]);
    const zeroSize = width <= 0 || height <= 0;
    const clipped = up.clipped || (hasBox && zeroSize && !!st && (st.overflowX !== 'visible' || st.overflowY !== 'visible'));

    const secretSubtree = up.secret || c.sensitiveElements.has(el);
    if (secretSubtree)
      c.markedSecret.set(el, true);
    // A hidden ancestor reads its text from what its content would show.
    const needLatent = up.needLatent || !paints;

    /** @type {Gathered} */
    const acc = { children: [], raw: '', latent: '', shown: false, sensitive: false };
    const pseudo = !gone && mayHavePseudoText(el);
    const beforeRaw = pseudo ? pseudoText(el, '::before') : undefined;
    const before = beforeRaw ? renderedRun(beforeRaw, false) : '';
    if (before) {
      if (paints)
        acc.raw += before;
      acc.latent += before;
    }

    const src = flatChildSource(el, tag, html);
    const list = Array.isArray(src) ? src : null;
    // Children in a shadow root are in that tree; assigned nodes in the host's.
    const kidRoot = list ? null : src === el ? root : /** @type {ShadowRoot} */ (src);
    /** @type {Node | null | undefined} */
    let kid = list ? list[0] : src ? /** @type {Node} */ (src).firstChild : null;
    if (kid) {
      /** @type {Inherited} */
      const down = {
        notRendered: gone, clipped, ariaHidden, inert, insideModal: inModal,
        secret: secretSubtree, inSelect: inSelect || (tag === 'select' && isSelectDropDown(el)), needLatent,
      };
      const skip = gone ? null : skippedChildren(el, tag);
      const textSkipped = !!skip && skip.all;
      const textVisible = paints && !textSkipped;
      /** @type {boolean | null} */
      let keepBreaks = null;
      let buffer = '';
      for (let i = 0; kid; kid = list ? list[++i] : kid.nextSibling) {
        const type = kid.nodeType;
        if (type === 3) {
          buffer += kid.nodeValue;
        } else if (type === 1) {
          const kidSkipped = textSkipped && kid !== /** @type {{except: Element | null}} */ (skip).except;
          if (buffer) {
            if (!secretSubtree) {
              if (keepBreaks === null)
                keepBreaks = keepsLineBreaks(el);
              addTextRun(acc, buffer, keepBreaks, textVisible, needLatent);
            }
            buffer = '';
          }
          const v = visitElement(/** @type {Element} */ (kid), walk, down, kidSkipped,
            kidRoot || /** @type {Document | ShadowRoot} */ (kid.getRootNode()));
          if (v) {
            acc.children.push(v.node);
            acc.raw += v.raw;
            if (needLatent && !v.ownNone)
              acc.latent += v.latent;
            if (v.shown)
              acc.shown = true;
          }
        }
      }
      if (buffer && !secretSubtree) {
        if (keepBreaks === null)
          keepBreaks = keepsLineBreaks(el);
        addTextRun(acc, buffer, keepBreaks, textVisible, needLatent);
      }
    }

    const afterRaw = pseudo ? pseudoText(el, '::after') : undefined;
    const after = afterRaw ? renderedRun(afterRaw, false) : '';
    if (after) {
      if (paints)
        acc.raw += after;
      acc.latent += after;
    }

    if (html && tag === 'input') {
      const caption = inputCaption(/** @type {HTMLInputElement} */ (el));
      if (caption) {
        if (paints)
          acc.raw += caption;
        acc.latent += caption;
      }
    } else if (html && tag === 'select' && isSelectDropDown(el)) {
      const chosen = Array.from((/** @type {HTMLSelectElement} */ (el)).selectedOptions).map(o => o.label).join(', ');
      acc.raw = paints ? chosen : '';
      acc.latent = chosen;
    }

    if (acc.sensitive)
      c.secret.set(el, true);
    const secret = isSecret(el);
    const visible = paints && (display === 'contents' ? acc.shown : !zeroSize);

    // Identity and role.
    const roleValue = roleOf(el);
    const role = roleValue || 'generic';
    node.role = role;
    const strictHidden = (html && IGNORED_FOR_ARIA.has(tag)) || gone || ariaHidden || inert ||
      (!styleShown && tag !== 'slot') || (inSelect && hiddenForAria(el));
    if (roleValue !== null || hasAttrs) {
      const { name, fromTitle } = accessibleName(el, strictHidden);
      if (name)
        node.name = name;
      if (hasAttrs) {
        const description = accessibleDescription(el, strictHidden, fromTitle);
        if (description)
          node.description = description;
      }
    }

    if (!secret) {
      const text = normalizeText(paints ? acc.raw : acc.latent);
      if (text)
        node.text = text;
    }
    node.tag = html ? tag : tag.toLowerCase();
    if (hasAttrs) {
      const id = el.getAttribute('id');
      if (id)
        node.id = id;
      for (const attr of r.testIdAttributes) {
        const v = el.getAttribute(attr);
        if (v !== null) {
          node.testId = v;
          break;
        }
      }
      const placeholder = el.getAttribute('placeholder') ?? el.getAttribute('aria-placeholder');
      if (placeholder)
        node.placeholder = placeholder;
      const title = el.getAttribute('title');
      if (title)
        node.title = title;
    }
    if (isLabelable(el, role)) {
      const label = labelText(el);
      if (label)
        node.label = label;
    }
    if (role === 'link') {
      const href = /** @type {HTMLAnchorElement} */ (el).href;
      const url = typeof href === 'string' ? href : (href && typeof href === 'object' ? String((/** @type {{baseVal?: string}} */ (href)).baseVal || '') : '');
      if (url)
        node.url = url;
    }
    if (!secret) {
      const value = controlValue(el, role);
      if (value)
        node.value = value;
    }
    if (roleValue !== null || hasAttrs)
      addStates(el, role, node, hasAttrs);

    if (hasBox)
      node.box = { x: round(x + walk.ox), y: round(y + walk.oy), width: round(width), height: round(height) };
    if (visible)
      node.visible = true;
    if (ariaHidden || inert)
      node.ariaHidden = true;
    if (inert)
      node.inert = true;
    if (secret)
      node.secret = true;

    if (html && (tag === 'iframe' || tag === 'frame') && !gone) {
      /** @type {Inherited} */
      const frameUp = {
        notRendered: false, clipped: false, ariaHidden, inert, insideModal: inModal,
        secret: secretSubtree, inSelect: false, needLatent,
      };
      visitFrame(/** @type {HTMLIFrameElement} */ (el), walk, frameUp, node, x, y, acc.children);
    }

    if (acc.children.length)
      node.children = acc.children;

    if (visible && (r.coverAlso.has(el) || (r.coverInteractive && isInteractive(el, role))))
      r.toCover.push({ el, node, x: x + width / 2, y: y + height / 2, doc: walk.doc });

    scrubSensitive(node);

    const sep = separatorFor(display, tag);
    const contributes = !secret && !node.secret;
    const raw = contributes ? acc.raw : '';
    return {
      node,
      raw: sep ? sep + raw + sep : raw,
      latent: needLatent ? sep + (contributes ? acc.latent : '') + sep : '',
      shown: visible || acc.shown,
      ownNone,
    };
  }

  /**
   * Walks the document of a same-origin frame into the tree, or marks a
   * cross-origin frame for its own page model to capture.
   * @param {HTMLIFrameElement} el @param {Walk} walk @param {Inherited} frameUp @param {ScreenNode} node
   * @param {number} x @param {number} y where the iframe's box starts in its document's viewport
   * @param {ScreenNode[]} children
   */
  function visitFrame(el, walk, frameUp, node, x, y, children) {
    const r = /** @type {CaptureRun} */ (run);
    /** @type {Document | null} */
    let doc = null;
    try {
      doc = el.contentDocument;
    } catch {
      doc = null;
    }
    if (doc && doc.documentElement) {
      const k = frameNumberOfDoc(walk.registry, doc);
      const prefix = walk.rootPrefix + 'f' + k;
      node.frame = prefix;
      const st = styleOf(el);
      // The frame's viewport starts at the iframe's content box.
      const padLeft = st ? parseFloat(st.paddingLeft) || 0 : 0;
      const padTop = st ? parseFloat(st.paddingTop) || 0 : 0;
      /** @type {Walk} */
      const inner = {
        doc, refs: refStateOf(doc), prefix, rootPrefix: walk.rootPrefix, registry: walk.registry,
        ox: walk.ox + x + el.clientLeft + padLeft,
        oy: walk.oy + y + el.clientTop + padTop,
        modal: modalOf(doc),
      };
      r.walks.set(doc, inner);
      const v = visitElement(doc.documentElement, inner, frameUp, false, doc);
      inner.refs.numbered = true;
      if (v)
        children.push(v.node);
    } else {
      const k = frameNumberOfRemote(walk.registry, el);
      node.frame = walk.rootPrefix + 'f' + k;
      node.crossOrigin = true;
    }
  }

  /**
   * The last guard for secrets: any string of the node that shows a value
   * marked sensitive is dropped, and the node becomes secret.
   * @param {ScreenNode} node
   */
  function scrubSensitive(node) {
    if (!caches().sensitiveValues.length)
      return;
    for (const key of /** @type {const} */ (['name', 'description', 'text', 'value', 'label', 'placeholder', 'title', 'url', 'id', 'testId'])) {
      if (showsSensitive(node[key])) {
        delete node[key];
        node.secret = true;
      }
    }
    if (node.secret) {
      delete node.value;
      delete node.text;
    }
  }

  /**
   * Whether a click at the centre of el would reach it.
   * @param {Element} el @param {number} x @param {number} y @returns {boolean | undefined}
   */
  function coveredAt(el, x, y) {
    const view = el.ownerDocument.defaultView;
    if (!view || x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight)
      return undefined;
    const root = /** @type {Document | ShadowRoot} */ (el.getRootNode());
    const hit = typeof root.elementFromPoint === 'function' ? root.elementFromPoint(x, y) : el.ownerDocument.elementFromPoint(x, y);
    if (!hit)
      return undefined;
    return !reaches(hit, el);
  }

  /** Whether a click on hit reaches target. @param {Element} hit @param {Element} target */
  function reaches(hit, target) {
    if (containsAcross(target, hit))
      return true;
    const label = hit.closest('label');
    return !!label && (/** @type {HTMLLabelElement} */ (label)).control === target;
  }

  /** The element that has focus, through shadow roots and same-origin frames. @param {Document} doc */
  function deepActiveElement(doc) {
    let active = doc.activeElement;
    for (;;) {
      if (!active)
        return null;
      if (active.shadowRoot && active.shadowRoot.activeElement) {
        active = active.shadowRoot.activeElement;
        continue;
      }
      if (tagOf(active) === 'iframe' || tagOf(active) === 'frame') {
        let inner = null;
        try {
          inner = /** @type {HTMLIFrameElement} */ (active).contentDocument;
        } catch {
          inner = null;
        }
        if (inner && inner.activeElement) {
          active = inner.activeElement;
          continue;
        }
      }
      return active;
    }
  }

  /** @param {unknown} v @param {string} what */
  function checkStringList(v, what) {
    if (v === undefined)
      return [];
    if (!Array.isArray(v) || v.some(x => typeof x !== 'string'))
      throw new TypeError(`page model: ${what} must be a list of strings`);
    return /** @type {string[]} */ (v);
  }

  /**
   * Captures the screen of this document (and the same-origin frames in it).
   * @param {CaptureOptions} [options] @returns {Screen}
   */
  function capture(options) {
    const opts = options || {};
    if (typeof opts !== 'object')
      throw new TypeError('page model: capture options must be an object');
    const testIdAttributes = opts.testIdAttributes === undefined ? DEFAULT_TEST_ID_ATTRIBUTES : checkStringList(opts.testIdAttributes, 'testIdAttributes');
    const sensitive = opts.sensitive || {};
    const sensitiveValues = checkStringList(sensitive.values, 'sensitive.values');
    const sensitiveRefs = checkStringList(sensitive.refs, 'sensitive.refs');
    const coverRefs = checkStringList(opts.coverRefs, 'coverRefs');
    const coverage = opts.coverage === undefined ? 'interactive' : opts.coverage;
    if (coverage !== 'interactive' && coverage !== 'none')
      throw new TypeError('page model: coverage must be "interactive" or "none"');
    const prefix = opts.refPrefix === undefined ? '' : opts.refPrefix;
    if (typeof prefix !== 'string' || !/^(f\d+)*$/.test(prefix))
      throw new TypeError('page model: refPrefix must look like "f3" (or "f3f1"), or be empty');

    const doc = document;
    const sensitiveElements = [...(sensitive.elements || [])];
    for (const ref of sensitiveRefs) {
      const found = resolveRef(doc, ref);
      if ('element' in found)
        sensitiveElements.push(found.element);
    }

    return withCaches({ values: sensitiveValues, elements: sensitiveElements }, () => {
      const refs = refStateOf(doc);
      /** @type {Walk} */
      const walk = { doc, refs, prefix, rootPrefix: prefix, registry: frameRegistryOf(refs), ox: 0, oy: 0, modal: modalOf(doc) };
      /** @type {Set<Element>} */
      const coverAlso = new Set();
      run = { testIdAttributes, coverInteractive: coverage === 'interactive', coverAlso, toCover: [], walks: new Map([[doc, walk]]) };
      try {
        for (const ref of coverRefs) {
          const found = resolveRef(doc, ref);
          if ('element' in found)
            coverAlso.add(found.element);
        }
        const rootEl = doc.documentElement;
        /** @type {Inherited} */
        const top = { notRendered: false, clipped: false, ariaHidden: false, inert: false, insideModal: false, secret: false, inSelect: false, needLatent: false };
        const v = rootEl ? visitElement(rootEl, walk, top, false, doc) : null;
        refs.numbered = true;
        for (const item of run.toCover) {
          const covered = coveredAt(item.el, item.x, item.y);
          if (incRun) {
            // A reused node keeps last capture's answer until it is asked again.
            if (item.node.covered !== covered) {
              if (covered === undefined)
                delete item.node.covered;
              else
                item.node.covered = covered;
              incRun.staleWire.add(item.via || item.node);
            }
          } else if (covered !== undefined) {
            item.node.covered = covered;
          }
        }
        const active = deepActiveElement(doc);
        let focused = '';
        if (active && active !== doc.body && active !== doc.documentElement) {
          const w = run.walks.get(active.ownerDocument);
          const n = w ? w.refs.numberOf.get(active) : undefined;
          if (w && n !== undefined)
            focused = w.prefix + 'e' + n;
        }
        /** @type {Screen} */
        const screen = {
          schema: SCREEN_SCHEMA,
          document: refs.token,
          url: redact(doc.location ? doc.location.href : doc.URL),
          title: redact(doc.title),
          viewport: { width: (doc.defaultView || window).innerWidth, height: (doc.defaultView || window).innerHeight },
          root: v ? v.node : { tag: 'html', role: 'document' },
        };
        if (focused)
          screen.focused = focused;
        return screen;
      } finally {
        run = null;
      }
    });
  }

  // ---------------------------------------------------------------------------
  // The wire form: the same screen, packed for a large transfer

  /** Boolean node fields packed into one number, bit i for entry i. Append only. */
  const WIRE_FLAGS = /** @type {const} */ (['visible', 'ariaHidden', 'inert', 'secret', 'disabled', 'required', 'readonly', 'invalid', 'crossOrigin']);
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
      return captureWireIncremental(options);
    const screen = capture(options);
    return JSON.stringify({ ...screen, root: wireNode(screen.root) });
  }

  /** Replaces sensitive values in a page-level string. @param {string} s */
  function redact(s) {
    let out = s || '';
    for (const v of caches().sensitiveValues) {
      if (out.includes(v))
        out = out.split(v).join('[secret]');
    }
    return out;
  }

  // ---------------------------------------------------------------------------
  // Incremental captures (captureWire({incremental: true}), used by the
  // recorder): the last capture's nodes are kept per element and reused for
  // the subtrees the page did not change since. What changed is learnt from
  // MutationObservers and from events; whatever may have changed without
  // either (a style sheet, the viewport, animations, hover or focus when a
  // rule depends on them) makes the capture a full one. A reused subtree's
  // root box is read again: any difference recomputes it.

  /**
   * @typedef {object} IncEntry what the last capture of an element gave
   * @property {Visit} visit
   * @property {string} key what its parent told it (Inherited, skipped, prefix, offsets)
   * @property {Node} root
   * @property {number[] | null} box the box as read (viewport of its document)
   * @property {CoverItem[]} cover hit tests in the subtree
   *
   * @typedef {object} IncCheck
   * @property {Element} el
   * @property {string} value
   * @property {boolean} checked
   * @property {boolean} indeterminate
   * @property {boolean} invalid
   * @property {Element[]} labels
   *
   * @typedef {object} IncState incremental capture state of one document
   * @property {Document} doc
   * @property {MutationObserver} observer
   * @property {WeakSet<Node>} observed trees (document, shadow roots) observed
   * @property {boolean} full the next capture must be a full one
   * @property {Set<Element>} dirtySub elements whose flat subtree is recomputed
   * @property {Set<Element>} dirtyPath elements recomputed themselves (their children may be reused)
   * @property {WeakMap<Element, IncEntry>} entries
   * @property {WeakMap<ScreenNode, string>} wire packed JSON text of each element node
   * @property {string} optionsKey
   * @property {Element[]} sensitiveElements
   * @property {string} viewKey viewport size and scroll
   * @property {Element | null} modal
   * @property {CSSStyleSheet[]} sheets
   * @property {number[]} sheetRules
   * @property {boolean} dynamicRules a rule uses :hover, :active or :focus
   * @property {boolean} hasRules a rule uses :has() (or a sheet cannot be read)
   * @property {Set<ShadowRoot>} shadowRoots shadow roots the captures met
   * @property {Map<Element, number[]>} scrollers elements that clip their overflow, with their scroll offsets
   * @property {Map<Element, IncCheck>} checks form controls whose nodes are kept, with what they showed
   * @property {Set<string>} labelFor the for attributes of the labels of the document and its shadow roots
   *
   * @typedef {object} IncRun one incremental capture
   * @property {IncState} st
   * @property {number} force depth inside a subtree recomputed whole
   * @property {boolean} pure whether the element being walked can be reused later
   * @property {Map<Element, number[]>} boxes boxes read by this capture
   * @property {Set<ScreenNode>} staleWire nodes whose packed text changed (covered)
   * @property {number} reused subtrees reused (for tests)
   */

  /** @type {IncState | null} */
  let inc = null;
  /** @type {IncRun | null} */
  let incRun = null;

  /** Tags whose node can depend on other parts of the page (labels, tables, frames, values). */
  const INC_NEVER_REUSED = new Set(['select', 'option', 'optgroup', 'th', 'iframe', 'frame',
    'legend', 'fieldset', 'datalist', 'dialog', 'details', 'summary', 'slot', 'video', 'audio', 'canvas', 'object',
    'embed', 'area', 'map']);
  /** Labelable elements: named by their labels, which can be anywhere (checked on reuse). */
  const INC_LABELABLE = new Set(['button', 'meter', 'output', 'progress', 'input', 'textarea']);
  const INC_IDREF_ATTRS = ['aria-labelledby', 'aria-describedby', 'aria-owns', 'aria-activedescendant', 'aria-controls',
    'contenteditable', 'popover'];

  /**
   * Whether el's node may change without a change in its own subtree.
   * @param {Element} el @param {CSSStyleDeclaration | null} st
   */
  function incImpure(el, st) {
    const tag = tagOf(el);
    if (INC_NEVER_REUSED.has(tag) || !isHTML(el) && el.namespaceURI !== SVG_NS)
      return true;

    if (el.hasAttributes()) {
      for (const a of INC_IDREF_ATTRS) {
        if (el.hasAttribute(a))
          return true;
      }
    }
    if (el.shadowRoot)
      return true; // a slot's assigned nodes
    if (INC_LABELABLE.has(tag) && secretControl(el))
      return true; // its value is never kept
    if (!st)
      return true;
    const pos = st.position;
    if (pos === 'absolute' || pos === 'sticky' || pos === 'fixed' || st.float !== 'none')
      return true;
    if (mayHavePseudoText(el))
      return true; // counters
    return false;
  }

  /**
   * What a reused node of a form control depends on beyond its subtree: its
   * state (which can change without a mutation) and its labels. Which labels
   * name an element changes only as labels come and go, change their for, or
   * ids change: those make the capture a full one.
   * @param {Element} el @returns {IncCheck | null}
   */
  function incCheckOf(el) {
    if (!isHTML(el) || !INC_LABELABLE.has(tagOf(el)))
      return null;
    const c = /** @type {HTMLInputElement} */ (el);
    return {
      el, value: 'value' in c ? String(c.value) : '', checked: !!c.checked, indeterminate: !!c.indeterminate,
      invalid: matchesSafely(el, ':user-invalid'), labels: c.labels ? Array.from(c.labels) : [],
    };
  }

  /** Whether what check recorded still holds. @param {IncState} st @param {IncCheck} check */
  function incCheckHolds(st, check) {
    const c = /** @type {HTMLInputElement} */ (check.el);
    if (('value' in c ? String(c.value) : '') !== check.value || !!c.checked !== check.checked ||
      !!c.indeterminate !== check.indeterminate || matchesSafely(c, ':user-invalid') !== check.invalid)
      return false;
    // Which labels a control has changes only with changes that make the
    // capture a full one (see incLabelsMayChange).
    for (const label of check.labels) {
      if (st.dirtyPath.has(label))
        return false;
      for (let a = /** @type {Element | null} */ (label); a; a = flatParent(a) || parentOrHost(a)) {
        if (st.dirtySub.has(a))
          return false;
      }
    }
    return true;
  }

  /**
   * Walks el, reusing its last node when nothing it depends on changed.
   * @param {Element} el @param {Walk} walk @param {Inherited} up @param {boolean} skipped
   * @param {Document | ShadowRoot} root @returns {Visit | null}
   */
  function visitElement(el, walk, up, skipped, root) {
    const ir = incRun;
    if (!ir)
      return visitElementFull(el, walk, up, skipped, root);
    const st = ir.st;
    const key = (up.notRendered ? 'n' : '') + (up.clipped ? 'c' : '') + (up.ariaHidden ? 'a' : '') +
      (up.inert ? 'i' : '') + (up.insideModal ? 'm' : '') + (up.secret ? 's' : '') + (up.inSelect ? 'o' : '') +
      (up.needLatent ? 'l' : '') + (skipped ? 'k' : '') + '|' + walk.prefix + '|' + walk.ox + '|' + walk.oy;
    const frameDoc = walk.doc !== st.doc;
    const r = /** @type {CaptureRun} */ (run);
    if (ir.force === 0 && !frameDoc && !st.dirtyPath.has(el) && !st.dirtySub.has(el)) {
      const e = st.entries.get(el);
      if (e && e.key === key && e.root === root) {
        let same = true;
        if (e.box) {
          const rect = el.getBoundingClientRect();
          same = rect.left === e.box[0] && rect.top === e.box[1] && rect.width === e.box[2] && rect.height === e.box[3];
        }
        if (same) {
          for (const item of e.cover)
            r.toCover.push({ el: item.el, node: item.node, x: item.x, y: item.y, doc: item.doc, via: e.visit.node });
          ir.reused++;
          return e.visit;
        }
      }
    }
    const whole = st.dirtySub.has(el);
    if (whole)
      ir.force++;
    const outerPure = ir.pure;
    ir.pure = true;
    const coverStart = r.toCover.length;
    /** @type {Visit | null} */
    let v;
    try {
      v = visitElementFull(el, walk, up, skipped, root);
    } finally {
      if (whole)
        ir.force--;
    }
    if (!v) {
      ir.pure = outerPure;
      return v;
    }
    if (el.shadowRoot && !frameDoc && !st.shadowRoots.has(el.shadowRoot)) {
      st.shadowRoots.add(el.shadowRoot);
      incObserve(st, el.shadowRoot);
      for (const label of Array.from(el.shadowRoot.querySelectorAll('label[for]')))
        st.labelFor.add(/** @type {HTMLLabelElement} */ (label).htmlFor);
    }
    const elStyle = caches().style.get(el) || null;
    if (elStyle && !frameDoc && (elStyle.overflowX !== 'visible' || elStyle.overflowY !== 'visible'))
      st.scrollers.set(el, [el.scrollTop, el.scrollLeft]);
    const box = ir.boxes.get(el) || null;
    const pure = ir.pure && !frameDoc && !incImpure(el, elStyle);
    ir.pure = outerPure && pure;
    if (pure) {
      const check = incCheckOf(el);
      if (check)
        st.checks.set(el, check);
      st.entries.set(el, { visit: v, key, root, box, cover: r.toCover.slice(coverStart) });
    }
    else
      st.entries.delete(el);
    return v;
  }

  /** Marks el to be recomputed with its subtree, its later siblings and its ancestors. @param {IncState} st @param {Node | null} n */
  function incMark(st, n) {
    if (!n)
      return;
    if (n.nodeType === 11) {
      const host = /** @type {ShadowRoot} */ (n).host;
      if (host)
        incMark(st, host);
      return;
    }
    if (n.nodeType !== 1) {
      incMark(st, n.parentNode);
      return;
    }
    const el = /** @type {Element} */ (n);
    st.dirtySub.add(el);
    // Sibling combinators: a change may restyle later siblings.
    for (let sib = el.nextElementSibling; sib; sib = sib.nextElementSibling)
      st.dirtySub.add(sib);
    incMarkPath(st, el);
  }

  /** Marks the flat-tree and DOM ancestors of n as recomputed. @param {IncState} st @param {Node} n */
  function incMarkPath(st, n) {
    for (let p = flatParent(n); p && !st.dirtyPath.has(p); p = flatParent(p))
      st.dirtyPath.add(p);
    for (let p = n.parentNode; p; p = p.parentNode) {
      if (p.nodeType === 11)
        p = /** @type {ShadowRoot} */ (p).host;
      if (!p || p.nodeType !== 1 || st.dirtyPath.has(/** @type {Element} */ (p)))
        break;
      st.dirtyPath.add(/** @type {Element} */ (p));
    }
  }

  const STYLE_TAGS = new Set(['style', 'link']);

  /** Whether n is or holds a style or link element. @param {Node} n */
  function holdsStyle(n) {
    if (n.nodeType !== 1)
      return false;
    const el = /** @type {Element} */ (n);
    return STYLE_TAGS.has(tagOf(el)) || !!el.querySelector('style, link');
  }

  /** Whether n is or holds a label element. @param {Node} n */
  function holdsLabel(n) {
    if (n.nodeType !== 1)
      return false;
    const el = /** @type {Element} */ (n);
    return tagOf(el) === 'label' || !!el.querySelector('label');
  }

  const LABELABLE_SELECTOR = 'button, input, meter, output, progress, select, textarea';

  /**
   * Whether adding or removing n under parent may change which labels name
   * a control: an element with an id that a label's for names (ids can be
   * duplicated), or a control inside a label without for.
   * @param {IncState} st @param {Node} parent @param {Node} n
   */
  function incLabelsMayChange(st, parent, n) {
    if (n.nodeType !== 1)
      return false;
    const el = /** @type {Element} */ (n);
    if (st.labelFor.size) {
      if (el.id && st.labelFor.has(el.id))
        return true;
      for (const withId of Array.from(el.querySelectorAll('[id]'))) {
        if (st.labelFor.has(withId.id))
          return true;
      }
    }
    const inLabel = parent.nodeType === 1 && !!(/** @type {Element} */ (parent)).closest('label');
    return inLabel && (el.matches(LABELABLE_SELECTOR) || !!el.querySelector(LABELABLE_SELECTOR));
  }

  /** @param {IncState} st @param {MutationRecord[]} records */
  function incRecords(st, records) {
    for (const m of records) {
      if (st.full)
        return;
      const t = m.target;
      const owner = t.nodeType === 1 ? /** @type {Element} */ (t) : t.parentElement;
      if (owner && STYLE_TAGS.has(tagOf(owner))) {
        st.full = true;
        return;
      }
      if (m.type === 'childList') {
        for (const list of [m.addedNodes, m.removedNodes]) {
          for (const n of Array.from(list)) {
            if (holdsStyle(n) || holdsLabel(n) || incLabelsMayChange(st, t, n)) {
              st.full = true;
              return;
            }
          }
        }
        incMark(st, t);
      } else if (m.type === 'characterData') {
        incMark(st, t.parentNode);
      } else {
        if (m.attributeName === 'id' || m.attributeName === 'for') {
          st.full = true;
          return;
        }
        incMark(st, t);
        // Slot assignment, and anything a shadow host's light child changes.
        const p = /** @type {Element} */ (t).parentElement;
        if (p && p.shadowRoot)
          incMark(st, p);
      }
    }
  }

  const INC_FULL_EVENTS = ['animationstart', 'animationend', 'animationcancel', 'transitionrun',
    'transitionend', 'transitioncancel', 'toggle', 'hashchange', 'fullscreenchange'];
  const INC_MARK_EVENTS = ['input', 'change', 'load', 'error', 'scroll', 'focusout', 'reset', 'invalid'];
  const INC_DYNAMIC_EVENTS = ['pointerover', 'pointerout', 'pointerdown', 'pointerup', 'focusin', 'focusout',
    'mouseover', 'mouseout', 'mousedown', 'mouseup'];

  /** @param {IncState} st @param {Document | ShadowRoot} tree */
  function incObserve(st, tree) {
    if (st.observed.has(tree))
      return;
    st.observed.add(tree);
    st.observer.observe(tree, { subtree: true, childList: true, attributes: true, characterData: true });
    const opts = { capture: true, passive: true };
    // On the window, a document's listeners run before any the page (or
    // the recorder) has on the document: a capture made in one of those
    // already knows.
    /** @type {EventTarget} */
    const on = tree.nodeType === 9 ? /** @type {Document} */ (tree).defaultView || tree : tree;
    for (const type of INC_FULL_EVENTS) {
      on.addEventListener(type, (e) => {
        // A details element's toggle is its open attribute, seen as a mutation.
        const target = /** @type {Element} */ (e.composedPath()[0]);
        if (!(type === 'toggle' && target && target.nodeType === 1 && tagOf(target) === 'details'))
          st.full = true;
      }, opts);
    }
    for (const type of INC_MARK_EVENTS) {
      on.addEventListener(type, (e) => {
        const target = e.composedPath()[0];
        if (!target || (/** @type {Node} */ (target)).nodeType !== 1) {
          // The viewport scrolled (the viewport check sees it), the page loaded.
          if (type !== 'scroll')
            st.full = true;
          return;
        }
        incMark(st, /** @type {Node} */ (target));
        const input = /** @type {HTMLInputElement} */ (target);
        if (tagOf(input) === 'input' && input.type === 'radio' && input.name) {
          // Its group's other radios were unchecked.
          const scope = input.form || input.getRootNode();
          for (const other of Array.from(/** @type {ParentNode} */ (scope).querySelectorAll('input[type=radio]')))
            incMark(st, other);
        }
        if (tagOf(input) === 'form' || type === 'reset')
          incMark(st, input);
      }, opts);
    }
    for (const type of INC_DYNAMIC_EVENTS) {
      on.addEventListener(type, () => {
        if (st.dynamicRules)
          st.full = true;
      }, opts);
    }
  }

  /** @param {Document} doc @returns {IncState} */
  function incStateOf(doc) {
    if (inc && inc.doc === doc)
      return inc;
    /** @type {IncState} */
    const st = {
      doc, observer: new MutationObserver((records) => incRecords(st, records)), observed: new WeakSet(),
      full: true, dirtySub: new Set(), dirtyPath: new Set(), entries: new WeakMap(), wire: new WeakMap(),
      optionsKey: '', sensitiveElements: [], viewKey: '', modal: null, sheets: [], sheetRules: [],
      dynamicRules: true, hasRules: true, shadowRoots: new Set(), scrollers: new Map(), checks: new Map(), labelFor: new Set(),
    };
    incObserve(st, doc);
    if (doc.fonts)
      doc.fonts.addEventListener('loadingdone', () => { st.full = true; });
    inc = st;
    return st;
  }

  /** Every style sheet of the document and the shadow roots observed. @param {IncState} st */
  function incSheets(st) {
    /** @type {CSSStyleSheet[]} */
    const sheets = [];
    /** @param {Document | ShadowRoot} tree */
    const add = (tree) => {
      for (const s of Array.from(tree.styleSheets))
        sheets.push(/** @type {CSSStyleSheet} */ (s));
      for (const s of tree.adoptedStyleSheets || [])
        sheets.push(s);
    };
    add(st.doc);
    for (const root of st.shadowRoots)
      add(root);
    return sheets;
  }

  /** Scans rules for pseudo-classes that change without a DOM change. @param {IncState} st @param {CSSStyleSheet[]} sheets */
  function incScanRules(st, sheets) {
    st.dynamicRules = false;
    st.hasRules = false;
    for (const sheet of sheets) {
      let rules;
      try {
        rules = sheet.cssRules;
      } catch {
        st.hasRules = true; // cannot be read: assume the worst
        continue;
      }
      for (const rule of Array.from(rules)) {
        const text = rule.cssText;
        if (text.includes(':has('))
          st.hasRules = true;
        if (/:(hover|active|focus)/.test(text))
          st.dynamicRules = true;
      }
    }
  }

  /** Packs a node into JSON text, reusing the text of nodes packed before. @param {IncState} st @param {ScreenNode} n @returns {string} */
  function wireJSON(st, n) {
    if (n.tag === '#text' || !n.children)
      return JSON.stringify(wireNode(n));
    const cached = st.wire.get(n);
    if (cached !== undefined)
      return cached;
    // With children the packed array keeps all nine entries (no trailing zero).
    const head = JSON.stringify(wireHead(n));
    let out = head.slice(0, -1) + ',[';
    const kids = n.children;
    for (let i = 0; i < kids.length; i++)
      out += (i ? ',' : '') + wireJSON(st, kids[i]);
    out += ']]';
    st.wire.set(n, out);
    return out;
  }

  /** Drops the packed text of a node and everything below it. @param {IncState} st @param {ScreenNode} n */
  function forgetWire(st, n) {
    st.wire.delete(n);
    if (n.children) {
      for (const c of n.children)
        forgetWire(st, c);
    }
  }

  /** @param {Element[]} a @param {Element[]} b */
  function sameList(a, b) {
    return a.length === b.length && a.every((x, i) => x === b[i]);
  }

  /**
   * captureWire, reusing what the last incremental capture of this document
   * found for the parts of the page that did not change since.
   * @param {CaptureOptions} options @returns {string}
   */
  function captureWireIncremental(options) {
    const doc = document;
    const st = incStateOf(doc);
    incRecords(st, st.observer.takeRecords());
    // A box scrolled (no event may have come yet): its content moved.
    for (const [el, at] of st.scrollers) {
      if (!el.isConnected)
        st.scrollers.delete(el);
      else if (el.scrollTop !== at[0] || el.scrollLeft !== at[1])
        incMark(st, el);
    }
    for (const shadow of st.shadowRoots) {
      if (!shadow.host.isConnected)
        st.shadowRoots.delete(shadow); // still observed if it comes back
    }
    // A control's value, checked state or labels changed (a script can set
    // them without an event): it and what its state restyles are recomputed.
    for (const [el, check] of st.checks) {
      if (!el.isConnected)
        st.checks.delete(el);
      else if (!incCheckHolds(st, check))
        incMark(st, el);
    }
    const sens = options.sensitive || {};
    const optionsKey = JSON.stringify([options.testIdAttributes, options.coverage, options.coverRefs,
      options.refPrefix, sens.refs, sens.values]);
    const sensitiveElements = [...(sens.elements || [])];
    const view = doc.defaultView || window;
    const viewKey = [view.innerWidth, view.innerHeight, view.scrollX, view.scrollY].join(',');
    let modal = null;
    try {
      const all = doc.querySelectorAll(':modal');
      modal = all.length ? all[all.length - 1] : null;
    } catch {
      modal = null;
    }
    const sheets = incSheets(st);
    const sheetRules = sheets.map((s) => {
      try {
        return s.cssRules.length;
      } catch {
        return -1;
      }
    });
    const sheetsChanged = !sameList(/** @type {any[]} */ (sheets), /** @type {any[]} */ (st.sheets)) ||
      sheetRules.some((n, i) => n !== st.sheetRules[i]);
    if (sheetsChanged)
      incScanRules(st, sheets);
    const full = options.fresh === true || st.full || sheetsChanged || st.hasRules || optionsKey !== st.optionsKey || viewKey !== st.viewKey ||
      modal !== st.modal || !sameList(sensitiveElements, st.sensitiveElements) || !!(sens.values && sens.values.length) ||
      (typeof doc.getAnimations === 'function' && doc.getAnimations().length > 0);
    if (full) {
      st.entries = new WeakMap();
      st.wire = new WeakMap();
      st.scrollers.clear();
      st.checks.clear();
    }
    /** @type {IncRun} */
    const ir = { st, force: full ? 1 : 0, pure: true, boxes: new Map(), staleWire: new Set(), reused: 0 };
    incRun = ir;
    /** @type {Screen} */
    let screen;
    try {
      screen = capture(options);
    } finally {
      incRun = null;
      st.dirtySub.clear();
      st.dirtyPath.clear();
    }
    // Anything the walk saw since (it changes nothing) is not a change.
    st.observer.takeRecords();
    st.full = false;
    st.optionsKey = optionsKey;
    st.viewKey = viewKey;
    st.modal = modal;
    st.sensitiveElements = sensitiveElements;
    st.sheets = sheets;
    st.sheetRules = sheetRules;
    for (const n of ir.staleWire)
      forgetWire(st, n);
    if (full) {
      // Labels come and go only with a full capture: what they name stays.
      st.labelFor.clear();
      for (const tree of [doc, ...st.shadowRoots]) {
        for (const label of Array.from(tree.querySelectorAll('label[for]')))
          st.labelFor.add(/** @type {HTMLLabelElement} */ (label).htmlFor);
      }
    }
    lastIncremental = { full, reused: ir.reused };
    const text = JSON.stringify({ ...screen, root: 0 });
    const at = text.lastIndexOf(',"root":0');
    return text.slice(0, at) + ',"root":' + wireJSON(st, screen.root) + text.slice(at + 9);
  }

  /** What the last incremental capture did (for tests). @type {{full: boolean, reused: number} | null} */
  let lastIncremental = null;

  // ---------------------------------------------------------------------------
  // Refs back to elements

  /**
   * Numbers every element of doc in document order without capturing, so a
   * ref asked for before the first capture gets the number a capture would
   * have given it.
   * @param {Document} doc
   */
  function ensureNumbered(doc) {
    const state = refStateOf(doc);
    if (state.numbered || !doc.documentElement)
      return;
    withCaches({}, () => {
      /** @param {Element} el */
      const walk = (el) => {
        if (isOmitted(el))
          return;
        refNumber(state, el);
        const kids = flatChildren(el);
        if (!kids)
          return;
        for (let i = 0; i < kids.length; i++) {
          const kid = kids[i];
          if (isElement(kid))
            walk(kid);
        }
      };
      walk(/** @type {Element} */ (doc.documentElement));
    });
    state.numbered = true;
  }

  /**
   * The element a ref names in doc, or why there is none.
   * @param {Document} doc @param {string} ref @returns {RefFound | RefError}
   */
  function resolveRef(doc, ref) {
    if (typeof ref !== 'string')
      return { error: 'bad-ref', message: 'a ref is a string like "e12" or "f1e3"' };
    const m = /^(?:f(\d+))?e(\d+)$/.exec(ref);
    const chain = /^f(\d+)(f\d+.*)$/.exec(ref);
    if (!m && !chain)
      return { error: 'bad-ref', message: `"${ref}" is not a ref: refs look like "e12", or "f1e3" inside frame 1` };
    let target = doc;
    const frameNumber = chain ? Number(chain[1]) : m && m[1] ? Number(m[1]) : 0;
    if (frameNumber) {
      const reg = refStateOf(doc).frames;
      const entry = reg ? reg.byNumber.get(frameNumber) : undefined;
      if (!entry)
        return { error: 'unknown', message: `ref ${ref}: no frame f${frameNumber} has been captured in this page` };
      if (entry.remote) {
        const remote = entry.remote;
        const iframe = remote.iframe.deref();
        if (!iframe || !iframe.isConnected)
          return { error: 'stale', message: `ref ${ref}: frame f${frameNumber} is gone from the page` };
        if (reg && reg.numberOfRemote.get(iframe) !== remote)
          return { error: 'stale', message: `ref ${ref}: frame f${frameNumber} has loaded another document since` };
        if (!remote.token)
          return { error: 'unknown', message: `ref ${ref}: the content of frame f${frameNumber} was never captured` };
        return {
          error: 'cross-origin', message: `ref ${ref} is inside cross-origin frame f${frameNumber}; ask the page model of that frame`,
          frame: 'f' + frameNumber, rest: chain ? chain[2] : 'e' + (m ? m[2] : ''), token: remote.token,
        };
      }
      const frameDoc = entry.doc ? entry.doc.deref() : undefined;
      if (!frameDoc || !frameDoc.defaultView || !frameDoc.defaultView.frameElement || !frameDoc.defaultView.frameElement.isConnected)
        return { error: 'stale', message: `ref ${ref}: the document of frame f${frameNumber} is gone` };
      if (chain)
        return resolveRef(frameDoc, chain[2]);
      target = frameDoc;
    }
    const n = Number(m ? m[2] : 0);
    // Numbering is the same on every load of an unchanged page, so a ref
    // asked for before this document's first capture means what it meant.
    ensureNumbered(target);
    const state = refStateOf(target);
    const weak = state.elementOf.get(n);
    if (!weak) {
      if (n >= 1 && n < state.next)
        return { error: 'stale', message: `ref ${ref}: its element is gone from the page` };
      return { error: 'unknown', message: `ref ${ref} was never given out in this page` };
    }
    const el = weak.deref();
    if (!el || !el.isConnected || el.ownerDocument !== target)
      return { error: 'stale', message: `ref ${ref}: its element is gone from the page` };
    return { element: el };
  }

  /**
   * The ref of an element (numbered now if the page was never captured).
   * @param {Element} el @returns {string}
   */
  function refForElement(el) {
    if (!el || el.nodeType !== 1)
      throw new TypeError('page model: refForElement needs an element');
    const doc = el.ownerDocument;
    ensureNumbered(document);
    if (doc === document)
      return 'e' + refNumber(refStateOf(doc), el);
    const reg = frameRegistryOf(refStateOf(document));
    ensureNumbered(doc);
    return 'f' + frameNumberOfDoc(reg, doc) + 'e' + refNumber(refStateOf(doc), el);
  }

  /**
   * The element a ref names: {element} or {error, message}. error is one of
   * "bad-ref", "unknown", "stale" or "cross-origin" (then frame and rest say
   * which frame's page model to ask, and with which ref).
   * @param {string} ref @returns {RefFound | RefError}
   */
  function elementForRef(ref) {
    return resolveRef(document, ref);
  }

  /**
   * The iframe element that holds the frame with this ref prefix ("f3"): the
   * caller captures a cross-origin frame through it.
   * @param {string} frame @returns {RefFound | RefError}
   */
  function frameElement(frame) {
    const m = typeof frame === 'string' ? /^f(\d+)$/.exec(frame) : null;
    if (!m)
      return { error: 'bad-ref', message: `"${frame}" is not a frame prefix like "f3"` };
    const k = Number(m[1]);
    const reg = refStateOf(document).frames;
    const entry = reg ? reg.byNumber.get(k) : undefined;
    if (!reg || !entry)
      return { error: 'unknown', message: `no frame ${frame} has been captured in this page` };
    let el = entry.remote ? entry.remote.iframe.deref() : undefined;
    if (entry.remote) {
      if (!el || !el.isConnected || reg.numberOfRemote.get(el) !== entry.remote)
        return { error: 'stale', message: `frame ${frame} is gone or has loaded another document` };
    } else {
      const doc = entry.doc ? entry.doc.deref() : undefined;
      el = doc && doc.defaultView && doc.defaultView.frameElement ? doc.defaultView.frameElement : undefined;
      if (!el || !el.isConnected)
        return { error: 'stale', message: `frame ${frame} is gone` };
    }
    return { element: el };
  }

  /**
   * Binds cross-origin frame `frame` ("f3") to the token of the document the
   * caller found in it (Screen.document of that frame's capture). The answer
   * is the frame's prefix from now on: the same, or a new one when the frame
   * shows another document than the one bound before; then the caller
   * renames the refs it captured there.
   * @param {string} frame @param {string} token @returns {{frame: string} | RefError}
   */
  function bindFrame(frame, token) {
    const m = typeof frame === 'string' ? /^f(\d+)$/.exec(frame) : null;
    if (!m || typeof token !== 'string' || !token)
      return { error: 'bad-ref', message: 'bindFrame needs a frame prefix like "f3" and a document token' };
    const reg = refStateOf(document).frames;
    const entry = reg ? reg.byNumber.get(Number(m[1])) : undefined;
    const remote = entry && entry.remote;
    const iframe = remote ? remote.iframe.deref() : undefined;
    if (!reg || !remote || !iframe || !iframe.isConnected || reg.numberOfRemote.get(iframe) !== remote)
      return { error: 'stale', message: `frame ${frame} is gone or was renumbered` };
    if (!remote.token || remote.token === token) {
      remote.token = token;
      return { frame };
    }
    return { frame: 'f' + newRemoteFrame(reg, iframe, token).k };
  }

  /** The token of this document (Screen.document). */
  function documentToken() {
    return refStateOf(document).token;
  }

  /**
   * Where the content box of an iframe starts in its document's viewport:
   * boxes captured inside the frame move by this much.
   * @param {Element} iframe
   */
  function contentOrigin(iframe) {
    const r = iframe.getBoundingClientRect();
    const view = iframe.ownerDocument.defaultView;
    const st = view ? view.getComputedStyle(iframe) : null;
    return {
      x: r.left + iframe.clientLeft + (st ? parseFloat(st.paddingLeft) || 0 : 0),
      y: r.top + iframe.clientTop + (st ? parseFloat(st.paddingTop) || 0 : 0),
    };
  }

  /** Offset of el's document viewport within the top viewport. @param {Element} el */
  function frameOffset(el) {
    let x = 0, y = 0;
    /** @type {Window | null} */
    let view = el.ownerDocument.defaultView;
    while (view && view !== window) {
      const frame = view.frameElement;
      if (!frame)
        break;
      const origin = contentOrigin(frame);
      x += origin.x;
      y += origin.y;
      view = frame.ownerDocument.defaultView;
    }
    return { x, y };
  }

  /**
   * Where to click el: the centre of its box in top-viewport CSS pixels, and
   * what a click there would hit.
   * @param {string} ref
   */
  function point(ref) {
    const found = elementForRef(ref);
    if (!('element' in found))
      return found;
    const el = found.element;
    return withCaches({}, () => {
      const rect = el.getBoundingClientRect();
      const off = frameOffset(el);
      const cx = rect.left + rect.width / 2;
      const cy = rect.top + rect.height / 2;
      const view = el.ownerDocument.defaultView;
      const inViewport = !!view && cx >= 0 && cy >= 0 && cx < view.innerWidth && cy < view.innerHeight;
      const root = /** @type {Document | ShadowRoot} */ (el.getRootNode());
      const hit = inViewport ? (typeof root.elementFromPoint === 'function' ? root.elementFromPoint(cx, cy) : el.ownerDocument.elementFromPoint(cx, cy)) : null;
      /** @type {{x: number, y: number, box: Box, inViewport: boolean, covered?: boolean, hit?: string}} */
      const out = {
        x: round(cx + off.x), y: round(cy + off.y),
        box: { x: round(rect.left + off.x), y: round(rect.top + off.y), width: round(rect.width), height: round(rect.height) },
        inViewport,
      };
      if (hit) {
        out.covered = !reaches(hit, el);
        out.hit = refForElement(hit);
      }
      return out;
    });
  }

  /**
   * Scrolls el into the middle of the viewport (no smooth scrolling) and
   * says where to click it.
   * @param {string} ref
   */
  function scrollIntoView(ref) {
    const found = elementForRef(ref);
    if (!('element' in found))
      return found;
    found.element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    return point(ref);
  }

  /**
   * The ref of the element at a point of the top viewport, through shadow
   * roots and same-origin frames; empty when nothing is there.
   * @param {number} x @param {number} y
   */
  function hitTest(x, y) {
    if (typeof x !== 'number' || typeof y !== 'number')
      throw new TypeError('page model: hitTest needs two numbers');
    /** @type {Document | ShadowRoot} */
    let root = document;
    let lx = x, ly = y;
    /** @type {Element | null} */
    let hit = null;
    for (let depth = 0; depth < 64; depth++) {
      /** @type {Element | null} */
      const found = root.elementFromPoint(lx, ly);
      if (!found || found === hit)
        break;
      hit = found;
      if (found.shadowRoot) {
        root = found.shadowRoot;
        continue;
      }
      if (tagOf(found) === 'iframe' || tagOf(found) === 'frame') {
        let inner = null;
        try {
          inner = /** @type {HTMLIFrameElement} */ (found).contentDocument;
        } catch {
          inner = null;
        }
        if (inner) {
          const origin = contentOrigin(found);
          lx -= origin.x;
          ly -= origin.y;
          root = inner;
          continue;
        }
      }
      break;
    }
    return { ref: hit ? refForElement(hit) : '' };
  }

  /**
   * One node as a capture would report it, without its children; for a
   * recorder that needs the node it is about to act on, and for tests.
   * includeHidden:false names a hidden node the strict accname way (empty).
   * @param {string | Element} target @param {{includeHidden?: boolean} & CaptureOptions} [options]
   */
  function describe(target, options) {
    const opts = options || {};
    /** @type {Element} */
    let el;
    if (typeof target === 'string') {
      const found = elementForRef(target);
      if (!('element' in found))
        return found;
      el = found.element;
    } else if (target && target.nodeType === 1) {
      el = target;
    } else {
      throw new TypeError('page model: describe needs a ref or an element');
    }
    const ref = refForElement(el);
    const sensitive = opts.sensitive || {};
    return withCaches({ values: checkStringList(sensitive.values, 'sensitive.values'), elements: sensitive.elements }, () => {
      if (opts.includeHidden === false) {
        const role = roleOf(el) || 'generic';
        const hidden = hiddenForAria(el);
        const { name, fromTitle } = hidden ? { name: '', fromTitle: false } : accessibleName(el, false);
        return { ref, role, name, description: hidden ? '' : accessibleDescription(el, false, fromTitle) };
      }
      const doc = el.ownerDocument;
      const prefix = ref.slice(0, ref.lastIndexOf('e'));
      const refs = refStateOf(doc);
      const off = frameOffset(el);
      /** @type {Walk} */
      const walk = { doc, refs, prefix, rootPrefix: '', registry: frameRegistryOf(refStateOf(document)), ox: off.x, oy: off.y, modal: modalOf(doc) };
      run = {
        testIdAttributes: opts.testIdAttributes || DEFAULT_TEST_ID_ATTRIBUTES, coverInteractive: true,
        coverAlso: new Set(), toCover: [], walks: new Map([[doc, walk]]),
      };
      try {
        const parent = flatParent(el);
        const gone = parent ? notRendered(parent) || skipsChild(parent, el) : false;
        const pst = parent ? styleOf(parent) : null;
        /** @type {Inherited} */
        const up = {
          notRendered: parent ? notRendered(parent) : false,
          clipped: false,
          ariaHidden: !!parent && !!closestAcrossShadow(parent, '[aria-hidden=true]'),
          inert: !!parent && (!!closestAcrossShadow(parent, '[inert]') || inertByModal(parent)),
          insideModal: !!parent && insideModal(parent),
          secret: !!parent && markedSecret(parent),
          inSelect: !!owningSelect(el) && isSelectDropDown(/** @type {Element} */ (owningSelect(el))),
          needLatent: gone || !pst || pst.visibility !== 'visible',
        };
        const v = visitElement(el, walk, up, parent ? skipsChild(parent, el) : false,
          /** @type {Document | ShadowRoot} */ (el.getRootNode()));
        if (!v)
          return { error: 'not-rendered', message: `<${tagOf(el)}> is never part of a screen` };
        for (const item of run.toCover) {
          if (item.el === el) {
            const covered = coveredAt(item.el, item.x, item.y);
            if (covered !== undefined)
              item.node.covered = covered;
          }
        }
        delete v.node.children;
        return v.node;
      } finally {
        run = null;
      }
    });
  }

  // ---------------------------------------------------------------------------
  // The API

  const api = Object.freeze({
    version: SCRIPT_VERSION,
    schema: SCREEN_SCHEMA,
    capture,
    captureWire,
    elementForRef,
    refForElement,
    describe,
    point,
    scrollIntoView,
    hitTest,
    frameElement,
    contentOrigin,
    bindFrame,
    documentToken,
    lastIncremental: () => lastIncremental && { ...lastIncremental },
  });
  Object.defineProperty(globalThis, API_NAME, { value: api, configurable: true, enumerable: false, writable: false });
})();
