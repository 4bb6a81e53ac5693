// Page model: the API. Where to act on a ref (point, scroll, hit test), one
// node as a capture would report it, and the one global the page model
// installs, `__trailpinPageModel`.
'use strict';

/**
 * The page model's API: the one global it installs, `__trailpinPageModel`
 * (docs/screen-schema.md). The recorder and replay's scripts
 * (extension/replay/) call it.
 * @typedef {object} TrailpinPageModel
 * @property {number} version this script's version; a newer one replaces an older one
 * @property {number} schema the screen schema it writes (recorder.ScreenSchema)
 * @property {(options?: CaptureOptions) => CapturedScreen} capture
 * @property {(options?: CaptureOptions) => string} captureWire the screen as JSON text, in the wire form
 * @property {(ref: string) => RefFound | RefError} elementForRef
 * @property {(el: Element) => string} refForElement
 * @property {(target: string | Element, options?: {includeHidden?: boolean} & CaptureOptions) => ScreenNode | {error: string, message: string}} describe
 * @property {(ref: string) => RefPoint | RefError} point
 * @property {(ref: string) => RefPoint | RefError} scrollIntoView
 * @property {(x: number, y: number) => {ref: string}} hitTest
 * @property {(frame: string) => RefFound | RefError} frameElement
 * @property {(iframe: Element) => {x: number, y: number}} contentOrigin
 * @property {(frame: string, token: string) => {frame: string} | RefError} bindFrame
 * @property {() => string} documentToken
 * @property {() => {full: boolean, reused: number} | null} lastIncremental what the last incremental capture did (for tests)
 * @property {() => Element[]} hoverRevealed the elements the pointer alone shows now, in this document and the shadow roots and same-origin frames under the pointer
 * @property {(el: Element) => void} addOverlay marks an element of Trailpin's own laid over the page (the recording bar): hit tests and coverage look through it
 *
 * @typedef {{x: number, y: number, box: Box, inViewport: boolean, covered?: boolean, hit?: string, animating?: boolean}} RefPoint
 *   where to act on the element of a ref, in top-viewport CSS pixels, and what a click there would hit
 */

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, PageModelInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.pagemodel.internals')];
  if (!internals)
    return; // this version of the page model or a newer one is installed (core.js)
  const pm = internals;
  const { API_NAME, DEFAULT_TEST_ID_ATTRIBUTES, SCREEN_SCHEMA, SCRIPT_VERSION, accessibleDescription,
    accessibleName, addOverlay, bindFrame, capture, captureWire, checkStringList, closestAcrossShadow, coveredAt,
    documentToken, elementForRef, flatParent, frameElement, frameRegistryOf, hiddenForAria, hoverReveals, inertByModal,
    insideModal, isSelectDropDown, markedSecret, modalOf, notRendered, owningSelect, pageHitAt, reaches, refForElement,
    refStateOf, roleOf, round, skipsChild, styleOf, tagOf, visitElement, withCaches } = pm;

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
   * The elements a control says it opens, shuts or drives (aria-controls,
   * on it or on the control it lies in), in its tree.
   * @param {Element} el @returns {Element[]}
   */
  function controlled(el) {
    const control = el.closest('[aria-controls]');
    if (!control)
      return [];
    const root = /** @type {Document | ShadowRoot} */ (el.getRootNode());
    /** @type {Element[]} */
    const out = [];
    for (const id of (control.getAttribute('aria-controls') || '').split(/\s+/)) {
      const panel = id && typeof root.getElementById === 'function' ? root.getElementById(id) : null;
      if (panel)
        out.push(panel);
    }
    return out;
  }

  /**
   * Whether a CSS transition or animation that ends (not a looping one)
   * and changes more than paint (paintsOnly) is running on el or an
   * element around it, or in what it controls: a dialog
   * easing in moves its buttons by less than a pixel in its last frames,
   * and many widgets ignore a click until their transition ends (a collapse
   * toggle while its panel still eases open or shut: Bootstrap's collapse
   * drops the click).
   * @param {Element} el
   */
  function animating(el) {
    const doc = el.ownerDocument;
    if (typeof doc.getAnimations !== 'function')
      return false;
    const panels = controlled(el);
    for (const a of doc.getAnimations()) {
      if (a.playState !== 'running' || !(a.effect instanceof KeyframeEffect) || paintsOnly(a))
        continue;
      const target = a.effect.target;
      const end = a.effect.getComputedTiming().endTime;
      if (!target || typeof end !== 'number' || !Number.isFinite(end))
        continue;
      if (target === el || target.contains(el) || panels.some((p) => p.contains(target)))
        return true;
    }
    return false;
  }

  /**
   * CSS properties whose change only repaints: it moves nothing, hides
   * nothing and stops no click (a button's shade or shadow easing in
   * under the pointer that rests on it).
   */
  const paintOnlyProperty = /^(color|background-color|border(-(top|right|bottom|left|block|inline)(-(start|end))?)?-color|outline-color|text-decoration-color|text-emphasis-color|caret-color|column-rule-color|accent-color|box-shadow|text-shadow|fill|stroke|stop-color|flood-color|lighting-color)$/;

  /**
   * Whether an animation or transition changes only properties that
   * repaint (paintOnlyProperty): a transition names its property, an
   * animation its keyframes'.
   * @param {Animation} a
   */
  function paintsOnly(a) {
    const property = /** @type {{transitionProperty?: unknown}} */ (/** @type {unknown} */ (a)).transitionProperty;
    if (typeof property === 'string')
      return paintOnlyProperty.test(property);
    const effect = /** @type {KeyframeEffect} */ (a.effect);
    let any = false;
    for (const frame of effect.getKeyframes()) {
      for (const key of Object.keys(frame)) {
        if (key === 'offset' || key === 'computedOffset' || key === 'easing' || key === 'composite')
          continue;
        any = true;
        if (!paintOnlyProperty.test(key.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())))
          return false;
      }
    }
    return any;
  }

  /**
   * The points of el where a click may land, in the order a person picks
   * them when its centre is not free: the centre of each of its pieces when
   * it is laid out in several (a link whose text wraps onto the next line
   * has a box that spans the lines, and its centre may lie on the text
   * around it, which a person never points at: they click the words), then
   * a 5 × 5 grid over its box, kept a pixel inside its edges, closest to
   * the centre first (an app's pop-over over half a button: a person clicks
   * the part they see), when grid is set. Points outside the viewport are
   * left out.
   * @param {Element} el @param {DOMRect} rect @param {Window} view
   * @param {boolean} grid
   * @returns {Generator<{x: number, y: number}>}
   */
  function* candidatePoints(el, rect, view, grid) {
    const pieces = el.getClientRects();
    if (pieces.length > 1) {
      for (const piece of Array.from(pieces)) {
        const x = piece.left + piece.width / 2, y = piece.top + piece.height / 2;
        if (piece.width > 0 && piece.height > 0 && x >= 0 && y >= 0 && x < view.innerWidth && y < view.innerHeight)
          yield { x, y };
      }
    }
    if (!grid)
      return;
    const cx = rect.left + rect.width / 2, cy = rect.top + rect.height / 2;
    const left = Math.max(rect.left + 1, 0), right = Math.min(rect.right - 1, view.innerWidth - 1);
    const top = Math.max(rect.top + 1, 0), bottom = Math.min(rect.bottom - 1, view.innerHeight - 1);
    if (right < left || bottom < top)
      return;
    /** @type {{x: number, y: number}[]} */
    const points = [];
    for (let i = 0; i < 5; i++) {
      for (let j = 0; j < 5; j++)
        points.push({ x: left + (right - left) * i / 4, y: top + (bottom - top) * j / 4 });
    }
    points.sort((a, b) => Math.hypot(a.x - cx, a.y - cy) - Math.hypot(b.x - cx, b.y - cy));
    yield* points;
  }

  /**
   * Where to click el: the centre of its box in top-viewport CSS pixels, and
   * what a click there would hit. When the centre is in the viewport but a
   * click there does not reach el, the first of its candidate points that
   * does is taken instead (candidatePoints; docs/trail-format.md, "Where an
   * action lands"); when the centre is outside the viewport, only the
   * centres of its pieces are tried (else the caller scrolls it into
   * view). It is covered only when no point is free.
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
      const view = el.ownerDocument.defaultView;
      const root = /** @type {Document | ShadowRoot} */ (el.getRootNode());
      let cx = rect.left + rect.width / 2;
      let cy = rect.top + rect.height / 2;
      let inViewport = !!view && cx >= 0 && cy >= 0 && cx < view.innerWidth && cy < view.innerHeight;
      let hit = inViewport ? pageHitAt(root, el.ownerDocument, cx, cy) : null;
      if (view && !(hit && reaches(hit, el, cx, cy))) {
        for (const p of candidatePoints(el, rect, view, inViewport)) {
          const at = pageHitAt(root, el.ownerDocument, p.x, p.y);
          if (at && reaches(at, el, p.x, p.y)) {
            cx = p.x, cy = p.y, inViewport = true, hit = at;
            break;
          }
        }
      }
      /** @type {RefPoint} */
      const out = {
        x: round(cx + off.x), y: round(cy + off.y),
        box: { x: round(rect.left + off.x), y: round(rect.top + off.y), width: round(rect.width), height: round(rect.height) },
        inViewport,
      };
      if (hit) {
        out.covered = !reaches(hit, el, cx, cy);
        out.hit = refForElement(hit);
      }
      if (animating(el))
        out.animating = true;
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
      const found = pageHitAt(root, document, lx, ly);
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
      pm.run = {
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
          needLatent: gone || !pst || pst.getPropertyValue('visibility') !== 'visible',
        };
        const v = visitElement(el, walk, up, parent ? skipsChild(parent, el) : false,
          /** @type {Document | ShadowRoot} */ (el.getRootNode()));
        if (!v)
          return { error: 'not-rendered', message: `<${tagOf(el)}> is never part of a screen` };
        for (const item of pm.run.toCover) {
          if (item.el === el) {
            const covered = coveredAt(item.el, item.x, item.y);
            if (covered !== undefined)
              item.node.covered = covered;
          }
        }
        delete v.node.children;
        return v.node;
      } finally {
        pm.run = null;
      }
    });
  }

  /**
   * The elements the pointer alone shows now (hover.js), in document order
   * per document: when this list changes, so does what a capture would say
   * is shown, though no mutation says so.
   * @returns {Element[]}
   */
  function hoverRevealed() {
    /** @type {Element[]} */
    const out = [];
    // Only trees the pointer is over can show anything by its hover: the
    // :hover chain leads into the shadow roots and frames under it.
    /** @param {Document | ShadowRoot} tree */
    const add = (tree) => {
      out.push(...hoverReveals(tree).keys());
      for (const el of Array.from(tree.querySelectorAll(':hover'))) {
        if (el.shadowRoot)
          add(el.shadowRoot);
        const tag = tagOf(el);
        if (tag !== 'iframe' && tag !== 'frame')
          continue;
        let inner = null;
        try {
          inner = /** @type {HTMLIFrameElement} */ (el).contentDocument;
        } catch {
          inner = null;
        }
        if (inner && inner.documentElement)
          add(inner);
      }
    };
    add(document);
    return out;
  }

  /** @type {TrailpinPageModel} */
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
    lastIncremental: () => pm.lastIncremental && { ...pm.lastIncremental },
    hoverRevealed,
    addOverlay,
  });
  Object.defineProperty(globalThis, API_NAME, { value: api, configurable: true, enumerable: false, writable: false });

  // The namespace was for installing; the API keeps what it needs.
  delete (/** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (globalThis)))[Symbol.for('trailpin.pagemodel.internals')];
})();
