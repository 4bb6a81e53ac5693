// The Trailpin page model: how Trailpin sees a page.
//
// One page model, in a few files by concern, used twice: the extension injects
// the files in order as content scripts while recording, and replay evaluates
// them, in the same order, through the DevTools protocol (Go embeds them:
// extension/embed.go, whose list is the one order). A selector that matched
// while recording is judged on the same model in CI, so everything that decides
// what a node is — its ref, role, accessible name, text, visibility and whether
// it is secret — lives here.
//
// The files run in one world and share one namespace object, which this file
// creates and api.js removes once the page model is installed; each file takes
// what it needs from the files before it and adds what the files after it need
// (the PageModel* types say what). A few calls go forward to a later file
// (a capture into incremental.js) through the namespace at call time.
//
// It installs one global, `__trailpinPageModel` (see api.js and
// docs/screen-schema.md). Installing it twice is harmless: the newest version
// wins and ref numbering is kept on the document, so refs never restart. It
// never changes the page: no attributes, no styles, no DOM nodes.
//
// Plain ES2022, no dependencies; each file must run as a classic script in an
// isolated world.
//
// This file: the types the files share, the namespace, the per-call caches, DOM
// helpers that cross shadow roots and frames, and what makes a node secret.
'use strict';

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
 * @property {boolean} [scopedId] id is from inside a shadow root, unique only there
 * @property {string} [testId]
 * @property {string} [label]
 * @property {string} [placeholder]
 * @property {string} [title]
 * @property {string} [url]
 * @property {string} [href] a link's href as written, when it differs from url
 * @property {string[]} [owns] the ids of aria-owns that name an element of the document
 * @property {string[]} [labelledBy] the ids of aria-labelledby that name an element, when the node has a name
 * @property {boolean} [spacedBreak] a <br> the page's source writes white space beside (capture.js spacedInSource)
 * @property {boolean} [nameFromBlank] a plain element inside gave the name text that shows nothing (names.js blankPart)
 * @property {string} [value]
 * @property {string} [checked]
 * @property {string} [pressed]
 * @property {boolean} [expanded]
 * @property {boolean} [selected]
 * @property {boolean} [disabled]
 * @property {number} [level]
 * @property {boolean} [impliedLevel] level is ARIA's default for role=heading, which no attribute gives
 * @property {boolean} [required]
 * @property {boolean} [readonly]
 * @property {boolean} [editable] the editing host of contenteditable text that is no input or text area
 * @property {boolean} [invalid]
 * @property {Box} [box]
 * @property {boolean} [visible]
 * @property {boolean} [inTree] rendered and not hidden for ARIA, though not visible (no area)
 * @property {boolean} [pointerCursor] its computed cursor is pointer
 * @property {boolean} [block] rendered with a display other than inline
 * @property {boolean} [noPointerEvents] its computed pointer-events is none
 * @property {boolean} [ariaHidden]
 * @property {boolean} [inert]
 * @property {boolean} [covered]
 * @property {boolean} [secret]
 * @property {string} [frame]
 * @property {boolean} [crossOrigin]
 * @property {string} [revealedBy] ref of the element whose hover alone shows this one (hover.js)
 * @property {ScreenNode[]} [children]
 *
 * @typedef {object} CapturedScreen
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
 * @property {SelectorPart[] | SelectorPart[][]} [only] captureWire only: send only the nodes these selector parts
 *   could match, with what the matcher reads around them (directed.js), marked partial
 * @property {string[]} [fieldRoles] with only: the roles the matcher takes for fields
 * @property {boolean} [each] with only: only is a list of such lists, and captureWire answers a
 *   JSON list of one partial screen for each, from one capture
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
 * @property {string} [revealedBy] ref of the element whose hover shows an ancestor (hover.js)
 *
 * @typedef {object} Visit the result of walking one element
 * @property {ScreenNode} node
 * @property {{n: string, lead: number, trail: number}} raw text this element adds to a visible parent's text,
 *   normalised, with the kind of space at its edges (capture.js, Spaced)
 * @property {{n: string, lead: number, trail: number}} latent text it adds to a hidden parent's text (as if shown)
 * @property {boolean} shown the element or something in it is visible
 * @property {boolean} ownNone the element itself is display:none
 *
 * @typedef {{element: Element}} RefFound
 * @typedef {{error: string, message: string, frame?: string, rest?: string, token?: string}} RefError
 */

/**
 * @typedef {object} Caches
 * @property {Map<Element, CSSStyleDeclaration | null>} style
 * @property {Map<Element, number>} flags what is known of an element's visibility (FLAG_* bits)
 * @property {Map<Element, string | null>} role
 * @property {Map<Element, string>} content name-from-content contributions in a plain descendant traversal
 * @property {Set<Element>} blankInside the elements of `content` inside which an element showing nothing gave text (names.js)
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
 * @property {Map<Node, boolean>} disabledFieldsets whether a tree (document or shadow root) holds a fieldset[disabled]
 * @property {Map<Document, {fragment: string, origin: string}>} fragmentBase what a link's written "#fragment"
 *   (a document's base URL without its fragment) and "/path" (its scheme and host) resolve by appending
 *   themselves to (capture.js linkBases), '' where they may not
 * @property {Map<Document, Set<Element>>} losingVisibility the elements of each document a running transition
 *   of visibility carries to hidden (styleVisible)
 */

/**
 * What the files share while the page model is installed: what each file
 * adds, and the state of the capture in progress.
 * @typedef {PageModelCore & PageModelSheets & PageModelRefs & PageModelVisibility & PageModelHover & PageModelRoles & PageModelNames &
 *   PageModelCapture & PageModelWire & PageModelIncremental & PageModelDirected & PageModelState} PageModelInternals
 *
 * @typedef {object} PageModelState
 * @property {CaptureRun | null} run the capture call in progress (capture.js, api.js's describe)
 * @property {IncRun | null} incRun the incremental capture in progress (incremental.js)
 * @property {{full: boolean, reused: number} | null} lastIncremental what the last incremental
 *   capture did (for tests)
 */

/**
 * What core.js gives the files after it, on the page model's namespace.
 * @typedef {object} PageModelCore
 * @property {string} API_NAME
 * @property {number} ARIA_EXCLUDED
 * @property {number} ARIA_EXCLUDED_KNOWN
 * @property {string[]} DEFAULT_TEST_ID_ATTRIBUTES
 * @property {Set<string>} IGNORED_FOR_ARIA
 * @property {number} INSIDE_MODAL
 * @property {number} INSIDE_MODAL_KNOWN
 * @property {number} NOT_RENDERED
 * @property {number} NOT_RENDERED_KNOWN
 * @property {number} PSEUDO
 * @property {number} PSEUDO_KNOWN
 * @property {Set<string>} RANGE_ROLES
 * @property {number} SCREEN_SCHEMA
 * @property {number} SCRIPT_VERSION
 * @property {number} STYLE_INLINE
 * @property {number} STYLE_KNOWN
 * @property {number} STYLE_VISIBLE
 * @property {string} SVG_NS
 * @property {() => Caches} caches
 * @property {(el: Element) => boolean} losingVisibility
 * @property {() => Caches | null} cachesIfAny
 * @property {(el: Element, selector: string) => Element | null} closestAcrossShadow
 * @property {(s: string) => string} collapseSpaces
 * @property {(el: Element, node: Node | null) => boolean} containsAcross
 * @property {(el: Element, tag?: string, html?: boolean) => Node[] | Node | null} flatChildSource
 * @property {(el: Element) => ArrayLike<Node> | null} flatChildren
 * @property {(n: Node) => Element | null} flatParent
 * @property {(el: Element, list: string | null) => Element[]} idRefs
 * @property {(el: Element, tag?: string, html?: boolean) => boolean} ignoredForAria
 * @property {(n: Node) => n is Element} isElement
 * @property {(el: Element) => boolean} isHTML
 * @property {(el: Element, tag?: string, html?: boolean) => boolean} isOmitted
 * @property {(el: Element) => boolean} isSecret
 * @property {(el: Element) => boolean} isSelectDropDown
 * @property {(el: Element, known: number, bit: number) => boolean | undefined} knownFlag
 * @property {(el: Element) => boolean} markedSecret
 * @property {(el: Element) => HTMLElement | null} owningSelect
 * @property {(el: Element) => Element | null} parentOrHost
 * @property {(el: Element) => boolean} secretControl
 * @property {(el: Element, known: number, bit: number, value: boolean) => void} setFlag
 * @property {(s: string | null | undefined) => boolean} showsSensitive
 * @property {(el: Element) => CSSStyleDeclaration | null} styleOf
 * @property {(el: Element) => boolean} styleInline
 * @property {(el: Element) => boolean} styleVisible
 * @property {(el: Element) => string} tagOf
 * @property {(el: Element) => Document | ShadowRoot} treeRoot
 * @property {<T>(sensitive: { values?: string[]; elements?: Element[]; }, fn: () => T) => T} withCaches
 */

(() => {
  'use strict';

  const API_NAME = '__trailpinPageModel';
  /** Version of this script; a newer script replaces an older one. */
  const SCRIPT_VERSION = 1;
  /** recorder.ScreenSchema: bump when a field of the screen changes meaning. */
  const SCREEN_SCHEMA = 1;
  /** Where the files find the namespace while they install the page model. */
  const INTERNALS = Symbol.for('trailpin.pagemodel.internals');

  const g = /** @type {Record<string | symbol, any>} */ (/** @type {unknown} */ (globalThis));
  if (g[API_NAME] && typeof g[API_NAME].version === 'number' && g[API_NAME].version >= SCRIPT_VERSION) {
    // This version or a newer one is installed: the files after this one
    // find no namespace and do nothing.
    delete g[INTERNALS];
    return;
  }

  /** Elements that are never part of the rendered page. */
  const NEVER_RENDERED = new Set(['head', 'script', 'style', 'template', 'noscript', 'link', 'meta', 'title', 'base']);
  /** SVG elements that only define things and are never painted themselves. */
  const SVG_NEVER_RENDERED = new Set(['defs', 'title', 'desc', 'metadata', 'clipPath', 'mask', 'linearGradient',
    'radialGradient', 'pattern', 'filter', 'symbol', 'marker', 'style', 'script']);
  /** Elements whose children are not rendered as part of the page. */
  const CHILDREN_NOT_RENDERED = new Set(['textarea', 'video', 'audio', 'canvas', 'object', 'embed', 'iframe', 'frame', 'img', 'input']);
  /**
   * Tags that are never part of the accessibility tree (accname step 2A),
   * in HTML and in SVG alike: an icon's own <style> or <script> is no more
   * read than the page's (see ignoredForAria).
   */
  const IGNORED_FOR_ARIA = new Set(['script', 'style', 'noscript', 'template']);
  const HTML_NS = 'http://www.w3.org/1999/xhtml';
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const RANGE_ROLES = new Set(['progressbar', 'scrollbar', 'slider', 'spinbutton', 'meter']);
  /**
   * autocomplete field names whose value is secret: one-time codes and card
   * details beyond the holder's name (HTML "autofill field names").
   */
  const SECRET_AUTOCOMPLETE = new Set(['current-password', 'new-password', 'one-time-code', 'cc-number', 'cc-csc',
    'cc-exp', 'cc-exp-month', 'cc-exp-year']);
  const DEFAULT_TEST_ID_ATTRIBUTES = ['data-testid', 'data-test-id', 'data-test'];

  // ---------------------------------------------------------------------------
  // Per-call caches: the DOM may change between calls, never during one.

  /** @type {Caches | null} */
  let cache = null;

  // Bits of Caches.flags: each fact has a bit saying it is known.
  const NOT_RENDERED_KNOWN = 1, NOT_RENDERED = 2, ARIA_EXCLUDED_KNOWN = 4, ARIA_EXCLUDED = 8,
    INSIDE_MODAL_KNOWN = 16, INSIDE_MODAL = 32, PSEUDO_KNOWN = 64, PSEUDO = 128,
    // What the computed style says, as the capture's walk read it: whether
    // visibility is visible, and whether display is inline.
    STYLE_KNOWN = 256, STYLE_VISIBLE = 512, STYLE_INLINE = 1024;

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
      content: new Map(), blankInside: new Set(), secret: new Map(), markedSecret: new Map(), modal: new Map(),
      contentScans: new Map(), hostContent: new Set(), probeAll: false, labels: new Map(),
      sensitiveValues: (sensitive.values || []).map(v => collapseSpaces(String(v))).filter(v => v.length > 0),
      sensitiveElements: new Set(sensitive.elements || []),
      roots: new Map(), ariaDisabled: new Map(), disabledFieldsets: new Map(), fragmentBase: new Map(),
      losingVisibility: new Map(),
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

  /** The caches of the capture in progress, null outside one. @returns {Caches | null} */
  function cachesIfAny() {
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
   * Whether el is never part of the accessibility tree by its nature: a
   * style sheet, a script, a template. An inline SVG may hold its own
   * <style> or <script> (UIkit's icons do): CSS is never read, whichever
   * namespace holds it, as Playwright also treats it.
   * @param {Element} el @param {string} [tag] @param {boolean} [html]
   */
  function ignoredForAria(el, tag = tagOf(el), html = isHTML(el)) {
    return (html || el.namespaceURI === SVG_NS) && IGNORED_FOR_ARIA.has(tag);
  }

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

  /**
   * Whether el's computed visibility is visible (true without a style),
   * from what the capture's walk read when it has been there.
   * @param {Element} el
   */
  function styleVisible(el) {
    const f = caches().flags.get(el);
    if (f !== undefined && (f & STYLE_KNOWN))
      return (f & STYLE_VISIBLE) !== 0;
    const st = styleOf(el);
    return (!st || st.getPropertyValue('visibility') === 'visible') && !losingVisibility(el);
  }

  /**
   * Whether a running CSS transition of visibility carries el (or the
   * element it inherits its visibility from) to hidden: visibility stays
   * visible until such a transition ends, a moment later (Awesomplete's
   * suggestion list, closed, fades out for 0.3 s). It counts as hidden now,
   * as it will be then, so a name that reads its text (a combobox labelled
   * by the label its list lies in) does not depend on how far into the
   * transition the capture ran.
   * @param {Element} el
   */
  function losingVisibility(el) {
    const c = caches();
    const doc = el.ownerDocument;
    let going = c.losingVisibility.get(doc);
    if (!going) {
      going = new Set();
      c.losingVisibility.set(doc, going);
      const all = typeof doc.getAnimations === 'function' ? doc.getAnimations() : [];
      for (const a of all) {
        const t = /** @type {{transitionProperty?: string}} */ (/** @type {unknown} */ (a));
        if (t.transitionProperty !== 'visibility' || a.playState !== 'running' || !(a.effect instanceof KeyframeEffect) || !a.effect.target)
          continue;
        const frames = a.effect.getKeyframes();
        const end = frames.length ? frames[frames.length - 1].visibility : null;
        if (end === 'hidden' || end === 'collapse')
          going.add(a.effect.target);
      }
    }
    if (!going.size)
      return false;
    for (let e = /** @type {Node | null} */ (el); e; e = flatParent(e))
      if (going.has(/** @type {Element} */ (e)))
        return true;
    return false;
  }

  /**
   * Whether el's computed display is inline (true without a style), from
   * what the capture's walk read when it has been there.
   * @param {Element} el
   */
  function styleInline(el) {
    const f = caches().flags.get(el);
    if (f !== undefined && (f & STYLE_KNOWN))
      return (f & STYLE_INLINE) !== 0;
    const st = styleOf(el);
    return !st || st.getPropertyValue('display') === 'inline';
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

  /** @type {PageModelCore} */
  const provides = { API_NAME, ARIA_EXCLUDED, ARIA_EXCLUDED_KNOWN, DEFAULT_TEST_ID_ATTRIBUTES,
    IGNORED_FOR_ARIA, INSIDE_MODAL, INSIDE_MODAL_KNOWN, NOT_RENDERED, NOT_RENDERED_KNOWN, PSEUDO, PSEUDO_KNOWN,
    RANGE_ROLES, SCREEN_SCHEMA, SCRIPT_VERSION, STYLE_INLINE, STYLE_KNOWN, STYLE_VISIBLE, SVG_NS, caches, cachesIfAny, closestAcrossShadow, collapseSpaces,
    containsAcross, flatChildSource, flatChildren, flatParent, idRefs, ignoredForAria, isElement, isHTML, isOmitted, isSecret,
    isSelectDropDown, knownFlag, markedSecret, owningSelect, parentOrHost, secretControl, setFlag,
    losingVisibility, showsSensitive, styleInline, styleOf, styleVisible, tagOf, treeRoot, withCaches };
  /** @type {PageModelState} */
  const state = { run: null, incRun: null, lastIncremental: null };
  Object.defineProperty(g, INTERNALS, {
    value: /** @type {PageModelInternals} */ (/** @type {unknown} */ ({ ...provides, ...state })),
    configurable: true, enumerable: false, writable: false,
  });
})();
