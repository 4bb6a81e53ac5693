// The popup's selector review (docs/review.md, "The review at save"): what
// record.review answered, shown step by step with a radio group of options
// per step, and the choices the person made, for record.choose. The pure
// part (reviewModel, choicesOf, changeText) is tested in node; renderReview
// builds the DOM.

/**
 * An option of a reviewed step as the popup shows it.
 * @typedef {object} OptionRow
 * @property {number} number
 * @property {string} label the selector and what it checks
 * @property {string} detail the recorder's choice, its probability
 * @property {boolean} picked the option Save keeps unless another is chosen
 * @property {boolean} recorded the recorder's choice
 */

/**
 * A reviewed step as the popup shows it.
 * @typedef {object} StepRow
 * @property {number} step
 * @property {number} action
 * @property {string} legend the step's number and intent
 * @property {string} why who picked the option and why
 * @property {string} changes what changes between runs, '' when nothing
 * @property {number} pick
 * @property {OptionRow[]} options
 */

/**
 * @param {number} p a probability
 * @returns {string}
 */
function percent(p) {
  return `${Math.round((Number(p) || 0) * 100)}%`;
}

/**
 * What the popup shows of a record.review reply.
 * @param {Record<string, any>} review
 * @returns {{steps: StepRow[], note: string, heading: string}}
 */
export function reviewModel(review) {
  const steps = (review?.steps ?? []).map((/** @type {Record<string, any>} */ s) => {
    const options = (s.options ?? []).map((/** @type {Record<string, any>} */ o) => ({
      number: Number(o.number),
      label: `${o.selector} — ${o.description}`,
      detail: [o.recorded ? "the recorder's choice" : '', `engine ${percent(o.probability)}`].filter(Boolean).join(', '),
      picked: Number(o.number) === Number(s.pick),
      recorded: !!o.recorded,
    }));
    let why = '';
    switch (s.by) {
      case 'engine':
        why = `Picked by the engine at ${percent(s.probability)}${(s.reasons ?? []).length ? `: ${s.reasons.join('; ')}` : ''}`;
        break;
      case 'model':
        why = `Picked by the model${s.reason ? `: ${s.reason}` : ''}`;
        break;
      case 'person':
        why = 'Your choice';
        break;
      default:
        why = `Nobody was sure: the recorder's choice stands (the engine's best is option ${s.engine} at ${percent(s.probability)})`;
    }
    return {
      step: Number(s.step),
      action: Number(s.action),
      legend: `Step ${Number(s.step) + 1}: ${s.intent}`,
      why,
      changes: (s.volatile ?? []).length ? `Changes between runs: ${s.volatile.join(', ')}` : '',
      pick: Number(s.pick),
      options,
    };
  });
  const n = steps.length;
  return {
    steps,
    note: String(review?.note ?? ''),
    heading: n === 1 ? 'Review 1 selector' : `Review ${n} selectors`,
  };
}

/**
 * The choices that differ from the picks: what record.choose needs.
 * @param {StepRow[]} steps
 * @param {Map<string, number>} selected option numbers by "step.action"
 * @returns {{step: number, action: number, option: number}[]}
 */
export function choicesOf(steps, selected) {
  const out = [];
  for (const s of steps) {
    const option = selected.get(`${s.step}.${s.action}`);
    if (option !== undefined && option !== s.pick) out.push({ step: s.step, action: s.action, option });
  }
  return out;
}

/**
 * A line of the list of what the save changed.
 * @param {Record<string, any>} c one of record.save's changes
 * @returns {string}
 */
export function changeText(c) {
  return `Step ${Number(c.step) + 1} (${c.intent}): ${c.from} → ${c.to}, ${c.why}`;
}

/**
 * Builds the review in container: a fieldset per step, its radio group of
 * options (a radio input each, named by its label), the pick checked.
 * @param {Document} doc
 * @param {HTMLElement} container
 * @param {{steps: StepRow[], note: string}} model
 */
export function renderReview(doc, container, model) {
  container.replaceChildren();
  model.steps.forEach((s, i) => {
    const fs = doc.createElement('fieldset');
    fs.className = 'review-step';
    const legend = doc.createElement('legend');
    legend.textContent = s.legend;
    fs.append(legend);
    const why = doc.createElement('p');
    why.className = 'detail';
    why.id = `review-why-${i}`;
    why.textContent = s.why;
    if (s.changes) {
      const ch = doc.createElement('p');
      ch.className = 'detail';
      ch.textContent = s.changes;
      fs.append(ch);
    }
    for (const o of s.options) {
      const label = doc.createElement('label');
      label.className = 'option';
      const input = doc.createElement('input');
      input.type = 'radio';
      input.name = `review-${s.step}-${s.action}`;
      input.value = String(o.number);
      input.checked = o.picked;
      input.dataset.key = `${s.step}.${s.action}`;
      if (o.recorded) input.dataset.recorded = 'true';
      input.setAttribute('aria-describedby', why.id);
      const text = doc.createElement('span');
      text.textContent = `${o.number}. ${o.label}`;
      const detail = doc.createElement('span');
      detail.className = 'detail';
      detail.textContent = ` (${o.detail}${o.picked ? ', picked' : ''})`;
      label.append(input, text, detail);
      fs.append(label);
    }
    fs.append(why);
    container.append(fs);
  });
}

/**
 * The options checked in container, by "step.action".
 * @param {HTMLElement} container
 * @returns {Map<string, number>}
 */
export function selectedIn(container) {
  /** @type {Map<string, number>} */
  const out = new Map();
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (container.querySelectorAll('input[type="radio"]:checked'))) {
    out.set(String(input.dataset.key), Number(input.value));
  }
  return out;
}

/**
 * What the popup says while the host reviews the selectors of a recording
 * of n steps, after Save and before the review shows.
 * @param {number} n
 */
export function reviewProgressText(n) {
  const steps = n === 1 ? 'the step' : n > 1 ? `${n} steps` : 'the steps';
  return `Reviewing the selectors of ${steps}\u2026 On a long recording this can take a minute.`;
}
