// @ts-check
// The /big page: buttons report what was clicked in the status line, and a
// Continue button appears after the delay the page names, so a replay has to
// wait for it (without sleeping a fixed time).
'use strict';

const statusLine = document.getElementById('big-status');
const rows = document.getElementById('rows');
const later = document.getElementById('later');

/** @param {string} text */
function report(text) {
  if (statusLine) {
    statusLine.textContent = text;
  }
}

// One listener for every row keeps a 10k-element page cheap to set up.
rows?.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button') : null;
  if (!button) {
    return;
  }
  if (button.dataset.testid === 'big-target') {
    report('Target opened');
    return;
  }
  const row = button.closest('li');
  report('Selected ' + (row?.querySelector('span')?.textContent || 'a row'));
});

if (later) {
  const delay = Number(later.dataset.delayMs) || 0;
  setTimeout(() => {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Continue';
    button.addEventListener('click', () => report('Continued after the wait'));
    later.append(button);
  }, delay);
}
