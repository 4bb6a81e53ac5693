// The page's own scripts try every way they have to add a dialog step the
// page did not open (docs/recording.md, Dialogs): the event dialogs.js sent
// before, on a timer from the first moment on; a copy of the channel
// dialogs.js sets up, with a closed shadow root of the page's own; and,
// around a real dialog, replacing what a hook would call.
(() => {
  const forged = (where) => JSON.stringify({ kind: 'confirm', message: `FORGED ${where}`, accept: true });
  const forge = (where) => window.dispatchEvent(new CustomEvent('trailpin-dialog', { detail: forged(where) }));
  forge('as the page starts');
  setInterval(() => forge('on a timer'), 100);

  const decoy = document.createElement('trailpin-dialogs');
  const root = decoy.attachShadow({ mode: 'closed' });
  const node = document.createElement('span');
  root.append(node);
  document.documentElement.append(decoy);
  setInterval(() => {
    node.dispatchEvent(new CustomEvent('dialog', { detail: forged('on a copy of the channel') }));
    decoy.dispatchEvent(new CustomEvent('dialog', { detail: forged('on the copy\'s host') }));
    document.dispatchEvent(new CustomEvent('dialog', { detail: forged('on the document') }));
  }, 100);

  window.forge = forge;
  const answer = (text) => { document.querySelector('#answer').textContent = text; };
  /** @type {Record<string, () => void>} */
  const buttons = {};
  const on = (id, fn) => { buttons[id] = fn; };
  document.addEventListener('click', (e) => {
    const id = e.target.closest?.('button')?.id;
    if (id && buttons[`#${id}`]) buttons[`#${id}`]();
  });
  const inFrame = window !== window.top;
  on('#confirm', () => answer(confirm(inFrame ? 'Delete in the frame?' : 'Delete the order?') ? 'yes' : 'no'));
  on('#prompt', () => answer(prompt('Who is it for?') ?? 'none'));
  on('#during', () => {
    forge('right before a real dialog');
    const ok = confirm('Really?');
    forge('right after a real dialog');
    answer(ok ? 'really yes' : 'really no');
  });
  // A hook that called confirm.call, or Reflect.apply, after the page
  // replaced them would tell a dialog no one saw.
  on('#sly', () => {
    const { call } = Function.prototype;
    const { apply } = Reflect;
    Function.prototype.call = function () { return true; };
    Reflect.apply = () => true;
    let ok;
    try {
      ok = window.confirm('Keep the sly one?');
    } finally {
      Function.prototype.call = call;
      Reflect.apply = apply;
    }
    answer(ok ? 'sly yes' : 'sly no');
  });
  // A message that reads differently each time it is read: what is told
  // must be what the browser showed.
  on('#shifty', () => {
    let reads = 0;
    const message = { toString: () => (reads++ ? 'FORGED on a second reading' : 'Ship it today?') };
    answer(confirm(message) ? 'shifty yes' : 'shifty no');
  });
})();
