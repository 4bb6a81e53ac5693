// Page model: capture. Walks the flat tree of a document, its same-origin frames
// and open shadow roots, once, bottom-up, into a screen: each node's ref, role,
// name, states, text as a person reads it, box, visibility and what covers it.
'use strict';

/**
 * @typedef {object} CaptureRun state of one capture call
 * @property {string[]} testIdAttributes
 * @property {boolean} coverInteractive
 * @property {Set<Element>} coverAlso
 * @property {CoverItem[]} toCover
 * @property {Map<Document, Walk>} walks
 * @property {Map<Document | ShadowRoot, Map<Element, Element>>} [hover] what the pointer reveals, per tree (hover.js)
 * @property {Map<Document, Set<Element>>} [leaving] what a running transition is hiding, per document
 * @property {Map<ScreenNode, Deferred>} [deferred] a directed capture's: what adds each node's name and
 *   details, left for the nodes it sends
 */

/**
 * What adds a node's name (addName) and then its details (addDetails), in
 * a directed capture; name is null once called.
 * @typedef {{name: (() => void) | null, details: () => void}} Deferred
 */

/**
 * @typedef {{el: Element, node: ScreenNode, x: number, y: number, doc: Document, via?: ScreenNode}} CoverItem
 * via: the root of the reused subtree the node came with (incremental captures)
 */

/**
 * Text in normalised form with the kind of space at its edges as it was
 * before normalising: SPACE_NONE, SPACE_BLANK or SPACE_BREAK (0, 1, 2). When
 * n is empty the text was all space (or nothing), and lead equals trail.
 * @typedef {{n: string, lead: number, trail: number}} Spaced
 */

/**
 * What an element gathers from its children while it is walked.
 * @typedef {object} Gathered
 * @property {ScreenNode[]} children
 * @property {Spaced} raw text of the painted content
 * @property {Spaced} latent text of the content as if shown
 * @property {boolean} shown a child is visible
 * @property {boolean} sensitive a text child shows a sensitive value
 */

/**
 * What capture.js gives the files after it, on the page model's namespace.
 * @typedef {object} PageModelCapture
 * @property {(options?: CaptureOptions, deferred?: Map<ScreenNode, Deferred>) => CapturedScreen} capture
 * @property {(v: unknown, what: string) => string[]} checkStringList
 * @property {(el: Element, x: number, y: number) => boolean | undefined} coveredAt
 * @property {(el: Element) => void} addOverlay
 * @property {(root: Document | ShadowRoot, doc: Document, x: number, y: number) => Element | null} pageHitAt
 * @property {(el: Element, selector: string) => boolean} matchesSafely
 * @property {(hit: Element, target: Element, x?: number, y?: number) => boolean} reaches
 * @property {(v: number) => number} round
 * @property {(el: Element, walk: Walk, up: Inherited, skipped: boolean, root: Document | ShadowRoot) => Visit | null} visitElementFull
 */

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, PageModelInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.pagemodel.internals')];
  if (!internals)
    return; // this version of the page model or a newer one is installed (core.js)
  const pm = internals;
  const { ARIA_EXCLUDED, ARIA_EXCLUDED_KNOWN, DEFAULT_TEST_ID_ATTRIBUTES, INSIDE_MODAL,
    INSIDE_MODAL_KNOWN, NOT_RENDERED, NOT_RENDERED_KNOWN, RANGE_ROLES, SCREEN_SCHEMA, STYLE_INLINE, STYLE_KNOWN, STYLE_VISIBLE, accessibleDescription,
    accessibleName, caches, collapseSpaces, containsAcross, flat, flatChildSource, frameNumberOfDoc,
    frameNumberOfRemote, frameRegistryOf, hasValidTabIndex, hiddenForAria, hoverReveals, ignoredForAria, isHTML, isOmitted, isSecret,
    isSelectDropDown, labelledByElements, labelsOf, mayHavePseudoText, modalOf, nameFromLabels,
    nativelyDisabled, parentOrHost, pseudoText, refName, refStateOf, resolveRef, roleOf, showsSensitive,
    skippedChildren, styleOf, tagOf, textAlternative, withCaches } = pm;

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
  /** Roles a person acts on: these nodes get a hit test at their centre. */
  const INTERACTIVE_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'textbox', 'searchbox',
    'combobox', 'listbox', 'option', 'slider', 'spinbutton', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab',
    'treeitem', 'gridcell', 'scrollbar']);
  /** Input types whose current value a person sees as text in the field. */
  const VALUE_INPUT_TYPES = new Set(['text', 'search', 'email', 'tel', 'url', 'number', 'date', 'time',
    'datetime-local', 'month', 'week', 'color', 'range', 'password']);
  /** Box numbers are rounded to hundredths of a CSS pixel: finer is noise. */
  const BOX_PRECISION = 100;

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
      else if (role === 'heading') {
        node.level = 2; // ARIA's default level for role=heading
        node.impliedLevel = true; // which Playwright does not print
      }
    }
    const native = tag === 'input' || tag === 'select' || tag === 'textarea';
    if ((native && el.hasAttribute('required')) || (REQUIRED_ROLES.has(role) && el.getAttribute('aria-required') === 'true'))
      node.required = true;
    if ((native && tag !== 'select' && el.hasAttribute('readonly')) || (READONLY_ROLES.has(role) && el.getAttribute('aria-readonly') === 'true'))
      node.readonly = true;
    // Text edited in place: the editing host of contenteditable text (a
    // tree editor's value), a field whatever role it has.
    if (!native && isHTML(el) && (/** @type {HTMLElement} */ (el)).isContentEditable && !(el.parentElement && el.parentElement.isContentEditable))
      node.editable = true;
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

  /**
   * The ids in an id-list attribute of el (aria-owns, aria-labelledby) that
   * name an element of its document, or, with inTree, of the tree el is in
   * (its shadow root, where aria-labelledby looks), as written and in order.
   * @param {Element} el @param {string} attr @param {boolean} [inTree] @returns {string[]}
   */
  function idsIn(el, attr, inTree) {
    const root = inTree ? /** @type {Document | ShadowRoot} */ (el.getRootNode()) : null;
    const scope = root && typeof root.getElementById === 'function' ? root : el.ownerDocument;
    return (el.getAttribute(attr) || '').split(/\s+/).filter(id => !!id && !!scope.getElementById(id));
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

  /**
   * Characters a text run drops or changes: soft hyphen, zero-width space,
   * no-break space. Icon-font glyphs (private use) are kept, as they render
   * and Playwright's snapshots print them; selectors compare texts without
   * them (recorder/selector StripTextGlyphs).
   */
  const UNUSUAL_CHARACTERS = /[\u00ad\u200b\u00a0]/;

  /**
   * Text of one text node as it renders: whitespace collapsed (line feeds
   * kept where CSS preserves them), soft hyphens and zero-width spaces
   * dropped, no-break spaces read as spaces.
   * @param {string} data @param {boolean} keepBreaks
   */
  function renderedRun(data, keepBreaks) {
    let s = data;
    if (UNUSUAL_CHARACTERS.test(s))
      s = s.replace(/[\u00ad\u200b]/g, '').replace(/\u00a0/g, ' ');
    if (keepBreaks)
      return s.replace(/\r\n?/g, '\n').replace(/[ \t\f]+/g, ' ');
    return s.replace(/[ \t\n\f\r]+/g, ' ');
  }

  /**
   * docs/screen-schema.md normalisation: collapse spaces and tabs, trim each line, drop
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

  // An element's text is the normalised concatenation of what its content
  // adds. Normalising (normalizeText) only collapses each run of spaces,
  // tabs and line feeds (to a line feed if the run has one, else to a
  // space) and drops the runs at the edges, so the text of a concatenation
  // is the texts of its parts joined by what the run at their seam
  // collapses to. A walk keeps each gathered text that way (Spaced): its
  // normalised form and the kind of space at each edge; an element then
  // never normalises its whole text again, which made the walk's cost grow
  // with the page's text times its depth (the body, html and every
  // container read all the text under them once more).

  /** No space at an edge. */
  const SPACE_NONE = 0;
  /** Spaces or tabs at an edge. */
  const SPACE_BLANK = 1;
  /** Space with a line feed among it at an edge. */
  const SPACE_BREAK = 2;

  /** @type {Readonly<Spaced>} */
  const NO_TEXT = Object.freeze({ n: '', lead: SPACE_NONE, trail: SPACE_NONE });

  /**
   * The kind of space at one edge of s, walking from index i by step (1 from
   * the start, -1 from the end); all of s when s is all space.
   * @param {string} s @param {number} i @param {1 | -1} step
   */
  function edgeSpace(s, i, step) {
    let k = SPACE_NONE;
    for (; i >= 0 && i < s.length; i += step) {
      const ch = s.charCodeAt(i);
      if (ch === 10)
        k = SPACE_BREAK;
      else if (ch === 32 || ch === 9)
        k = k || SPACE_BLANK;
      else
        break;
    }
    return k;
  }

  /** The kind of space at the start of s. @param {string} s */
  const leadSpace = (s) => edgeSpace(s, 0, 1);

  /** The kind of space at the end of s. @param {string} s */
  const trailSpace = (s) => edgeSpace(s, s.length - 1, -1);

  /**
   * Appends to t a text given in normalised form n with the kinds of space
   * at its edges.
   * @param {Spaced} t @param {string} n @param {number} lead @param {number} trail
   */
  function appendSpaced(t, n, lead, trail) {
    if (!n) {
      // All space: it widens the run at t's end.
      if (t.n)
        t.trail = Math.max(t.trail, lead);
      else
        t.lead = t.trail = Math.max(t.lead, lead);
    } else if (!t.n) {
      t.n = n;
      t.lead = Math.max(t.lead, lead);
      t.trail = trail;
    } else {
      const seam = Math.max(t.trail, lead);
      t.n += (seam === SPACE_BREAK ? '\n' : seam === SPACE_BLANK ? ' ' : '') + n;
      t.trail = trail;
    }
  }

  /** Appends the text s, as it is, to t. @param {Spaced} t @param {string} s @param {string} [normal] normalizeText(s), when the caller has it */
  function appendText(t, s, normal = normalizeText(s)) {
    if (s)
      appendSpaced(t, normal, leadSpace(s), trailSpace(s));
  }

  /**
   * inner wrapped in sep on both sides, sep being '', ' ' or a line feed.
   * @param {Spaced} inner @param {string} sep @returns {Spaced}
   */
  function wrapSpaced(inner, sep) {
    if (!sep)
      return inner;
    const k = sep === '\n' ? SPACE_BREAK : SPACE_BLANK;
    if (!inner.n) {
      const all = Math.max(k, inner.lead);
      return { n: '', lead: all, trail: all };
    }
    return { n: inner.n, lead: Math.max(k, inner.lead), trail: Math.max(k, inner.trail) };
  }

  /**
   * Whether a run of text has a line break, the one thing renderedRun reads
   * differently where white space keeps line breaks: without one, the
   * element's white-space is not read.
   * @param {string} data
   */
  function hasBreak(data) {
    return data.indexOf('\n') >= 0 || data.indexOf('\r') >= 0;
  }

  /** @param {Element} el */
  function keepsLineBreaks(el) {
    const st = styleOf(el);
    if (!st)
      return false;
    const collapse = st.getPropertyValue('white-space-collapse');
    if (collapse)
      return collapse !== 'collapse';
    return /^(pre|pre-wrap|pre-line|break-spaces)$/.test(st.getPropertyValue('white-space'));
  }

  // ---------------------------------------------------------------------------
  // Capture

  /** @param {number} v */
  function round(v) {
    return Math.round(v * BOX_PRECISION) / BOX_PRECISION;
  }


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
    const text = normalizeText(runRaw);
    if (visible)
      appendText(acc.raw, runRaw, text);
    if (needLatent)
      appendText(acc.latent, runRaw, text);
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
   * What addName and addDetails need of an element's walk.
   * @typedef {object} Details
   * @property {string | null} roleValue its role, null when it has none of its own
   * @property {boolean} hasAttrs
   * @property {boolean} html
   * @property {string} tag
   * @property {boolean} strictHidden hidden from the accessibility tree
   * @property {boolean} secret
   */

  /** White space as the page's source writes it (before CSS collapses it). */
  const SOURCE_SPACE_AT_END = /[ \t\n\r\f]$/;
  const SOURCE_SPACE_AT_START = /^[ \t\n\r\f]/;

  /**
   * Whether the page's source writes white space right beside the <br> br
   * ("one.\n<br>\ntwo"). A person sees none (the line ends there), but a
   * snapshot that reads the document's text, as Playwright's AI snapshot
   * does, keeps a space there: "one. two", where "one<br>two" reads "onetwo".
   * @param {Element} br
   */
  function spacedInSource(br) {
    const before = br.previousSibling, after = br.nextSibling;
    return (before !== null && before.nodeType === 3 && SOURCE_SPACE_AT_END.test(before.nodeValue || '')) ||
      (after !== null && after.nodeType === 3 && SOURCE_SPACE_AT_START.test(after.nodeValue || ''));
  }

  /**
   * Adds el's accessible name and description to node.
   * @param {Element} el @param {ScreenNode} node @param {Details} d
   */
  function addName(el, node, d) {
    const { roleValue, hasAttrs, html, tag, strictHidden } = d;
    // An element with neither role nor attributes has no name, but for a
    // <summary>, which HTML-AAM names by its content.
    if (roleValue !== null || hasAttrs || (html && tag === 'summary')) {
      const { name, fromTitle, blankPart } = accessibleName(el, strictHidden);
      if (name)
        node.name = name;
      if (blankPart)
        node.nameFromBlank = true;
      if (hasAttrs) {
        const description = accessibleDescription(el, strictHidden, fromTitle);
        if (description)
          node.description = description;
      }
    }
  }

  /**
   * A fragment the URL parser keeps as written after the base URL: printable
   * ASCII but for the characters it percent-encodes there (space, ", <, >, `).
   */
  const PLAIN_FRAGMENT = /^#[!#-;=?-_a-~]*$/;

  /**
   * A path from the root the URL parser keeps as written after an http(s)
   * origin: a slash (not two, which start a host; no backslash, which it
   * reads as a slash), then letters, digits and the characters it keeps in
   * a path, with no query, fragment or percent sign; dot segments are ruled
   * out apart (DOT_SEGMENT).
   */
  const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
  /** A "." or ".." segment, which the URL parser removes. */
  const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/;

  /**
   * What a link's written href resolves to by appending it, per document:
   * the base URL without its fragment for "#fragment", the base URL's
   * scheme and host for "/path"; '' where it may not (another scheme).
   * @typedef {{fragment: string, origin: string}} LinkBases
   */

  /** @param {Document} doc @returns {LinkBases} */
  function linkBases(doc) {
    const known = caches().fragmentBase;
    let bases = known.get(doc);
    if (bases === undefined) {
      const b = doc.baseURI || '';
      const origin = /^https?:\/\/[^/?#\\]*/.exec(b);
      bases = {
        fragment: /^(https?|file):\/\/[^#]*(#|$)/.test(b) ? b.replace(/#.*$/s, '') : '',
        origin: origin ? origin[0] : '',
      };
      known.set(doc, bases);
    }
    return bases;
  }

  /**
   * The resolved URL of a link (its href property), el's href attribute
   * being written. Resolving costs as much as the rest of a link's node: a
   * written "#fragment" on an HTML a or area in a document at an http(s) or
   * file URL is the document's base URL without its fragment, then the
   * fragment, and a plain "/path" under an http(s) base is the base's
   * scheme and host, then the path, which is what the URL parser gives (the
   * page's own links to its sections and its pages are most of its links).
   * @param {Element} el @param {string | null} written
   */
  function linkURL(el, written) {
    const first = written === null ? 0 : written.charCodeAt(0);
    if ((first === 35 /* # */ || first === 47 /* / */) && isHTML(el)) {
      const tag = tagOf(el);
      if (tag === 'a' || tag === 'area') {
        const w = /** @type {string} */ (written);
        if (first === 35 && PLAIN_FRAGMENT.test(w)) {
          const base = linkBases(el.ownerDocument).fragment;
          if (base)
            return base + w;
        } else if (first === 47 && PLAIN_PATH.test(w) && !DOT_SEGMENT.test(w)) {
          const origin = linkBases(el.ownerDocument).origin;
          if (origin)
            return origin + w;
        }
      }
    }
    const href = /** @type {HTMLAnchorElement} */ (el).href;
    return typeof href === 'string' ? href : (href && typeof href === 'object' ? String((/** @type {{baseVal?: string}} */ (href)).baseVal || '') : '');
  }

  /**
   * Adds el's label, link, value and states to node. Neither these nor the
   * name are read by the rest of the walk, so a directed capture
   * (directed.js) adds both only to the nodes it sends.
   * @param {Element} el @param {ScreenNode} node @param {Details} d
   */
  function addDetails(el, node, d) {
    const { roleValue, hasAttrs, secret } = d;
    const role = /** @type {string} */ (node.role);
    if (isLabelable(el, role)) {
      const label = labelText(el);
      if (label)
        node.label = label;
    }
    if (role === 'link') {
      // Playwright's snapshots print the attribute as written, not resolved.
      const written = el.getAttribute('href');
      const url = linkURL(el, written);
      if (url)
        node.url = url;
      if (written !== null && written !== url)
        node.href = written;
    }
    if (hasAttrs && el.hasAttribute('aria-owns')) {
      const owns = idsIn(el, 'aria-owns');
      if (owns.length)
        node.owns = owns;
    }
    if (node.name && hasAttrs && el.hasAttribute('aria-labelledby')) {
      const by = idsIn(el, 'aria-labelledby', true);
      if (by.length)
        node.labelledBy = by;
    }
    if (!secret) {
      const value = controlValue(el, role);
      if (value)
        node.value = value;
    }
    if (roleValue !== null || hasAttrs)
      addStates(el, role, node, hasAttrs);
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
    const r = /** @type {CaptureRun} */ (pm.run);
    const c = caches();
    const hasAttrs = el.hasAttributes();
    /** @type {ScreenNode} */
    const node = { ref: walk.prefix + refName(walk.refs, el) };
    c.roots.set(el, root);

    const st = styleOf(el);
    const display = st ? st.getPropertyValue('display') : 'inline';
    const ownNone = display === 'none';
    const gone = up.notRendered || skipped || ownNone;

    const ariaHidden = up.ariaHidden || (hasAttrs && el.getAttribute('aria-hidden') === 'true');
    const modal = walk.modal;
    const inModal = up.insideModal || el === modal;
    const inert = up.inert || (hasAttrs && el.hasAttribute('inert')) || (!!modal && !inModal && !containsAcross(el, modal));
    const styleShown = (!st || st.getPropertyValue('visibility') === 'visible') && !pm.losingVisibility(el);
    // What the names of the elements around read again (styleVisible, styleInline).
    c.flags.set(el, NOT_RENDERED_KNOWN | ARIA_EXCLUDED_KNOWN | INSIDE_MODAL_KNOWN | STYLE_KNOWN |
      (gone ? NOT_RENDERED : 0) | (ariaHidden || inert ? ARIA_EXCLUDED : 0) | (inModal ? INSIDE_MODAL : 0) |
      (styleShown ? STYLE_VISIBLE : 0) | (display === 'inline' ? STYLE_INLINE : 0));

    // Options of a drop-down select only show in its popup: never painted here.
    const inSelect = up.inSelect;
    const fading = !gone && leaving(el);
    const paints = !gone && !up.clipped && !inSelect && styleShown && !fading;
    let x = 0, y = 0, width = 0, height = 0;
    const hasBox = !gone && display !== 'contents';
    if (hasBox) {
      const rect = el.getBoundingClientRect();
      x = rect.left;
      y = rect.top;
      width = rect.width;
      height = rect.height;
    }
    if (pm.incRun && hasBox)
      pm.incRun.boxes.set(el, [x, y, width, height]);
    const zeroSize = width <= 0 || height <= 0;
    const clipped = up.clipped || fading || (hasBox && zeroSize && !!st && (st.getPropertyValue('overflow-x') !== 'visible' || st.getPropertyValue('overflow-y') !== 'visible'));

    // Shown only while the pointer is over an element around it (or over
    // itself): its text is no part of its ancestors' (see hoverReveals).
    const revealedBy = up.revealedBy || (paints ? revealerOf(el, walk, root) : '');

    const secretSubtree = up.secret || c.sensitiveElements.has(el);
    if (secretSubtree)
      c.markedSecret.set(el, true);
    // A hidden ancestor reads its text from what its content would show.
    const needLatent = up.needLatent || !paints;

    /** @type {Gathered} */
    const acc = { children: [], raw: { n: '', lead: SPACE_NONE, trail: SPACE_NONE },
      latent: { n: '', lead: SPACE_NONE, trail: SPACE_NONE }, shown: false, sensitive: false };
    const pseudo = !gone && mayHavePseudoText(el);
    const beforeRaw = pseudo ? pseudoText(el, '::before') : undefined;
    const before = beforeRaw ? renderedRun(beforeRaw, false) : '';
    if (before) {
      const normal = normalizeText(before);
      if (paints)
        appendText(acc.raw, before, normal);
      appendText(acc.latent, before, normal);
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
        revealedBy,
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
              if (keepBreaks === null && hasBreak(buffer))
                keepBreaks = keepsLineBreaks(el);
              addTextRun(acc, buffer, !!keepBreaks, textVisible, needLatent);
            }
            buffer = '';
          }
          const v = pm.visitElement(/** @type {Element} */ (kid), walk, down, kidSkipped,
            kidRoot || /** @type {Document | ShadowRoot} */ (kid.getRootNode()));
          if (v) {
            acc.children.push(v.node);
            // What the pointer reveals is not the container's text: the
            // row reads the same, hovered or not.
            if (revealedBy || !v.node.revealedBy) {
              appendSpaced(acc.raw, v.raw.n, v.raw.lead, v.raw.trail);
              if (needLatent && !v.ownNone)
                appendSpaced(acc.latent, v.latent.n, v.latent.lead, v.latent.trail);
            }
            if (v.shown)
              acc.shown = true;
          }
        }
      }
      if (buffer && !secretSubtree) {
        if (keepBreaks === null && hasBreak(buffer))
          keepBreaks = keepsLineBreaks(el);
        addTextRun(acc, buffer, !!keepBreaks, textVisible, needLatent);
      }
    }

    const afterRaw = pseudo ? pseudoText(el, '::after') : undefined;
    const after = afterRaw ? renderedRun(afterRaw, false) : '';
    if (after) {
      const normal = normalizeText(after);
      if (paints)
        appendText(acc.raw, after, normal);
      appendText(acc.latent, after, normal);
    }

    if (html && tag === 'input') {
      const caption = inputCaption(/** @type {HTMLInputElement} */ (el));
      if (caption) {
        const normal = normalizeText(caption);
        if (paints)
          appendText(acc.raw, caption, normal);
        appendText(acc.latent, caption, normal);
      }
    } else if (html && tag === 'select' && isSelectDropDown(el)) {
      const chosen = Array.from((/** @type {HTMLSelectElement} */ (el)).selectedOptions).map(o => o.label).join(', ');
      acc.raw = { n: '', lead: SPACE_NONE, trail: SPACE_NONE };
      if (paints)
        appendText(acc.raw, chosen);
      acc.latent = { n: '', lead: SPACE_NONE, trail: SPACE_NONE };
      appendText(acc.latent, chosen);
    }

    if (acc.sensitive)
      c.secret.set(el, true);
    const secret = isSecret(el);
    const visible = paints && (display === 'contents' ? acc.shown : !zeroSize);

    // Identity and role.
    const roleValue = roleOf(el);
    const role = roleValue || 'generic';
    node.role = role;
    // An option group of a drop-down is not rendered, as Chromium's
    // checkVisibility() says and Playwright follows: its options are
    // listed under the drop-down itself.
    const strictHidden = ignoredForAria(el, tag, html) || gone || ariaHidden || inert ||
      (!styleShown && tag !== 'slot') || (inSelect && (tag === 'optgroup' || hiddenForAria(el)));
    /** @type {Details} */
    const details = { roleValue, hasAttrs, html, tag, strictHidden, secret };
    if (r.deferred) {
      r.deferred.set(node, {
        name: () => addName(el, node, details),
        details: () => {
          addDetails(el, node, details);
          scrubSensitive(node);
        },
      });
    } else {
      addName(el, node, details);
    }

    if (!secret) {
      const text = paints ? acc.raw.n : acc.latent.n;
      if (text)
        node.text = text;
    }
    node.tag = html ? tag : tag.toLowerCase();
    if (html && tag === 'br' && spacedInSource(el))
      node.spacedBreak = true;
    if (hasAttrs) {
      const id = el.getAttribute('id');
      if (id) {
        node.id = id;
        // An id is unique only within its tree: each instance of a
        // component has the same ids in its own shadow root.
        if (el.getRootNode().nodeType === 11)
          node.scopedId = true;
      }
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
    if (!r.deferred)
      addDetails(el, node, details);

    if (hasBox)
      node.box = { x: round(x + walk.ox), y: round(y + walk.oy), width: round(width), height: round(height) };
    if (visible)
      node.visible = true;
    else if (!strictHidden)
      node.inTree = true; // rendered, but with no area a person could see
    if (!gone && display !== 'inline')
      node.block = true; // Playwright puts a space around its text
    if (st && hasBox) {
      // What Playwright's AI snapshot reads from the style: a pointer
      // cursor marks a click target; an element that takes no pointer
      // events cannot be clicked, so it gets no ref there.
      if (st.getPropertyValue('cursor') === 'pointer')
        node.pointerCursor = true;
      if (st.getPropertyValue('pointer-events') === 'none')
        node.noPointerEvents = true;
    }
    if (ariaHidden || inert)
      node.ariaHidden = true;
    if (inert)
      node.inert = true;
    if (secret)
      node.secret = true;
    if (revealedBy)
      node.revealedBy = revealedBy;

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
    return {
      node,
      raw: wrapSpaced(contributes ? acc.raw : NO_TEXT, sep),
      latent: needLatent ? wrapSpaced(contributes ? acc.latent : NO_TEXT, sep) : NO_TEXT,
      shown: visible || acc.shown,
      ownNone,
    };
  }

  /** The properties whose transition can carry an element out of sight. */
  // Not opacity: an element at opacity 0 counts as visible (see paints).
  const HIDING_TRANSITIONS = new Map([
    ['visibility', 'visibility'], ['width', 'width'], ['height', 'height'],
    ['max-width', 'maxWidth'], ['max-height', 'maxHeight'],
  ]);

  /** @param {string} prop @param {unknown} v @returns {boolean} whether v, the end of prop's transition, hides */
  function hidingValue(prop, v) {
    if (typeof v !== 'string')
      return false;
    if (prop === 'visibility')
      return v === 'hidden' || v === 'collapse';
    return /^0(\.0+)?[a-z%]*$/.test(v.trim());
  }

  /**
   * Whether el is on its way out of sight: a running CSS transition carries
   * it to a value that hides it (Swagger UI's copy buttons shrink to width 0
   * over half a second once the pointer leaves their row). It counts as
   * hidden, with what it holds, as it will be a moment later: what a capture
   * shows does not depend on how far into the transition it ran, and a
   * step's end never pins what is leaving.
   * @param {Element} el
   */
  function leaving(el) {
    const r = /** @type {CaptureRun} */ (pm.run);
    if (!r.leaving)
      r.leaving = new Map();
    const doc = el.ownerDocument;
    let out = r.leaving.get(doc);
    if (!out) {
      out = new Set();
      r.leaving.set(doc, out);
      const all = typeof doc.getAnimations === 'function' ? doc.getAnimations() : [];
      for (const a of all) {
        const prop = /** @type {{transitionProperty?: string}} */ (/** @type {unknown} */ (a)).transitionProperty;
        const key = prop ? HIDING_TRANSITIONS.get(prop) : undefined;
        if (!key || a.playState !== 'running' || !(a.effect instanceof KeyframeEffect) || !a.effect.target)
          continue;
        const frames = a.effect.getKeyframes();
        const end = frames.length ? frames[frames.length - 1] : null;
        if (end && hidingValue(prop || '', end[key]))
          out.add(a.effect.target);
      }
    }
    return out.size > 0 && out.has(el);
  }

  /**
   * The ref of the element whose hover shows el now, '' for none.
   * @param {Element} el @param {Walk} walk @param {Document | ShadowRoot} root
   */
  function revealerOf(el, walk, root) {
    const r = /** @type {CaptureRun} */ (pm.run);
    if (!r.hover)
      r.hover = new Map();
    let shown = r.hover.get(root);
    if (!shown) {
      shown = hoverReveals(root);
      r.hover.set(root, shown);
    }
    const by = shown.get(el);
    return by ? walk.prefix + refName(walk.refs, by) : '';
  }

  /**
   * Walks the document of a same-origin frame into the tree, or marks a
   * cross-origin frame for its own page model to capture.
   * @param {HTMLIFrameElement} el @param {Walk} walk @param {Inherited} frameUp @param {ScreenNode} node
   * @param {number} x @param {number} y where the iframe's box starts in its document's viewport
   * @param {ScreenNode[]} children
   */
  function visitFrame(el, walk, frameUp, node, x, y, children) {
    const r = /** @type {CaptureRun} */ (pm.run);
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
      const v = pm.visitElement(doc.documentElement, inner, frameUp, false, doc);
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
    const hit = pageHitAt(/** @type {Document | ShadowRoot} */ (el.getRootNode()), el.ownerDocument, x, y);
    if (!hit)
      return undefined;
    return !reaches(hit, el, x, y);
  }

  /**
   * Elements of Trailpin's own laid over the page (the recording bar): they
   * are not the app's, and replay never shows them, so a hit test looks
   * through them. Without that, a control under the bar reads as covered
   * while recording only, and a change of its coverage (the page scrolled
   * it out from under the bar) is offered to Assert change and pinned in
   * a trail that no replay can see (docs/recording.md, Random walks).
   * @type {Element[]}
   */
  const overlays = [];

  /** @param {Element} el an element of Trailpin's own laid over the page */
  function addOverlay(el) {
    if (!overlays.includes(el))
      overlays.push(el);
  }

  /** @param {Element} el */
  function ownOverlay(el) {
    return overlays.some((o) => o.isConnected && (o === el || containsAcross(o, el)));
  }

  /**
   * The topmost element of the page at (x, y) in root's viewport, looking
   * through Trailpin's overlays.
   * @param {Document | ShadowRoot} root @param {Document} doc @param {number} x @param {number} y
   * @returns {Element | null}
   */
  function pageHitAt(root, doc, x, y) {
    const at = typeof root.elementFromPoint === 'function' ? root : doc;
    const hit = at.elementFromPoint(x, y);
    if (!hit || !overlays.length || !ownOverlay(hit))
      return hit;
    return at.elementsFromPoint(x, y).find((e) => !ownOverlay(e)) || null;
  }

  /**
   * Whether a click on hit reaches target; x and y (the point in target's
   * viewport) let a shadow host count as target where what is there is
   * slotted into target.
   * @param {Element} hit @param {Element} target @param {number} [x] @param {number} [y]
   */
  function reaches(hit, target, x, y) {
    if (containsAcross(target, hit))
      return true;
    const label = hit.closest('label');
    if (label && (/** @type {HTMLLabelElement} */ (label)).control === target)
      return true;
    return x !== undefined && y !== undefined && slottedAt(hit, target, x, y);
  }

  /**
   * Whether hit is a shadow host above target whose light-DOM content at
   * (x, y) is slotted into target. A shadow root's elementFromPoint answers
   * the host for text slotted in from the light DOM (a button's label): the
   * host, its shadow control and the slot are one control (docs/recording.md,
   * "Shadow DOM").
   * @param {Element} hit @param {Element} target @param {number} x @param {number} y
   */
  function slottedAt(hit, target, x, y) {
    if (!hit.shadowRoot || !containsAcross(hit, target))
      return false;
    const doc = hit.ownerDocument;
    for (const kid of Array.from(hit.childNodes)) {
      if (!(/** @type {Element | Text} */ (kid)).assignedSlot || !containsAcross(target, kid))
        continue;
      /** @type {DOMRectList | null} */
      let rects = null;
      if (kid.nodeType === 1) {
        rects = /** @type {Element} */ (kid).getClientRects();
      } else if (kid.nodeType === 3) {
        const range = doc.createRange();
        range.selectNodeContents(kid);
        rects = range.getClientRects();
      }
      for (const r of rects ? Array.from(rects) : []) {
        if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom)
          return true;
      }
    }
    return false;
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
   * With deferred (a directed capture's, directed.js), each node's name,
   * label, link, value and states are not added: deferred gets, for each
   * node, what adds them, to be called inside the same caches.
   * @param {CaptureOptions} [options] @param {Map<ScreenNode, Deferred>} [deferred]
   * @returns {CapturedScreen}
   */
  function capture(options, deferred) {
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
      pm.run = { testIdAttributes, coverInteractive: coverage === 'interactive', coverAlso, toCover: [], walks: new Map([[doc, walk]]), deferred };
      try {
        for (const ref of coverRefs) {
          const found = resolveRef(doc, ref);
          if ('element' in found)
            coverAlso.add(found.element);
        }
        const rootEl = doc.documentElement;
        /** @type {Inherited} */
        const top = { notRendered: false, clipped: false, ariaHidden: false, inert: false, insideModal: false, secret: false, inSelect: false, needLatent: false };
        const v = rootEl ? pm.visitElement(rootEl, walk, top, false, doc) : null;
        refs.numbered = true;
        for (const item of pm.run.toCover) {
          const covered = coveredAt(item.el, item.x, item.y);
          if (pm.incRun) {
            // A reused node keeps last capture's answer until it is asked again.
            if (item.node.covered !== covered) {
              if (covered === undefined)
                delete item.node.covered;
              else
                item.node.covered = covered;
              pm.incRun.staleWire.add(item.via || item.node);
            }
          } else if (covered !== undefined) {
            item.node.covered = covered;
          }
        }
        const active = deepActiveElement(doc);
        let focused = '';
        if (active && active !== doc.body && active !== doc.documentElement) {
          const w = pm.run.walks.get(active.ownerDocument);
          const n = w ? w.refs.numberOf.get(active) : undefined;
          if (w && n !== undefined)
            focused = w.prefix + 'e' + n;
        }
        /** @type {CapturedScreen} */
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
        pm.run = null;
      }
    });
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

  /** @type {PageModelCapture} */
  const provides = { addOverlay, capture, checkStringList, coveredAt, matchesSafely, pageHitAt, reaches, round, visitElementFull };
  Object.assign(pm, provides);
})();
