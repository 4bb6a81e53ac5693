// Page model: incremental captures (captureWire({incremental: true}), used by
// the recorder): the last capture's nodes are kept per element and reused for
// the subtrees the page did not change since.
'use strict';

/**
 * @typedef {object} IncEntry what the last capture of an element gave
 * @property {Visit} visit
 * @property {string} key what its parent told it (Inherited, skipped, prefix, offsets)
 * @property {Node} root
 * @property {number[] | null} box the box as read (viewport of its document)
 * @property {CoverItem[]} cover hit tests in the subtree that fall in the viewport
 *
 * @typedef {object} IncCheck
 * @property {Element} el
 * @property {boolean} field an input or textarea: the state below applies
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
 * @property {SheetRules[]} sheetRules what sheets.js found in each of sheets (the same object while a sheet is unchanged)
 * @property {boolean} dynamicRules a rule uses :hover, :active or :focus
 * @property {DynamicRule[] | null} dynamic what those rules select, null when one cannot be followed (the capture after a pointer or focus change is then a full one)
 * @property {Set<Element>} dynamicChanged elements whose hover, active or focus state may have changed since the last capture
 * @property {Element[]} hoverChain the elements under the pointer as last seen
 * @property {Element[]} activeChain the elements pressed as last seen
 * @property {boolean} hasRules a rule uses :has() (or a sheet cannot be read)
 * @property {Set<ShadowRoot>} shadowRoots shadow roots the captures met
 * @property {Map<Element, number[]>} scrollers elements that clip their overflow, with their scroll offsets
 * @property {Map<Element, IncCheck>} checks form controls whose nodes are kept, with what they showed
 * @property {Set<string>} labelFor the for attributes of the labels of the document and its shadow roots
 *
 * @typedef {object} DynamicRule a selector with :hover, :active or :focus, as incremental captures follow it
 * @property {string} relaxed the selector without those pseudo-classes: what any state may select
 * @property {string[]} triggers each compound that holds one, without them: what an element whose state changed must match to matter
 * @property {boolean} siblings a sibling combinator follows such a compound: later siblings may be restyled
 *
 * @typedef {object} IncRun one incremental capture
 * @property {IncState} st
 * @property {number} force depth inside a subtree recomputed whole
 * @property {boolean} pure whether the element being walked can be reused later
 * @property {Map<Element, number[]>} boxes boxes read by this capture
 * @property {Set<ScreenNode>} staleWire nodes whose packed text changed (covered)
 * @property {number} viewWidth the viewport's size (the document's)
 * @property {number} viewHeight
 * @property {number} reused subtrees reused (for tests)
 */

/**
 * What incremental.js gives the files after it, on the page model's namespace.
 * @typedef {object} PageModelIncremental
 * @property {(options: CaptureOptions) => string} captureWireIncremental
 * @property {(el: Element, walk: Walk, up: Inherited, skipped: boolean, root: Document | ShadowRoot) => Visit | null} visitElement
 */

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, PageModelInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.pagemodel.internals')];
  if (!internals)
    return; // this version of the page model or a newer one is installed (core.js)
  const pm = internals;
  const { SVG_NS, caches, capture, flatParent, isHTML, matchesSafely, mayHavePseudoText, parentOrHost,
    secretControl, tagOf, visitElementFull, wireHead, wireNode } = pm;

  // ---------------------------------------------------------------------------
  // Incremental captures (captureWire({incremental: true}), used by the
  // recorder): the last capture's nodes are kept per element and reused for
  // the subtrees the page did not change since. What changed is learnt from
  // MutationObservers and from events; whatever may have changed without
  // either (a style sheet, the viewport, animations, hover or focus when a
  // rule depends on them) makes the capture a full one. A reused subtree's
  // root box is read again: any difference recomputes it.

  /** @type {IncState | null} */
  let inc = null;

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

  /** Fields whose state a script can change with no mutation, that a capture reads. */
  const INC_FIELDS = new Set(['input', 'textarea']);

  /**
   * What a reused node of a form control depends on beyond its subtree: its
   * state (which can change without a mutation) and its labels. Which labels
   * name an element changes only as labels come and go, change their for, or
   * ids change: those make the capture a full one. A control of another
   * kind (a button) shows no such state: without a label it needs no check.
   * @param {Element} el @returns {IncCheck | null}
   */
  function incCheckOf(el) {
    if (!isHTML(el) || !INC_LABELABLE.has(tagOf(el)))
      return null;
    const c = /** @type {HTMLInputElement} */ (el);
    const labels = c.labels ? Array.from(c.labels) : [];
    if (!INC_FIELDS.has(tagOf(el)))
      return labels.length ? { el, field: false, value: '', checked: false, indeterminate: false, invalid: false, labels } : null;
    return {
      el, field: true, value: String(c.value), checked: !!c.checked, indeterminate: !!c.indeterminate,
      invalid: matchesSafely(el, ':user-invalid'), labels,
    };
  }

  /** Whether the state check recorded still holds. @param {IncCheck} check */
  function incStateHolds(check) {
    if (!check.field)
      return true;
    const c = /** @type {HTMLInputElement} */ (check.el);
    return String(c.value) === check.value && !!c.checked === check.checked &&
      !!c.indeterminate === check.indeterminate && matchesSafely(c, ':user-invalid') === check.invalid;
  }

  /**
   * Whether the labels check recorded are unchanged: none was recomputed or
   * lies in a subtree that is. Which labels a control has changes only with
   * changes that make the capture a full one (see incLabelsMayChange).
   * @param {IncState} st @param {IncCheck} check
   * @param {Map<Element, boolean>} under what is known to lie in a recomputed subtree, or not
   */
  function incLabelsHold(st, check, under) {
    for (const label of check.labels) {
      if (st.dirtyPath.has(label))
        return false;
      /** @type {Element[]} */
      const path = [];
      let dirty = false;
      for (let a = /** @type {Element | null} */ (label); a; a = flatParent(a) || parentOrHost(a)) {
        const known = under.get(a);
        if (known !== undefined) {
          dirty = known;
          break;
        }
        path.push(a);
        if (st.dirtySub.has(a)) {
          dirty = true;
          break;
        }
      }
      for (const a of path)
        under.set(a, dirty);
      if (dirty)
        return false;
    }
    return true;
  }

  /**
   * Walks el, reusing its last node when nothing it depends on changed.
   * @param {Element} el @param {Walk} walk @param {Inherited} up @param {boolean} skipped
   * @param {Document | ShadowRoot} root @returns {Visit | null}
   */
  function visitElement(el, walk, up, skipped, root) {
    const ir = pm.incRun;
    if (!ir)
      return visitElementFull(el, walk, up, skipped, root);
    const st = ir.st;
    const key = (up.notRendered ? 'n' : '') + (up.clipped ? 'c' : '') + (up.ariaHidden ? 'a' : '') +
      (up.inert ? 'i' : '') + (up.insideModal ? 'm' : '') + (up.secret ? 's' : '') + (up.inSelect ? 'o' : '') +
      (up.needLatent ? 'l' : '') + (skipped ? 'k' : '') + '|' + (up.revealedBy || '') + '|' + walk.prefix + '|' + walk.ox + '|' + walk.oy;
    const frameDoc = walk.doc !== st.doc;
    const r = /** @type {CaptureRun} */ (pm.run);
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
    // Scrolling moves what a box holds: one with no element inside (a
    // field, a line of text) has nothing whose box could move.
    if (elStyle && !frameDoc && (elStyle.overflowX !== 'visible' || elStyle.overflowY !== 'visible') &&
      (el.firstElementChild || el.shadowRoot))
      st.scrollers.set(el, [el.scrollTop, el.scrollLeft]);
    const box = ir.boxes.get(el) || null;
    const pure = ir.pure && !frameDoc && !incImpure(el, elStyle);
    ir.pure = outerPure && pure;
    if (pure) {
      const check = incCheckOf(el);
      if (check)
        st.checks.set(el, check);
      // A hit test out of the viewport answers nothing, and the viewport is
      // the same while entries are kept (a change makes the capture full):
      // only those in it are asked again when the subtree is reused.
      const cover = r.toCover.slice(coverStart).filter((item) =>
        item.x >= 0 && item.y >= 0 && item.x < ir.viewWidth && item.y < ir.viewHeight);
      st.entries.set(el, { visit: v, key, root, box, cover });
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
      on.addEventListener(type, (e) => {
        if (!st.dynamicRules)
          return;
        if (!st.dynamic) {
          st.full = true;
          return;
        }
        incDynamicEvent(st, type, e);
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
      dynamicRules: true, dynamic: null, dynamicChanged: new Set(), hoverChain: [], activeChain: [], hasRules: true, shadowRoots: new Set(), scrollers: new Map(), checks: new Map(), labelFor: new Set(),
    };
    incObserve(st, doc);
    if (doc.fonts)
      doc.fonts.addEventListener('loadingdone', () => { st.full = true; });
    inc = st;
    return st;
  }

  /** Every style sheet of the document and the shadow roots observed. @param {IncState} st */
  function incSheets(st) {
    const sheets = pm.styleSheetsOf(st.doc);
    for (const root of st.shadowRoots)
      sheets.push(...pm.styleSheetsOf(root));
    return sheets;
  }

  /**
   * Scans the rules (sheets.js: nested ones made absolute, grouping rules
   * walked into, imports followed) for pseudo-classes that change what
   * shows without a DOM change. A sheet that cannot be read may hold any:
   * assume the worst.
   * @param {IncState} st @param {CSSStyleSheet[]} sheets
   */
  function incScanRules(st, sheets) {
    st.dynamicRules = false;
    st.hasRules = false;
    /** @type {DynamicRule[] | null} */
    let dynamic = [];
    const ofDocument = new Set(pm.styleSheetsOf(st.doc));
    for (const sheet of sheets) {
      const found = pm.sheetRules(sheet);
      if (found.unreadable.length)
        st.hasRules = true;
      for (const rule of found.rules) {
        for (const sel of rule.selectors) {
          if (sel.includes(':has('))
            st.hasRules = true;
          if (DYNAMIC.test(sel)) {
            st.dynamicRules = true;
            // A shadow tree's rules select in that tree: not followed.
            const d = dynamic && ofDocument.has(sheet) ? dynamicRule(st.doc, sel) : null;
            if (d)
              dynamic?.push(d);
            else
              dynamic = null;
          }
        }
      }
    }
    st.dynamic = dynamic;
    st.dynamicChanged.clear();
  }

  /** The pseudo-classes that follow the pointer and focus, with no DOM change. */
  const DYNAMIC = /:(hover|active|focus)/;
  const DYNAMIC_ALL = /(^|[\s>+~(,])?:(?:hover|active|focus-within|focus-visible|focus)(?![\w-])/g;
  /** Pseudo-elements at the end of a selector: their element is what changes. */
  const PSEUDO_ELEMENT_END = /::?(?:before|after|marker|first-line|first-letter|placeholder|selection|backdrop|file-selector-button|-[\w-]+)$/;

  /** The selector without the pseudo-classes DYNAMIC names ('*' where a compound had only them). @param {string} sel */
  function relax(sel) {
    return sel.replace(DYNAMIC_ALL, (_m, before) => before !== undefined ? before + '*' : '').trim();
  }

  /**
   * How an incremental capture follows a selector with :hover, :active or
   * :focus: null when it cannot (under :not(), :host, ::slotted, ::part,
   * or what this browser does not parse once relaxed).
   * @param {Document} doc @param {string} sel @returns {DynamicRule | null}
   */
  function dynamicRule(doc, sel) {
    if (/:not\(|:host|::slotted|::part|::?(?:cue|view-transition)/.test(sel))
      return null;
    const relaxed = relax(sel.trim()).replace(PSEUDO_ELEMENT_END, '').trim() || '*';
    /** @type {string[]} */
    const triggers = [];
    let siblings = false;
    let depth = 0;
    let start = 0;
    // Whether the last compound read holds one of the pseudo-classes.
    let lastDynamic = false;
    /** @param {number} end */
    const compound = (end) => {
      const part = sel.slice(start, end).trim();
      if (!part)
        return;
      lastDynamic = DYNAMIC.test(part);
      if (lastDynamic)
        triggers.push(relax(part).replace(PSEUDO_ELEMENT_END, '') || '*');
    };
    for (let i = 0; i < sel.length; i++) {
      const c = sel[i];
      if (c === '(' || c === '[')
        depth++;
      else if (c === ')' || c === ']')
        depth--;
      else if (depth === 0 && (c === ' ' || c === '>' || c === '+' || c === '~')) {
        compound(i);
        start = i + 1;
        // Only a sibling combinator right after such a compound reaches
        // past the element whose state changed.
        if ((c === '+' || c === '~') && lastDynamic)
          siblings = true;
      }
    }
    compound(sel.length);
    // Inside :is() or :where() the compound is not told apart: any element may matter.
    if (!triggers.length || triggers.some((t) => t.includes('(') && DYNAMIC.test(t)))
      triggers.splice(0, triggers.length, '*');
    try {
      doc.querySelector(relaxed);
      for (const t of triggers)
        doc.querySelector(t);
    } catch {
      return null;
    }
    return { relaxed, triggers, siblings };
  }

  /**
   * The element and what its state carries to: its flat-tree ancestors and
   * shadow hosts (:hover, :active and :focus-within hold along them), and the
   * control a label names (a hovered or pressed label's control is too).
   * @param {EventTarget | null} target @returns {Element[]}
   */
  function stateChain(target) {
    /** @type {Element[]} */
    const out = [];
    const first = /** @type {Node | null} */ (target);
    if (!first || first.nodeType !== 1)
      return out;
    for (let a = /** @type {Element | null} */ (first); a; a = flatParent(a) || parentOrHost(a)) {
      out.push(a);
      if (tagOf(a) === 'label') {
        const control = /** @type {HTMLLabelElement} */ (a).control;
        if (control)
          out.push(control);
      }
    }
    return out;
  }

  /**
   * Notes which elements a pointer or focus event may have changed the
   * state of: everything under the pointer before and after, what was
   * pressed, what gains or loses focus.
   * @param {IncState} st @param {string} type @param {Event} e
   */
  function incDynamicEvent(st, type, e) {
    const target = e.composedPath()[0] || null;
    const add = (/** @type {Element[]} */ chain) => {
      for (const el of chain)
        st.dynamicChanged.add(el);
    };
    if (type === 'pointerover' || type === 'mouseover' || type === 'pointerout' || type === 'mouseout') {
      add(st.hoverChain);
      const out = type === 'pointerout' || type === 'mouseout';
      // Leaving the page, the pointer is over nothing; between elements an
      // over event follows.
      st.hoverChain = out && !(/** @type {MouseEvent} */ (e)).relatedTarget ? [] : out ? st.hoverChain : stateChain(target);
      add(st.hoverChain);
    } else if (type === 'pointerdown' || type === 'mousedown' || type === 'pointerup' || type === 'mouseup') {
      add(st.activeChain);
      st.activeChain = type === 'pointerdown' || type === 'mousedown' ? stateChain(target) : [];
      add(stateChain(target));
    } else {
      add(stateChain(target));
    }
  }

  /**
   * Marks what the pointer and focus changes noted since the last capture
   * may restyle: for each rule with :hover, :active or :focus, the elements
   * it may select at or under (or, with a sibling combinator after it, after) an
   * element whose state changed and that matches the compound holding the
   * pseudo-class.
   * @param {IncState} st
   */
  function incMarkDynamic(st) {
    const rules = st.dynamic;
    if (!rules || !st.dynamicChanged.size)
      return;
    /** @param {Element} x */
    const mark = (x) => {
      st.dirtySub.add(x);
      incMarkPath(st, x);
    };
    for (const c of st.dynamicChanged) {
      if (!c.isConnected || c.ownerDocument !== st.doc)
        continue;
      for (const d of rules) {
        if (!d.triggers.some((t) => matchesSafely(c, t)))
          continue;
        /** @type {Element[]} */
        const scopes = [c];
        if (d.siblings) {
          for (let sib = c.nextElementSibling; sib; sib = sib.nextElementSibling)
            scopes.push(sib);
        }
        for (const scope of scopes) {
          if (matchesSafely(scope, d.relaxed))
            mark(scope);
          for (const x of Array.from(scope.querySelectorAll(d.relaxed)))
            mark(x);
        }
      }
    }
    st.dynamicChanged.clear();
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
    // What the pointer or focus restyled (with other sheets the capture is a full one).
    incMarkDynamic(st);
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
      else if (!incStateHolds(check))
        incMark(st, el);
    }
    // A label recomputed: the controls it names are too (and what that
    // marks may hold other labels).
    for (let marked = st.dirtySub.size > 0 || st.dirtyPath.size > 0; marked;) {
      marked = false;
      /** @type {Map<Element, boolean>} */
      const under = new Map();
      for (const [el, check] of st.checks) {
        if (check.labels.length && !st.dirtySub.has(el) && !incLabelsHold(st, check, under)) {
          incMark(st, el);
          marked = true;
        }
      }
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
    // A sheet's walk is the same object while its rules are (sheets.js).
    const sheetRules = sheets.map((s) => pm.sheetRules(s));
    const sheetsChanged = !sameList(/** @type {any[]} */ (sheets), /** @type {any[]} */ (st.sheets)) ||
      sheetRules.some((r, i) => r !== st.sheetRules[i]);
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
    const ir = { st, force: full ? 1 : 0, pure: true, boxes: new Map(), staleWire: new Set(), reused: 0,
      viewWidth: view.innerWidth, viewHeight: view.innerHeight };
    pm.incRun = ir;
    /** @type {CapturedScreen} */
    let screen;
    try {
      screen = capture(options);
    } finally {
      pm.incRun = null;
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
    pm.lastIncremental = { full, reused: ir.reused };
    const text = JSON.stringify({ ...screen, root: 0 });
    const at = text.lastIndexOf(',"root":0');
    return text.slice(0, at) + ',"root":' + wireJSON(st, screen.root) + text.slice(at + 9);
  }


  /** @type {PageModelIncremental} */
  const provides = { captureWireIncremental, visitElement };
  Object.assign(pm, provides);
})();
