// The agent API's calls in the person's browser (host/PROTOCOL.md, Agent
// API): the host asks with an api.request, the extension answers with an
// api.result. The person stays in charge: a client acts only once the
// person allowed its name (remembered in chrome.storage.local until
// revoked in the popup), and only in the tabs the person shared one by one
// ("Share this tab with agents"); one client drives a tab at a time, and
// the tab says so (its badge, and the recording bar: "Driven by <client>",
// with a button that disconnects it). What a client does is trusted input
// (agentlive.js), recorded by the recorder in the page like a person's;
// the answer numbers the interactions it recorded, for the host to mark
// them the client's.

import { LiveAgent } from '../agentlive.js';
import { PAGE_MODEL_FILES } from '../pagemodel-files.js';

/** chrome.storage.local: the client names the person allowed. */
export const ALLOWED_KEY = 'agentApiAllowed';
/** chrome.storage.session: the tabs the person shared. */
export const SHARED_KEY = 'agentApiShared';

/**
 * What the relay needs of the recording (background/recording.js).
 * @typedef {object} ApiRecording
 * @property {string} phase
 * @property {string} session
 * @property {Set<number>} tabs
 * @property {{nextSeq: number}} queue
 * @property {Record<string, any>|null} start
 * @property {Record<string, any>|null} review
 * @property {Record<string, any>|null} saved
 * @property {Record<string, any>|null} exported
 * @property {(tabId: number) => Promise<void>} flushPage
 * @property {(op: any) => Promise<any>} handle
 */

/**
 * The popup's view of the agents.
 * @typedef {{allowed: string[], asking: string[], shared: number[], driven: {tab: number, client: string}[]}} ApiView
 */

export class ApiRelay {
  /**
   * @param {object} o
   * @param {any} o.chrome
   * @param {{answer?: (id: string, type: string, body: Record<string, unknown>) => void, request: (type: string, body: Record<string, unknown>) => Promise<any>}} o.host
   * @param {ApiRecording} o.recording
   * @param {() => void} [o.onChange]
   */
  constructor({ chrome, host, recording, onChange = () => {} }) {
    this.chrome = chrome;
    this.host = host;
    this.recording = recording;
    this.onChange = onChange;
    /** @type {Set<string>} */
    this.allowed = new Set();
    /** @type {Set<number>} */
    this.shared = new Set();
    /** @type {Map<string, ((ok: boolean) => void)[]>} the clients the person is asked about, and who waits */
    this.asking = new Map();
    /** @type {Map<number, string>} the client driving each tab */
    this.driven = new Map();
    /** @type {Map<number, string>} the client acting in each tab right now */
    this.acting = new Map();
    this.live = new LiveAgent({ chrome });
    this.loaded = this.load();
  }

  /** Reads what the person decided before (a restarted worker). */
  async load() {
    try {
      const a = await this.chrome.storage?.local?.get(ALLOWED_KEY);
      for (const c of a?.[ALLOWED_KEY] ?? []) if (typeof c === 'string') this.allowed.add(c);
      const s = await this.chrome.storage?.session?.get(SHARED_KEY);
      for (const t of s?.[SHARED_KEY] ?? []) if (Number.isInteger(t)) this.shared.add(t);
    } catch {
      // Nothing kept: nobody is allowed, nothing shared.
    }
  }

  async persist() {
    await this.chrome.storage?.local?.set({ [ALLOWED_KEY]: [...this.allowed].sort() }).catch(() => {});
    await this.chrome.storage?.session?.set({ [SHARED_KEY]: [...this.shared].sort((a, b) => a - b) }).catch(() => {});
  }

  /** @returns {ApiView} */
  view() {
    return {
      allowed: [...this.allowed].sort(),
      asking: [...this.asking.keys()].sort(),
      shared: [...this.shared].sort((a, b) => a - b),
      driven: [...this.driven].map(([tab, client]) => ({ tab, client })),
    };
  }

  changed() {
    this.onChange();
  }

  // -------------------------------------------------------------------------
  // The person (the popup, the recording bar)

  /**
   * The person's answer to a client asking to be allowed.
   * @param {string} client
   * @param {boolean} allow
   */
  async decide(client, allow) {
    await this.loaded;
    if (allow) this.allowed.add(client);
    const waiting = this.asking.get(client) ?? [];
    this.asking.delete(client);
    await this.persist();
    for (const w of waiting) w(allow);
    this.changed();
  }

  /**
   * Forgets a client the person allowed: the host disconnects it.
   * @param {string} client
   */
  async revoke(client) {
    await this.loaded;
    this.allowed.delete(client);
    await this.persist();
    await this.release(client);
    await this.host.request('api.revoke', { client }).catch(() => {});
    this.changed();
  }

  /**
   * Disconnects a client (the driven tab's button) without forgetting it.
   * @param {string} client
   */
  async disconnect(client) {
    await this.release(client);
    await this.host.request('api.revoke', { client, keep: true }).catch(() => {});
    this.changed();
  }

  /**
   * Shares a tab with agents, or stops sharing it.
   * @param {number} tab
   * @param {boolean} on
   */
  async share(tab, on) {
    await this.loaded;
    if (on) this.shared.add(tab);
    else {
      this.shared.delete(tab);
      const client = this.driven.get(tab);
      if (client) await this.undrive(tab);
    }
    await this.persist();
    this.changed();
  }

  /** @param {number} tab a tab was closed */
  closed(tab) {
    if (!this.shared.has(tab) && !this.driven.has(tab)) return;
    this.shared.delete(tab);
    this.driven.delete(tab);
    this.persist();
    this.changed();
  }

  /**
   * The client that drives tab, '' when none.
   * @param {number} tab
   */
  driverOf(tab) {
    return this.driven.get(tab) ?? '';
  }

  // -------------------------------------------------------------------------
  // The host

  /**
   * A message the host started for the agent API.
   * @param {Record<string, any>} m
   * @returns {Promise<boolean>} whether it was the API's
   */
  async fromHost(m) {
    if (m.type === 'api.closed') {
      await this.release(String(m.client ?? ''));
      this.changed();
      return true;
    }
    if (m.type !== 'api.request') return false;
    await this.loaded;
    let body;
    try {
      body = await this.perform(m);
    } catch (e) {
      body = { ok: false, reason: 'failed', error: e instanceof Error ? e.message : String(e) };
    }
    try {
      this.host.answer?.(String(m.id), 'api.result', body);
    } catch {
      // Disconnected: the client's call ends with the host.
    }
    return true;
  }

  /**
   * One api.request.
   * @param {Record<string, any>} m
   * @returns {Promise<Record<string, unknown>>}
   */
  async perform(m) {
    const client = String(m.client ?? '');
    if (!client) return { ok: false, reason: 'failed', error: 'the request names no client' };
    if (m.call === 'allow') return { ok: await this.ask(client) };
    if (!this.allowed.has(client)) {
      return { ok: false, reason: 'refused', error: `the person has not allowed ${client} (or revoked it) in the Trailpin popup` };
    }
    switch (m.call) {
      case 'tabs': return { ok: true, tabs: await this.tabs() };
      case 'page': return this.page(client, m);
      case 'record': return this.record(client, m);
    }
    return { ok: false, reason: 'failed', error: `this extension cannot ${m.call}: update it` };
  }

  /**
   * Whether the person allows client: at once when allowed before, else
   * once the person answered in the popup.
   * @param {string} client
   * @returns {Promise<boolean>}
   */
  ask(client) {
    if (this.allowed.has(client)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiting = this.asking.get(client) ?? [];
      waiting.push(resolve);
      this.asking.set(client, waiting);
      this.changed();
    });
  }

  /** The shared tabs that are still open. */
  async tabs() {
    const out = [];
    for (const tab of [...this.shared].sort((a, b) => a - b)) {
      /** @type {any} */
      let t;
      try {
        t = await this.chrome.tabs.get(tab);
      } catch {
        this.shared.delete(tab);
        continue;
      }
      out.push({ tab, url: t.url ?? '', title: t.title ?? '', recording: this.recordingOf(tab) });
    }
    return out;
  }

  /**
   * The session recording tab, '' when none.
   * @param {number} tab
   */
  recordingOf(tab) {
    const r = this.recording;
    return r.tabs.has(tab) && (r.phase === 'recording' || r.phase === 'stopping') ? r.session : '';
  }

  /**
   * A page op in a shared tab: its screen, an act, or an assertion the
   * recorder records.
   * @param {string} client
   * @param {Record<string, any>} m
   */
  async page(client, m) {
    const tab = Number(m.tab);
    if (!this.shared.has(tab)) {
      return { ok: false, reason: 'refused', error: `tab ${tab} is not shared with agents: the person shares it in the Trailpin popup` };
    }
    const other = this.acting.get(tab) ?? (this.driven.get(tab) !== client ? this.driven.get(tab) : undefined);
    if (other && other !== client) {
      return { ok: false, reason: 'refused', error: `busy: ${other} drives tab ${tab}; one agent drives a tab at a time` };
    }
    const recorded = !!this.recordingOf(tab);
    // A tab shared but not recorded has no recorder: the page model alone
    // captures it and finds the refs.
    if (!recorded) await this.pageModel(tab);
    if (m.op === 'screen') return recorded ? this.live.perform(tab, /** @type {any} */ (m)) : this.capture(tab);
    if (this.acting.has(tab)) return { ok: false, reason: 'refused', error: `busy: a call of ${client} acts in tab ${tab} already` };
    this.acting.set(tab, client);
    try {
      await this.drive(tab, client);
      const session = this.recordingOf(tab);
      if (session) await this.recording.flushPage(tab);
      const from = this.recording.queue.nextSeq;
      /** @type {Record<string, unknown>} */
      const answer = m.op.startsWith('assert') ? await this.check(tab, m, !!session) : await this.live.perform(tab, /** @type {any} */ (m));
      if (session) {
        await this.live.loaded(tab);
        await this.recording.flushPage(tab);
        const until = this.recording.queue.nextSeq - 1;
        if (until >= from) Object.assign(answer, { recording: session, from, until });
      }
      const t = await this.chrome.tabs.get(tab).catch(() => null);
      answer.url = t?.url ?? '';
      return answer;
    } finally {
      this.acting.delete(tab);
    }
  }

  /**
   * Injects the page model into a tab's top frame, unless it is there.
   * @param {number} tab
   */
  async pageModel(tab) {
    await this.live.loaded(tab);
    try {
      const [{ result: there }] = await this.chrome.scripting.executeScript({
        target: { tabId: tab, frameIds: [0] },
        func: () => !!(/** @type {any} */ (globalThis).__trailpinPageModel),
      });
      if (!there) await this.chrome.scripting.executeScript({ target: { tabId: tab, frameIds: [0] }, files: [...PAGE_MODEL_FILES] });
    } catch {
      // Not a page the extension may script (chrome://): the op says so.
    }
  }

  /**
   * The screen of a tab that is not recorded, by the page model alone.
   * @param {number} tab
   * @returns {Promise<Record<string, unknown>>}
   */
  async capture(tab) {
    try {
      const [{ result }] = await this.chrome.scripting.executeScript({
        target: { tabId: tab, frameIds: [0] },
        func: () => /** @type {any} */ (globalThis).__trailpinPageModel?.captureWire({}) ?? '',
      });
      if (typeof result === 'string' && result) return { ok: true, screen: JSON.parse(result) };
      return { ok: false, reason: 'failed', error: 'the tab gave no screen: is it showing a web page?' };
    } catch (e) {
      return { ok: false, reason: 'failed', error: `the tab gave no screen: ${e instanceof Error ? e.message : e}` };
    }
  }

  /**
   * Records an assertion with the recorder in the page, as the recording
   * bar's picker does, on the element of the ref in the document the
   * client's snapshot was of.
   * @param {number} tab
   * @param {Record<string, any>} m
   * @param {boolean} recorded
   */
  async check(tab, m, recorded) {
    if (!recorded) return { ok: false, reason: 'failed', error: 'an assertion is recorded: start a recording of the tab first (recording.start)' };
    // An assertChange checks the action right before it: the client's
    // act, whose last interaction is since, with nothing recorded after.
    if (m.op === 'assertChange' && this.recording.queue.nextSeq - 1 !== Number(m.since)) {
      return { ok: false, reason: 'failed', error: 'the tab recorded something after your last act (the person acted, or another check came first): an assertChange checks the action right before it, so act again and check right after; nothing was recorded' };
    }
    const [{ result }] = await this.chrome.scripting.executeScript({
      target: { tabId: tab, frameIds: [0] },
      args: [String(m.op), String(m.ref ?? ''), String(m.document ?? ''), String(m.value ?? ''), String(m.text ?? ''), m.assertChange ?? null],
      func: (/** @type {string} */ op, /** @type {string} */ ref, /** @type {string} */ doc, /** @type {string} */ value, /** @type {string} */ text, /** @type {any} */ check) => {
        const g = /** @type {any} */ (globalThis);
        const rec = g.__trailpinRecorder;
        if (!rec) return { error: 'the recorder is not in the page' };
        if (op === 'assertNotVisible') {
          rec.record({ kind: 'assertNotVisible', text });
          return { ok: true };
        }
        if (op === 'assertChange') {
          // The whole check, as the host checked it on the page; recorded
          // on the screen now, like the recording bar's Assert change.
          if (!check || typeof check !== 'object') return { error: 'the assertChange has no check' };
          rec.recordCheck({ kind: 'assertChange', assertChange: check });
          return { ok: true };
        }
        const pm = g.__trailpinPageModel;
        if (!pm || pm.documentToken() !== doc) return { stale: 'the page has loaded another document since the snapshot' };
        const found = pm.elementForRef(ref);
        if (!('element' in found)) return { stale: found.message };
        rec.recordCheck(op === 'assertValue' ? { kind: op, ref, value } : { kind: op, ref });
        return { ok: true };
      },
    });
    if (result?.stale) return { ok: false, reason: 'stale', error: String(result.stale) };
    if (!result?.ok) return { ok: false, reason: 'failed', error: String(result?.error ?? 'the assertion could not be recorded') };
    return { ok: true };
  }

  /**
   * Marks tab as driven by client.
   * @param {number} tab
   * @param {string} client
   */
  async drive(tab, client) {
    if (this.driven.get(tab) === client) return;
    this.driven.set(tab, client);
    await this.chrome.action?.setBadgeText?.({ tabId: tab, text: 'AI' })?.catch?.(() => {});
    await this.chrome.action?.setTitle?.({ tabId: tab, title: `Driven by ${client}` })?.catch?.(() => {});
    await this.bar(tab, `Driven by ${client}`);
    this.changed();
  }

  /** @param {number} tab */
  async undrive(tab) {
    this.driven.delete(tab);
    // null (not ''): the tab shows the global badge again (REC while recording).
    await this.chrome.action?.setBadgeText?.({ tabId: tab, text: /** @type {any} */ (null) })?.catch?.(() => {});
    await this.chrome.action?.setTitle?.({ tabId: tab, title: 'Trailpin' })?.catch?.(() => {});
    await this.bar(tab, '');
  }

  /**
   * The tabs a client drove are driven no more.
   * @param {string} client
   */
  async release(client) {
    for (const [tab, c] of [...this.driven]) if (c === client) await this.undrive(tab);
    if (!this.driven.size) await this.live.detach();
  }

  /**
   * The recording bar of a recorded tab says who drives it, with the
   * button that disconnects it ('' hides it).
   * @param {number} tab
   * @param {string} text
   */
  async bar(tab, text) {
    await this.chrome.scripting.executeScript({
      target: { tabId: tab, frameIds: [0] },
      args: [{ running: !!text, text }],
      func: (/** @type {{running: boolean, text: string}} */ v) => { /** @type {any} */ (globalThis).__trailpinRecordBar?.agent?.(v); },
    }).catch(() => {});
  }

  /**
   * recording.start, stop and save, as the popup's Record, Stop and Save
   * (the save goes through the host's review as the popup's does).
   * @param {string} client
   * @param {Record<string, any>} m
   */
  async record(client, m) {
    const r = this.recording;
    /** @param {any} view */
    const failed = (view) => view?.error ? { ok: false, reason: 'failed', error: String(view.error) } : null;
    switch (m.op) {
      case 'start': {
        const tab = Number(m.tab);
        if (!this.shared.has(tab)) return { ok: false, reason: 'refused', error: `tab ${tab} is not shared with agents` };
        const f = failed(await r.handle({ op: 'start', tab, project: m.project || undefined }));
        if (f) return f;
        if (m.app && r.start?.needsApp) {
          const g = failed(await r.handle({ op: 'addApp', name: String(m.app) }));
          if (g) return g;
        }
        return { ok: true, session: r.session };
      }
      case 'stop': {
        if (m.session !== r.session) return { ok: false, reason: 'failed', error: `no recording ${m.session} is under way: recording.start gave another session` };
        const f = failed(await r.handle({ op: 'stop' }));
        if (f) return f;
        return { ok: true, session: r.session, steps: r.review?.steps?.length ?? 0 };
      }
      case 'save': {
        if (m.session !== r.session) return { ok: false, reason: 'failed', error: `recording ${m.session} is not the one this browser holds` };
        if (r.phase === 'recording') {
          const f = failed(await r.handle({ op: 'stop' }));
          if (f) return f;
        }
        const f = failed(await r.handle({ op: 'save', title: String(m.title ?? '') }));
        if (f) return f;
        const g = failed(await r.handle({ op: 'export' }));
        if (g) return g;
        return { ok: true, session: r.session, steps: r.review?.steps?.length ?? 0, file: String(r.exported?.file ?? r.exported?.path ?? '') };
      }
    }
    return { ok: false, reason: 'failed', error: `recording ${m.op} is not served` };
  }
}
