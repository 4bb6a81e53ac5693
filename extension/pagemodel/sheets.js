// Page model: style sheets. The one walk over a tree's style rules that the
// files after it read: hover.js (which rules reveal under :hover and which
// hide), names.js (which rules give ::before / ::after content) and
// incremental.js (whether a rule can change what shows without a DOM
// change). Each style rule comes with its selector list made absolute, so
// a nested rule reads as the rule it stands for:
//
//   .row { &:hover .remove { display: block } }   is   :is(.row):hover .remove
//   .row { .remove { display: none } }            is   :is(.row) .remove
//
// Grouping rules (@media, @supports, @layer, @container, @scope) are walked
// into and kept as the rule's conditions, @import is followed, and what
// cannot be read is said, never thrown: a sheet of another origin served
// without CORS is listed in `unreadable` with its address, and each caller
// says what it does without it. Rules that never apply to the page as it
// stands (@keyframes steps, @starting-style, @font-face, @page) are not
// style rules here.
'use strict';

/**
 * One style rule of a tree, as the walk found it.
 * @typedef {object} StyleRuleEntry
 * @property {CSSRule} rule the style rule, or the nested declarations that stand for their parent
 * @property {CSSStyleDeclaration} style its declarations (read them when needed: they can change)
 * @property {string[]} selectors its selector list, each item made absolute (nesting resolved)
 * @property {CSSRule[]} conditions the grouping rules around it that hold or not (media, supports, container), outermost first
 * @property {CSSStyleSheet} sheet the sheet it is in (an imported one for the rules an import brings)
 *
 * What the walk of one sheet found.
 * @typedef {object} SheetRules
 * @property {StyleRuleEntry[]} rules
 * @property {string[]} unreadable the sheets (this one or one it imports) whose rules cannot be read, by address
 *
 * What the walk of a tree found.
 * @typedef {object} TreeRules
 * @property {CSSStyleSheet[]} sheets the tree's sheets: its style sheets, then its adopted ones
 * @property {StyleRuleEntry[]} rules every style rule, in order
 * @property {string[]} unreadable the sheets whose rules cannot be read, by address
 *
 * What sheets.js gives the files after it, on the page model's namespace.
 * @typedef {object} PageModelSheets
 * @property {(root: Document | ShadowRoot) => CSSStyleSheet[]} styleSheetsOf
 * @property {(sheet: CSSStyleSheet) => SheetRules} sheetRules
 * @property {(root: Document | ShadowRoot) => TreeRules} treeRules
 * @property {(entry: StyleRuleEntry) => boolean} ruleApplies
 * @property {(list: string) => string[]} splitSelectorList
 */

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, PageModelInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.pagemodel.internals')];
  if (!internals)
    return; // this version of the page model or a newer one is installed (core.js)
  const pm = internals;
  const g = /** @type {Record<string, any>} */ (/** @type {unknown} */ (globalThis));

  /**
   * Whether rule is an instance of the CSSOM class named name; false where
   * this browser has no such class.
   * @param {unknown} rule @param {string} name
   */
  function is(rule, name) {
    const C = g[name];
    return typeof C === 'function' && rule instanceof C;
  }

  /**
   * Splits a selector list at its top-level commas (not those inside
   * parentheses, brackets or strings).
   * @param {string} list @returns {string[]}
   */
  function splitSelectorList(list) {
    /** @type {string[]} */
    const out = [];
    let depth = 0, start = 0;
    /** @type {string | null} */
    let quote = null;
    for (let i = 0; i < list.length; i++) {
      const c = list[i];
      if (quote) {
        if (c === '\\')
          i++;
        else if (c === quote)
          quote = null;
      } else if (c === '"' || c === "'") {
        quote = c;
      } else if (c === '\\') {
        i++;
      } else if (c === '(' || c === '[') {
        depth++;
      } else if (c === ')' || c === ']') {
        depth--;
      } else if (c === ',' && depth === 0) {
        out.push(list.slice(start, i).trim());
        start = i + 1;
      }
    }
    out.push(list.slice(start).trim());
    return out.filter(Boolean);
  }

  /**
   * A nested selector made absolute against its parent's list: each `&`
   * outside strings and brackets becomes `:is(parent)`, and a selector
   * without one is a descendant of the parent (`> .x` a child).
   * @param {string} sel @param {string[]} parent
   */
  function resolveNested(sel, parent) {
    const is = ':is(' + parent.join(', ') + ')';
    let out = '', found = false, depth = 0;
    /** @type {string | null} */
    let quote = null;
    for (let i = 0; i < sel.length; i++) {
      const c = sel[i];
      if (quote) {
        if (c === '\\') {
          out += c + (sel[i + 1] || '');
          i++;
          continue;
        }
        if (c === quote)
          quote = null;
      } else if (c === '"' || c === "'") {
        quote = c;
      } else if (c === '\\') {
        out += c + (sel[i + 1] || '');
        i++;
        continue;
      } else if (c === '[') {
        depth++;
      } else if (c === ']') {
        depth--;
      } else if (c === '&' && depth === 0) {
        out += is;
        found = true;
        continue;
      }
      out += c;
    }
    return found ? out : is + ' ' + sel;
  }

  /**
   * What a sheet's walk found, with what it depends on: the number of its
   * top-level rules, and each imported sheet and what its walk found.
   * @typedef {{rule: CSSImportRule, sheet: CSSStyleSheet | null, result: SheetRules | null}} ImportSeen
   * @type {WeakMap<CSSStyleSheet, {length: number, imports: ImportSeen[], result: SheetRules}>}
   */
  const bySheet = new WeakMap();
  /** The sheets that cannot be read (that does not change). @type {WeakMap<CSSStyleSheet, SheetRules>} */
  const unreadableSheets = new WeakMap();

  /** @param {CSSStyleSheet} sheet */
  function addressOf(sheet) {
    return sheet.href || (sheet.ownerNode && /** @type {Element} */ (sheet.ownerNode).localName ? '<' + /** @type {Element} */ (sheet.ownerNode).localName + '>' : '(a sheet without an address)');
  }

  /**
   * Every style rule of a sheet and the sheets it imports. The walk is kept
   * while the sheet has as many top-level rules and its imports the same
   * sheets (style-in-JS libraries add rules at the top level); declarations
   * are read live from each entry's style.
   * @param {CSSStyleSheet} sheet @returns {SheetRules}
   */
  function sheetRules(sheet) {
    const cannot = unreadableSheets.get(sheet);
    if (cannot)
      return cannot;
    let top;
    try {
      top = sheet.cssRules;
    } catch {
      // Another origin's sheet served without CORS: its rules cannot be read.
      const none = { rules: [], unreadable: [addressOf(sheet)] };
      unreadableSheets.set(sheet, none);
      return none;
    }
    const known = bySheet.get(sheet);
    if (known && known.length === top.length && known.imports.every((i) => i.rule.styleSheet === i.sheet &&
      (!i.sheet || sheetRules(i.sheet) === i.result)))
      return known.result;
    /** @type {SheetRules} */
    const result = { rules: [], unreadable: [] };
    /** @type {ImportSeen[]} */
    const imports = [];
    /**
     * @param {CSSRuleList} rules @param {string[] | null} parent the enclosing style rule's selectors
     * @param {CSSRule[]} conditions @param {CSSStyleSheet} from
     */
    const walk = (rules, parent, conditions, from) => {
      for (let i = 0; i < rules.length; i++) {
        const rule = rules[i];
        if (is(rule, 'CSSStyleRule')) {
          const style = /** @type {CSSStyleRule} */ (rule);
          const own = splitSelectorList(style.selectorText || '');
          const selectors = parent ? own.map((s) => resolveNested(s, parent)) : own;
          result.rules.push({ rule, style: style.style, selectors, conditions, sheet: from });
          const inner = /** @type {CSSRuleList | undefined} */ (/** @type {any} */ (style).cssRules);
          if (inner && inner.length)
            walk(inner, selectors, conditions, from);
        } else if (is(rule, 'CSSNestedDeclarations')) {
          // Declarations after a nested rule: they belong to the parent.
          if (parent)
            result.rules.push({ rule, style: /** @type {any} */ (rule).style, selectors: parent, conditions, sheet: from });
        } else if (is(rule, 'CSSImportRule')) {
          // Its media are the imported sheet's (ruleApplies reads them).
          const imp = /** @type {CSSImportRule} */ (rule);
          const sub = imp.styleSheet ? sheetRules(imp.styleSheet) : null;
          imports.push({ rule: imp, sheet: imp.styleSheet, result: sub });
          if (sub) {
            result.rules.push(...sub.rules);
            result.unreadable.push(...sub.unreadable);
          }
        } else if (is(rule, 'CSSMediaRule') || is(rule, 'CSSSupportsRule') || is(rule, 'CSSContainerRule')) {
          walk(/** @type {CSSGroupingRule} */ (rule).cssRules, parent, [...conditions, rule], from);
        } else if (is(rule, 'CSSLayerBlockRule') || is(rule, 'CSSScopeRule')) {
          walk(/** @type {CSSGroupingRule} */ (rule).cssRules, parent, conditions, from);
        }
        // @keyframes, @starting-style, @font-face, @page, @property and the
        // like style nothing that shows now.
      }
    };
    walk(top, null, [], sheet);
    bySheet.set(sheet, { length: top.length, imports, result });
    return result;
  }

  /** @param {Document | ShadowRoot} root @returns {CSSStyleSheet[]} */
  function styleSheetsOf(root) {
    /** @type {CSSStyleSheet[]} */
    const out = [];
    try {
      for (const s of Array.from(root.styleSheets || []))
        out.push(/** @type {CSSStyleSheet} */ (s));
      for (const s of root.adoptedStyleSheets || [])
        out.push(s);
    } catch {
      // a tree whose sheets cannot be listed has none we can read
    }
    return out;
  }

  /** @param {Document | ShadowRoot} root @returns {TreeRules} */
  function treeRules(root) {
    const sheets = styleSheetsOf(root);
    /** @type {TreeRules} */
    const out = { sheets, rules: [], unreadable: [] };
    for (const sheet of sheets) {
      const r = sheetRules(sheet);
      for (const e of r.rules)
        out.rules.push(e);
      out.unreadable.push(...r.unreadable);
    }
    return out;
  }

  /** @param {string} media */
  function mediaHolds(media) {
    return !media || typeof g.matchMedia !== 'function' || g.matchMedia(media).matches;
  }

  /**
   * Whether a rule applies to the page now: its sheet (and every sheet that
   * imports it) is enabled and its media hold, and so do the media and
   * supports rules around it. A container query depends on the element
   * and is taken as holding.
   * @param {StyleRuleEntry} entry
   */
  function ruleApplies(entry) {
    for (const c of entry.conditions) {
      if (is(c, 'CSSMediaRule')) {
        if (!mediaHolds(/** @type {CSSMediaRule} */ (c).media.mediaText))
          return false;
      } else if (is(c, 'CSSSupportsRule')) {
        const text = /** @type {CSSSupportsRule} */ (c).conditionText;
        if (text && g.CSS && typeof g.CSS.supports === 'function' && !g.CSS.supports(text))
          return false;
      }
    }
    for (let s = /** @type {CSSStyleSheet | null} */ (entry.sheet); s; s = /** @type {CSSStyleSheet | null} */ (s.parentStyleSheet)) {
      if (s.disabled || (s.media && !mediaHolds(s.media.mediaText)))
        return false;
    }
    return true;
  }

  /** @type {PageModelSheets} */
  const provides = { styleSheetsOf, sheetRules, treeRules, ruleApplies, splitSelectorList };
  Object.assign(pm, provides);
})();
