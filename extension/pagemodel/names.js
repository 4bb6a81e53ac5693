// Page model: accessible names and descriptions (accname 1.2, HTML-AAM),
// with the text CSS generated content (::before, ::after, content) adds.
'use strict';

/**
 * @typedef {object} ContentScan which elements of one tree (a document or a
 *   shadow root) a `content` declaration may reach
 * @property {boolean} all a style sheet could not be read: look at every element
 * @property {Set<Element>} pseudo elements a ::before/::after rule with content may match
 * @property {Set<Element>} own elements a rule gives `content` directly (alternative text)
 * @property {Set<Element>} blank elements a ::before/::after rule with empty content may match (an icon box)
 */

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

/**
 * What names.js gives the files after it, on the page model's namespace.
 * @typedef {object} PageModelNames
 * @property {(el: Element, includeHidden: boolean, nameFromTitle: boolean) => string} accessibleDescription
 * @property {(el: Element, includeHidden: boolean) => { name: string; fromTitle: boolean; blankPart?: boolean; }} accessibleName
 * @property {(s: string) => string} flat
 * @property {(el: Element) => Element[] | null} labelledByElements
 * @property {(el: Element) => HTMLLabelElement[]} labelsOf
 * @property {(el: Element) => boolean} mayHavePseudoText
 * @property {(labels: HTMLLabelElement[], w: NameWalk) => string} nameFromLabels
 * @property {(el: Element, which: '::before' | '::after') => string | undefined} pseudoText
 * @property {(el: Element, w: NameWalk) => string} textAlternative
 */

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, PageModelInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.pagemodel.internals')];
  if (!internals)
    return; // this version of the page model or a newer one is installed (core.js)
  const pm = internals;
  const { PSEUDO, PSEUDO_KNOWN, RANGE_ROLES, SVG_NS, ariaExcluded, caches, flatChildren,
    hiddenForAria, idRefs, ignoredForAria, isElement, isHTML, isSecret, knownFlag, notRendered, roleOf, setFlag,
    showsSensitive, styleInline, styleOf, styleVisible, tagOf, treeRoot } = pm;

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
  /** Input types that may fall back to their placeholder for a name. */
  const PLACEHOLDER_INPUT_TYPES = new Set(['text', 'password', 'number', 'search', 'tel', 'email', 'url']);

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
    const result = { all: false, pseudo: new Set(), own: new Set(), blank: new Set() };
    /** @type {string[]} */
    const pseudoBases = [];
    /** @type {string[]} */
    const blankBases = [];
    /** @type {string[]} */
    const ownSelectors = [];

    // Every style rule of the tree (sheets.js: nested rules made absolute,
    // @media, @supports and @layer walked into, @import followed). A sheet
    // that cannot be read could give any element content: every element is
    // looked at.
    const tree = pm.treeRules(root);
    if (tree.unreadable.length)
      result.all = true;
    for (const rule of tree.rules) {
      const selectors = rule.selectors;
      const content = rule.style.getPropertyValue('content').trim();
      if (content === '""' || content === "''") {
        // An empty box: no text, but a block one gives a name spaces
        // (blankPseudoBox).
        for (const sel of selectors) {
          const m = PSEUDO_ELEMENT.exec(sel);
          if (m && !/::slotted|::part|:host/i.test(sel)) {
            const base = sel.slice(0, m.index).trim();
            blankBases.push(!base || /[>+~]$/.test(base) ? base + '*' : base);
          }
        }
      }
      if (contentMayShowText(content)) {
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
      collect(blankBases, result.blank);
    }
    c.contentScans.set(root, result);
    return result;
  }

  /**
   * Whether el draws an empty ::before or ::after box that is not inline
   * (`content: ""; display: block`, an icon painted by its background):
   * it shows no text, but gives a name it is part of spaces.
   * @param {Element} el
   */
  function blankPseudoBox(el) {
    const scan = contentScan(treeRoot(el));
    if (!scan.all && !scan.blank.has(el))
      return false;
    const view = el.ownerDocument.defaultView;
    if (!view)
      return false;
    for (const which of ['::before', '::after']) {
      const st = view.getComputedStyle(el, which);
      if ((st.content === '""' || st.content === "''") && st.getPropertyValue('display') !== 'inline' && st.getPropertyValue('display') !== 'none' && st.getPropertyValue('visibility') === 'visible')
        return true;
    }
    return false;
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
    if (st.getPropertyValue('display') === 'none' || st.getPropertyValue('visibility') !== 'visible')
      return undefined;
    let text = parseContent(el, content, false);
    if (text !== undefined && st.getPropertyValue('display') !== 'inline')
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
      if (known !== undefined) {
        if (caches().blankInside.has(el))
          blankPart = true;
        return known;
      }
    }
    const outer = blankPart;
    blankPart = false;
    const text = computeTextAlternative(el, w);
    const inner = blankPart;
    blankPart = outer || inner;
    if (plainDescendant) {
      caches().content.set(el, text);
      if (inner)
        caches().blankInside.add(el);
    }
    return text;
  }

  /**
   * Set while a name is computed when a plain element in the content gave
   * it text that shows nothing: spaces alone, such as the spaces around an
   * empty block ::after that draws an icon (Swagger UI's schema toggles).
   * The name reads the same without it, but part of it came from an
   * element a snapshot does not show, and Playwright's AI snapshot keeps
   * such a name (accessibleName returns it as blankPart).
   */
  let blankPart = false;

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

    // 2A: never read (a style sheet, a script), however hidden content
    // counts: a hidden node named as if shown reads no CSS either.
    if (ignoredForAria(el)) {
      w.visited.add(el);
      return '';
    }
    // Hidden, and not reached through a reference to a hidden node.
    if (!w.includeHidden) {
      const viaHidden = !!(w.labelledBy?.hidden || w.describedBy?.hidden || w.nativeAlt?.hidden || w.label?.hidden);
      if (!viaHidden && hiddenForAria(el)) {
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
    if (notRendered(el) || ariaExcluded(el) || ignoredForAria(el))
      return false;
    return !styleVisible(el);
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
          if (w.target === 'descendant' && !hasText(part) && (part !== '' || (!hiddenForAria(n) && blankPseudoBox(n)))) {
            const role = roleOf(n);
            if ((role === null || role === 'generic') && !holdsShownElement(n))
              blankPart = true;
          }
          out += !styleInline(n) || tagOf(n) === 'br' ? ' ' + part + ' ' : part;
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
   * Whether a snapshot shows an element inside el as a node of its own, so
   * that el shows as more than the text it holds: a wrapper around a field
   * (Awesomplete's box around its input) is shown even when all it gives a
   * name is spaces, and Playwright's AI snapshot drops a name such a wrapper
   * gave a part of, as it drops any name its shown sources repeat.
   * Presentational children give their content in their place; an inline
   * plain element holding one run of text is read as that text.
   * @param {Element} el @returns {boolean}
   */
  function holdsShownElement(el) {
    const kids = flatChildren(el);
    if (!kids)
      return false;
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i];
      if (!isElement(c) || (hiddenForAria(c) && (notRendered(c) || !styleVisible(c))))
        continue;
      const role = roleOf(c);
      if (role === 'none' || role === 'presentation') {
        if (holdsShownElement(c))
          return true;
        continue;
      }
      if ((role === null || role === 'generic') && styleInline(c) && c.childNodes.length === 1 && c.firstChild?.nodeType === 3)
        continue;
      return true;
    }
    return false;
  }

  /**
   * The accessible name of el. With includeHidden, hidden content counts as
   * if it were shown: a hidden node is named as it will be when it appears.
   * blankPart is set when a plain element in the content gave the name text
   * that shows nothing (see blankPart).
   * @param {Element} el @param {boolean} includeHidden @returns {{name: string, fromTitle: boolean, blankPart?: boolean}}
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
    const before = blankPart;
    blankPart = false;
    const name = flat(textAlternative(el, { visited: new Set(), includeHidden, target: 'self' }));
    const blank = blankPart && name !== '';
    blankPart = before;
    const title = el.getAttribute('title');
    return blank ? { name, fromTitle: !!title && name === flat(title), blankPart: true } : { name, fromTitle: !!title && name === flat(title) };
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

  /** @type {PageModelNames} */
  const provides = { accessibleDescription, accessibleName, flat, labelledByElements, labelsOf,
    mayHavePseudoText, nameFromLabels, pseudoText, textAlternative };
  Object.assign(pm, provides);
})();
