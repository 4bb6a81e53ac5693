// The service worker: keeps one connection to the host and lets extension
// pages (popup, later the review page) use it through chrome.runtime
// messages, and runs the recording (recording.js). It decides nothing; the
// host does.

import { PROTOCOL_VERSION } from './protocol.js';
import { HostConnection, HostError } from './nativeport.js';
import { Recorder } from './recording.js';

/** @typedef {import('./protocol.js').Status} Status */
/** @typedef {import('./protocol.js').PageRequest} PageRequest */
/** @typedef {import('./protocol.js').PageReply} PageReply */

let wasConnected = false;
const connection = new HostConnection({
  extensionVersion: chrome.runtime.getManifest().version,
  onChange: (c) => {
    broadcast();
    const connected = c.state === 'connected';
    // A host that came back (restarted, or crashed) gets what it missed.
    if (connected && !wasConnected) recorder.resync();
    // The agent's goal ran in the host that went away.
    if (!connected && wasConnected) recorder.hostLost();
    wasConnected = connected;
  },
  onHostMessage: (m) => afterRestore(() => recorder.fromHost(m)),
});

const recorder = new Recorder({
  host: connection,
  chrome,
  onChange: (recording) => {
    chrome.runtime.sendMessage({ kind: 'recording-changed', recording }).catch(() => {
      // No page is open to hear it.
    });
  },
});

// A worker Chrome started again (it stops idle ones) takes up the recording
// first: the event that woke it, often a page's interaction, waits for that.
const restored = recorder.restore().catch(() => {});
/** @param {() => unknown} fn */
const afterRestore = (fn) => { restored.then(fn); };

chrome.webNavigation.onCommitted.addListener((d) => afterRestore(() => recorder.committed(d)));
chrome.webNavigation.onDOMContentLoaded.addListener((d) => afterRestore(() => {
  // Injected at commit already, unless the frame was not ready for it then.
  if (recorder.tabs.has(d.tabId) && recorder.phase === 'recording') recorder.inject(d.tabId, [d.frameId]);
}));
chrome.webNavigation.onCreatedNavigationTarget.addListener((d) => afterRestore(() => recorder.opensTab(d)));
chrome.tabs.onActivated.addListener(({ tabId }) => afterRestore(() => recorder.switchTo(tabId)));
chrome.tabs.onRemoved.addListener((tabId) => afterRestore(() => recorder.closed(tabId)));

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

chrome.runtime.onMessage.addListener((/** @type {PageRequest} */ msg, sender, sendResponse) => {
  if (msg?.to !== 'background' || sender.id !== chrome.runtime.id) return false;
  switch (msg.kind) {
    case 'interaction':
      afterRestore(() => recorder.fromPage(msg, sender));
      return false;
    case 'record-stop':
      afterRestore(() => {
        if (sender.tab?.id !== undefined && recorder.tabs.has(sender.tab.id)) recorder.handle({ op: 'stop' });
      });
      return false;
    case 'agent-stop':
      afterRestore(() => {
        if (sender.tab?.id !== undefined && recorder.tabs.has(sender.tab.id)) recorder.handle({ op: 'askStop' });
      });
      return false;
    case 'record-changes':
      restored.then(() => recorder.changesFromPage(msg, sender)).then(sendResponse);
      return true;
    case 'record':
      restored.then(() => recorder.handle(msg)).then(sendResponse);
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

connection.connect();
