// Page model: hover. Which elements show only because the pointer rests on
// them or on an element around them (a row's delete button that a
// `.row:hover .remove {display: block}` rule reveals), and which element's
// hover reveals each.
'use strict';

/**
 * What hover.js gives the files after it, on the page model's namespace.
 * @typedef {object} PageModelHover
 * @property {(root: Document | ShadowRoot) => Map<Element, Element>} hoverReveals
 */

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, PageModelInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.pagemodel.internals')];
  if (!internals)
    return; // this version of the page model or a newer one is installed (core.js)
  const pm = internals;

  // An element counts as shown by the hover when both hold:
  //  - a same-origin style rule whose selector has :hover matches it now and
  //    shows it (display other than none, visibility visible, opacity above
  //    0, a width or height other than 0), and
  //  - a rule without :hover that matches it now hides it the same way
  //    (display none, visibility hidden, opacity 0, a width or height of 0,
  //    as Swagger UI's copy buttons): without the pointer it would not show.
  // The second condition keeps out the rules that only restyle what shows
  // anyway (`a:hover {opacity: 0.8}`). Comparing with the :hover chain alone
  // cannot tell which of a hovered row's descendants would hide without it.
  // Rules come from sheets.js, nested ones made absolute (`.row { &:hover
  // .remove {…} }` reads as `:is(.row):hover .remove`). Rules in sheets of
  // another origin cannot be read and are not seen.

  /**
   * One rule that shows or hides, by the selector of one of its list items.
   * @typedef {object} VisibilityRule
   * @property {StyleRuleEntry} rule
   * @property {string} selector
   * @property {string} prefix the selector up to its last compound with :hover ('' for a hiding rule)
   * @property {number} props which properties it sets as the reveal or hide (PROP_* bits)
   *
   * @typedef {{reveal: VisibilityRule[], hide: VisibilityRule[]}} SheetVisibility
   */

  const PROP_DISPLAY = 1;
  const PROP_VISIBILITY = 2;
  const PROP_OPACITY = 4;
  const PROP_SIZE = 8;

  /** @param {string} v @returns {boolean} a length of zero ('0', '0px', '0em') */
  const zeroLength = (v) => v !== '' && /^0(\.0+)?[a-z%]*$/.test(v.trim());
  /** @param {string} v @returns {boolean} a size that draws a box ('18px', 'auto', '100%') */
  const someLength = (v) => v !== '' && !zeroLength(v) && v !== 'none';

  /** The rules of each sheet that show or hide, by what sheets.js found in it. @type {WeakMap<SheetRules, SheetVisibility>} */
  const bySheet = new WeakMap();

  /** @param {CSSStyleDeclaration} style @returns {number} the properties that show */
  function showing(style) {
    let p = 0;
    const d = style.getPropertyValue('display');
    if (d && d !== 'none')
      p |= PROP_DISPLAY;
    if (style.getPropertyValue('visibility') === 'visible')
      p |= PROP_VISIBILITY;
    const o = parseFloat(style.getPropertyValue('opacity'));
    if (o > 0)
      p |= PROP_OPACITY;
    if (someLength(style.getPropertyValue('width')) || someLength(style.getPropertyValue('height')) ||
      someLength(style.getPropertyValue('max-width')) || someLength(style.getPropertyValue('max-height')))
      p |= PROP_SIZE;
    return p;
  }

  /** @param {CSSStyleDeclaration} style @returns {number} the properties that hide */
  function hiding(style) {
    let p = 0;
    if (style.getPropertyValue('display') === 'none')
      p |= PROP_DISPLAY;
    const v = style.getPropertyValue('visibility');
    if (v === 'hidden' || v === 'collapse')
      p |= PROP_VISIBILITY;
    const o = style.getPropertyValue('opacity');
    if (o !== '' && parseFloat(o) === 0)
      p |= PROP_OPACITY;
    if (zeroLength(style.getPropertyValue('width')) || zeroLength(style.getPropertyValue('height')) ||
      zeroLength(style.getPropertyValue('max-width')) || zeroLength(style.getPropertyValue('max-height')))
      p |= PROP_SIZE;
    return p;
  }

  /**
   * The selector up to the end of the compound that holds its last :hover:
   * what the hovered element matches (`ul li:hover` of `ul li:hover .remove`).
   * '' when no :hover applies positively.
   * @param {string} sel
   */
  function hoverPrefix(sel) {
    const at = sel.lastIndexOf(':hover');
    if (at < 0 || /:not\([^)]*:hover/.test(sel))
      return '';
    let depth = 0;
    for (let i = at; i < sel.length; i++) {
      const c = sel[i];
      if (c === '(' || c === '[')
        depth++;
      else if (c === ')' || c === ']')
        depth--;
      else if (depth <= 0 && (c === ' ' || c === '>' || c === '+' || c === '~'))
        return sel.slice(0, i).trim();
    }
    return sel.trim();
  }

  /**
   * The rules of a sheet (sheets.js: nested rules made absolute, grouping
   * rules walked into) that show under :hover or hide without it.
   * @param {CSSStyleSheet} sheet @returns {SheetVisibility}
   */
  function rulesOf(sheet) {
    const rules = pm.sheetRules(sheet);
    const known = bySheet.get(rules);
    if (known)
      return known;
    /** @type {SheetVisibility} */
    const out = { reveal: [], hide: [] };
    for (const rule of rules.rules) {
      const hover = rule.selectors.some((s) => s.includes(':hover'));
      const shows = hover ? showing(rule.style) : 0;
      const hides = hiding(rule.style);
      if (!shows && !hides)
        continue;
      for (const part of rule.selectors) {
        const prefix = shows ? hoverPrefix(part) : '';
        if (prefix)
          out.reveal.push({ rule, selector: part, prefix, props: shows });
        else if (hides && !part.includes(':hover'))
          out.hide.push({ rule, selector: part, prefix: '', props: hides });
      }
    }
    bySheet.set(rules, out);
    return out;
  }

  /** @param {Element} el @param {string} sel */
  function matches(el, sel) {
    try {
      return el.matches(sel);
    } catch {
      return false;
    }
  }

  /**
   * The elements of a document or shadow root that show only because of
   * the pointer, each with the element whose hover shows it (a row, or the
   * element itself). Empty when the pointer is over nothing in it.
   * @param {Document | ShadowRoot} root @returns {Map<Element, Element>}
   */
  function hoverReveals(root) {
    /** @type {Map<Element, Element>} */
    const out = new Map();
    const host = root.nodeType === 11 ? /** @type {ShadowRoot} */ (root).host : null;
    if (host && !matches(host, ':hover'))
      return out;
    const chain = Array.from(root.querySelectorAll(':hover'));
    if (!chain.length && !host)
      return out;
    /** @type {VisibilityRule[]} */
    const reveal = [];
    /** @type {VisibilityRule[]} */
    const hide = [];
    // A sheet of another origin cannot be read (sheets.js lists it): what
    // its rules reveal is not seen.
    for (const sheet of pm.styleSheetsOf(root)) {
      const r = rulesOf(sheet);
      reveal.push(...r.reveal);
      hide.push(...r.hide);
    }
    if (!reveal.length || !hide.length)
      return out;
    for (const rule of reveal) {
      const by = chain.filter((el) => matches(el, rule.prefix));
      if ((!by.length && !(host && rule.prefix.includes(':host'))) || !pm.ruleApplies(rule.rule))
        continue;
      let found;
      try {
        found = root.querySelectorAll(rule.selector);
      } catch {
        continue; // a pseudo-element, or a selector this browser does not take
      }
      for (const el of Array.from(found)) {
        if (out.has(el))
          continue;
        const hidden = hide.some((h) => (h.props & rule.props) !== 0 && matches(el, h.selector) && pm.ruleApplies(h.rule));
        if (!hidden)
          continue;
        // The deepest hovered element the rule's :hover names: the row
        // around the button, or a sibling before it (`+`, `~`).
        let revealer = null;
        for (let i = by.length - 1; i >= 0 && !revealer; i--) {
          const b = by[i];
          if (b === el || b.contains(el) || (b.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0)
            revealer = b;
        }
        if (!revealer && host)
          revealer = host;
        if (revealer)
          out.set(el, revealer);
      }
    }
    return out;
  }

  /** @type {PageModelHover} */
  const provides = { hoverReveals };
  Object.assign(pm, provides);
})();
