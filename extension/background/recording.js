// The background's side of a recording (host/PROTOCOL.md, Recording): it
// injects the recorder into the recorded tab (every frame, again after each
// navigation, and into the tabs and popups the app opens), turns what Chrome
// says of tabs and navigations into interactions, queues the interactions
// the pages report for the host (queue.js, which keeps them until the host
// acknowledged them, across a stopped service worker too), and runs the
// recording's operations the popup asks for: start, stop, save, discard,
// export, and the agent's goals (agentrelay.js).
// It decides nothing about steps or selectors: the host does.

import { ErrorCode } from '../protocol.js';
import { InteractionQueue, BIG_SCREEN_CHARS } from './queue.js';
import { AgentRelay } from './agentrelay.js';
import { DialogWatch, ISOLATED_FILES, MAIN_FILES, TIMER_FILES, BAR_FILES } from './pagescripts.js';
import { transitionOf } from './navigation.js';

/** @typedef {import('../protocol.js').RecordingView} RecordingView */
/** @typedef {import('../protocol.js').RecordOp} RecordOp */
/** @typedef {import('./queue.js').Host} Host */

/** How long Stop waits for the pages' last interactions to arrive. */
const STOP_SETTLE_MS = 150;
/** Where the recording is kept for a restarted service worker (chrome.storage.session). */
const STORAGE_KEY = 'recording';

/**
 * A document's note of its move back or forward to another document
 * (traversalFromPage): where to, and whether the person made it.
 * @typedef {{url: string, byPerson: boolean, time: number}} Traversal
 */

/** How long a traversal note counts for the commit that follows it. */
const TRAVERSAL_NOTE_MS = 30_000;

/**
 * How long a committed back or forward waits for its note when the note
 * has not come first (it nearly always has): a wait in the queue of
 * interactions only, never in the page.
 */
const TRAVERSAL_WAIT_MS = 2_000;
/** How an error of record.resume starts. */
const RESUME_FAILED = 'resuming the recording';

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

export class Recording {
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
    /** @type {Map<number, Traversal>} each tab's last move to another document by back or forward, as its page told it */
    this.traversals = new Map();
    /** @type {Map<number, (t: Traversal | null) => void>} who waits for a tab's next traversal note */
    this.traversalWaiters = new Map();
    /** How long a committed back or forward waits for its note (TRAVERSAL_WAIT_MS). */
    this.traversalWaitMs = TRAVERSAL_WAIT_MS;
    /** @type {Set<number>} tabs the app opened whose first page is not a navigation of its own */
    this.opened = new Set();
    /** The interactions not yet acknowledged, and their numbering. */
    this.queue = new InteractionQueue({ owner: this, storage: () => this.chrome.storage?.session });
    /** @type {Record<string, any>|null} record.start's reply, amended by project.set / addApp */
    this.start = null;
    /** @type {Record<string, any>|null} record.stop's reply */
    this.review = null;
    /** @type {Record<string, any>|null} record.save's reply */
    this.saved = null;
    /** @type {Record<string, any>|null} trail.export's reply */
    this.exported = null;
    this.error = '';
    /** The warning the recording bars show. */
    this.barWarning = '';
    /**
     * The host's words when it said its database is damaged (error 7):
     * nothing more is sent to that host, and what is queued stays queued.
     * A new connection (a new host) is asked again.
     */
    this.damaged = '';
    /** Ask the agent: its goal, and what it does. */
    this.relay = new AgentRelay(this);
    /** The dialog watch every new document starts with while recording. */
    this.dialogs = new DialogWatch(chrome);
  }

  /** What the agent does, for the popup and the bar. */
  get agent() {
    return this.relay.view;
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
    this.traversals = new Map();
    for (const wake of this.traversalWaiters.values()) wake(null);
    this.traversalWaiters = new Map();
    this.opened = new Set();
    this.start = null;
    this.review = null;
    this.saved = null;
    this.exported = null;
    this.error = '';
    this.relay.reset();
    this.dialogs.set(false);
    this.queue.reset();
    this.changed();
  }

  /** @returns {RecordingView} */
  view() {
    return {
      phase: this.phase,
      session: this.session,
      tab: this.startTab,
      interactions: this.queue.nextSeq - 1,
      unacknowledged: this.queue.items.length,
      project: this.start?.project ?? null,
      app: this.start?.app ?? null,
      origin: this.start?.origin ?? '',
      needsProject: !!this.start?.needsProject,
      needsApp: !!this.start?.needsApp,
      review: this.review,
      saved: this.saved,
      exported: this.exported,
      error: this.error,
      warning: this.damaged || this.queue.warning(),
      damaged: !!this.damaged,
      agent: { ...this.agent },
    };
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
   * kept one by one (queue.js).
   */
  persist() {
    /** @type {PersistedRecording} */
    const saved = {
      phase: this.phase, session: this.session, tabs: [...this.tabs], startTab: this.startTab,
      activeTab: this.activeTab, historyIndex: [...this.historyIndex], nextSeq: this.queue.nextSeq,
      start: this.start, review: this.review, saved: this.saved, exported: this.exported,
    };
    this.queue.write(() => this.chrome.storage?.session?.set({ [STORAGE_KEY]: saved }));
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
        this.queue.write(() => this.queue.clearPending());
        this.dialogs.set(false);
      }
      return;
    }
    const kept = await InteractionQueue.kept(got);
    if (this.session) return;
    Object.assign(this, {
      phase: p.phase === 'starting' ? 'idle' : p.phase === 'stopping' ? 'recording' : p.phase, session: p.session, tabs: new Set(p.tabs), startTab: p.startTab,
      activeTab: p.activeTab, historyIndex: new Map(p.historyIndex),
      start: p.start, review: p.review, saved: p.saved, exported: p.exported,
    });
    // Numbering goes on after what the last worker handed out, kept or not.
    this.queue.takeUp(kept, p.nextSeq);
    this.changed();
    // A worker that stopped while the recording stopped may have left them.
    this.dialogs.set(this.phase === 'recording');
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
        case 'ask': await this.relay.ask(op.goal, op.secrets); break;
        case 'askStop': await this.relay.stop(); break;
        case 'agentStatus': await this.relay.status(); break;
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
      this.queue.nextSeq = Number(this.start.lastSeq ?? 0) + 1;
      this.queue.acked = this.queue.nextSeq - 1;
      this.tabs.add(tabId);
      this.startTab = tabId;
      this.activeTab = tabId;
      this.historyIndex.set(tabId, page.index);
      // Before the first navigation the recording can see.
      await this.dialogs.set(true);
      this.phase = 'recording';
      this.changed();
      await this.inject(tabId);
      await this.relay.status().catch((e) => {
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
    const unverified = !frameIds || !this.dialogs.watched;
    // The typing's timers are followed from here on, in every frame: a
    // timer the page sets later goes through the wrapper wherever it runs.
    await Promise.all([
      unverified ? run({ files: MAIN_FILES, world: 'MAIN' }) : undefined,
      run({ files: TIMER_FILES, world: 'MAIN' }),
      run({ files: ISOLATED_FILES }).then(bar),
    ]);
    if (this.barWarning && (!frameIds || frameIds.includes(0))) await this.warnBar(tabId);
    if (this.agent.state !== 'idle' && (!frameIds || frameIds.includes(0))) await this.relay.bar(tabId);
    // A page loaded after something was recorded (a link's click, say):
    // its bar offers Assert change at once; the host says what to do when
    // what came last was no action.
    if (this.queue.nextSeq > 1 && (!frameIds || frameIds.includes(0))) {
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
    this.queue.add(interaction, screen, ready);
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
   * A recorded tab's top document is going back or forward to another
   * document, and tells who made the move: the person (the browser's
   * buttons) or the page (history.back() in an app's Back button). The
   * document is gone by the time Chrome tells of the commit (committed).
   * @param {{url?: unknown, byPerson?: unknown}} msg
   * @param {{tab?: {id?: number}}} sender
   */
  traversalFromPage(msg, sender) {
    const tabId = sender.tab?.id;
    if (tabId === undefined || !this.tabs.has(tabId)) return;
    /** @type {Traversal} */
    const t = { url: String(msg.url ?? ''), byPerson: msg.byPerson === true, time: Date.now() };
    const wake = this.traversalWaiters.get(tabId);
    if (wake) {
      this.traversalWaiters.delete(tabId);
      wake(t);
    } else {
      this.traversals.set(tabId, t);
    }
  }

  /**
   * The note of the move back or forward a tab's top frame has just
   * committed (traversalFromPage), or null when none comes within waitMs
   * (a document without a recorder): the page sends it before the move
   * starts, so it is nearly always there already.
   * @param {number} tabId
   * @param {number} waitMs
   * @returns {Promise<Traversal | null>}
   */
  traversalNote(tabId, waitMs) {
    const t = this.traversals.get(tabId);
    this.traversals.delete(tabId);
    if (t && Date.now() - t.time < TRAVERSAL_NOTE_MS) return Promise.resolve(t);
    this.traversalWaiters.get(tabId)?.(null);
    return new Promise((resolve) => {
      this.traversalWaiters.set(tabId, resolve);
      setTimeout(() => {
        if (this.traversalWaiters.get(tabId) !== resolve) return;
        this.traversalWaiters.delete(tabId);
        resolve(null);
      }, waitMs);
    });
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
      await this.queue.drained();
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
    const transition = transitionOf(d.transitionType, d.transitionQualifiers);
    /** @type {Record<string, unknown>} */
    const i = { kind: 'navigate', time: Math.round(d.timeStamp), tab: d.tabId, url: d.url, transition };
    let resolve = () => {};
    const ready = new Promise((r) => { resolve = () => r(undefined); });
    if (!first) this.push(i, undefined, ready);
    const target = d.documentId ? { tabId: d.tabId, documentIds: [d.documentId] } : { tabId: d.tabId, frameIds: [0] };
    const compared = this.compareIndex(d.tabId, target, i);
    // Back or forward from a recorded document: that document said who
    // made it. The page's own history.back() (an app's Back button) is
    // its script's navigation, part of the click that made it, as within
    // a document (sameDocument).
    const noted = transition === 'back' ? this.traversalNote(d.tabId, this.traversalWaitMs) : Promise.resolve(null);
    try {
      if (inject) await this.inject(d.tabId, [0]);
      const [{ result }] = await this.chrome.scripting.executeScript({ target, func: () => ({ title: document.title }) });
      if (result?.title) i.title = result.title;
    } catch {
      // The page went on to another one already.
    }
    await compared;
    if (this.commits.get(d.tabId) === compared) this.commits.delete(d.tabId);
    const note = await noted;
    if (note && !note.byPerson) i.transition = 'script';
    resolve();
  }

  /**
   * A move within the document of a tab's top frame
   * (chrome.webNavigation.onHistoryStateUpdated and
   * onReferenceFragmentUpdated): a pushState, a new fragment, or back or
   * forward between two entries of one document (a single-page app's
   * routes). Back and forward the person made are recorded, told apart by
   * history index as committed navigations are; the page's own
   * history.back() is recorded as its script's navigation (part of the
   * click that made it). A move the browser itself made to a URL (one
   * typed into the address bar, or an outside agent's tab.navigate to a
   * route such as #/completed) is recorded as a typed navigation, as it is
   * to another document. The others are the page's doing, or a recorded
   * click's, and only move the index the next one is compared with
   * (docs/recording.md, Back and forward).
   * @param {{tabId: number, frameId: number, documentId?: string, url: string, transitionType: string, transitionQualifiers: string[], timeStamp: number}} d
   */
  async sameDocument(d) {
    if (!this.tabs.has(d.tabId) || d.frameId !== 0 || (this.phase !== 'recording' && this.phase !== 'stopping')) return;
    const traversal = d.transitionQualifiers.includes('forward_back');
    const typed = !traversal && transitionOf(d.transitionType, d.transitionQualifiers) === 'typed';
    /** @type {Record<string, unknown>} */
    const i = { kind: 'navigate', time: Math.round(d.timeStamp), tab: d.tabId, url: d.url, transition: traversal ? 'back' : typed ? 'typed' : 'script' };
    let resolve = () => {};
    const ready = new Promise((r) => { resolve = () => r(undefined); });
    if (traversal || typed) this.push(i, undefined, ready);
    const target = d.documentId ? { tabId: d.tabId, documentIds: [d.documentId] } : { tabId: d.tabId, frameIds: [0] };
    const compared = this.compareIndex(d.tabId, target, i);
    if (typed) {
      try {
        const [{ result }] = await this.chrome.scripting.executeScript({ target, func: () => ({ title: document.title }) });
        if (result?.title) i.title = result.title;
      } catch {
        // The page went on to another one already.
      }
    } else if (traversal) {
      try {
        const [{ result }] = await this.chrome.scripting.executeScript({
          target,
          func: () => {
            const g = /** @type {any} */ (globalThis);
            const t = g.__trailpinRecorder?.traversal?.();
            return { title: document.title, byPerson: t && t.key === g.navigation?.currentEntry?.key ? t.byPerson : null };
          },
        });
        if (result?.title) i.title = result.title;
        // The page's own history.back() (an app's Back button) is the
        // page's doing, as a script's navigation is: part of the step
        // that clicked it, or a move to its URL.
        if (result?.byPerson === false) i.transition = 'script';
      } catch {
        // The page went on to another one already.
      }
    }
    await compared;
    if (this.commits.get(d.tabId) === compared) this.commits.delete(d.tabId);
    resolve();
  }

  /**
   * Reads the history index of the entry a tab's top frame has just moved
   * to, and compares it with the one before: a back (i.transition) that
   * went to a later entry is a forward. Entries are told apart by their
   * index, never by URL: two entries may share one (a route visited
   * twice). The index is read the moment the move is told, in the document
   * that moved (a read that waits for the page to load may run on a later
   * page, whose index says nothing of this one), and compared in the order
   * the moves were told: a forward right after a back is compared with the
   * back's entry, whichever read answers first.
   * @param {number} tabId
   * @param {{tabId: number, documentIds?: string[], frameIds?: number[]}} target
   * @param {Record<string, unknown>} i the navigate interaction
   * @returns {Promise<void>} the comparison, done (this.commits holds it until then)
   */
  compareIndex(tabId, target, i) {
    const index = this.chrome.scripting.executeScript({
      target,
      injectImmediately: true,
      func: () => ({ index: /** @type {any} */ (globalThis).navigation?.currentEntry?.index ?? -1 }),
    }).then((/** @type {any} */ [{ result }]) => Number(result?.index ?? -1), () => -1);
    const compared = (this.commits.get(tabId) ?? Promise.resolve()).then(async () => {
      const at = await index;
      if (at < 0) {
        // Not known (the page went on already): the next traversal is
        // not compared with an entry before this one.
        this.historyIndex.delete(tabId);
        return;
      }
      const before = this.historyIndex.get(tabId) ?? -1;
      if (i.transition === 'back' && at > before && before >= 0) i.transition = 'forward';
      this.historyIndex.set(tabId, at);
    });
    this.commits.set(tabId, compared);
    return compared;
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
    const queue = this.queue;
    if (!this.session || this.phase === 'idle' || this.phase === 'saved' || queue.resyncing) return;
    queue.resyncing = true;
    try {
      await queue.idle();
      const reply = await this.host.request('record.resume', { session: this.session });
      const lost = queue.resumeAfter(Number(reply.lastSeq ?? 0));
      if (this.error.startsWith(RESUME_FAILED)) this.error = '';
      if (lost.length) {
        this.error = `interaction${lost.length === 1 ? '' : 's'} ${lost.join(', ')} of this recording ${lost.length === 1 ? 'was' : 'were'} lost: `
          + 'Chrome stopped the extension\'s service worker before the host acknowledged them, while the browser\'s session '
          + 'storage was full. The trail will miss those steps: record them again before Stop, or Discard and record anew.';
      }
    } catch (e) {
      // Lost the host again: the next connection resumes. Anything else
      // (the host no longer has the session) the person must know.
      if (this.noteDamage(e)) {
        // Said in the warning.
      } else if (this.host.state === 'connected') this.error = `${RESUME_FAILED}: ${e instanceof Error ? e.message : e}`;
    } finally {
      queue.resyncing = false;
    }
    this.changed();
    queue.pump();
  }

  /** Stops recording: the pages stop, the host builds the steps to review. */
  async stop() {
    if (this.phase === 'stopped') return;
    if (this.phase !== 'recording' && this.phase !== 'stopping') throw new Error('nothing is being recorded');
    // The pages go on recording while the person moves the file aside.
    if (this.damaged) throw new Error(this.damaged);
    // The agent's goal ends first: what it did so far is part of the recording.
    if (this.agent.state === 'running') await this.relay.stop();
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
    this.dialogs.set(false);
    await new Promise((r) => setTimeout(r, STOP_SETTLE_MS));
    await this.queue.drained();
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
    await this.relay.status().catch(() => {});
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
  // Ask the agent (agentrelay.js)

  /**
   * A message the host started (the agent's goal).
   * @param {import('../protocol.js').Message} m
   */
  fromHost(m) {
    return this.relay.fromHost(m);
  }

  /** The host went away while the agent acted: its goal is over. */
  hostLost() {
    this.relay.hostLost();
  }

  /**
   * A recorded tab's last typing goes out, and has arrived.
   * @param {number} tabId
   */
  async flushPage(tabId) {
    await this.chrome.scripting.executeScript({
      target: { tabId, frameIds: [0] },
      func: () => { /** @type {any} */ (globalThis).__trailpinRecorder?.flush(); },
    }).catch(() => {});
    await new Promise((r) => setTimeout(r, STOP_SETTLE_MS));
  }
}
