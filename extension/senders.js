// Who may ask the background for what (docs/recording.md, Who may send
// what). Chrome's guidance is to treat a content script as the page it runs
// in: the recorder runs in every frame of a recorded tab, among the app's
// own scripts and whatever text strangers put on its pages. So a content
// script may report interactions and press the recording bar's few buttons,
// each checked, and nothing else; what reaches the host beyond that (a
// project, a save, an export, the agent, any host message) comes only from
// the extension's own pages. One pure function decides, so it is tested on
// its own (extension/test/senders.test.mjs).

/** Kinds only the extension's own pages (the popup) may send. */
export const PAGE_KINDS = Object.freeze(['status', 'reconnect', 'request', 'record', 'agents']);

/**
 * Kinds a recorded tab's content scripts may send: interactions, the
 * recording bar's buttons, and the note of a move back or forward to
 * another document (who made it).
 */
export const CONTENT_KINDS = Object.freeze(['interaction', 'record-stop', 'agent-stop', 'record-changes', 'traversal']);

/** The recording bar's kinds: it lives in the top frame only (recordbar.js). */
export const BAR_KINDS = Object.freeze(['record-stop', 'agent-stop', 'record-changes']);

/** Longest address a traversal note may name, in characters. */
export const MAX_URL_CHARS = 64 * 1024;

/**
 * Interaction kinds a page's recorder reports (content/, recordbar.js).
 * The others (navigate, switchTab, agentStart, agentEnd) the background
 * makes itself from what Chrome says: a page that could send them would
 * pass its own actions off as the agent's, or as navigations it never made.
 */
export const PAGE_INTERACTIONS = Object.freeze(['click', 'type', 'set', 'select', 'check', 'uncheck', 'press',
  'hover', 'drag', 'upload', 'dialog', 'assertVisible', 'assertNotVisible', 'assertUrl', 'assertValue', 'assertState',
  'assertChange', 'undo', 'markSensitive']);

/**
 * The extension's pages that may send PAGE_KINDS, as paths under the
 * extension's URL. The popup also opens in a tab of its own, by design
 * (popup.html?tab=<id>, README: for keyboard users and automation); no other
 * page is.
 */
export const EXTENSION_PAGES = Object.freeze(['popup.html']);

/**
 * Longest wire screen a page may send, in characters. The host takes
 * frames of up to 64 MiB (host/PROTOCOL.md, Frames); a 10k-node page's
 * screen is under 1 MB.
 */
export const MAX_SCREEN_CHARS = 48 * 1024 * 1024;

/**
 * Longest interaction a page may send, as JSON, in characters: the longest
 * is a typed value (a long text pasted into a field) or an assertChange's
 * 500 keys.
 */
export const MAX_INTERACTION_CHARS = 1024 * 1024;

/**
 * What Chrome says of a message's sender (chrome.runtime.MessageSender).
 * @typedef {{id?: string, url?: string, origin?: string, tab?: {id?: number}, frameId?: number}} Sender
 */

/**
 * What the background knows when it decides.
 * @typedef {object} Context
 * @property {string} extensionId chrome.runtime.id
 * @property {string} extensionUrl chrome.runtime.getURL(''), ending in '/'
 * @property {(tabId: number) => boolean} recorded whether the tab is being recorded
 */

/**
 * The decision: who sent it, or why it is refused, in words.
 * @typedef {{ok: true, from: 'extension' | 'content'} | {ok: false, error: string}} Admission
 */

/**
 * Whether the background takes msg from sender.
 * @param {unknown} msg
 * @param {Sender} sender
 * @param {Context} ctx
 * @returns {Admission}
 */
export function admit(msg, sender, ctx) {
  if (!isRecord(msg) || typeof msg.kind !== 'string') return refuse('the message is not an object with a kind');
  const kind = msg.kind;
  if (!sender || sender.id !== ctx.extensionId) return refuse(`${quoted(kind)} came from another extension or a web page`);
  if (PAGE_KINDS.includes(kind)) {
    if (!fromExtensionPage(sender, ctx)) return refuse(`${quoted(kind)} is taken only from the extension's own pages, not from ${where(sender, ctx)}`);
    return { ok: true, from: 'extension' };
  }
  if (!CONTENT_KINDS.includes(kind)) return refuse(`${quoted(kind)} is not a message the background knows`);
  const tabId = sender.tab?.id;
  if (typeof tabId !== 'number' || typeof sender.frameId !== 'number') return refuse(`${quoted(kind)} is taken only from a recorded tab`);
  if (!ctx.recorded(tabId)) return refuse(`${quoted(kind)} came from tab ${tabId}, which is not being recorded`);
  if (BAR_KINDS.includes(kind) && sender.frameId !== 0) return refuse(`${quoted(kind)} is the recording bar's, and the bar is in the tab's top frame, not frame ${sender.frameId}`);
  if (kind === 'traversal' && sender.frameId !== 0) return refuse(`${quoted(kind)} tells of the top document's moves, and came from frame ${sender.frameId}`);
  const bad = shapeError(msg);
  if (bad) return refuse(`${quoted(kind)} ${bad}`);
  return { ok: true, from: 'content' };
}

/**
 * Whether sender is one of the extension's own pages: its URL is under
 * the extension's, names one of EXTENSION_PAGES, and it is the top frame
 * of its tab when it is in one. Chrome sets url and tab, not the sender.
 * @param {Sender} sender
 * @param {{extensionId: string, extensionUrl: string}} ctx
 * @returns {boolean}
 */
export function fromExtensionPage(sender, ctx) {
  if (!sender || sender.id !== ctx.extensionId || typeof sender.url !== 'string') return false;
  if (!ctx.extensionUrl.endsWith('/') || !sender.url.startsWith(ctx.extensionUrl)) return false;
  if (sender.origin !== undefined && sender.origin + '/' !== ctx.extensionUrl) return false;
  const path = sender.url.slice(ctx.extensionUrl.length).replace(/[?#].*$/s, '');
  if (!EXTENSION_PAGES.includes(path)) return false;
  return sender.tab === undefined || sender.frameId === 0;
}

/**
 * Whether sender is the extension itself, outside any tab: its service
 * worker or its popup. What the background tells the popup must come from
 * there, never from a content script (which always has a tab).
 * @param {Sender} sender
 * @param {{extensionId: string, extensionUrl: string}} ctx
 * @returns {boolean}
 */
export function fromExtension(sender, ctx) {
  if (!sender || sender.id !== ctx.extensionId || typeof sender.url !== 'string' || sender.tab !== undefined) return false;
  if (sender.origin !== undefined && sender.origin + '/' !== ctx.extensionUrl) return false;
  return ctx.extensionUrl.endsWith('/') && sender.url.startsWith(ctx.extensionUrl);
}

/**
 * What is wrong with a content script's message, '' when nothing.
 * @param {Record<string, unknown>} msg
 * @returns {string}
 */
function shapeError(msg) {
  if (msg.screen !== undefined) {
    if (typeof msg.screen !== 'string') return 'has a screen that is not text';
    if (msg.screen.length > MAX_SCREEN_CHARS) return `has a screen of ${msg.screen.length} characters, more than ${MAX_SCREEN_CHARS}`;
  }
  switch (msg.kind) {
    case 'record-changes':
      return typeof msg.screen === 'string' ? '' : 'lacks the screen';
    case 'traversal':
      if (typeof msg.url !== 'string' || msg.url.length > MAX_URL_CHARS) return 'lacks the address it went to';
      return typeof msg.byPerson === 'boolean' ? '' : 'does not say who made the move';
    case 'interaction': {
      const i = msg.interaction;
      if (!isRecord(i)) return 'lacks the interaction';
      if (typeof i.kind !== 'string' || !PAGE_INTERACTIONS.includes(i.kind)) return `has an interaction of kind ${quoted(i.kind)}, which a page does not send`;
      let size = 0;
      try {
        size = JSON.stringify(i).length;
      } catch {
        return 'has an interaction that is not plain data';
      }
      if (size > MAX_INTERACTION_CHARS) return `has an interaction of ${size} characters, more than ${MAX_INTERACTION_CHARS}`;
      return '';
    }
  }
  return '';
}

/**
 * Where a refused message came from, in words: a page's origin only, since
 * its full address may hold a token.
 * @param {Sender} sender
 * @param {{extensionUrl: string}} ctx
 * @returns {string}
 */
export function where(sender, ctx) {
  const url = String(sender?.url ?? '');
  const tab = sender?.tab?.id;
  const inTab = typeof tab === 'number' ? ` in tab ${tab}${sender.frameId ? `, frame ${sender.frameId}` : ''}` : '';
  if (url.startsWith(ctx.extensionUrl)) return `the extension's page ${url.slice(ctx.extensionUrl.length).replace(/[?#].*$/s, '').slice(0, 60)}${inTab}`;
  let origin = 'an unknown address';
  try {
    origin = new URL(url).origin;
  } catch {
    // Said as unknown.
  }
  return `a page of ${origin}${inTab}`;
}

/**
 * A kind as a refusal quotes it: a page chose it, so it is cut short.
 * @param {unknown} kind
 * @returns {string}
 */
function quoted(kind) {
  const s = JSON.stringify(String(kind));
  return s.length > 42 ? `${s.slice(0, 40)}…"` : s;
}

/**
 * @param {unknown} v
 * @returns {v is Record<string, unknown>}
 */
function isRecord(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * @param {string} error
 * @returns {Admission}
 */
function refuse(error) {
  return { ok: false, error };
}
