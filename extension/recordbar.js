// @ts-check
/**
 * The recording bar: a small toolbar the background injects into the top
 * frame of a recorded tab, after the recorder (content/). It lives in a
 * closed shadow root, so the app's CSS and scripts cannot reach it, and the
 * recorder ignores every event on it, so it is never recorded itself.
 *
 * Assert visible and Mark sensitive make the next click pick an element
 * instead of acting on the page: the element under the pointer is
 * highlighted (for an assertion, the whole line of text it is part of), and
 * Wider / Narrower (or the up and down arrow keys) change which element is
 * highlighted before a click on it, or the bar's button, takes it. Assert
 * text absent asks for the text;
 * Assert URL records the current URL; Undo last step and Stop do what they
 * say. Assert change, once an action was recorded, asks the host what the
 * last action changed (record.changes) and lists the changes in words with
 * a box each to tick what must be included, and one for "nothing else
 * changes"; Add assertion records an assertChange in the action's step,
 * Cancel nothing (the list's logic: changelist.js). A classic script in the
 * extension's isolated world.
 */
(() => {
  'use strict';
  const g = /** @type {Record<string, any>} */ (/** @type {unknown} */ (globalThis));
  const recorder = g.__trailpinRecorder;
  const changeList = g.__trailpinChangeList;
  if (!recorder || !changeList || window !== window.top)
    return;
  if (g.__trailpinRecordBar) {
    g.__trailpinRecordBar.show();
    return;
  }

  const CSS = `
    :host { all: initial; }
    .bar { position: fixed; right: 12px; bottom: 12px; z-index: 2147483647; display: flex; flex-wrap: wrap;
      align-items: center; gap: 6px; max-width: 560px; padding: 8px 10px; border-radius: 8px;
      background: #1d1f24; color: #f4f4f4; font: 13px/1.3 system-ui, sans-serif; box-shadow: 0 4px 16px #0006; }
    .bar.top { bottom: auto; top: 12px; }
    .dot { width: 10px; height: 10px; border-radius: 50%; background: #e5484d; }
    .status { flex: 1 1 100%; margin: 0; }
    .warn { flex: 1 1 100%; margin: 0; padding: 4px 6px; border-radius: 4px; background: #5c3a00; color: #ffe2b0; }
    .warn[hidden] { display: none; }
    button { font: inherit; padding: 4px 8px; border-radius: 5px; border: 1px solid #555; background: #2c2f36;
      color: inherit; cursor: pointer; }
    button[aria-pressed="true"] { background: #3b5bdb; border-color: #6d8cff; }
    button:focus-visible, input:focus-visible { outline: 2px solid #6d8cff; outline-offset: 1px; }
    .ask { display: flex; gap: 6px; flex: 1 1 100%; }
    .ask[hidden], .picked[hidden] { display: none; }
    .picked { display: flex; gap: 6px; flex: 1 1 100%; }
    .agent { display: flex; align-items: center; gap: 6px; flex: 1 1 100%; padding: 4px 6px; border-radius: 4px;
      background: #1f3366; }
    .agent[hidden] { display: none; }
    .agent p { flex: 1; margin: 0; }
    .agent button[hidden] { display: none; }
    input { font: inherit; flex: 1; padding: 3px 6px; border-radius: 4px; border: 1px solid #555; }
    .change { flex: 1 1 100%; display: flex; flex-direction: column; gap: 4px; }
    .change-list { max-height: 40vh; overflow: auto; }
    .change[hidden], .change [hidden] { display: none; }
    .change p { margin: 0; }
    .change ul { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 2px; }
    .change label { display: flex; gap: 6px; align-items: baseline; }
    .change .why { color: #b9bcc4; font-size: 12px; }
    .change .row { display: flex; gap: 6px; }
    .outline { position: fixed; pointer-events: none; z-index: 2147483646; border: 2px solid #3b5bdb;
      background: #3b5bdb22; display: none; }
  `;

  const host = document.createElement('div');
  const root = host.attachShadow({ mode: 'closed' });
  root.innerHTML = `<style>${CSS}</style>
    <div class="outline"></div>
    <div class="bar" role="toolbar" aria-label="Trailpin recording">
      <span class="dot" aria-hidden="true"></span>
      <p class="status" role="status" aria-live="polite">Recording</p>
      <p class="warn" role="alert" hidden></p>
      <div class="agent" role="group" aria-label="The agent" hidden>
        <p class="agent-status" role="status" aria-live="polite"></p>
        <button type="button" data-do="agentStop" hidden>Stop the agent</button>
      </div>
      <button type="button" data-do="assertVisible" aria-pressed="false">Assert visible</button>
      <button type="button" data-do="assertValue" aria-pressed="false">Assert value</button>
      <button type="button" data-do="assertNotVisible">Assert text absent</button>
      <button type="button" data-do="assertUrl">Assert URL</button>
      <button type="button" data-do="assertChange" disabled title="Press it after an action">Assert change</button>
      <button type="button" data-do="markSensitive" aria-pressed="false">Mark sensitive</button>
      <button type="button" data-do="undo">Undo last step</button>
      <button type="button" data-do="stop">Stop</button>
      <button type="button" data-do="move">Move to top</button>
      <div class="picked" role="group" aria-label="Highlighted element" hidden>
        <button type="button" data-do="wider" aria-keyshortcuts="ArrowUp">Wider</button>
        <button type="button" data-do="narrower" aria-keyshortcuts="ArrowDown">Narrower</button>
        <button type="button" data-do="take"></button>
      </div>
      <div class="change" role="group" aria-label="Assert change" hidden>
        <p class="change-head"></p>
        <ul class="change-list"></ul>
        <label class="change-only"><input type="checkbox" data-only> <span>Nothing else changes</span></label>
        <p class="why change-only-why"></p>
        <ul class="change-unchanged" aria-label="Must not change"></ul>
        <div class="row">
          <button type="button" data-do="changeMustNot" aria-pressed="false">Must not change…</button>
          <button type="button" data-do="changeAdd">Add assertion</button>
          <button type="button" data-do="changeCancel">Cancel</button>
        </div>
      </div>
      <form class="ask" hidden>
        <input type="text" aria-label="Text that must not be shown" required>
        <button type="submit">Add assertion</button>
        <button type="button" data-do="cancel">Cancel</button>
      </form>
    </div>`;

  /** @param {string} sel @returns {any} */
  const q = (sel) => root.querySelector(sel);
  const status = q('.status');
  const ask = q('.ask');
  const askInput = q('.ask input');
  const outline = q('.outline');
  const warning = q('.warn');
  const pickedControls = q('.picked');
  const takeButton = q('button[data-do="take"]');
  const agentBox = q('.agent');
  const agentStatus = q('.agent-status');
  const agentStop = q('button[data-do="agentStop"]');

  /**
   * Shows what the agent is doing ("Ask the agent" in the popup), with a
   * button that stops it while it acts; '' hides it.
   * @param {{running: boolean, text: string}} v
   */
  function agent(v) {
    agentStatus.textContent = v.text;
    agentBox.hidden = !v.text;
    agentStop.hidden = !v.running;
  }

  const changeButton = q('button[data-do="assertChange"]');
  const changeBox = q('.change');
  const changeHead = q('.change-head');
  const changeItems = q('.change-list');
  const changeOnly = q('.change-only');
  const changeOnlyBox = q('.change-only input');
  const changeOnlyLabel = q('.change-only span');
  const changeOnlyWhy = q('.change-only-why');
  const changeUnchanged = q('.change-unchanged');
  const changeAdd = q('button[data-do="changeAdd"]');

  /**
   * The list on show: its model and the screen it was read on (the
   * assertChange is recorded on that screen).
   * @type {{model: any, screen: {id: string, wire: string}} | null}
   */
  let changeShown = null;

  // Assert change is offered once an action is recorded (in this page, or
  // before it loaded: the background says so).
  function offerChange() {
    changeButton.disabled = false;
    changeButton.removeAttribute('title');
  }
  recorder.onAction(offerChange);

  function hideChanges() {
    changeBox.hidden = true;
    changeItems.replaceChildren();
    changeUnchanged.replaceChildren();
    unchangedRefs = [];
    changeOnlyBox.checked = false;
    changeShown = null;
    if (recorder.pick() === 'changeMustNot')
      recorder.setPick(null);
  }

  /** @type {string[]} refs of the elements picked as ones that must not change */
  let unchangedRefs = [];

  // An element picked with Must not change… joins the list of the
  // Assert change on show, once.
  recorder.onUnchanged((/** @type {string} */ ref, /** @type {Element} */ el) => {
    if (!changeShown || !ref || unchangedRefs.includes(ref))
      return;
    unchangedRefs.push(ref);
    const li = document.createElement('li');
    li.textContent = `Must not change: ${pickedWords(el)}`;
    changeUnchanged.append(li);
  });

  /** Asks the host what the last action changed and lists it. */
  function askChanges() {
    hideChanges();
    say('Reading what the last action changed…');
    const screen = recorder.changeScreen();
    chrome.runtime.sendMessage({ to: 'background', kind: 'record-changes', screen: screen.wire }).then((res) => {
      if (!res?.ok) {
        say(`Assert change: ${res?.error || 'no answer from the extension'}`);
        return;
      }
      showChanges(changeList.listModel(res.reply), screen);
    }, (e) => say(`Assert change: ${e instanceof Error ? e.message : e}`));
  }

  /** @param {any} model @param {{id: string, wire: string}} screen */
  function showChanges(model, screen) {
    const tickable = model.rows.some((/** @type {any} */ r) => r.tickable) || model.only.offered;
    if (model.message && !tickable) {
      say(model.message);
      return;
    }
    changeShown = { model, screen };
    changeHead.textContent = model.heading;
    for (const r of model.rows) {
      const li = document.createElement('li');
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.dataset.key = r.key;
      box.disabled = !r.tickable;
      const text = document.createElement('span');
      text.textContent = r.text;
      label.append(box, ' ', text);
      li.append(label);
      if (!r.tickable) {
        const why = document.createElement('span');
        why.className = 'why';
        why.textContent = `Cannot be ticked: ${r.why}.`;
        li.append(why);
      } else {
        label.title = `Records ${r.matcher}`;
      }
      changeItems.append(li);
    }
    changeOnly.hidden = !model.only.offered;
    changeOnlyLabel.textContent = model.only.label;
    changeOnlyWhy.hidden = model.only.offered || !model.only.why;
    changeOnlyWhy.textContent = model.only.why;
    changeBox.hidden = false;
    say(model.message || 'Tick what must change, then Add assertion.');
  }

  function addChange() {
    if (!changeShown)
      return;
    const ticked = [...changeItems.querySelectorAll('input[data-key]')]
      .filter((/** @type {HTMLInputElement} */ b) => b.checked)
      .map((/** @type {HTMLInputElement} */ b) => String(b.dataset.key));
    const i = changeList.interactionFor(changeShown.model, ticked, changeOnlyBox.checked, unchangedRefs);
    if (!i) {
      say('Tick a change (or “Nothing else changes”), or pick what must not change, first, or Cancel.');
      return;
    }
    recorder.recordChange(i, changeShown.screen);
    hideChanges();
    say(changeList.addedText(i));
  }

  /**
   * Shows what the background says is at risk ('' hides it).
   * @param {string} text
   */
  function warn(text) {
    warning.textContent = text;
    warning.hidden = !text;
  }

  /** @param {string} text */
  function say(text) {
    status.textContent = text;
  }

  /** @param {string | null} pick @param {boolean} taken */
  function showPick(pick, taken) {
    for (const b of root.querySelectorAll('button[aria-pressed]'))
      b.setAttribute('aria-pressed', String(b.getAttribute('data-do') === pick));
    if (pick === 'assertVisible') {
      say('Click the element that must be visible.');
      takeButton.textContent = 'Assert this element';
    } else if (pick === 'assertValue') {
      say('Click the field whose value must stay.');
      takeButton.textContent = 'Assert this field';
    } else if (pick === 'markSensitive') {
      say('Click the element whose value must never be written down.');
      takeButton.textContent = 'Mark this element';
    } else if (pick === 'changeMustNot') {
      say('Click the element that must not change.');
      takeButton.textContent = 'This must not change';
    } else if (taken && picking === 'changeMustNot') {
      say('Picked: it must not change. Pick another, tick changes, or Add assertion.');
    } else if (!taken) {
      say('Recording');
    } else if (picking === 'assertVisible') {
      say('Added: the element must be visible.');
    } else if (picking === 'assertValue') {
      say("Added: the field's value must stay.");
    } else if (picking === 'markSensitive') {
      say('Marked: what it shows stays out of the trail.');
    }
    picking = pick;
  }
  /** @type {string | null} what the next click picks, as last shown */
  let picking = null;
  recorder.onPick(showPick);

  /** Longest text of a highlighted element the status quotes. */
  const QUOTE_MAX = 80;

  /**
   * Outlines the element a pick would take, and says what it reads.
   * @param {Element | null} el
   */
  function showPicked(el) {
    pickedControls.hidden = !el;
    if (!el) {
      outline.style.display = 'none';
      return;
    }
    const r = el.getBoundingClientRect();
    Object.assign(outline.style, { display: 'block', left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px` });
    // What an element to mark sensitive shows is not repeated, not even here.
    say(`Highlighted: ${picking === 'assertVisible' || picking === 'changeMustNot' ? pickedWords(el) : `${el.localName} element`}`);
  }

  /**
   * An element in words for the bar: the start of the text it shows, or its
   * tag.
   * @param {Element} el
   */
  function pickedWords(el) {
    const h = /** @type {HTMLElement} */ (el);
    let text = (typeof h.innerText === 'string' ? h.innerText : el.textContent || '').replace(/\s+/g, ' ').trim();
    if (text.length > QUOTE_MAX)
      text = `${text.slice(0, QUOTE_MAX - 1)}…`;
    return text ? `“${text}”` : `${el.localName} element`;
  }
  recorder.onPicked(showPicked);

  /** @param {string} kind */
  function act(kind) {
    switch (kind) {
      case 'assertVisible':
      case 'assertValue':
      case 'markSensitive':
        recorder.setPick(recorder.pick() === kind ? null : kind);
        if (recorder.pick() === null)
          say('Recording');
        return;
      case 'assertNotVisible':
        recorder.setPick(null);
        ask.hidden = false;
        say('Which text must not be shown?');
        askInput.focus();
        return;
      case 'cancel':
        ask.hidden = true;
        askInput.value = '';
        say('Recording');
        return;
      case 'assertChange':
        recorder.setPick(null);
        askChanges();
        return;
      case 'changeAdd':
        addChange();
        return;
      case 'changeMustNot':
        recorder.setPick(recorder.pick() === kind ? null : kind);
        if (recorder.pick() === null)
          say('Tick what must change, then Add assertion.');
        return;
      case 'changeCancel':
        hideChanges();
        say('Recording');
        return;
      case 'assertUrl':
        recorder.setPick(null);
        recorder.record({ kind: 'assertUrl' });
        say(`Added: the URL is ${location.pathname}${location.search}`);
        return;
      case 'undo':
        recorder.setPick(null);
        recorder.record({ kind: 'undo' });
        say('Removed the last step.');
        return;
      case 'wider':
        recorder.widenPick();
        return;
      case 'narrower':
        recorder.narrowPick();
        return;
      case 'take':
        recorder.takePicked();
        return;
      case 'move': {
        // The bar may cover what the person wants to click next.
        const bar = q('.bar');
        const top = bar.classList.toggle('top');
        q('button[data-do="move"]').textContent = top ? 'Move to bottom' : 'Move to top';
        return;
      }
      case 'agentStop':
        agentStatus.textContent = `${agentStatus.textContent.replace(/ — .*$/, '')} — Stopping…`;
        chrome.runtime.sendMessage({ to: 'background', kind: 'agent-stop' }).catch(() => {});
        return;
      case 'stop':
        recorder.setPick(null);
        recorder.flush();
        say('Stopping…');
        chrome.runtime.sendMessage({ to: 'background', kind: 'record-stop' }).catch(() => {});
    }
  }

  root.addEventListener('click', (e) => {
    const b = /** @type {Element} */ (e.target).closest?.('button[data-do]');
    if (b)
      act(String(b.getAttribute('data-do')));
  });
  ask.addEventListener('submit', (/** @type {Event} */ e) => {
    e.preventDefault();
    const text = askInput.value.trim();
    if (!text)
      return;
    recorder.record({ kind: 'assertNotVisible', text });
    ask.hidden = true;
    askInput.value = '';
    say(`Added: “${text}” is not shown`);
  });

  // While picking, highlight what the element under the pointer would
  // give; over the bar, the highlight stays for its buttons.
  window.addEventListener('mousemove', (e) => {
    if (!recorder.pick())
      return;
    if (e.composedPath().includes(host)) {
      recorder.holdPick();
      return;
    }
    const el = /** @type {Element} */ (e.composedPath()[0]);
    if (el && el.nodeType === 1)
      recorder.pointPick(el);
  }, true);
  // A click on one of the bar's buttons leaves the keyboard focus where the
  // person had it: a key pressed next (Escape to close the page's menu, say)
  // goes to the page and is recorded, as it would be without the bar. Keys
  // pressed while the bar has the focus are the bar's, not the page's.
  // So do the boxes of Assert change's list: a field of the page that
  // commits on blur (TodoMVC adds the typed item when its field loses the
  // focus) would otherwise change the page while the person ticks, a change
  // no replay makes. Only the bar's text field takes the focus.
  root.addEventListener('mousedown', (/** @type {Event} */ e) => {
    const el = /** @type {Element} */ (e.target);
    if (el.closest?.('button, label, input[type=checkbox]') && !el.closest?.('input:not([type=checkbox]), textarea'))
      e.preventDefault();
  });
  // The bar's presses, clicks and keys end at the bar: a page that closes
  // its menu on a click anywhere else (Bootstrap's drop-downs listen on the
  // document) keeps it open while the person checks what it shows. The
  // page's capturing listeners see them before the bar can say so.
  for (const type of ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click', 'dblclick', 'auxclick',
    'contextmenu', 'touchstart', 'touchend', 'keydown', 'keyup', 'keypress'])
    root.addEventListener(type, (e) => e.stopPropagation());
  // The arrow keys widen and narrow the highlight also when the focus is on
  // the bar (the page's keys go to the recorder first).
  root.addEventListener('keydown', (/** @type {Event} */ e) => {
    const k = /** @type {KeyboardEvent} */ (e);
    if (recorder.pickKey(k.key))
      k.preventDefault();
  });

  function show() {
    if (!host.isConnected)
      (document.documentElement || document).appendChild(host);
  }
  recorder.setBar(host);
  // A page open before Record ran its scripts before the extension could
  // watch its dialogs: they could fake one, so none is recorded
  // (docs/recording.md, Dialogs). A reload starts the page again with the
  // watch in place.
  recorder.onUnrecordedDialog(() => say('A dialog on this page was not recorded: the page was open before Record, '
    + 'and its own scripts could fake one. Reload the page to record its dialogs.'));
  if (document.documentElement)
    show();
  else
    document.addEventListener('DOMContentLoaded', show, { once: true });

  g.__trailpinRecordBar = Object.freeze({
    show,
    warn,
    agent,
    offerChange,
    remove: () => host.remove(),
  });
})();
