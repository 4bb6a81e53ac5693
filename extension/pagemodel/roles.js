// Page model: roles (WAI-ARIA 1.2, HTML-AAM), named as Playwright names them.
'use strict';

/**
 * What roles.js gives the files after it, on the page model's namespace.
 * @typedef {object} PageModelRoles
 * @property {(el: Element) => boolean} hasValidTabIndex
 * @property {(el: Element) => boolean} nativelyDisabled
 * @property {(el: Element) => string | null} roleOf
 */

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, PageModelInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.pagemodel.internals')];
  if (!internals)
    return; // this version of the page model or a newer one is installed (core.js)
  const pm = internals;
  const { SVG_NS, caches, cachesIfAny, closestAcrossShadow, idRefs, isHTML, parentOrHost, tagOf } = pm;

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
  /** <input> types and their roles where they are not textbox-like (HTML-AAM). */
  const INPUT_ROLES = /** @type {Record<string, string>} */ ({
    button: 'button', checkbox: 'checkbox', image: 'button', number: 'spinbutton', radio: 'radio',
    range: 'slider', reset: 'button', submit: 'button', file: 'button',
  });
  /** Ancestors that stop header and footer from being page landmarks (HTML-AAM). */
  const SECTIONING_FOR_LANDMARKS = 'article:not([role]), aside:not([role]), main:not([role]), nav:not([role]), ' +
    'section:not([role]), [role=article], [role=complementary], [role=main], [role=navigation], [role=region]';
  /** Parents through which role="none" on a container passes to its required children. */
  const PRESENTATION_PASSES = /** @type {Record<string, string[]>} */ ({
    dd: ['dl', 'div'], div: ['dl'], dt: ['dl', 'div'], li: ['ol', 'ul', 'menu'], tbody: ['table'], td: ['tr'],
    tfoot: ['table'], th: ['tr'], thead: ['table'], tr: ['thead', 'tbody', 'tfoot', 'table'],
  });

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

  /** The HTML elements a disabled attribute or fieldset can disable. */
  const DISABLEABLE = new Set(['button', 'input', 'select', 'textarea', 'option', 'optgroup', 'fieldset']);

  /** Whether the element is disabled by HTML (disabled attribute, fieldset, optgroup). @param {Element} el */
  function nativelyDisabled(el) {
    if (!isHTML(el))
      return false;
    const tag = tagOf(el);
    if (!DISABLEABLE.has(tag))
      return false;
    if (el.hasAttribute('disabled'))
      return true;
    if (tag === 'option') {
      const group = el.parentElement;
      if (group && tagOf(group) === 'optgroup' && group.hasAttribute('disabled'))
        return true;
    }
    // closest() looks only at el's own tree: a tree without a disabled
    // fieldset has none to find (asked once per tree in a capture).
    const c = cachesIfAny();
    const tree = c ? c.roots.get(el) || el.getRootNode() : null;
    if (c && tree && (tree.nodeType === 9 || tree.nodeType === 11)) {
      let any = c.disabledFieldsets.get(tree);
      if (any === undefined) {
        any = (/** @type {Document | ShadowRoot} */ (tree)).querySelector('fieldset[disabled]') !== null;
        c.disabledFieldsets.set(tree, any);
      }
      if (!any)
        return false;
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

  /** @type {PageModelRoles} */
  const provides = { hasValidTabIndex, nativelyDisabled, roleOf };
  Object.assign(pm, provides);
})();
