// The background's side of a recording (host/PROTOCOL.md, Recording): it
// injects the recorder into the recorded tab (every frame, again after each
// navigation, and into the tabs and popups the app opens), numbers the
// interactions the pages report, keeps each one until the host acknowledged
// it, and sends again what was not acknowledged after the host reconnects.
// What is not acknowledged is kept in chrome.storage.session too, so a
// service worker Chrome stopped (idle, crash, update) loses none of it: the
// next one sends it again.
// It decides nothing about steps or selectors: the host does.

import { PAGE_MODEL_FILES } from './pagemodel-files.js';
import { ErrorCode } from './protocol.js';
import { LiveAgent } from './agentlive.js';

/** @typedef {import('./protocol.js').Message} Message */
/** @typedef {import('./protocol.js').RecordingView} RecordingView */
/** @typedef {import('./protocol.js').RecordOp} RecordOp */

/** Scripts of a recorded frame, in the extension's world, in order. */
const ISOLATED_FILES = [...PAGE_MODEL_FILES, 'recorder.js'];
/**
 * In the page's own world of a recorded frame: says that a dialog opened in
 * a document dialogs.js did not start with (docs/recording.md, Dialogs).
 */
const MAIN_FILES = ['dialogs-unverified.js'];
/**
 * Registered while recording, so that every document starts with them,
 * before its own scripts: dialogs.js in the page's world watches its
 * dialogs, dialogbridge.js takes what it tells into the extension's world,
 * where the page cannot forge it (docs/recording.md, Dialogs). Either may
 * run first (Chrome does not say).
 */
export const DIALOG_SCRIPTS = Object.freeze([
  { id: 'trailpin-dialogs', js: ['dialogs.js'], world: 'MAIN' },
  { id: 'trailpin-dialog-bridge', js: ['dialogbridge.js'], world: 'ISOLATED' },
].map((s) => Object.freeze({
  ...s, matches: ['http://*/*', 'https://*/*'], allFrames: true, matchOriginAsFallback: true,
  runAt: 'document_start', persistAcrossSessions: false,
})));
/** The recording bar, in the top frame only. */
const BAR_FILES = ['changelist.js', 'recordbar.js'];
/** How long Stop waits for the pages' last interactions to arrive. */
const STOP_SETTLE_MS = 150;
/** How long Stop waits for the host to acknowledge what is queued. */
const STOP_DRAIN_MS = 15_000;
/** Where the recording is kept for a restarted service worker (chrome.storage.session). */
const STORAGE_KEY = 'recording';
/**
 * Each interaction not yet acknowledged is kept under this prefix and its
 * seq, with the wire form of its screen when it carries one: a screen
 * travels with the first interaction that names it only, so it is kept just
 * until the host acknowledged that one. One key each: an acknowledgement
 * removes one key and rewrites nothing.
 */
export const PENDING_PREFIX = 'pending:';
/**
 * Room in chrome.storage.session the pending interactions leave free, so
 * the recording itself (its next seq above all) can always be kept.
 */
export const RESERVED_BYTES = 256 * 1024;
/** How an error of record.resume starts. */
const RESUME_FAILED = 'resuming the recording';
/** How an error about a host that does not answer starts. */
const NO_ANSWER = 'the host has not answered interaction';
/** How long to wait before sending again an interaction the host did not answer. */
const NO_ANSWER_RETRY_MS = 1_000;
/** A screen as big as this goes out with a longer reply timeout. */
const BIG_SCREEN_CHARS = 2_000_000;

/**
 * The parts of HostConnection a recording uses (a fake in unit tests).
 * @typedef {object} Host
 * @property {string} state
 * @property {(type: string, body?: Record<string, unknown>, timeoutMs?: number) => Promise<Message>} request
 * @property {(id: string, type: string, body?: Record<string, unknown>) => void} [answer] answers a message the host started
 * @property {{types: string[]} | null} [host] the host's hello
 */

/** @typedef {import('./protocol.js').AgentView} AgentView */

/** The agent's state before anything was asked. */
const AGENT_IDLE = Object.freeze({ state: 'idle', configured: false, known: false, model: '', message: '', goal: '', action: '', result: '' });
/** How long Stop waits for the host to end the agent's goal. */
const AGENT_STOP_MS = 15_000;

/**
 * One interaction waiting for its acknowledgement.
 * @typedef {object} Queued
 * @property {number} seq
 * @property {Record<string, unknown>} interaction
 * @property {string} [screen] the wire form, as the page model wrote it
 * @property {string} [screenGzip] the same gzipped (gzipBase64), once it had to be kept so
 * @property {Promise<void>} [ready] resolves when the interaction is complete (a navigation's direction)
 */

/**
 * An unacknowledged interaction as chrome.storage.session keeps it.
 * @typedef {object} PendingEntry
 * @property {number} seq
 * @property {Record<string, unknown>} interaction
 * @property {string} [screen] the wire form as the page model wrote it
 * @property {string} [screenGzip] the same, gzipped and in base64, when the plain one did not fit
 */

/**
 * Gzips text into base64 (a 10k page's wire screen shrinks about six times).
 * @param {string} text
 * @returns {Promise<string>}
 */
export async function gzipBase64(text) {
  const gz = new Uint8Array(await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer());
  let bin = '';
  for (let i = 0; i < gz.length; i += 0x8000) bin += String.fromCharCode(...gz.subarray(i, i + 0x8000));
  return btoa(bin);
}

/**
 * The text gzipBase64 made.
 * @param {string} b64
 * @returns {Promise<string>}
 */
export async function gunzipBase64(b64) {
  const bin = atob(b64);
  const gz = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) gz[i] = bin.charCodeAt(i);
  return new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
}

/**
 * The recording as a restarted service worker finds it.
 * @typedef {object} PersistedRecording
 * @property {'idle'|'starting'|'recording'|'stopping'|'stopped'|'saved'} phase
 * @property {string} session
 * @property {number[]} tabs
 * @property {number} startTab
 * @property {number} activeTab
 * @property {[number, number][]} historyIndex
 * @property {number} nextSeq
 * @property {Record<string, any>|null} start
 * @property {Record<string, any>|null} review
 * @property {Record<string, any>|null} saved
 * @property {Record<string, any>|null} exported
 */

/**
 * Maps a committed navigation (chrome.webNavigation) to the transition the
 * host knows (recorder.Interaction.Transition). Back and forward look the
 * same to webNavigation; the caller tells them apart by history index.
 * @param {string} type transitionType
 * @param {string[]} qualifiers transitionQualifiers
 * @returns {string}
 */
export function transitionOf(type, qualifiers) {
  if (qualifiers.includes('forward_back')) return 'back';
  if (type === 'reload') return 'reload';
  if (qualifiers.includes('from_address_bar') || ['typed', 'auto_bookmark', 'generated', 'keyword', 'keyword_generated', 'start_page'].includes(type)) return 'typed';
  if (type === 'form_submit') return 'form';
  if (qualifiers.includes('client_redirect')) return 'script';
  if (qualifiers.includes('server_redirect')) return 'redirect';
  return 'link';
}

export class Recorder {
  /**
   * @param {object} opts
   * @param {Host} opts.host
   * @param {any} opts.chrome the chrome.* APIs (a fake in unit tests)
   * @param {(v: RecordingView) => void} [opts.onChange]
   */
  constructor({ host, chrome, onChange = () => {} }) {
    this.host = host;
    this.chrome = chrome;
    this.onChange = onChange;
    /** @type {'idle'|'starting'|'recording'|'stopping'|'stopped'|'saved'} */
    this.phase = 'idle';
    this.session = '';
    /** @type {Set<number>} tabs being recorded */
    this.tabs = new Set();
    this.startTab = -1;
    this.activeTab = -1;
    /** @type {Map<number, number>} last history index of each tab's top frame */
    this.historyIndex = new Map();
    /** @type {Map<number, Promise<void>>} each tab's latest history index read, in commit order */
    this.commits = new Map();
    /** @type {Set<number>} tabs the app opened whose first page is not a navigation of its own */
    this.opened = new Set();
    this.nextSeq = 1;
    /** @type {Queued[]} sent or not, not yet acknowledged */
    this.queue = [];
    this.acked = 0;
    this.pumping = false;
    this.resyncing = false;
    /** @type {Record<string, any>|null} record.start's reply, amended by project.set / addApp */
    this.start = null;
    /** @type {Record<string, any>|null} record.stop's reply */
    this.review = null;
    /** @type {Record<string, any>|null} record.save's reply */
    this.saved = null;
    /** @type {Record<string, any>|null} trail.export's reply */
    this.exported = null;
    this.error = '';
    /** @type {Set<number>} seqs chrome.storage.session could not keep (full): in memory only */
    this.unkept = new Set();
    /** The warning the recording bars show. */
    this.barWarning = '';
    /** Set by restore: the next resync checks that nothing pending was lost. */
    this.checkLost = false;
    /**
     * The host's words when it said its database is damaged (error 7):
     * nothing more is sent to that host, and what is queued stays queued.
     * A new connection (a new host) is asked again.
     */
    this.damaged = '';
    /** @type {Promise<unknown>} the storage writes, one after another, in order */
    this.writes = Promise.resolve();
    /** The agent's hands in the recorded tab. */
    this.live = new LiveAgent({ chrome });
    /** @type {AgentView} what the agent does, for the popup and the bar */
    this.agent = { ...AGENT_IDLE };
    /** The tab the agent acts in, -1 when none. */
    this.agentTab = -1;
    /** The host's id of the goal under way. */
    this.agentGoal = '';
    /** @type {Promise<void>|null} the end of the goal, while its agentEnd goes out */
    this.agentEnding = null;
    /** @type {Promise<void>} DIALOG_SCRIPTS registered or not, one change after another */
    this.dialogScriptsSet = Promise.resolve();
    /** Whether DIALOG_SCRIPTS are registered: new documents start with them. */
    this.dialogsWatched = false;
  }

  /** Forgets the recording (the host keeps what it stored). */
  reset() {
    this.phase = 'idle';
    this.session = '';
    this.tabs = new Set();
    this.startTab = -1;
    this.activeTab = -1;
    this.historyIndex = new Map();
    this.commits = new Map();
    this.opened = new Set();
    this.nextSeq = 1;
    this.queue = [];
    this.acked = 0;
    this.pumping = false;
    this.resyncing = false;
    this.start = null;
    this.review = null;
    this.saved = null;
    this.exported = null;
    this.error = '';
    this.unkept = new Set();
    this.checkLost = false;
    this.agent = { ...AGENT_IDLE };
    this.agentTab = -1;
    this.agentGoal = '';
    this.live.detach();
    this.watchDialogs(false);
    this.write(() => this.clearPending());
    this.changed();
  }

  /**
   * Registers DIALOG_SCRIPTS while recording, and removes them after: they
   * would run in every page the person opens.
   * @param {boolean} on
   * @returns {Promise<void>}
   */
  watchDialogs(on) {
    this.dialogScriptsSet = this.dialogScriptsSet.then(async () => {
      this.dialogsWatched = false;
      const scripting = this.chrome.scripting;
      if (!scripting?.registerContentScripts) return;
      const ids = DIALOG_SCRIPTS.map((d) => d.id);
      /** @type {{id: string}[]} */
      const have = await scripting.getRegisteredContentScripts({ ids }).catch(() => []);
      if (on && have.length === ids.length) {
        this.dialogsWatched = true;
        return;
      }
      if (have.length) await scripting.unregisterContentScripts({ ids: have.map((h) => h.id) });
      if (!on) return;
      try {
        await scripting.registerContentScripts(DIALOG_SCRIPTS.map((d) => ({ ...d })));
      } catch {
        // Before Chrome 119, no matchOriginAsFallback: about:blank frames
        // then go without, and their dialogs are not recorded.
        await scripting.registerContentScripts(DIALOG_SCRIPTS.map(({ matchOriginAsFallback, ...d }) => d));
      }
      this.dialogsWatched = true;
    }).catch(() => {
      // Not registered: no document's dialogs are recorded, and the
      // recording bar says so when one opens (inject).
    });
    return this.dialogScriptsSet;
  }

  /** @returns {RecordingView} */
  view() {
    return {
      phase: this.phase,
      session: this.session,
      tab: this.startTab,
      interactions: this.nextSeq - 1,
      unacknowledged: this.queue.length,
      project: this.start?.project ?? null,
      app: this.start?.app ?? null,
      origin: this.start?.origin ?? '',
      needsProject: !!this.start?.needsProject,
      needsApp: !!this.start?.needsApp,
      review: this.review,
      saved: this.saved,
      exported: this.exported,
      error: this.error,
      warning: this.warning(),
      damaged: !!this.damaged,
      agent: { ...this.agent },
    };
  }

  /** What the person must know while nothing failed yet. */
  warning() {
    if (this.damaged) return this.damaged;
    if (!this.unkept.size) return '';
    return `${this.unkept.size} interaction${this.unkept.size === 1 ? ' is' : 's are'} kept only in memory: the host has not `
      + 'acknowledged them and the browser\'s session storage for the extension is full '
      + `(${Math.round(this.quota() / 1048576)} MB). They are lost if Chrome stops the extension's service worker before the host `
      + 'is back: reconnect the host now (trailpin doctor says what is wrong), then go on recording.';
  }

  /** chrome.storage.session's size limit, in bytes. */
  quota() {
    return Number(this.chrome.storage?.session?.QUOTA_BYTES) || 10 * 1048576;
  }

  /**
   * Runs a storage write after the ones before it.
   * @param {() => Promise<unknown>|undefined} fn
   */
  write(fn) {
    this.writes = this.writes.then(fn).catch(() => {});
    return this.writes;
  }

  /**
   * Keeps an unacknowledged interaction in chrome.storage.session, unless
   * it was acknowledged already. When the storage is full it stays in
   * memory only, and the popup and the recording bar say so.
   * @param {Queued} q
   */
  keep(q) {
    const area = this.chrome.storage?.session;
    if (!area) return;
    this.write(async () => {
      if (!this.queue.includes(q)) return;
      /** @type {PendingEntry} */
      let entry = { seq: q.seq, interaction: q.interaction };
      if (q.screen) entry.screen = q.screen;
      try {
        const key = PENDING_PREFIX + q.seq;
        if (area.getBytesInUse) {
          const used = await area.getBytesInUse(null);
          const room = this.quota() - RESERVED_BYTES - used - key.length;
          if (JSON.stringify(entry).length > room && q.screen) {
            // Tight (the host is away and screens pile up): the screen
            // gzipped takes about a sixth of the room, for some CPU.
            q.screenGzip ??= await gzipBase64(q.screen);
            entry = { seq: q.seq, interaction: q.interaction, screenGzip: q.screenGzip };
          }
          if (JSON.stringify(entry).length > room) throw new Error('full');
        }
        await area.set({ [key]: entry });
        if (this.unkept.delete(q.seq)) this.changed();
      } catch {
        // Full (QUOTA_BYTES): kept in memory; tried again when an
        // acknowledgement makes room.
        if (!this.unkept.has(q.seq)) {
          this.unkept.add(q.seq);
          this.changed();
        }
      }
    });
  }

  /**
   * Forgets kept interactions the host has now.
   * @param {number[]} seqs
   */
  unkeep(seqs) {
    if (!seqs.length) return;
    const retry = this.unkept.size > 0;
    for (const seq of seqs) this.unkept.delete(seq);
    this.write(() => this.chrome.storage?.session?.remove(seqs.map((s) => PENDING_PREFIX + s)));
    // Room again for what did not fit.
    if (retry) for (const q of this.queue) if (this.unkept.has(q.seq)) this.keep(q);
  }

  /** Removes every kept interaction (of an earlier recording). */
  async clearPending() {
    const area = this.chrome.storage?.session;
    if (!area) return;
    const all = await area.get(null);
    const keys = Object.keys(all ?? {}).filter((k) => k.startsWith(PENDING_PREFIX));
    if (keys.length) await area.remove(keys);
  }

  changed() {
    const view = this.view();
    this.onChange(view);
    this.persist();
    if (view.warning !== this.barWarning) {
      this.barWarning = view.warning;
      for (const tabId of this.tabs) this.warnBar(tabId);
    }
    const text = this.phase === 'recording' || this.phase === 'stopping' ? 'REC' : '';
    this.chrome.action?.setBadgeText({ text }).catch?.(() => {});
    if (text) this.chrome.action?.setBadgeBackgroundColor({ color: '#d11a2a' }).catch?.(() => {});
  }

  /**
   * Keeps what a new service worker needs to go on with the recording
   * (Chrome may stop an idle one). The unacknowledged interactions are
   * kept one by one (keep).
   */
  persist() {
    /** @type {PersistedRecording} */
    const saved = {
      phase: this.phase, session: this.session, tabs: [...this.tabs], startTab: this.startTab,
      activeTab: this.activeTab, historyIndex: [...this.historyIndex], nextSeq: this.nextSeq,
      start: this.start, review: this.review, saved: this.saved, exported: this.exported,
    };
    this.write(() => this.chrome.storage?.session?.set({ [STORAGE_KEY]: saved }));
  }

  /**
   * Takes up the recording a stopped service worker left, if any; the next
   * resync asks the host where it stands.
   */
  async restore() {
    const area = this.chrome.storage?.session;
    if (!area || this.session) return;
    /** @type {Record<string, any>} */
    const got = await area.get(null).catch(() => ({})) ?? {};
    /** @type {PersistedRecording|undefined} */
    const p = got[STORAGE_KEY];
    if (!p || !p.session || p.phase === 'idle' || this.session) {
      if (!this.session) {
        this.write(() => this.clearPending());
        this.watchDialogs(false);
      }
      return;
    }
    /** @type {Queued[]} */
    const queue = [];
    for (const [k, /** @type {PendingEntry} */ v] of Object.entries(got)) {
      if (!k.startsWith(PENDING_PREFIX) || !v || !(Number(v.seq) > 0) || !v.interaction) continue;
      /** @type {Queued} */
      const q = { seq: Number(v.seq), interaction: v.interaction };
      if (typeof v.screen === 'string') q.screen = v.screen;
      else if (typeof v.screenGzip === 'string') q.screen = await gunzipBase64(v.screenGzip).catch(() => undefined);
      queue.push(q);
    }
    queue.sort((a, b) => a.seq - b.seq);
    if (this.session) return;
    Object.assign(this, {
      phase: p.phase === 'starting' ? 'idle' : p.phase === 'stopping' ? 'recording' : p.phase, session: p.session, tabs: new Set(p.tabs), startTab: p.startTab,
      activeTab: p.activeTab, historyIndex: new Map(p.historyIndex), nextSeq: p.nextSeq,
      // Numbering goes on after what the last worker handed out, kept or not.
      queue, acked: queue.length ? queue[0].seq - 1 : p.nextSeq - 1, checkLost: true,
      start: p.start, review: p.review, saved: p.saved, exported: p.exported,
    });
    this.changed();
    // A worker that stopped while the recording stopped may have left them.
    this.watchDialogs(this.phase === 'recording');
    if (this.host.state === 'connected') await this.resync();
  }

  /**
   * What an extension page asked for.
   * @param {RecordOp} op
   * @returns {Promise<RecordingView>}
   */
  async handle(op) {
    this.error = '';
    try {
      switch (op.op) {
        case 'state': break;
        case 'start': await this.begin(op.tab, op.project); break;
        case 'stop': await this.stop(); break;
        case 'project': await this.setProject(op.dir, !!op.create); break;
        case 'addApp': await this.addApp(op.name); break;
        case 'save': await this.save(op.title, op.secrets, op.intents); break;
        case 'discard': await this.discard(); break;
        case 'export': await this.exportTrail(); break;
        case 'ask': await this.ask(op.goal, op.secrets); break;
        case 'askStop': await this.stopAgent(); break;
        case 'agentStatus': await this.agentStatus(); break;
      }
    } catch (e) {
      if (!this.noteDamage(e)) this.error = e instanceof Error ? e.message : String(e);
    }
    this.changed();
    return this.view();
  }

  /**
   * Starts recording a tab.
   * @param {number} tabId
   * @param {string} [project] the repo folder, when the person named one before
   */
  async begin(tabId, project) {
    if (this.phase === 'recording' || this.phase === 'starting' || this.phase === 'stopping') {
      throw new Error('a recording is running already: stop it first');
    }
    this.reset();
    this.phase = 'starting';
    this.changed();
    try {
      const tab = await this.chrome.tabs.get(tabId);
      const [{ result: page }] = await this.chrome.scripting.executeScript({
        target: { tabId, frameIds: [0] },
        func: () => ({
          width: window.innerWidth, height: window.innerHeight, locale: navigator.language,
          timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
          index: /** @type {any} */ (globalThis).navigation?.currentEntry?.index ?? -1,
        }),
      });
      this.session = `r-${Date.now()}-${tabId}`;
      /** @type {Record<string, unknown>} */
      const body = {
        session: this.session, tab: tabId, url: tab.url, title: tab.title ?? '',
        viewport: { width: page.width, height: page.height }, locale: page.locale, timeZone: page.timeZone,
      };
      if (project) body.project = project;
      this.start = await this.host.request('record.start', body);
      this.session = String(this.start.session);
      this.nextSeq = Number(this.start.lastSeq ?? 0) + 1;
      this.acked = this.nextSeq - 1;
      this.tabs.add(tabId);
      this.startTab = tabId;
      this.activeTab = tabId;
      this.historyIndex.set(tabId, page.index);
      // Before the first navigation the recording can see.
      await this.watchDialogs(true);
      this.phase = 'recording';
      this.changed();
      await this.inject(tabId);
      await this.agentStatus().catch((e) => {
        Object.assign(this.agent, { known: true, configured: false, message: `The host could not say whether the agent can be asked: ${e instanceof Error ? e.message : e}` });
      });
    } catch (e) {
      if (this.phase === 'starting') this.phase = 'idle';
      throw e;
    }
  }

  /**
   * Injects the recorder into a recorded tab: every frame, or the frames
   * named. Every frame is the tab as Record found it, whose documents were
   * open before DIALOG_SCRIPTS were registered: they get MAIN_FILES. A
   * frame named is one that committed while recording, whose document
   * started with DIALOG_SCRIPTS; MAIN_FILES there, injected as it commits,
   * could come before dialogs.js, which then watches nothing. Unless they
   * could not be registered: then every document gets MAIN_FILES.
   * @param {number} tabId
   * @param {number[]} [frameIds]
   */
  async inject(tabId, frameIds) {
    const target = frameIds ? { tabId, frameIds } : { tabId, allFrames: true };
    const run = (/** @type {Record<string, unknown>} */ what) =>
      this.chrome.scripting.executeScript({ target, injectImmediately: true, ...what }).catch(() => {
        // An error page, or a frame that is gone: nothing to record there.
      });
    const bar = () => (!frameIds || frameIds.includes(0)
      ? this.chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, injectImmediately: true, files: BAR_FILES }).catch(() => {})
      : undefined);
    // The two worlds do not wait for each other; the bar needs the recorder.
    const unverified = !frameIds || !this.dialogsWatched;
    await Promise.all([unverified ? run({ files: MAIN_FILES, world: 'MAIN' }) : undefined, run({ files: ISOLATED_FILES }).then(bar)]);
    if (this.barWarning && (!frameIds || frameIds.includes(0))) await this.warnBar(tabId);
    if (this.agent.state !== 'idle' && (!frameIds || frameIds.includes(0))) await this.agentBar(tabId);
    // A page loaded after something was recorded (a link's click, say):
    // its bar offers Assert change at once; the host says what to do when
    // what came last was no action.
    if (this.nextSeq > 1 && (!frameIds || frameIds.includes(0))) {
      await this.chrome.scripting.executeScript({
        target: { tabId, frameIds: [0] },
        func: () => { /** @type {any} */ (globalThis).__trailpinRecordBar?.offerChange(); },
      }).catch(() => {});
    }
  }

  /**
   * Shows the current warning in a recorded tab's recording bar.
   * @param {number} tabId
   */
  async warnBar(tabId) {
    await this.chrome.scripting.executeScript({
      target: { tabId, frameIds: [0] },
      args: [this.barWarning],
      func: (/** @type {string} */ text) => { /** @type {any} */ (globalThis).__trailpinRecordBar?.warn(text); },
    }).catch(() => {});
  }

  /**
   * Numbers an interaction and queues it for the host.
   * @param {Record<string, unknown>} interaction
   * @param {string} [screen] wire form of the screen it names, the first time
   * @param {Promise<void>} [ready]
   */
  push(interaction, screen, ready) {
    if (this.phase !== 'recording' && this.phase !== 'stopping') return;
    const seq = this.nextSeq++;
    interaction.seq = seq;
    /** @type {Queued} */
    const q = { seq, interaction, screen, ready };
    this.queue.push(q);
    this.changed();
    // What did not fit before is tried again first, in order.
    for (const u of this.queue) if (this.unkept.has(u.seq)) this.keep(u);
    this.keep(q);
    // Kept again once complete (a navigation's direction, a tab's title).
    if (ready) ready.then(() => this.keep(q));
    this.pump();
  }

  /**
   * Whether a tab is being recorded: its pages' content scripts may report
   * interactions (senders.js).
   * @param {number} tabId
   * @returns {boolean}
   */
  records(tabId) {
    return this.tabs.has(tabId) && (this.phase === 'recording' || this.phase === 'stopping');
  }

  /**
   * An interaction a recorded page reported.
   * @param {{interaction?: Record<string, unknown>, screen?: string}} msg
   * @param {{tab?: {id?: number, url?: string, title?: string}, frameId?: number}} sender
   */
  fromPage(msg, sender) {
    const tabId = sender.tab?.id;
    if (tabId === undefined || !this.tabs.has(tabId) || !msg.interaction) return;
    if (tabId !== this.activeTab) {
      // A person acts only in the tab in front: the app's tab or popup was
      // switched to, even if the browser did not say so (yet).
      this.switchTo(tabId);
    }
    /** @type {Record<string, unknown>} */
    const i = { ...msg.interaction, tab: tabId };
    if (sender.frameId) {
      // A frame of another origin: the step happened on the tab's page.
      i.url = sender.tab?.url ?? '';
      i.title = sender.tab?.title ?? '';
    }
    this.push(i, typeof msg.screen === 'string' ? msg.screen : undefined);
  }

  /**
   * What the last action changed, for the recording bar's Assert change
   * (host/PROTOCOL.md, record.changes): once every interaction before it is
   * acknowledged (the action must be stored), the host diffs the screen
   * before the action with the screen the bar sent.
   * @param {{screen?: unknown}} msg
   * @param {{tab?: {id?: number}}} sender
   * @returns {Promise<{ok: true, reply: Record<string, unknown>} | {ok: false, error: string}>}
   */
  async changesFromPage(msg, sender) {
    try {
      const tabId = sender.tab?.id;
      if (this.phase !== 'recording' || tabId === undefined || !this.tabs.has(tabId)) throw new Error('this tab is not being recorded');
      if (typeof msg.screen !== 'string') throw new Error('the page sent no screen');
      await this.drained();
      const reply = await this.host.request('record.changes', { session: this.session, screen: JSON.parse(msg.screen) },
        msg.screen.length > BIG_SCREEN_CHARS ? 60_000 : undefined);
      return { ok: true, reply };
    } catch (e) {
      return { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
  }

  /** @param {number} tabId */
  async switchTo(tabId) {
    if (!this.tabs.has(tabId) || tabId === this.activeTab) return;
    this.activeTab = tabId;
    /** @type {Record<string, unknown>} */
    const i = { kind: 'switchTab', time: Date.now(), tab: tabId };
    let resolve = () => {};
    const ready = new Promise((r) => { resolve = () => r(undefined); });
    this.push(i, undefined, ready);
    try {
      const tab = await this.chrome.tabs.get(tabId);
      i.url = tab.url;
      i.title = tab.title ?? '';
    } catch {
      // Closed already.
    }
    resolve();
  }

  /**
   * A navigation committed in a frame of a tab (chrome.webNavigation.onCommitted).
   * @param {{tabId: number, frameId: number, documentId?: string, url: string, transitionType: string, transitionQualifiers: string[], timeStamp: number}} d
   */
  async committed(d) {
    if (!this.tabs.has(d.tabId) || (this.phase !== 'recording' && this.phase !== 'stopping')) return;
    // While stopping, a navigation is still part of the recording, but the
    // new page gets no recorder (nor bar).
    const inject = this.phase === 'recording';
    if (d.frameId !== 0) {
      if (inject) await this.inject(d.tabId, [d.frameId]);
      return;
    }
    const first = this.opened.delete(d.tabId);
    let transition = transitionOf(d.transitionType, d.transitionQualifiers);
    /** @type {Record<string, unknown>} */
    const i = { kind: 'navigate', time: Math.round(d.timeStamp), tab: d.tabId, url: d.url, transition };
    let resolve = () => {};
    const ready = new Promise((r) => { resolve = () => r(undefined); });
    if (!first) this.push(i, undefined, ready);
    // Back and forward are told apart by comparing this page's history
    // index with the one before it. The index is read the moment the page
    // commits, in the document that committed (a read that waits for the
    // page to load may run on a later page, whose index says nothing of
    // this one), and compared in commit order: a forward right after a back
    // is compared with the back's page, whichever read answers first.
    const target = d.documentId ? { tabId: d.tabId, documentIds: [d.documentId] } : { tabId: d.tabId, frameIds: [0] };
    const index = this.chrome.scripting.executeScript({
      target,
      injectImmediately: true,
      func: () => ({ index: /** @type {any} */ (globalThis).navigation?.currentEntry?.index ?? -1 }),
    }).then((/** @type {any} */ [{ result }]) => Number(result?.index ?? -1), () => -1);
    const compared = (this.commits.get(d.tabId) ?? Promise.resolve()).then(async () => {
      const at = await index;
      if (at < 0) {
        // Not known (the page went on already): the next traversal is
        // not compared with a page before this one.
        this.historyIndex.delete(d.tabId);
        return;
      }
      const before = this.historyIndex.get(d.tabId) ?? -1;
      if (transition === 'back' && at > before && before >= 0) i.transition = 'forward';
      this.historyIndex.set(d.tabId, at);
    });
    this.commits.set(d.tabId, compared);
    try {
      if (inject) await this.inject(d.tabId, [0]);
      const [{ result }] = await this.chrome.scripting.executeScript({ target, func: () => ({ title: document.title }) });
      if (result?.title) i.title = result.title;
    } catch {
      // The page went on to another one already.
    }
    await compared;
    if (this.commits.get(d.tabId) === compared) this.commits.delete(d.tabId);
    resolve();
  }

  /**
   * The app opened a tab or popup from a recorded tab.
   * @param {{sourceTabId: number, tabId: number}} d
   */
  opensTab(d) {
    if (!this.tabs.has(d.sourceTabId) || this.phase !== 'recording') return;
    this.tabs.add(d.tabId);
    this.opened.add(d.tabId);
  }

  /** @param {number} tabId */
  closed(tabId) {
    this.tabs.delete(tabId);
    this.opened.delete(tabId);
    if (this.activeTab === tabId) this.activeTab = -1;
  }

  /**
   * Takes note of an error 7: the host's database is damaged, so whatever is
   * sent to this host meets the same error. The message (where the file is,
   * how to move it aside, what is lost) is shown in the popup and the
   * recording bars until a new connection.
   * @param {unknown} e
   * @returns {boolean} whether e was that error
   */
  noteDamage(e) {
    if (/** @type {{code?: number}} */ (e ?? {}).code !== ErrorCode.DATABASE_DAMAGED) return false;
    this.damaged = e instanceof Error ? e.message : String(e);
    this.changed();
    return true;
  }

  /** Sends what is queued, in seq order, one at a time. */
  async pump() {
    if (this.pumping || this.resyncing || this.damaged) return;
    this.pumping = true;
    try {
      while (this.queue.length && this.host.state === 'connected' && !this.damaged) {
        const q = this.queue[0];
        if (q.ready) await q.ready;
        /** @type {Record<string, unknown>} */
        const body = { session: this.session, interaction: q.interaction };
        if (q.screen) body.screen = JSON.parse(q.screen);
        const reply = await this.host.request('record.interaction', body, q.screen && q.screen.length > BIG_SCREEN_CHARS ? 60_000 : undefined);
        if (this.queue[0] === q && Number(reply.seq) === q.seq) {
          this.queue.shift();
          this.acked = q.seq;
          this.unkeep([q.seq]);
          if (this.error.startsWith(NO_ANSWER)) this.error = '';
          this.changed();
        }
      }
    } catch (e) {
      // A disconnect: resync() sends it again once the host is back. No
      // answer in time (a host that hangs): it may still store it, so it
      // is kept and sent again (the same seq is harmless). Any other
      // refusal is a bug on one side; say it, keep the rest.
      // A damaged database: kept, and not sent again to this host.
      const err = /** @type {{code?: number, name?: string}} */ (e ?? {});
      if (this.noteDamage(e)) {
        // The queue stays as it is.
      } else if (this.host.state === 'connected' && err.name === 'HostError' && err.code === undefined) {
        this.error = `${NO_ANSWER} ${this.queue[0]?.seq} (${e instanceof Error ? e.message : e}); it is kept and sent again`;
        this.changed();
        setTimeout(() => this.pump(), NO_ANSWER_RETRY_MS);
      } else if (this.host.state === 'connected') {
        this.error = `the host refused interaction ${this.queue[0]?.seq}: ${e instanceof Error ? e.message : e}`;
        const refused = this.queue.shift();
        if (refused) this.unkeep([refused.seq]);
        this.changed();
      }
    } finally {
      this.pumping = false;
    }
    if (this.queue.length && this.host.state === 'connected' && !this.error) this.pump();
  }

  /**
   * The connection to the host is back: ask where the session stands and
   * send again what the host does not have.
   */
  async resync() {
    // A new host checks its database again.
    if (this.damaged) {
      this.damaged = '';
      this.changed();
    }
    if (!this.session || this.phase === 'idle' || this.phase === 'saved' || this.resyncing) return;
    this.resyncing = true;
    try {
      while (this.pumping) await new Promise((r) => setTimeout(r, 20));
      const reply = await this.host.request('record.resume', { session: this.session });
      const last = Number(reply.lastSeq ?? 0);
      this.unkeep(this.queue.filter((q) => q.seq <= last).map((q) => q.seq));
      this.queue = this.queue.filter((q) => q.seq > last);
      this.acked = Math.max(this.acked, last);
      // A restarted worker may not know of the last interactions stored.
      this.nextSeq = Math.max(this.nextSeq, last + 1);
      if (this.error.startsWith(RESUME_FAILED)) this.error = '';
      if (this.checkLost) {
        this.checkLost = false;
        const lost = this.lostAfter(last);
        if (lost.length) {
          this.error = `interaction${lost.length === 1 ? '' : 's'} ${lost.join(', ')} of this recording ${lost.length === 1 ? 'was' : 'were'} lost: `
            + 'Chrome stopped the extension\'s service worker before the host acknowledged them, while the browser\'s session '
            + 'storage was full. The trail will miss those steps: record them again before Stop, or Discard and record anew.';
        }
      }
    } catch (e) {
      // Lost the host again: the next connection resumes. Anything else
      // (the host no longer has the session) the person must know.
      if (this.noteDamage(e)) {
        // Said in the warning.
      } else if (this.host.state === 'connected') this.error = `${RESUME_FAILED}: ${e instanceof Error ? e.message : e}`;
    } finally {
      this.resyncing = false;
    }
    this.changed();
    this.pump();
  }

  /**
   * The seqs a restarted worker handed out before, that the host does not
   * have and that were not kept.
   * @param {number} last the host's lastSeq
   * @returns {number[]}
   */
  lostAfter(last) {
    const have = new Set(this.queue.map((q) => q.seq));
    const lost = [];
    for (let seq = last + 1; seq < this.nextSeq; seq++) if (!have.has(seq)) lost.push(seq);
    return lost;
  }

  /** Resolves once every queued interaction is acknowledged, or rejects after ms. */
  async drained(ms = STOP_DRAIN_MS) {
    const deadline = Date.now() + ms;
    while (this.queue.length) {
      if (this.damaged) throw new Error(this.damaged);
      if (Date.now() > deadline) {
        throw new Error(`the host has not acknowledged ${this.queue.length} interactions; is it connected? Press Stop again once it is`);
      }
      this.pump();
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Stops recording: the pages stop, the host builds the steps to review. */
  async stop() {
    if (this.phase === 'stopped') return;
    if (this.phase !== 'recording' && this.phase !== 'stopping') throw new Error('nothing is being recorded');
    // The pages go on recording while the person moves the file aside.
    if (this.damaged) throw new Error(this.damaged);
    // The agent's goal ends first: what it did so far is part of the recording.
    if (this.agent.state === 'running') await this.stopAgent();
    this.phase = 'stopping';
    this.changed();
    /** @type {Record<string, unknown>} */
    const body = { session: this.session };
    const front = this.tabs.has(this.activeTab) ? this.activeTab : this.startTab;
    try {
      const [{ result }] = await this.chrome.scripting.executeScript({
        target: { tabId: front, frameIds: [0] },
        func: () => {
          const g = /** @type {any} */ (globalThis);
          const recorder = g.__trailpinRecorder;
          recorder?.flush();
          // The recorder's capture: what it marked sensitive stays out.
          if (recorder?.screenWire) return recorder.screenWire();
          return g.__trailpinPageModel ? g.__trailpinPageModel.captureWire() : '';
        },
      });
      if (result) body.screen = JSON.parse(result);
    } catch {
      // The tab is gone: the last step has no end state then.
    }
    for (const tabId of this.tabs) {
      await this.chrome.scripting.executeScript({
        target: { tabId, allFrames: true },
        func: () => {
          const g = /** @type {any} */ (globalThis);
          g.__trailpinRecorder?.stop();
          g.__trailpinRecordBar?.remove();
        },
      }).catch(() => {});
    }
    this.watchDialogs(false);
    await new Promise((r) => setTimeout(r, STOP_SETTLE_MS));
    await this.drained();
    this.review = await this.host.request('record.stop', body, 60_000);
    this.phase = 'stopped';
  }

  /**
   * @param {string} dir
   * @param {boolean} create
   */
  async setProject(dir, create) {
    /** @type {Record<string, any>} */
    const reply = await this.host.request('project.set', { dir, create, origin: this.start?.origin ?? '' });
    await this.chrome.storage?.local.set({ project: reply.project?.dir ?? dir });
    if (this.start) Object.assign(this.start, { project: reply.project, app: reply.app, needsProject: false, needsApp: !!reply.needsApp });
    if (this.review) Object.assign(this.review, { needsProject: false });
    // The project's trailpin.yaml may name the agent's model.
    await this.agentStatus().catch(() => {});
  }

  /** @param {string} name */
  async addApp(name) {
    if (!this.start) throw new Error('start a recording first');
    const reply = await this.host.request('project.addApp', { origin: this.start.origin, name, project: this.start.project?.dir });
    Object.assign(this.start, { app: reply.app, needsApp: false });
  }

  /**
   * @param {string} title
   * @param {Record<string, string>} [secrets] renames
   * @param {Record<string, string>} [intents] new intents by step index
   */
  async save(title, secrets, intents) {
    if (this.phase !== 'stopped' && this.phase !== 'saved') throw new Error('stop the recording before saving it');
    /** @type {Record<string, unknown>} */
    const body = { session: this.session, title };
    if (secrets && Object.keys(secrets).length) body.secrets = secrets;
    if (intents && Object.keys(intents).length) body.intents = intents;
    try {
      this.saved = await this.host.request('record.save', body, 60_000);
    } catch (e) {
      // After a host restart the host needs the stop again first.
      if (!/record\.stop/.test(e instanceof Error ? e.message : '')) throw e;
      this.review = await this.host.request('record.stop', { session: this.session }, 60_000);
      this.saved = await this.host.request('record.save', body, 60_000);
    }
    this.phase = 'saved';
  }

  async discard() {
    if (this.session && this.phase !== 'saved') {
      if (this.phase === 'recording') await this.stop().catch(() => {});
      await this.host.request('record.discard', { session: this.session });
    }
    this.reset();
  }

  async exportTrail() {
    if (!this.saved) throw new Error('save the trail before exporting it');
    /** @type {Record<string, unknown>} */
    const body = { trail: this.saved.trail };
    if (this.start?.project?.dir) body.project = this.start.project.dir;
    this.exported = await this.host.request('trail.export', body);
  }

  // -------------------------------------------------------------------------
  // Ask the agent (host/PROTOCOL.md, The agent while recording)

  /**
   * Asks the host whether the agent can be asked in this recording (a model
   * is configured), for the popup's Ask the agent field.
   */
  async agentStatus() {
    if (!this.session || this.phase !== 'recording') return;
    const types = this.host.host?.types;
    if (types && !types.includes('agent.ask')) {
      Object.assign(this.agent, { known: true, configured: false, message: 'This host cannot run the agent: build and install a newer host (go build -o bin/host ./host).' });
      return;
    }
    const reply = await this.host.request('agent.status', { session: this.session });
    Object.assign(this.agent, { known: true, configured: !!reply.configured, model: String(reply.model ?? ''), message: String(reply.message ?? '') });
  }

  /**
   * Runs a goal with the agent in the recorded tab. The goal's
   * interactions are recorded between an agentStart and an agentEnd, which
   * make them one step whose intent is the goal. The goal offers the
   * agent the secrets it names (${secret:NAME}), and those of secrets.
   * @param {string} goal
   * @param {string[]} [secrets]
   */
  async ask(goal, secrets) {
    const text = String(goal ?? '').trim();
    if (this.phase !== 'recording') throw new Error('the agent acts only while recording: press Record first');
    if (!text) throw new Error('say what the agent should do, such as “Add the iPhone to the cart”');
    if (this.agent.state === 'running') throw new Error(`the agent is performing “${this.agent.goal}” already: wait for it, or stop it`);
    const tabId = this.tabs.has(this.activeTab) ? this.activeTab : this.startTab;
    /** @type {{url?: string, title?: string}} */
    let tab = {};
    try {
      tab = await this.chrome.tabs.get(tabId);
    } catch {
      throw new Error('the recorded tab is gone');
    }
    this.agentTab = tabId;
    Object.assign(this.agent, { state: 'running', goal: text, action: 'Starting', result: '' });
    // What the person was typing is theirs: it goes out before the goal
    // starts, so it never joins the agent's step (nor is left out with it).
    await this.chrome.scripting.executeScript({
      target: { tabId, frameIds: [0] },
      func: () => { /** @type {any} */ (globalThis).__trailpinRecorder?.flush(); },
    }).catch(() => {});
    await new Promise((r) => setTimeout(r, STOP_SETTLE_MS));
    this.push({ kind: 'agentStart', time: Date.now(), tab: tabId, url: tab.url ?? '', title: tab.title ?? '', text });
    this.agentBars();
    try {
      /** @type {Record<string, unknown>} */
      const body = { session: this.session, goal: text };
      if (Array.isArray(secrets) && secrets.length) body.secrets = secrets.map(String);
      const reply = await this.host.request('agent.ask', body);
      this.agentGoal = String(reply.goal ?? '');
      if (reply.model) this.agent.model = String(reply.model);
    } catch (e) {
      // Nothing was done: the goal ends here, and says why.
      await this.agentEnded({ state: 'failed', message: e instanceof Error ? e.message : String(e) });
    }
  }

  /** Stops the agent's goal; what it did so far stays recorded. */
  async stopAgent() {
    if (this.agent.state !== 'running') return;
    this.agent.action = 'Stopping…';
    this.agentBars();
    this.changed();
    try {
      await this.host.request('agent.stop', { session: this.session }, AGENT_STOP_MS);
    } catch {
      // The host is gone: the goal ended with it.
    }
    // agent.done came before the reply (its end may still be under way);
    // without a host it will not come.
    if (this.agentEnding) await this.agentEnding;
    if (this.agent.state === 'running') await this.agentEnded({ state: 'stopped', message: 'stopped before the goal was reached' });
  }

  /**
   * A message the host started.
   * @param {Message} m
   */
  async fromHost(m) {
    switch (m.type) {
      case 'agent.page': {
        if (this.agent.state !== 'running' || m.session !== this.session) {
          this.answerHost(m.id, { ok: false, reason: 'gone', error: 'no goal of the agent is under way in this recording' });
          return;
        }
        const answer = await this.live.perform(this.agentTab, /** @type {any} */ (m));
        this.answerHost(m.id, answer);
        return;
      }
      case 'agent.progress':
        if (this.agent.state === 'running' && !this.agentEnding && m.session === this.session && this.agent.action !== 'Stopping…') {
          this.agent.action = String(m.action ?? '');
          this.agentBars();
          this.changed();
        }
        return;
      case 'agent.done':
        if (m.session === this.session && this.agent.state === 'running') {
          /** @type {{state: string, message: string, calls: number, actions: number, checks?: unknown}} */
          const end = { state: String(m.state ?? 'failed'), message: String(m.message ?? ''), calls: Number(m.calls ?? 0), actions: Number(m.actions ?? 0) };
          // The checks the agent passed go back as they came, in the
          // agentEnd: the host reads them, and says in the review why it
          // left one out.
          if (m.checks !== undefined && m.checks !== null) end.checks = m.checks;
          await this.agentEnded(end);
        }
    }
  }

  /**
   * @param {string} id
   * @param {Record<string, unknown>} body
   */
  answerHost(id, body) {
    try {
      this.host.answer?.(id, 'agent.pageResult', body);
    } catch {
      // Disconnected: the host's goal ends with the connection.
    }
  }

  /**
   * The goal ended: the recorder's last typing goes out, then the
   * agentEnd that closes the goal's interactions (with the checks the
   * agent passed, for the step builder to write after the actions they
   * checked); the debugger lets go.
   * @param {{state: string, message: string, calls?: number, actions?: number, checks?: unknown}} end
   */
  async agentEnded(end) {
    if (this.agentEnding) return this.agentEnding;
    this.agentEnding = this.endAgent(end);
    try {
      await this.agentEnding;
    } finally {
      this.agentEnding = null;
    }
  }

  /** @param {{state: string, message: string, calls?: number, actions?: number, checks?: unknown}} end */
  async endAgent(end) {
    const tabId = this.agentTab;
    const state = /** @type {AgentView['state']} */ (['done', 'stopped', 'failed'].includes(end.state) ? end.state : 'failed');
    // A page the agent's last act is loading is part of its goal.
    await this.live.loaded(tabId);
    await this.chrome.scripting.executeScript({
      target: { tabId, frameIds: [0] },
      func: () => { /** @type {any} */ (globalThis).__trailpinRecorder?.flush(); },
    }).catch(() => {});
    await new Promise((r) => setTimeout(r, STOP_SETTLE_MS));
    /** @type {Record<string, unknown>} */
    const i = { kind: 'agentEnd', time: Date.now(), tab: tabId, state };
    if (end.message) i.message = end.message;
    if (end.checks !== undefined && !(Array.isArray(end.checks) && end.checks.length === 0)) i.checks = end.checks;
    this.push(i);
    await this.live.detach();
    const calls = end.calls ? ` (${end.calls} model call${end.calls === 1 ? '' : 's'})` : '';
    const said = end.message ? `: ${end.message}` : '';
    // State and words change together: the popup never shows one without the other.
    this.agent.action = '';
    this.agent.result = state === 'done' ? `Done${said}${calls}`
      : state === 'stopped' ? `Stopped${calls}. What it did is kept in the recording.`
      : `The agent failed${said}${calls}. What it did is kept in the recording.`;
    this.agent.state = state;
    this.agentGoal = '';
    this.agentBars();
    this.changed();
  }

  /** The host went away while the agent acted: its goal is over. */
  hostLost() {
    if (this.agent.state === 'running') {
      this.agentEnded({ state: 'failed', message: 'the connection to the host was lost' }).catch(() => {});
    }
  }

  /** Shows the agent's state in the recorded tabs' bars. */
  agentBars() {
    for (const tabId of this.tabs) this.agentBar(tabId);
  }

  /** @param {number} tabId */
  async agentBar(tabId) {
    const a = this.agent;
    const text = a.state === 'running' ? `Agent: ${a.goal} — ${a.action || 'working'}`
      : a.state === 'idle' ? '' : `Agent: ${a.goal} — ${a.result}`;
    await this.chrome.scripting.executeScript({
      target: { tabId, frameIds: [0] },
      args: [{ running: a.state === 'running', text }],
      func: (/** @type {{running: boolean, text: string}} */ v) => { /** @type {any} */ (globalThis).__trailpinRecordBar?.agent?.(v); },
    }).catch(() => {});
  }
}
