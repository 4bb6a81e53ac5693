// Sets a native control a person sets by dragging or by keys (this: an
// <input> of one of the types below) to value as a person's setting does:
// focus, the value through the prototype's setter (the one frameworks watch),
// then the input and change events a setting fires. Answers {value} as the
// control holds it afterwards (a range clamps and rounds to its step), or
// {refused: what this is} when it is no such input.
(/** @this {HTMLInputElement} */ function setValue(/** @type {string} */ value = '') {
  const types = ['range', 'number', 'date', 'time', 'datetime-local', 'month', 'week', 'color'];
  if (this.localName !== 'input' || !types.includes(this.type))
    return {refused: this.localName === 'input' ? `an <input type=${this.type}>` : `a <${this.localName}>`};
  this.focus();
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  if (setter) setter.call(this, value);
  else this.value = value;
  this.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return {value: this.value};
})
