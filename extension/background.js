// The service worker: keeps one connection to the host and lets extension
// pages (popup, later the review page) use it through chrome.runtime
// messages, and runs the recording (background/recording.js). It decides nothing; the
// host does. Which sender may send which message senders.js decides: the
// recorded pages' content scripts report interactions and nothing more.

import { PROTOCOL_VERSION } from './protocol.js';
import { HostConnection, HostError } from './nativeport.js';
import { Recording } from './background/recording.js';
import { ApiRelay } from './background/apirelay.js';
import { admit, CONTENT_KINDS } from './senders.js';

/** @typedef {import('./protocol.js').Status} Status */
/** @typedef {import('./protocol.js').PageRequest} PageRequest */
/** @typedef {import('./protocol.js').PageReply} PageReply */
/** @typedef {import('./protocol.js').Refusal} Refusal */

let wasConnected = false;
const connection = new HostConnection({
  extensionVersion: chrome.runtime.getManifest().version,
  onChange: (c) => {
    broadcast();
    const connected = c.state === 'connected';
    // A host that came back (restarted, or crashed) gets what it missed.
    if (connected && !wasConnected) recording.resync();
    // The agent's goal ran in the host that went away.
    if (!connected && wasConnected) recording.hostLost();
    wasConnected = connected;
  },
  onHostMessage: (m) => afterRestore(async () => {
    if (!(await agents.fromHost(m))) await recording.fromHost(m);
  }),
});

const recording = new Recording({
  host: connection,
  chrome,
  onChange: (recording) => {
    chrome.runtime.sendMessage({ kind: 'recording-changed', recording }).catch(() => {
      // No page is open to hear it.
    });
  },
});

// The agent API's clients: what the person allowed and shared
// (background/apirelay.js).
const agents = new ApiRelay({
  chrome,
  host: connection,
  recording,
  onChange: () => {
    chrome.runtime.sendMessage({ kind: 'agents-changed', agents: agents.view() }).catch(() => {
      // No page is open to hear it.
    });
  },
});

// A worker Chrome started again (it stops idle ones) takes up the recording
// first: the event that woke it, often a page's interaction, waits for that.
const restored = recording.restore().catch(() => {});
/** @param {() => unknown} fn */
const afterRestore = (fn) => { restored.then(fn); };

chrome.webNavigation.onCommitted.addListener((d) => afterRestore(() => recording.committed(d)));
// Moves within a document: a single-page app's routes, back and forward among them.
chrome.webNavigation.onHistoryStateUpdated.addListener((d) => afterRestore(() => recording.sameDocument(d)));
chrome.webNavigation.onReferenceFragmentUpdated.addListener((d) => afterRestore(() => recording.sameDocument(d)));
chrome.webNavigation.onDOMContentLoaded.addListener((d) => afterRestore(() => {
  // Injected at commit already, unless the frame was not ready for it then.
  if (recording.tabs.has(d.tabId) && recording.phase === 'recording') recording.inject(d.tabId, [d.frameId]);
}));
chrome.webNavigation.onCreatedNavigationTarget.addListener((d) => afterRestore(() => recording.opensTab(d)));
chrome.tabs.onActivated.addListener(({ tabId }) => afterRestore(() => recording.switchTo(tabId)));
chrome.tabs.onRemoved.addListener((tabId) => afterRestore(() => {
  recording.closed(tabId);
  agents.closed(tabId);
}));

/** @returns {Status} */
function status() {
  return {
    state: connection.state,
    detail: connection.detail,
    host: connection.host,
    protocol: PROTOCOL_VERSION,
    version: chrome.runtime.getManifest().version,
    extensionId: chrome.runtime.id,
  };
}

/** Tells open extension pages that the connection changed. */
function broadcast() {
  chrome.runtime.sendMessage({ kind: 'status-changed', status: status() }).catch(() => {
    // No page is open to hear it.
  });
}

/**
 * @param {Extract<PageRequest, {kind: 'request'}>} req
 * @returns {Promise<PageReply>}
 */
async function forward(req) {
  try {
    const reply = await connection.request(req.type, req.body ?? {}, req.timeoutMs);
    return { ok: true, reply };
  } catch (e) {
    const code = e instanceof HostError ? e.code : undefined;
    return { ok: false, error: e instanceof Error ? e.message : String(e), code };
  }
}

/**
 * The answer to a message the background does not take (senders.js): it
 * changes nothing, and the extension's console says why.
 * @param {{kind?: unknown}} msg
 * @param {string} error
 * @returns {Refusal}
 */
function refused(msg, error) {
  console.warn(`Trailpin refused a message: ${error}`);
  return { ok: false, refused: true, error: `refused: ${error}` };
}

/**
 * A recorded page's message, once admitted: an interaction, or one of the
 * recording bar's buttons.
 * @param {Extract<PageRequest, {kind: 'interaction'|'record-stop'|'agent-stop'|'record-changes'|'traversal'}>} msg
 * @param {chrome.runtime.MessageSender} sender
 * @returns {Promise<{ok: true} | {ok: true, reply: Record<string, unknown>} | {ok: false, error: string}>}
 */
async function fromPage(msg, sender) {
  switch (msg.kind) {
    case 'interaction':
      recording.fromPage(msg, sender);
      return { ok: true };
    case 'record-stop':
      recording.handle({ op: 'stop' });
      return { ok: true };
    case 'agent-stop': {
      // The bar's button disconnects the client driving the tab, else
      // stops the built-in agent.
      const driver = agents.driverOf(sender.tab?.id ?? -1);
      if (driver) agents.disconnect(driver);
      else recording.handle({ op: 'askStop' });
      return { ok: true };
    }
    case 'record-changes':
      return recording.changesFromPage(msg, sender);
    case 'traversal':
      recording.traversalFromPage(msg, sender);
      return { ok: true };
  }
}

chrome.runtime.onMessage.addListener((/** @type {PageRequest} */ msg, sender, sendResponse) => {
  if (msg?.to !== 'background') return false;
  const decide = () => admit(msg, sender, {
    extensionId: chrome.runtime.id,
    extensionUrl: chrome.runtime.getURL(''),
    recorded: (tabId) => recording.records(tabId),
  });
  if (CONTENT_KINDS.includes(msg.kind)) {
    // Whether the tab is recorded is known once a restarted worker took
    // up the recording.
    restored.then(() => {
      const verdict = decide();
      return verdict.ok ? fromPage(/** @type {any} */ (msg), sender) : refused(msg, verdict.error);
    }).then(sendResponse);
    return true;
  }
  const verdict = decide();
  if (!verdict.ok) {
    sendResponse(refused(msg, verdict.error));
    return false;
  }
  switch (msg.kind) {
    case 'record':
      restored.then(() => recording.handle(msg)).then(sendResponse);
      return true;
    case 'agents':
      agentsOp(msg).then(sendResponse);
      return true;
    case 'status':
      sendResponse(status());
      return false;
    case 'reconnect':
      connection.connect();
      sendResponse(status());
      return false;
    case 'request':
      forward(msg).then(sendResponse);
      return true; // the answer comes later
  }
  return false;
});

/**
 * The popup's Agents section: allow or deny a client, revoke one, share a
 * tab, disconnect the client driving a tab.
 * @param {any} msg
 */
async function agentsOp(msg) {
  await agents.loaded;
  const client = String(msg.client ?? '');
  switch (msg.op) {
    case 'decide': await agents.decide(client, !!msg.allow); break;
    case 'revoke': await agents.revoke(client); break;
    case 'share': await agents.share(Number(msg.tab), !!msg.on); break;
    case 'disconnect': await agents.disconnect(client); break;
  }
  return agents.view();
}

connection.connect();
