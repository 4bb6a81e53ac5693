// Chooses the options of a <select> (this) whose label (or text, or value) is
// in labels, and fires the events a person's choice fires. Answers
// {missing, options} when a label names no option, {single: true} when a
// single-choice select is given more than one, and else {chosen, selected}:
// the labels of the options it chose and of those selected afterwards (a
// page's change handler may have chosen otherwise). With onlyCheck it
// chooses nothing and answers {chosen} once every label names an option
// the select may hold together.
(/** @this {HTMLSelectElement} */ function selectOptions(/** @type {string[]} */ labels, /** @type {boolean} */ onlyCheck) {
  const options = Array.from(this.options);
  const norm = (/** @type {string} */ s) => s.replace(/\s+/g, ' ').trim();
  const chosen = new Set();
  for (const label of labels) {
    const o = options.find((o) => norm(o.label) === label) || options.find((o) => norm(o.text) === label) ||
      options.find((o) => o.value === label);
    if (!o) return {missing: label, options: options.map((o) => norm(o.label))};
    chosen.add(o);
  }
  if (!this.multiple && chosen.size > 1) return {single: true};
  if (onlyCheck) return {chosen: [...chosen].map((o) => norm(o.label))};
  this.focus();
  for (const o of options) o.selected = chosen.has(o);
  this.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return {chosen: [...chosen].map((o) => norm(o.label)), selected: Array.from(this.selectedOptions).map((o) => norm(o.label))};
})
