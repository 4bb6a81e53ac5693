// Computes, with the page model, the name or description of every element an
// oracle page asks about. Evaluated in the page after the page model.
// CASES is replaced by the Go test: null for pages that call AriaUtils, or
// [{selector, property}] for the manual pages.
(function (cases) {
  const pm = globalThis.__trailpinPageModel;
  const screen = pm.capture();
  const byRef = new Map();
  (function index(n) {
    if (n.ref) byRef.set(n.ref, n);
    for (const c of n.children || []) index(c);
  })(screen.root);

  function check(el, property) {
    const d = pm.describe(el, { includeHidden: false });
    const got = property === 'description' ? d.description : d.name;
    const node = byRef.get(d.ref);
    // For a node a person sees, the capture must report the same.
    let captured = null;
    if (node && node.visible && !node.ariaHidden)
      captured = (property === 'description' ? node.description : node.name) || '';
    return { got: got || '', captured, ref: d.ref };
  }

  const out = [];
  if (cases) {
    for (const c of cases) {
      const el = document.querySelector(c.selector);
      if (!el) {
        out.push({ missing: true });
        continue;
      }
      out.push(check(el, c.property));
    }
    return out;
  }
  for (const selector of window.__oracleSelectors || []) {
    for (const el of document.querySelectorAll(selector)) {
      const r = check(el, 'name');
      r.testname = el.getAttribute('data-testname') || '';
      r.expected = el.getAttribute('data-expectedlabel') || '';
      out.push(r);
    }
  }
  return out;
})(CASES)
