// Runs axe-core's implicit-role and accessible-text cases with the page
// model: each case's HTML goes into #fixture, axe's <template shadow>
// notation becomes an open shadow root, and the targets are described.
(function () {
  const pm = globalThis.__trailpinPageModel;
  const fixture = document.getElementById('fixture');

  function load(html) {
    fixture.innerHTML = html;
    for (const tpl of Array.from(fixture.querySelectorAll('template[shadow]'))) {
      const host = tpl.parentElement;
      const root = host.attachShadow({ mode: 'open' });
      root.appendChild(tpl.content.cloneNode(true));
      tpl.remove();
    }
  }

  function find(selector) {
    // axe targets may point into a shadow root: try the light DOM, then
    // every open shadow root.
    const direct = fixture.querySelector(selector);
    if (direct) return direct;
    for (const host of fixture.querySelectorAll('*')) {
      if (host.shadowRoot) {
        const inner = host.shadowRoot.querySelector(selector);
        if (inner) return inner;
      }
    }
    return null;
  }

  const roles = window.implicitRoleCases.map((c, i) => {
    load(c.html);
    const el = find(c.target);
    if (!el) return { index: i, target: c.target, expected: c.role, missing: true };
    const d = pm.describe(el, { includeHidden: false });
    return { index: i, target: c.target, html: c.html, expected: c.role, got: d.role };
  });

  const texts = [];
  window.accessibleTextCases.forEach((c, i) => {
    load(c.html);
    const targets = Array.isArray(c.target) ? c.target : [c.target];
    const expected = Array.isArray(c.accessibleText) ? c.accessibleText : [c.accessibleText];
    targets.forEach((target, j) => {
      const el = find(target);
      if (!el) {
        texts.push({ index: i, target, html: c.html, expected: expected[j], missing: true });
        return;
      }
      const d = pm.describe(el, { includeHidden: false });
      texts.push({ index: i, target, html: c.html, expected: expected[j], got: d.name });
    });
  });
  fixture.innerHTML = '';
  return { roles, texts };
})()
