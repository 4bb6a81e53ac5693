// The toolbar popup: shows whether the host is connected and, when it is
// not, the exact command that fixes it; records a trail of a tab (Record,
// Stop, review, Save, Export). Opened as a page, popup.html?tab=<tabId>
// controls the given tab (for keyboard users and automation).

import { PROTOCOL_VERSION } from './protocol.js';
import { fromExtension } from './senders.js';
import { reviewModel, choicesOf, changeText, renderReview as renderSelectorReview, selectedIn, reviewProgressText } from './popup-review.js';

/** @typedef {import('./protocol.js').Status} Status */
/** @typedef {import('./protocol.js').RecordingView} RecordingView */
/** @typedef {import('./protocol.js').RecordOp} RecordOp */

/**
 * The --browser value of `host install` for the browser this runs in.
 * @returns {string}
 */
export function browserFlag() {
  /** @type {{brands?: {brand: string}[]} | undefined} */
  const uaData = /** @type {any} */ (navigator).userAgentData;
  const brands = (uaData?.brands ?? []).map((b) => b.brand);
  if (brands.includes('Microsoft Edge')) return 'edge';
  if (/** @type {any} */ (navigator).brave) return 'brave';
  if (brands.includes('Google Chrome')) return 'chrome';
  return 'chromium';
}

/**
 * What the popup says about a status: a headline, and for a problem its
 * explanation, the command that fixes it and a hint for when it is not enough.
 * @param {Status} s
 * @param {string} browser --browser value for this browser
 * @returns {{headline: string, problem?: string, command?: string, hint?: string}}
 */
export function describe(s, browser) {
  const install = `./bin/host install --browser ${browser}`;
  switch (s.state) {
    case 'connecting':
      return { headline: 'Connecting…' };
    case 'connected':
      return { headline: 'Connected' };
    case 'missing':
      return {
        headline: 'Host not installed',
        problem: 'The browser found no Trailpin host (dev.trailpin.host), or the program its manifest names is gone.',
        hint: 'Not built yet? Run ./scripts/quickstart in your Trailpin folder instead.',
        command: install,
      };
    case 'forbidden':
      return {
        headline: 'Host refuses this extension',
        problem: `The installed host does not allow this extension (ID ${s.extensionId}).`,
        command: `${install} --extension-id ${s.extensionId}`,
      };
    case 'unstartable':
      return {
        headline: 'Host cannot be started',
        problem: 'The host manifest names a program that cannot run.',
        command: `go build -o bin/host ./host && ${install}`,
      };
    case 'exited':
      return {
        headline: 'Host stopped',
        problem: 'The host stopped, or could not be run.',
        hint: 'Its log is in ~/.local/share/trailpin/host.log.',
        command: './bin/host doctor',
      };
    case 'mismatch': {
      const hostProtocol = s.host?.protocol ?? 0;
      if (hostProtocol < PROTOCOL_VERSION) {
        return {
          headline: 'Host is out of date',
          problem: `The host (version ${s.host?.version}) speaks protocol ${hostProtocol}; this extension speaks ${PROTOCOL_VERSION}.`,
          command: `go build -o bin/host ./host && ${install}`,
        };
      }
      return {
        headline: 'Extension is out of date',
        problem: `The host (version ${s.host?.version}) speaks protocol ${hostProtocol}; this extension speaks ${PROTOCOL_VERSION}.`,
        hint: 'Then reload the extension on chrome://extensions.',
        command: 'git pull',
      };
    }
  }
}

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
function el(id) {
  const e = document.getElementById(id);
  if (!e) throw new Error(`popup.html lacks #${id}`);
  return e;
}

/** The connection's state, as last shown. */
let connectionState = '';

/** @param {Status} s */
function render(s) {
  const d = describe(s, browserFlag());
  const state = el('state');
  state.textContent = d.headline;
  state.dataset.state = s.state;

  const versions = el('versions');
  versions.hidden = !s.host;
  el('host-version').textContent = s.host?.version ?? '';
  el('host-protocol').textContent = s.host ? String(s.host.protocol) : '';

  el('problem').hidden = !d.problem;
  el('problem-text').textContent = d.problem ?? '';
  el('fix-command').textContent = d.command ?? '';
  el('fix-hint').textContent = d.hint ?? '';
  el('problem-detail').textContent = s.detail ? `Browser said: ${s.detail}` : '';
  // Connected to a host whose database is damaged: once the file is moved
  // aside, a new host is what it takes.
  connectionState = s.state;
  el('retry').hidden = s.state === 'connected' && !shown?.damaged;
  el('recording').hidden = s.state !== 'connected';
  el('agents').hidden = s.state !== 'connected';
}

/** How often the popup asks again while the service worker is starting. */
const STATUS_RETRIES = 20;
const STATUS_RETRY_MS = 250;

async function refresh() {
  for (let attempt = 1; ; attempt++) {
    try {
      /** @type {Status} */
      const s = await chrome.runtime.sendMessage({ to: 'background', kind: 'status' });
      render(s);
      return;
    } catch (e) {
      // The service worker may not listen yet right after the browser starts.
      if (attempt >= STATUS_RETRIES) throw e;
      await new Promise((r) => setTimeout(r, STATUS_RETRY_MS));
    }
  }
}

el('retry').addEventListener('click', async () => {
  render(await chrome.runtime.sendMessage({ to: 'background', kind: 'reconnect' }));
});

el('copy').addEventListener('click', async () => {
  const copy = el('copy');
  try {
    await navigator.clipboard.writeText(el('fix-command').textContent ?? '');
    copy.textContent = 'Copied';
  } catch {
    copy.textContent = 'Copy failed: select the command';
  }
});

chrome.runtime.onMessage.addListener((/** @type {{kind?: string, status?: Status, recording?: RecordingView}} */ msg, sender) => {
  // The background tells what changed; a recorded page's content script,
  // which may send messages too, must not make the popup show anything.
  if (!fromExtension(sender, { extensionId: chrome.runtime.id, extensionUrl: chrome.runtime.getURL('') })) return;
  if (msg?.kind === 'status-changed' && msg.status) render(msg.status);
  if (msg?.kind === 'recording-changed' && msg.recording) renderRecording(msg.recording);
  if (msg?.kind === 'agents-changed' && /** @type {any} */ (msg).agents) renderAgents(/** @type {any} */ (msg).agents);
});

// ---------------------------------------------------------------------------
// Recording

/**
 * The tab the popup records: ?tab=<id> when opened as a page, else the
 * active tab of the window the popup belongs to.
 * @returns {Promise<chrome.tabs.Tab|undefined>}
 */
async function targetTab() {
  const param = new URLSearchParams(location.search).get('tab');
  if (param !== null) {
    const id = Number(param);
    if (!Number.isInteger(id) || id < 0) throw new Error(`popup.html?tab=${param}: the tab must be a tab id (an integer)`);
    return chrome.tabs.get(id);
  }
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  return tab;
}

/**
 * What the popup says about a recording's phase.
 * @param {RecordingView} r
 * @returns {string}
 */
export function phaseText(r) {
  switch (r.phase) {
    case 'idle': return 'Not recording';
    case 'starting': return 'Starting…';
    case 'recording': {
      const n = r.interactions === 1 ? '1 interaction' : `${r.interactions} interactions`;
      return r.unacknowledged ? `Recording: ${n} (${r.unacknowledged} not stored yet)` : `Recording: ${n}`;
    }
    case 'stopping': return 'Stopping…';
    case 'stopped': return 'Review the trail, then save it';
    case 'saved': return 'Saved';
  }
}

/**
 * Sends an operation to the background's recording.
 * @param {RecordOp} op
 * @returns {Promise<RecordingView>}
 */
async function recordOp(op) {
  const view = await chrome.runtime.sendMessage({ to: 'background', kind: 'record', ...op });
  renderRecording(view);
  return view;
}

/** @type {RecordingView|null} */
let shown = null;

/** @param {RecordingView} r */
function renderRecording(r) {
  const before = shown;
  shown = r;
  const state = el('rec-state');
  state.textContent = phaseText(r);
  state.dataset.phase = r.phase;
  const active = r.phase === 'recording' || r.phase === 'stopping' || r.phase === 'stopped' || r.phase === 'saved';

  el('rec-where').hidden = !active || (!r.project && !r.app);
  el('rec-project').textContent = r.project ? `${r.project.name} (${r.project.dir})` : 'not chosen yet';
  el('rec-app').textContent = r.app ? `${r.app.name} (${r.app.baseUrl})` : 'not chosen yet';
  el('project-form').hidden = !(active && r.phase !== 'saved' && r.needsProject);
  el('app-form').hidden = !(active && r.phase !== 'saved' && !r.needsProject && r.needsApp);
  el('app-origin').textContent = r.origin;

  el('record').hidden = r.phase !== 'idle';
  el('stop').hidden = r.phase !== 'recording';
  renderAgent(r);

  const reviewing = r.phase === 'stopped' && !!r.review;
  if (r.phase !== 'stopped') closeSelectorReview();
  el('review').hidden = !reviewing || !el('selector-review').hidden;
  if (reviewing && before?.review !== r.review) renderReview(/** @type {Record<string, any>} */ (r.review));
  /** @type {HTMLButtonElement} */ (el('save')).disabled = r.needsProject || r.needsApp;

  el('saved').hidden = r.phase !== 'saved';
  if (r.saved) el('saved-text').textContent = `Saved “${r.saved.title}” as ${r.saved.trail}, version ${r.saved.version}.`;
  const changes = /** @type {Record<string, any>[]} */ (r.saved?.changes ?? []);
  el('saved-changes-section').hidden = changes.length === 0;
  el('saved-changes').replaceChildren(...changes.map((c) => {
    const li = document.createElement('li');
    li.textContent = changeText(c);
    return li;
  }));
  el('exported').textContent = r.exported ? `Exported to ${r.exported.path}${r.exported.unchanged ? ' (unchanged)' : ''}` : '';

  el('retry').hidden = connectionState === 'connected' && !r.damaged;
  const warning = el('rec-warning');
  warning.hidden = !r.warning;
  warning.textContent = r.warning ?? '';
  const err = el('rec-error');
  err.hidden = !r.error;
  err.textContent = r.error;
  if (before?.phase !== r.phase) showTarget();
}

/**
 * What the popup says about the agent: why it cannot be asked, what it is
 * doing, or how its last goal ended.
 * @param {import('./protocol.js').AgentView} a
 * @returns {string}
 */
export function agentText(a) {
  if (!a.known) return 'Checking whether a model is configured…';
  if (!a.configured) return a.message;
  switch (a.state) {
    case 'running': return `Working on “${a.goal}”: ${a.action || 'starting'}`;
    case 'done':
    case 'stopped':
    case 'failed': return `“${a.goal}”: ${a.result}`;
  }
  return `The agent (${a.model}) acts in the recorded tab; what it does for a goal is recorded as one step.`;
}

/** Shows the Ask the agent field while recording. @param {RecordingView} r */
function renderAgent(r) {
  const a = r.agent;
  const recording = r.phase === 'recording' && !!a;
  el('ask-form').hidden = !recording;
  if (!recording) return;
  const running = a.state === 'running';
  /** @type {HTMLInputElement} */ (el('ask-goal')).disabled = !a.configured || running;
  /** @type {HTMLButtonElement} */ (el('ask')).disabled = !a.configured || running;
  el('ask-stop').hidden = !running;
  const status = el('ask-status');
  status.textContent = agentText(a);
  status.dataset.state = !a.known ? 'checking' : !a.configured ? 'unconfigured' : a.state;
}

/** Shows record.stop's steps, secrets and notes for review. @param {Record<string, any>} review */
function renderReview(review) {
  /** @type {HTMLInputElement} */ (el('trail-title')).value = String(review.title ?? '');
  const steps = el('steps');
  steps.replaceChildren();
  (review.steps ?? []).forEach((/** @type {any} */ step, /** @type {number} */ i) => {
    const li = document.createElement('li');
    const input = document.createElement('input');
    input.type = 'text';
    input.value = String(step.intent ?? step.act ?? '');
    input.dataset.original = input.value;
    input.dataset.index = String(i);
    input.setAttribute('aria-label', `Intent of step ${i + 1}${step.by === 'agent' ? ' (performed by the agent)' : ''}`);
    li.append(input);
    if (step.by === 'agent') {
      const by = document.createElement('span');
      by.className = 'by detail';
      by.textContent = 'Performed by the agent';
      li.dataset.by = 'agent';
      li.append(by);
    }
    const actions = document.createElement('ul');
    actions.className = 'actions';
    for (const a of step.actions ?? []) {
      const item = document.createElement('li');
      item.textContent = [a.kind, a.selector, a.text].filter(Boolean).join(' ');
      actions.append(item);
    }
    if (actions.children.length) li.append(actions);
    steps.append(li);
  });
  const secrets = /** @type {string[]} */ (review.secrets ?? []);
  el('secrets').hidden = secrets.length === 0;
  const list = el('secret-list');
  list.replaceChildren();
  for (const name of secrets) {
    const label = document.createElement('label');
    label.className = 'inline';
    label.textContent = `Secret ${name} is read from `;
    const input = document.createElement('input');
    input.type = 'text';
    input.value = name;
    input.dataset.secret = name;
    input.setAttribute('aria-label', `Name of the secret ${name}`);
    label.append(input);
    list.append(label);
  }
  const notes = el('notes');
  notes.replaceChildren(...(review.notes ?? []).map((/** @type {string} */ n) => {
    const li = document.createElement('li');
    li.textContent = n;
    return li;
  }));
}

/** The review's edits: secret renames and changed intents. */
function edits() {
  /** @type {Record<string, string>} */
  const secrets = {};
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('#secret-list input'))) {
    const to = input.value.trim();
    if (to && to !== input.dataset.secret) secrets[String(input.dataset.secret)] = to;
  }
  /** @type {Record<string, string>} */
  const intents = {};
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('#steps input'))) {
    const to = input.value.trim();
    if (to && to !== input.dataset.original) intents[String(input.dataset.index)] = to;
  }
  return { secrets, intents };
}

el('record').addEventListener('click', async () => {
  try {
    const tab = await targetTab();
    if (tab?.id === undefined) throw new Error('no tab to record');
    const { project } = await chrome.storage.local.get('project');
    await recordOp({ op: 'start', tab: tab.id, project: typeof project === 'string' ? project : undefined });
  } catch (e) {
    const err = el('rec-error');
    err.hidden = false;
    err.textContent = e instanceof Error ? e.message : String(e);
  }
});
el('stop').addEventListener('click', () => recordOp({ op: 'stop' }));
el('ask-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const input = /** @type {HTMLInputElement} */ (el('ask-goal'));
  const goal = input.value.trim();
  if (!goal) return;
  const view = await recordOp({ op: 'ask', goal });
  if (!view.error) input.value = '';
});
el('ask-stop').addEventListener('click', () => recordOp({ op: 'askStop' }));
el('project-form').addEventListener('submit', (e) => {
  e.preventDefault();
  recordOp({
    op: 'project',
    dir: /** @type {HTMLInputElement} */ (el('project-dir')).value.trim(),
    create: /** @type {HTMLInputElement} */ (el('project-create')).checked,
  });
});
el('app-form').addEventListener('submit', (e) => {
  e.preventDefault();
  recordOp({ op: 'addApp', name: /** @type {HTMLInputElement} */ (el('app-name')).value.trim() });
});
// Save: the host reviews the selectors first (record.review); the person
// accepts the picks or chooses others (record.choose), then the trail is
// saved. A host that cannot review saves the recorder's choices.

/** @type {{title: string, secrets: Record<string, string>, intents: Record<string, string>}|null} */
let pendingSave = null;
/** @type {ReturnType<typeof reviewModel>|null} */
let selectorReview = null;

/**
 * Sends a message to the host through the background.
 * @param {string} type
 * @param {Record<string, unknown>} body
 * @returns {Promise<import('./protocol.js').PageReply>}
 */
function hostRequest(type, body) {
  return chrome.runtime.sendMessage({ to: 'background', kind: 'request', type, body, timeoutMs: 120_000 });
}

/** @param {string} message */
function showError(message) {
  const err = el('rec-error');
  err.hidden = !message;
  err.textContent = message;
}

function closeSelectorReview() {
  el('selector-review').hidden = true;
  el('selector-review-steps').replaceChildren();
  selectorReview = null;
}

/** Saves with what the person edited, the review's picks or choices applied by the host. */
async function saveNow() {
  if (!pendingSave) return;
  const args = pendingSave;
  const view = await recordOp({ op: 'save', ...args });
  if (view.phase === 'saved') {
    pendingSave = null;
    closeSelectorReview();
    renderRecording(view);
  }
}

el('review').addEventListener('submit', async (e) => {
  e.preventDefault();
  pendingSave = { title: /** @type {HTMLInputElement} */ (el('trail-title')).value.trim(), ...edits() };
  /** @type {HTMLButtonElement} */ (el('save')).disabled = true;
  // The review checks every step's options on the session's screens (and
  // may ask the model): on a long recording it takes a while, so say so.
  const progress = el('review-progress');
  progress.textContent = reviewProgressText((shown?.review?.steps ?? []).length);
  progress.hidden = false;
  let reply;
  try {
    reply = await hostRequest('record.review', { session: shown?.session ?? '', intents: pendingSave.intents });
  } finally {
    /** @type {HTMLButtonElement} */ (el('save')).disabled = false;
    progress.hidden = true;
    progress.textContent = '';
  }
  const review = reply?.ok ? /** @type {Record<string, any>} */ (reply.reply) : null;
  if (!review || !(review.steps ?? []).length) {
    if (reply && !reply.ok) showError(`The selectors could not be reviewed (${reply.error}); the recorder's choices are saved.`);
    await saveNow();
    return;
  }
  selectorReview = reviewModel(review);
  el('selector-review-heading').textContent = selectorReview.heading;
  el('selector-review-note').textContent = selectorReview.note;
  renderSelectorReview(document, el('selector-review-steps'), selectorReview);
  el('selector-review').hidden = false;
  el('review').hidden = true;
  /** @type {HTMLElement|null} */ (el('selector-review-steps').querySelector('input:checked'))?.focus();
});
el('selector-review').addEventListener('submit', async (e) => {
  // Accept all: the picks, as the host holds them.
  e.preventDefault();
  if (selectorReview) renderSelectorReview(document, el('selector-review-steps'), selectorReview);
  await saveNow();
});
el('save-choices').addEventListener('click', async () => {
  if (!selectorReview || !pendingSave) return;
  const choices = choicesOf(selectorReview.steps, selectedIn(el('selector-review-steps')));
  if (choices.length) {
    const reply = await hostRequest('record.choose', { session: shown?.session ?? '', choices });
    if (!reply?.ok) {
      showError(reply ? reply.error : 'the host did not answer');
      return;
    }
  }
  await saveNow();
});
el('review-back').addEventListener('click', () => {
  closeSelectorReview();
  pendingSave = null;
  el('review').hidden = false;
  /** @type {HTMLElement} */ (el('save')).focus();
});
el('discard').addEventListener('click', () => recordOp({ op: 'discard' }));
el('export').addEventListener('click', () => recordOp({ op: 'export' }));
el('new-recording').addEventListener('click', () => recordOp({ op: 'discard' }));

/** Names the tab the popup records, as it is now. */
async function showTarget() {
  try {
    const tab = shown && shown.tab >= 0 ? await chrome.tabs.get(shown.tab) : await targetTab();
    el('rec-tab').textContent = tab ? `Tab: ${tab.title || tab.url || tab.id}` : 'No tab to record';
  } catch (e) {
    el('rec-tab').textContent = e instanceof Error ? e.message : String(e);
  }
  const { project } = await chrome.storage.local.get('project');
  if (typeof project === 'string') /** @type {HTMLInputElement} */ (el('project-dir')).value = project;
}

// ---------------------------------------------------------------------------
// Agents (the agent API: background/apirelay.js)

/**
 * @typedef {import('./background/apirelay.js').ApiView} ApiView
 */

/**
 * Sends an operation to the background's agents.
 * @param {Record<string, unknown>} op
 */
async function agentsOp(op) {
  const view = await chrome.runtime.sendMessage({ to: 'background', kind: 'agents', ...op });
  renderAgents(view);
}

/** The tab the Share box is about, once known. */
let agentsTab = -1;

/**
 * A list item with a name and buttons.
 * @param {string} text
 * @param {[string, () => void][]} buttons
 */
function item(text, buttons) {
  const li = document.createElement('li');
  const span = document.createElement('span');
  span.textContent = text;
  li.append(span);
  for (const [label, fn] of buttons) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.addEventListener('click', fn);
    li.append(' ', b);
  }
  return li;
}

/** @param {ApiView} v */
function renderAgents(v) {
  if (!v) return;
  el('agents-asking').replaceChildren(...v.asking.map((c) => item(`${c} asks to drive the tabs you share.`, [
    ['Allow', () => agentsOp({ op: 'decide', client: c, allow: true })],
    ['Deny', () => agentsOp({ op: 'decide', client: c, allow: false })],
  ])));
  el('agents-allowed').replaceChildren(...v.allowed.map((c) => item(`Allowed: ${c}`, [['Revoke', () => agentsOp({ op: 'revoke', client: c })]])));
  el('agents-driven').replaceChildren(...v.driven.map((d) => item(`Tab ${d.tab}: driven by ${d.client}`, [['Disconnect', () => agentsOp({ op: 'disconnect', client: d.client })]])));
  const share = /** @type {HTMLInputElement} */ (el('agents-share'));
  share.checked = v.shared.includes(agentsTab);
  share.disabled = agentsTab < 0 || sharing;
}

/**
 * Whether a change of the Share box is on its way to the background. The box
 * is disabled until the popup knows its tab (a click before would share
 * none) and while a change is on its way; it shows the background's answer.
 */
let sharing = false;

el('agents-share').addEventListener('change', async () => {
  const share = /** @type {HTMLInputElement} */ (el('agents-share'));
  sharing = true;
  share.disabled = true;
  try {
    await agentsOp({ op: 'share', tab: agentsTab, on: share.checked });
  } finally {
    sharing = false;
    share.disabled = agentsTab < 0;
  }
});

refresh().then(async () => {
  await showTarget();
  await recordOp({ op: 'state' });
  agentsTab = (await targetTab().catch(() => undefined))?.id ?? -1;
  await agentsOp({ op: 'state' });
});
