// @ts-check
// The demo shop's small enhancements. The shop works without them except for
// what they add: the "/" shortcut, the hover menu, disclosures, dialogs, the
// confirm before placing an order and the chosen file's name.
'use strict';

/** @param {EventTarget | null} target */
function isTyping(target) {
  return target instanceof HTMLElement &&
    (target.isContentEditable || target.matches('input, textarea, select'));
}

// "/" moves to the search field, unless the person is typing somewhere.
document.addEventListener('keydown', (event) => {
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) {
    return;
  }
  const search = document.querySelector('[data-shortcut="/"]');
  if (!(search instanceof HTMLInputElement)) {
    return;
  }
  event.preventDefault();
  search.focus();
  search.select();
});

// The account menu opens while the pointer is over it, or on click, and
// closes on Escape or when focus leaves it.
for (const menu of document.querySelectorAll('[data-menu]')) {
  const button = menu.querySelector('button[aria-controls]');
  if (!(button instanceof HTMLButtonElement)) {
    continue;
  }
  const panel = document.getElementById(button.getAttribute('aria-controls') || '');
  if (!panel) {
    continue;
  }
  let openedByHover = false;
  /** @param {boolean} open */
  const show = (open) => {
    panel.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
  };
  menu.addEventListener('mouseenter', () => {
    if (button.getAttribute('aria-expanded') !== 'true') {
      openedByHover = true;
      show(true);
    }
  });
  menu.addEventListener('mouseleave', () => {
    openedByHover = false;
    show(false);
  });
  button.addEventListener('click', () => {
    // A click on a menu the pointer just opened keeps it open.
    if (openedByHover) {
      openedByHover = false;
      return;
    }
    show(button.getAttribute('aria-expanded') !== 'true');
  });
  menu.addEventListener('keydown', (event) => {
    if (event instanceof KeyboardEvent && event.key === 'Escape' && button.getAttribute('aria-expanded') === 'true') {
      show(false);
      button.focus();
    }
  });
  menu.addEventListener('focusout', (event) => {
    if (event instanceof FocusEvent && !menu.contains(/** @type {Node | null} */ (event.relatedTarget))) {
      openedByHover = false;
      show(false);
    }
  });
}

// Disclosure buttons show and hide the element they control.
for (const button of document.querySelectorAll('button[data-disclosure]')) {
  button.addEventListener('click', () => {
    const panel = document.getElementById(button.getAttribute('aria-controls') || '');
    if (!panel) {
      return;
    }
    const open = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(open));
    panel.hidden = !open;
  });
}

// Buttons with data-opens open a modal dialog; Escape closes it (the
// browser's own dialog behaviour), as does its Close button.
for (const button of document.querySelectorAll('button[data-opens]')) {
  button.addEventListener('click', () => {
    const dialog = document.getElementById(button.getAttribute('data-opens') || '');
    if (dialog instanceof HTMLDialogElement) {
      dialog.showModal();
    }
  });
}

// Forms with data-confirm ask before they submit.
for (const form of document.querySelectorAll('form[data-confirm]')) {
  form.addEventListener('submit', (event) => {
    const status = document.getElementById('place-order-status');
    if (!window.confirm(form.getAttribute('data-confirm') || 'Are you sure?')) {
      event.preventDefault();
      if (status) {
        status.textContent = 'The order was not placed.';
      }
      return;
    }
    if (status) {
      status.textContent = 'Placing your order…';
    }
  });
}

// File inputs with data-file-name show the chosen file's name.
for (const input of document.querySelectorAll('input[type=file][data-file-name]')) {
  if (!(input instanceof HTMLInputElement)) {
    continue;
  }
  const output = document.getElementById(input.getAttribute('data-file-name') || '');
  input.addEventListener('change', () => {
    if (!output) {
      return;
    }
    const names = Array.from(input.files || [], (f) => f.name);
    output.textContent = names.length ? 'Chosen: ' + names.join(', ') : 'No gift note attached';
  });
}
