// Page model: directed captures (captureWire({only: [...]}), used by replay
// while it waits for a selector's target). The page is captured as always,
// and only the nodes a selector could match are sent, with what the matcher
// reads around them: a smaller screen of the same page model, marked
// partial, on which the one matcher decides exactly as on the whole screen
// (docs/screen-schema.md, "Partial screens").
'use strict';

/**
 * One part of a selector (the selector itself or one of its within
 * scopes), as replay sends it: its own properties, without within or index.
 * @typedef {object} SelectorPart
 * @property {string} [role]
 * @property {string} [name]
 * @property {string} [text]
 * @property {string} [textRegex]
 * @property {string} [testId]
 * @property {string} [id]
 * @property {string} [label]
 * @property {string} [placeholder]
 */

/**
 * What directed.js gives the files after it, on the page model's namespace.
 * @typedef {object} PageModelDirected
 * @property {(options: CaptureOptions) => string} captureWireDirected
 * @property {(root: ScreenNode, parts: SelectorPart[], fieldRoles: string[]) => {root: ScreenNode, nodes: number}} keepFor
 */

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, PageModelInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.pagemodel.internals')];
  if (!internals)
    return; // this version of the page model or a newer one is installed (core.js)
  const pm = internals;

  /**
   * What the matcher's comparisons of names and texts cannot tell apart:
   * spaces and line breaks, and icon-font glyphs (private use), which it
   * drops (recorder/selector StripIconGlyphs, StripTextGlyphs). Two strings
   * equal there are equal here, so comparing these never drops a match.
   */
  const LOOSE = /[\s\u{E000}-\u{F8FF}\u{F0000}-\u{10FFFF}]/gu;

  /** @param {string | undefined} s */
  function loose(s) {
    return s ? s.replace(LOOSE, '') : '';
  }

  /** Text the matcher passes over before a field: none, or punctuation (":"). @param {string} s */
  function passedOver(s) {
    const t = s.replace(/\s+/g, '');
    return t.length <= 3 && !/[\p{L}\p{N}]/u.test(t);
  }

  /**
   * Checks a list of selector parts from replay.
   * @param {unknown} v @returns {SelectorPart[]}
   */
  function checkParts(v) {
    if (!Array.isArray(v) || v.length === 0)
      throw new TypeError('page model: only must be a non-empty list of selector parts');
    for (const p of v) {
      if (!p || typeof p !== 'object')
        throw new TypeError('page model: each selector part of only must be an object');
      for (const [k, x] of Object.entries(p)) {
        if (typeof x !== 'string')
          throw new TypeError(`page model: selector part field ${k} must be a string`);
      }
    }
    return /** @type {SelectorPart[]} */ (v);
  }

  /** @typedef {SelectorPart & {looseName: string, looseText: string}} Prepared */

  /**
   * Whether node could match part: every property the part sets could hold.
   * It may keep a node that does not match (a pattern is not tested, names
   * and texts are compared loosely), never leave out one that does.
   * @param {ScreenNode} n @param {Prepared} p @param {Set<string>} fields
   */
  function couldMatch(n, p, fields) {
    if (!mayMatch(n, p))
      return false;
    if (p.name && loose(n.name) !== p.looseName)
      return false;
    if (p.label && n.label !== p.label && !unlabelledField(n, fields))
      return false;
    return true;
  }

  /**
   * couldMatch on what every node has before its name and details are
   * added (capture.js addDetails): every node couldMatch keeps passes it.
   * @param {ScreenNode} n @param {Prepared} p
   */
  function mayMatch(n, p) {
    if (p.role && n.role !== p.role)
      return false;
    if (p.testId && n.testId !== p.testId)
      return false;
    if (p.id && n.id !== p.id)
      return false;
    if (p.placeholder && n.placeholder !== p.placeholder)
      return false;
    if (p.text && loose(n.text) !== p.looseText)
      return false;
    return true;
  }

  /** @param {SelectorPart} p @returns {Prepared} */
  function prepare(p) {
    return { ...p, looseName: loose(p.name), looseText: loose(p.text) };
  }

  /**
   * A field without a name or label of its own: the matcher reads the text
   * right before it as its label (recorder/selector AdjacentText).
   * @param {ScreenNode} n @param {Set<string>} fields
   */
  function unlabelledField(n, fields) {
    return !n.name && !n.label && (!!n.editable || fields.has(/** @type {string} */ (n.role)));
  }

  /**
   * A screen's elements in document order, and the parent of each node.
   * @typedef {{order: ScreenNode[], parent: Map<ScreenNode, ScreenNode>}} Tree
   */

  /** @param {ScreenNode} root @returns {Tree} */
  function indexTree(root) {
    /** @type {ScreenNode[]} */
    const order = [];
    /** @type {Map<ScreenNode, ScreenNode>} */
    const parent = new Map();
    /** @param {ScreenNode} n */
    const index = n => {
      order.push(n);
      for (const c of n.children || []) {
        parent.set(c, n);
        if (c.tag !== '#text')
          index(c);
      }
    };
    index(root);
    return { order, parent };
  }

  /** @param {ScreenNode} n */
  function holdsVisible(n) {
    if (n.visible)
      return true;
    for (const c of n.children || []) {
      if (c.tag !== '#text' && holdsVisible(c))
        return true;
    }
    return false;
  }

  /**
   * The nodes of root to send for parts, and their number: every node that
   * could match a part, with what the matcher reads around it — its
   * ancestors (document order, within scopes, a row's whole row, inert and
   * hidden states are theirs), one visible element inside a hidden one (a
   * container whose own box collapsed is still shown), and the siblings
   * before an unlabelled field (its label may be the text before it). The
   * nodes are copies: root is left as it was.
   * @param {ScreenNode} root @param {SelectorPart[]} parts @param {string[]} fieldRoles
   * @param {Tree} [tree] indexTree(root), when it was built already
   * @param {(n: ScreenNode) => void} [complete] adds to a node what the capture left out, before it is copied
   * @returns {{root: ScreenNode, nodes: number}}
   */
  function keepFor(root, parts, fieldRoles, tree, complete) {
    const fields = new Set(fieldRoles);
    const labelled = parts.some(p => !!p.label);
    /** @type {Prepared[]} */
    const want = parts.map(prepare);
    /** @type {Set<ScreenNode>} */
    const kept = new Set();

    /** @param {ScreenNode | undefined} n */
    const keepUp = n => {
      while (n && !kept.has(n)) {
        kept.add(n);
        n = parent.get(n);
      }
    };
    /** @param {ScreenNode} n */
    const keepAll = n => {
      kept.add(n);
      for (const c of n.children || [])
        keepAll(c);
    };
    /** A visible element inside n, with the way down to it. @param {ScreenNode} n */
    const keepWitness = n => {
      for (const c of n.children || []) {
        if (c.tag === '#text')
          continue;
        if (c.visible) {
          keepUp(c);
          return true;
        }
        if (keepWitness(c))
          return true;
      }
      return false;
    };
    /** The siblings the matcher reads before x, back to the first that says something. @param {ScreenNode} x */
    const keepBefore = x => {
      const up = parent.get(x);
      const kids = up && up.children;
      if (!kids)
        return;
      for (let i = kids.indexOf(x) - 1; i >= 0; i--) {
        const c = kids[i];
        keepAll(c);
        // Passed over: space, a separator (":"), what shows nothing.
        if (passedOver(c.text || '') || (c.tag !== '#text' && !holdsVisible(c)))
          continue;
        break;
      }
      keepUp(up);
    };

    const { order, parent } = tree || indexTree(root);
    kept.add(root);
    for (const n of order) {
      if (n.crossOrigin) {
        keepUp(n); // its frame is captured apart, with the same parts
        continue;
      }
      if (!want.some(p => couldMatch(n, p, fields)))
        continue;
      keepUp(n);
      if (!n.visible)
        keepWitness(n);
      if (labelled && unlabelledField(n, fields)) {
        const own = (n.text || '').replace(/\s+/g, ' ').trim();
        keepBefore(n);
        // Text edited in place is labelled from around the wrappers that
        // hold only it.
        for (let a = parent.get(n); n.editable && a && (a.text || '').replace(/\s+/g, ' ').trim() === own; a = parent.get(a))
          keepBefore(a);
      }
    }

    let count = 0;
    /** @param {ScreenNode} n @returns {ScreenNode} */
    const copy = n => {
      if (n.tag !== '#text')
        count++;
      if (complete)
        complete(n);
      const out = { ...n };
      const kids = (n.children || []).filter(c => kept.has(c));
      if (kids.length)
        out.children = kids.map(copy);
      else
        delete out.children;
      return out;
    };
    return { root: copy(root), nodes: count };
  }

  /**
   * captureWire for options.only: the screen of the nodes the selector parts
   * could match (keepFor), marked partial. Never for what needs the whole
   * page: a failure's evidence, a step's end, a hand-off, refs. With
   * options.each, only is a list of such lists, and the answer a JSON list
   * of one partial screen for each, from one capture (for tests that check
   * many selectors on the same screen).
   * @param {CaptureOptions} options @returns {string}
   */
  function captureWireDirected(options) {
    const each = options.each === true;
    const lists = each ? (Array.isArray(options.only) ? options.only : [null]).map(checkParts) : [checkParts(options.only)];
    const fieldRoles = pm.checkStringList(options.fieldRoles, 'fieldRoles');
    const rest = { ...options };
    delete rest.only;
    delete rest.fieldRoles;
    delete rest.each;
    const sensitive = rest.sensitive || {};
    if ((sensitive.values || []).length || (sensitive.refs || []).length || (sensitive.elements || []).length) {
      // A name or value that shows a sensitive value hides the node's text
      // from its ancestors' (capture.js scrubSensitive): every name counts.
      const screen = pm.capture(rest);
      const tree = indexTree(screen.root);
      const out = lists.map(parts => JSON.stringify({ ...screen, partial: true, root: pm.wireNode(keepFor(screen.root, parts, fieldRoles, tree).root) }));
      return each ? '[' + out.join(',') + ']' : out[0];
    }
    // Names, labels, values and states are computed only for the nodes a
    // part could match on what the walk gives (role, test id, id,
    // placeholder, text) and the nodes sent: they are most of a walk's
    // cost, and the rest of the walk does not read them (capture.js
    // addDetails). The same caches hold for the walk and for them.
    return pm.withCaches({}, () => {
      /** @type {Map<ScreenNode, Deferred>} */
      const deferred = new Map();
      /** Adds n's name. @param {ScreenNode} n */
      const named = n => {
        const add = deferred.get(n);
        if (add && add.name) {
          add.name();
          add.name = null;
        }
      };
      /** Adds all n's capture left out. @param {ScreenNode} n */
      const complete = n => {
        const add = deferred.get(n);
        if (add) {
          deferred.delete(n);
          if (add.name)
            add.name();
          add.details();
        }
      };
      const screen = pm.capture(rest, deferred);
      const tree = indexTree(screen.root);
      const out = lists.map(parts => {
        // What couldMatch and keepFor read of a node that may match: its
        // name for a part with a name; with a label, also its label and
        // whether it is edited in place (unlabelledField).
        const want = parts.map(prepare);
        const labelled = want.some(p => !!p.label);
        for (const n of tree.order) {
          for (const p of want) {
            if (!mayMatch(n, p))
              continue;
            if (labelled)
              complete(n);
            else if (p.name)
              named(n);
          }
        }
        return JSON.stringify({ ...screen, partial: true, root: pm.wireNode(keepFor(screen.root, parts, fieldRoles, tree, complete).root) });
      });
      return each ? '[' + out.join(',') + ']' : out[0];
    });
  }

  /** @type {PageModelDirected} */
  const provides = { captureWireDirected, keepFor };
  Object.assign(pm, provides);
})();
