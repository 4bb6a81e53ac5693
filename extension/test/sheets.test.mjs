// Unit tests of the page model's style-sheet walk (pagemodel/sheets.js),
// on a small stand-in for the CSSOM: nested rules made absolute, grouping
// rules walked into and judged, imports followed, and a sheet of another
// origin said, not thrown.

import { test } from 'node:test';
import assert from 'node:assert/strict';

// The CSSOM classes the walk tells rules apart by.
class CSSRule { constructor(props) { Object.assign(this, props); } }
class CSSStyleRule extends CSSRule {}
class CSSNestedDeclarations extends CSSRule {}
class CSSMediaRule extends CSSRule {}
class CSSSupportsRule extends CSSRule {}
class CSSLayerBlockRule extends CSSRule {}
class CSSKeyframesRule extends CSSRule {}
class CSSImportRule extends CSSRule {}
Object.assign(globalThis, { CSSStyleRule, CSSNestedDeclarations, CSSMediaRule, CSSSupportsRule, CSSLayerBlockRule, CSSKeyframesRule, CSSImportRule });

const media = { '(min-width: 600px)': true, print: false };
globalThis.matchMedia = (q) => ({ matches: media[q] ?? true });
globalThis.CSS = { supports: (cond) => cond !== '(display: nope)' };

await import('../pagemodel/core.js');
await import('../pagemodel/sheets.js');
const pm = globalThis[Symbol.for('trailpin.pagemodel.internals')];

/** A declaration block: getPropertyValue of what it holds. */
const decl = (props = {}) => ({ getPropertyValue: (p) => props[p] || '' });
const style = (selectorText, props, cssRules) => new CSSStyleRule({ selectorText, style: decl(props), cssRules: cssRules || [] });
const sheet = (cssRules, extra = {}) => ({ cssRules, href: null, disabled: false, media: { mediaText: '' }, parentStyleSheet: null, ...extra });
const selectors = (found) => found.rules.map((r) => r.selectors);

test('nested rules read as the rules they stand for', () => {
  const s = sheet([
    style('.row', { display: 'flex' }, [
      style('&:hover .remove', { display: 'block' }),
      style('.remove', { display: 'none' }),
      style('> .title, & + &', {}),
      new CSSNestedDeclarations({ style: decl({ color: 'red' }) }),
    ]),
    style('a[title="x&y"], b', {}),
  ]);
  assert.deepEqual(selectors(pm.sheetRules(s)), [
    ['.row'],
    [':is(.row):hover .remove'],
    [':is(.row) .remove'],
    [':is(.row) > .title', ':is(.row) + :is(.row)'],
    ['.row'],
    ['a[title="x&y"]', 'b'],
  ]);
  assert.equal(pm.sheetRules(s).rules[1].style.getPropertyValue('display'), 'block');
});

test('grouping rules are walked into; media and supports decide whether a rule applies', () => {
  const s = sheet([
    new CSSMediaRule({ media: { mediaText: '(min-width: 600px)' }, cssRules: [style('.wide', {})] }),
    new CSSMediaRule({ media: { mediaText: 'print' }, cssRules: [style('.printed', {})] }),
    new CSSSupportsRule({ conditionText: '(display: nope)', cssRules: [style('.unsupported', {})] }),
    new CSSLayerBlockRule({ name: 'base', cssRules: [style('.layered', {}, [
      new CSSMediaRule({ media: { mediaText: 'print' }, cssRules: [style('&:hover', {})] }),
    ])] }),
    new CSSKeyframesRule({ name: 'spin', cssRules: [new CSSRule({ keyText: '0%', style: decl({ opacity: '0' }) })] }),
  ]);
  const found = pm.sheetRules(s);
  assert.deepEqual(selectors(found), [['.wide'], ['.printed'], ['.unsupported'], ['.layered'], [':is(.layered):hover']]);
  assert.deepEqual(found.rules.map((r) => pm.ruleApplies(r)), [true, false, false, true, false]);
  s.disabled = true;
  assert.equal(pm.ruleApplies(found.rules[0]), false, 'a disabled sheet applies nothing');
});

test('a sheet of another origin is listed as unreadable, and the others are still read', () => {
  const foreign = sheet([], { href: 'https://cdn.example/app.css' });
  Object.defineProperty(foreign, 'cssRules', { get() { throw new Error('SecurityError: Cannot access rules'); } });
  const local = sheet([style('.row:hover .remove', { display: 'block' })]);
  const root = { styleSheets: [foreign, local], adoptedStyleSheets: [] };
  const tree = pm.treeRules(root);
  assert.deepEqual(tree.unreadable, ['https://cdn.example/app.css']);
  assert.deepEqual(selectors(tree), [['.row:hover .remove']]);
  assert.deepEqual(pm.sheetRules(foreign), { rules: [], unreadable: ['https://cdn.example/app.css'] });
});

test('imports are followed, and a walk is kept while its sheet is unchanged', () => {
  const imported = sheet([style('.from-import', {})]);
  const imp = new CSSImportRule({ href: 'base.css', media: { mediaText: '' }, styleSheet: null });
  const s = sheet([imp, style('.own', {})]);
  const before = pm.sheetRules(s);
  assert.deepEqual(selectors(before), [['.own']], 'an import not loaded yet adds nothing');
  imp.styleSheet = imported; // the import loaded
  const loaded = pm.sheetRules(s);
  assert.notEqual(loaded, before);
  assert.deepEqual(selectors(loaded), [['.from-import'], ['.own']]);
  assert.equal(pm.sheetRules(s), loaded, 'the same walk while nothing changed');
  s.cssRules = [...s.cssRules, style('.added', {})]; // a style-in-JS library inserts a rule
  assert.deepEqual(selectors(pm.sheetRules(s)), [['.from-import'], ['.own'], ['.added']]);
  imported.cssRules = [...imported.cssRules, style('.later', {})];
  assert.deepEqual(selectors(pm.sheetRules(s)), [['.from-import'], ['.later'], ['.own'], ['.added']]);
});

test('a tree lists its style sheets, then its adopted ones', () => {
  const a = sheet([style('.a', {})]);
  const b = sheet([style('.b', {})]);
  assert.deepEqual(pm.styleSheetsOf({ styleSheets: [a], adoptedStyleSheets: [b] }), [a, b]);
  assert.deepEqual(selectors(pm.treeRules({ styleSheets: [a], adoptedStyleSheets: [b] })), [['.a'], ['.b']]);
});
