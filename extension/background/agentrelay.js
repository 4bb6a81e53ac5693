// Ask the agent while recording (host/PROTOCOL.md, The agent while
// recording): the goal goes to the host, the host's agent acts in the
// recorded tab through the extension (agentlive.js), and what it did is
// recorded between an agentStart and an agentEnd. The popup and the
// recording bars show what it does.

import { LiveAgent } from '../agentlive.js';

/** @typedef {import('../protocol.js').Message} Message */
/** @typedef {import('../protocol.js').AgentView} AgentView */

/** The agent's state before anything was asked. */
const AGENT_IDLE = Object.freeze({ state: 'idle', configured: false, known: false, model: '', message: '', goal: '', action: '', result: '' });
/** How long Stop waits for the host to end the agent's goal. */
const AGENT_STOP_MS = 15_000;

/**
 * What the relay needs of the recording it serves.
 * @typedef {object} RelayOwner
 * @property {import('./queue.js').Host} host
 * @property {any} chrome
 * @property {string} session
 * @property {string} phase
 * @property {Set<number>} tabs
 * @property {number} activeTab
 * @property {number} startTab
 * @property {(interaction: Record<string, unknown>) => void} push numbers an interaction and queues it
 * @property {(tabId: number) => Promise<void>} flushPage a recorded tab's last typing goes out, and has arrived
 * @property {() => void} changed
 */

export class AgentRelay {
  /** @param {RelayOwner} owner the recording */
  constructor(owner) {
    this.owner = owner;
    /** The agent's hands in the recorded tab. */
    this.live = new LiveAgent({ chrome: owner.chrome });
    /** @type {AgentView} what the agent does, for the popup and the bar */
    this.view = { ...AGENT_IDLE };
    /** The tab the agent acts in, -1 when none. */
    this.tab = -1;
    /** The host's id of the goal under way. */
    this.goal = '';
    /** @type {Promise<void>|null} the end of the goal, while its agentEnd goes out */
    this.ending = null;
  }

  /** Forgets the agent's goal (a new recording). */
  reset() {
    this.view = { ...AGENT_IDLE };
    this.tab = -1;
    this.goal = '';
    this.live.detach();
  }

  /**
   * Asks the host whether the agent can be asked in this recording (a model
   * is configured), for the popup's Ask the agent field.
   */
  async status() {
    const o = this.owner;
    if (!o.session || o.phase !== 'recording') return;
    const types = o.host.host?.types;
    if (types && !types.includes('agent.ask')) {
      Object.assign(this.view, { known: true, configured: false, message: 'This host cannot run the agent: build and install a newer host (go build -o bin/host ./host).' });
      return;
    }
    const reply = await o.host.request('agent.status', { session: o.session });
    Object.assign(this.view, { known: true, configured: !!reply.configured, model: String(reply.model ?? ''), message: String(reply.message ?? '') });
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
    const o = this.owner;
    const text = String(goal ?? '').trim();
    if (o.phase !== 'recording') throw new Error('the agent acts only while recording: press Record first');
    if (!text) throw new Error('say what the agent should do, such as “Add the iPhone to the cart”');
    if (this.view.state === 'running') throw new Error(`the agent is performing “${this.view.goal}” already: wait for it, or stop it`);
    const tabId = o.tabs.has(o.activeTab) ? o.activeTab : o.startTab;
    /** @type {{url?: string, title?: string}} */
    let tab = {};
    try {
      tab = await o.chrome.tabs.get(tabId);
    } catch {
      throw new Error('the recorded tab is gone');
    }
    this.tab = tabId;
    Object.assign(this.view, { state: 'running', goal: text, action: 'Starting', result: '' });
    // What the person was typing is theirs: it goes out before the goal
    // starts, so it never joins the agent's step (nor is left out with it).
    await o.flushPage(tabId);
    o.push({ kind: 'agentStart', time: Date.now(), tab: tabId, url: tab.url ?? '', title: tab.title ?? '', text });
    this.bars();
    try {
      /** @type {Record<string, unknown>} */
      const body = { session: o.session, goal: text };
      if (Array.isArray(secrets) && secrets.length) body.secrets = secrets.map(String);
      const reply = await o.host.request('agent.ask', body);
      this.goal = String(reply.goal ?? '');
      if (reply.model) this.view.model = String(reply.model);
    } catch (e) {
      // Nothing was done: the goal ends here, and says why.
      await this.ended({ state: 'failed', message: e instanceof Error ? e.message : String(e) });
    }
  }

  /** Stops the agent's goal; what it did so far stays recorded. */
  async stop() {
    if (this.view.state !== 'running') return;
    this.view.action = 'Stopping…';
    this.bars();
    this.owner.changed();
    try {
      await this.owner.host.request('agent.stop', { session: this.owner.session }, AGENT_STOP_MS);
    } catch {
      // The host is gone: the goal ended with it.
    }
    // agent.done came before the reply (its end may still be under way);
    // without a host it will not come.
    if (this.ending) await this.ending;
    if (this.view.state === 'running') await this.ended({ state: 'stopped', message: 'stopped before the goal was reached' });
  }

  /**
   * A message the host started.
   * @param {Message} m
   */
  async fromHost(m) {
    const o = this.owner;
    switch (m.type) {
      case 'agent.page': {
        if (this.view.state !== 'running' || m.session !== o.session) {
          this.answerHost(m.id, { ok: false, reason: 'gone', error: 'no goal of the agent is under way in this recording' });
          return;
        }
        const answer = await this.live.perform(this.tab, /** @type {any} */ (m));
        this.answerHost(m.id, answer);
        return;
      }
      case 'agent.progress':
        if (this.view.state === 'running' && !this.ending && m.session === o.session && this.view.action !== 'Stopping…') {
          this.view.action = String(m.action ?? '');
          this.bars();
          o.changed();
        }
        return;
      case 'agent.done':
        if (m.session === o.session && this.view.state === 'running') {
          /** @type {{state: string, message: string, calls: number, actions: number, checks?: unknown}} */
          const end = { state: String(m.state ?? 'failed'), message: String(m.message ?? ''), calls: Number(m.calls ?? 0), actions: Number(m.actions ?? 0) };
          // The checks the agent passed go back as they came, in the
          // agentEnd: the host reads them, and says in the review why it
          // left one out.
          if (m.checks !== undefined && m.checks !== null) end.checks = m.checks;
          await this.ended(end);
        }
    }
  }

  /**
   * @param {string} id
   * @param {Record<string, unknown>} body
   */
  answerHost(id, body) {
    try {
      this.owner.host.answer?.(id, 'agent.pageResult', body);
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
  async ended(end) {
    if (this.ending) return this.ending;
    this.ending = this.end(end);
    try {
      await this.ending;
    } finally {
      this.ending = null;
    }
  }

  /** @param {{state: string, message: string, calls?: number, actions?: number, checks?: unknown}} end */
  async end(end) {
    const o = this.owner;
    const tabId = this.tab;
    const state = /** @type {AgentView['state']} */ (['done', 'stopped', 'failed'].includes(end.state) ? end.state : 'failed');
    // A page the agent's last act is loading is part of its goal.
    await this.live.loaded(tabId);
    await o.flushPage(tabId);
    /** @type {Record<string, unknown>} */
    const i = { kind: 'agentEnd', time: Date.now(), tab: tabId, state };
    if (end.message) i.message = end.message;
    if (end.checks !== undefined && !(Array.isArray(end.checks) && end.checks.length === 0)) i.checks = end.checks;
    o.push(i);
    await this.live.detach();
    const calls = end.calls ? ` (${end.calls} model call${end.calls === 1 ? '' : 's'})` : '';
    const said = end.message ? `: ${end.message}` : '';
    // State and words change together: the popup never shows one without the other.
    this.view.action = '';
    this.view.result = state === 'done' ? `Done${said}${calls}`
      : state === 'stopped' ? `Stopped${calls}. What it did is kept in the recording.`
      : `The agent failed${said}${calls}. What it did is kept in the recording.`;
    this.view.state = state;
    this.goal = '';
    this.bars();
    o.changed();
  }

  /** The host went away while the agent acted: its goal is over. */
  hostLost() {
    if (this.view.state === 'running') {
      this.ended({ state: 'failed', message: 'the connection to the host was lost' }).catch(() => {});
    }
  }

  /** Shows the agent's state in the recorded tabs' bars. */
  bars() {
    for (const tabId of this.owner.tabs) this.bar(tabId);
  }

  /** @param {number} tabId */
  async bar(tabId) {
    const a = this.view;
    const text = a.state === 'running' ? `Agent: ${a.goal} — ${a.action || 'working'}`
      : a.state === 'idle' ? '' : `Agent: ${a.goal} — ${a.result}`;
    await this.owner.chrome.scripting.executeScript({
      target: { tabId, frameIds: [0] },
      args: [{ running: a.state === 'running', text }],
      func: (/** @type {{running: boolean, text: string}} */ v) => { /** @type {any} */ (globalThis).__trailpinRecordBar?.agent?.(v); },
    }).catch(() => {});
  }
}
