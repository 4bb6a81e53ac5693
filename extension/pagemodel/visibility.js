// Page model: visibility. Whether an element is rendered (display, content
// visibility, slots, closed details), hidden for accessibility (aria-hidden,
// inert, a modal dialog), as accname and Playwright decide it.
'use strict';

/**
 * What visibility.js gives the files after it, on the page model's namespace.
 * @typedef {object} PageModelVisibility
 * @property {(el: Element) => boolean} ariaExcluded
 * @property {(el: Element) => boolean} hiddenForAria
 * @property {(el: Element) => boolean} inertByModal
 * @property {(el: Element) => boolean} insideModal
 * @property {(doc: Document) => Element | null} modalOf
 * @property {(el: Element) => boolean} notRendered
 * @property {(parent: Element, tag?: string) => { all: boolean; except: Element | null; } | null} skippedChildren
 * @property {(parent: Element, child: Node) => boolean} skipsChild
 */

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, PageModelInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.pagemodel.internals')];
  if (!internals)
    return; // this version of the page model or a newer one is installed (core.js)
  const pm = internals;
  const { ARIA_EXCLUDED, ARIA_EXCLUDED_KNOWN, INSIDE_MODAL, INSIDE_MODAL_KNOWN, NOT_RENDERED,
    NOT_RENDERED_KNOWN, caches, containsAcross, flatParent, ignoredForAria, isHTML, isOmitted, knownFlag,
    owningSelect, parentOrHost, setFlag, styleOf, styleVisible, tagOf } = pm;

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
    if (st && st.getPropertyValue('content-visibility') === 'hidden')
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
   * skipped by an ancestor, a light child no slot takes, or an SVG
   * definition (<defs>, <symbol>, a gradient, <title>, <desc>, <style>…)
   * or what it holds, which is never painted where it stands whatever its
   * computed display says.
   * @param {Element} el @returns {boolean}
   */
  function notRendered(el) {
    let r = knownFlag(el, NOT_RENDERED_KNOWN, NOT_RENDERED);
    if (r !== undefined)
      return r;
    const st = styleOf(el);
    if (!el.isConnected || (st !== null && st.getPropertyValue('display') === 'none') || (!isHTML(el) && isOmitted(el))) {
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
    if (ignoredForAria(el))
      return true;
    const select = owningSelect(el);
    if (select)
      return hiddenForAria(select) || (tagOf(el) === 'option' && ariaExcluded(el));
    if (notRendered(el) || ariaExcluded(el))
      return true;
    if (tagOf(el) === 'slot')
      return false;
    return !styleVisible(el);
  }

  /** @type {PageModelVisibility} */
  const provides = { ariaExcluded, hiddenForAria, inertByModal, insideModal, modalOf, notRendered,
    skippedChildren, skipsChild };
  Object.assign(pm, provides);
})();
