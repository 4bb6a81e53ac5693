// Unit tests of the popup's selector review (popup-review.js): what a
// record.review reply shows, the choices record.choose gets, and the lines
// of what the save changed.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { reviewModel, choicesOf, changeText, reviewProgressText } from '../popup-review.js';

const reply = {
  session: 'r-1',
  threshold: 0.8,
  model: '',
  calls: 0,
  note: 'no model configured: the engine alone decides, and the recorder\'s choice stands where it is unsure',
  steps: [
    {
      step: 1, action: 0, intent: 'the Pay button is shown', kind: 'assertVisible', text: 'Pay $42.00', volatile: ['$42.00 (price)'],
      options: [
        { number: 1, selector: '{text: "Pay $42.00"}', description: 'checks the text "Pay $42.00" — fails when the price changes', recorded: true, probability: 0.01 },
        { number: 2, selector: '{testId: pay-button}', description: 'checks that the button "Pay $42.00" is there — survives a price change', probability: 0.9 },
      ],
      pick: 2, by: 'engine', engine: 2, probability: 0.9, reasons: ['the intent asks only that it be there'],
    },
    {
      step: 3, action: 0, intent: 'check it', kind: 'assertVisible', text: 'Checkout',
      options: [
        { number: 1, selector: '{text: Checkout}', description: 'checks the text "Checkout"', recorded: true, probability: 0.32 },
        { number: 2, selector: '{role: heading, name: Checkout}', description: 'checks the heading "Checkout" by role and name', probability: 0.59 },
      ],
      pick: 1, by: 'recorder', engine: 2, probability: 0.59, reasons: [],
    },
    {
      step: 4, action: 1, intent: 'open the cart', kind: 'tap', text: 'Cart 2 items',
      options: [
        { number: 1, selector: '{role: link, name: "Cart 2 items"}', description: 'finds the link by role and name — fails when the count changes', recorded: true, probability: 0.05 },
        { number: 2, selector: '{testId: cart}', description: 'finds the link by its test id', probability: 0.4 },
      ],
      pick: 2, by: 'model', engine: 2, probability: 0.4, reasons: [], reason: 'names the link without its count',
    },
  ],
};

test('shows each step with its intent, options, pick and why', () => {
  const m = reviewModel(reply);
  assert.equal(m.heading, 'Review 3 selectors');
  assert.match(m.note, /no model configured/);
  assert.deepEqual(m.steps.map((s) => s.legend), ['Step 2: the Pay button is shown', 'Step 4: check it', 'Step 5: open the cart']);
  assert.equal(m.steps[0].why, 'Picked by the engine at 90%: the intent asks only that it be there');
  assert.equal(m.steps[0].changes, 'Changes between runs: $42.00 (price)');
  assert.deepEqual(m.steps[0].options.map((o) => o.picked), [false, true]);
  assert.equal(m.steps[0].options[0].label, '{text: "Pay $42.00"} — checks the text "Pay $42.00" — fails when the price changes');
  assert.equal(m.steps[0].options[0].detail, "the recorder's choice, engine 1%");
  assert.match(m.steps[1].why, /^Nobody was sure: the recorder's choice stands \(the engine's best is option 2 at 59%\)$/);
  assert.equal(m.steps[2].why, 'Picked by the model: names the link without its count');
});

test('choices are the options that differ from the picks', () => {
  const m = reviewModel(reply);
  const selected = new Map([['1.0', 2], ['3.0', 2], ['4.1', 1]]);
  assert.deepEqual(choicesOf(m.steps, selected), [{ step: 3, action: 0, option: 2 }, { step: 4, action: 1, option: 1 }]);
  assert.deepEqual(choicesOf(m.steps, new Map()), []);
});

test('says each change of the save and why', () => {
  assert.equal(changeText({ step: 1, action: 0, intent: 'the Pay button is shown', from: '{text: "Pay $42.00"}', to: '{testId: pay-button}', why: 'the engine picked it (90%)' }),
    'Step 2 (the Pay button is shown): {text: "Pay $42.00"} → {testId: pay-button}, the engine picked it (90%)');
});

test('an empty review has no steps', () => {
  assert.deepEqual(reviewModel({ steps: [] }).steps, []);
  assert.equal(reviewModel({ steps: [reply.steps[0]] }).heading, 'Review 1 selector');
});

test('the progress line while the host reviews names how many steps it checks', () => {
  assert.match(reviewProgressText(46), /^Reviewing the selectors of 46 steps… /);
  assert.match(reviewProgressText(1), /^Reviewing the selectors of the step… /);
  // A view without its steps still says what is happening.
  assert.match(reviewProgressText(0), /^Reviewing the selectors of the steps… /);
});
