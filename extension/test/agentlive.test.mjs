// Unit tests of "Ask the agent" in the background (background/agentrelay.js,
// through background/recording.js, with agentlive.js): the goal's
// interactions are framed by agentStart and agentEnd, the host's agent.page
// requests are carried out with trusted input through chrome.debugger, and
// Stop ends the goal before the recording stops. Fake host, fake chrome APIs.

import { test, mock } from 'node:test';
import assert from 'node:assert/strict';

const { Recording } = await import('../background/recording.js');
const { keyInfo, quietScreen } = await import('../agentlive.js');

/** A host that stores interactions and answers the agent's messages. */
class AgentHost {
  constructor() {
    this.state = 'connected';
    this.host = { types: ['agent.ask', 'agent.status', 'agent.stop'] };
    this.requests = [];
    this.answers = [];
    this.stored = [];
    /** @type {any} */
    this.recorder = null;
    this.askFails = '';
  }
  answer(id, type, body) { this.answers.push({ id, type, body }); }
  async request(type, body = {}) {
    this.requests.push({ type, body });
    switch (type) {
      case 'record.start':
        return { type, session: body.session, origin: 'http://127.0.0.1:1', project: null, app: null, needsProject: false, needsApp: false, lastSeq: 0 };
      case 'record.interaction':
        this.stored.push(body.interaction);
        return { type, session: body.session, seq: body.interaction.seq, added: true };
      case 'agent.status':
        return { type, configured: true, model: 'scripted', message: '' };
      case 'agent.ask':
        if (this.askFails) throw new Error(this.askFails);
        return { type, session: body.session, goal: 'g-1', model: 'scripted' };
      case 'agent.stop':
        // The host sends agent.done before it answers.
        await this.recorder.fromHost({ type: 'agent.done', id: 'host-9', session: body.session, goal: 'g-1', state: 'stopped', message: 'stopped before the goal was reached', calls: 1 });
        return { type, session: body.session, stopped: true };
      case 'record.stop':
        return { type, session: body.session, title: 'T', steps: [], secrets: [] };
    }
    return { type };
  }
}

function agentChrome() {
  const scripts = [];
  const sent = [];
  const listeners = () => ({ addListener() {}, removeListener() {} });
  const c = {
    scripts,
    sent,
    attached: [],
    detached: 0,
    tabs: { get: async (id) => ({ id, url: `http://127.0.0.1:1/tab${id}`, title: `Tab ${id}` }) },
    scripting: {
      executeScript: async (o) => {
        scripts.push(o);
        if (o.args?.[0] === 'e5') return [{ result: { point: { x: 10, y: 20, box: { x: 5, y: 15, width: 10, height: 10 }, inViewport: true }, where: { top: 'http://127.0.0.1:1', origin: 'http://127.0.0.1:1', opens: '' } } }];
        if (o.args?.[0] === 'e9') return [{ result: { stale: 'ref e9: its element is gone from the page' } }];
        if (o.func) return [{ result: { width: 1280, height: 800, locale: 'en-US', timeZone: 'UTC', index: 0, title: 'Page' } }];
        return [{ result: undefined }];
      },
    },
    webNavigation: { onBeforeNavigate: listeners(), onDOMContentLoaded: listeners(), onErrorOccurred: listeners() },
    debugger: {
      attach: async (target, version) => { c.attached.push([target.tabId, version]); },
      detach: async () => { c.detached++; },
      sendCommand: async (target, method, params) => { sent.push({ tab: target.tabId, method, params }); return {}; },
    },
    action: { setBadgeText: async () => {}, setBadgeBackgroundColor: async () => {} },
    storage: { local: { set: async () => {} } },
  };
  return c;
}

const settle = () => new Promise((r) => setTimeout(r, 200));

async function recording() {
  const host = new AgentHost();
  const chrome = agentChrome();
  const r = new Recording({ host, chrome });
  host.recorder = r;
  await r.handle({ op: 'start', tab: 7 });
  return { host, chrome, r };
}

test('a goal is framed by agentStart and agentEnd, and its acts are trusted input in the recorded tab', async () => {
  const { host, chrome, r } = await recording();
  assert.deepEqual({ known: r.agent.known, configured: r.agent.configured }, { known: true, configured: true });
  r.fromPage({ interaction: { kind: 'click', screen: 's1', ref: 'e1' }, screen: '{"schema":1}' }, { tab: { id: 7 } });
  const view = await r.handle({ op: 'ask', goal: 'Add the iPhone to the cart' });
  assert.equal(view.error, '');
  assert.equal(view.agent.state, 'running');
  const asked = host.requests.findIndex((q) => q.type === 'agent.ask');
  assert.deepEqual(host.requests[asked].body, { session: r.session, goal: 'Add the iPhone to the cart' });
  await settle();
  assert.deepEqual(host.stored.map((i) => i.kind), ['click', 'agentStart']);
  assert.equal(host.stored[1].text, 'Add the iPhone to the cart');

  await r.fromHost({ type: 'agent.page', id: 'host-3', session: r.session, goal: 'g-1', op: 'tap', ref: 'e5', document: 'd1', timeoutMs: 1000, origins: ['http://127.0.0.1:1'] });
  assert.deepEqual(host.answers.pop(), { id: 'host-3', type: 'agent.pageResult', body: { ok: true } });
  assert.deepEqual(chrome.attached, [[7, '1.3']]);
  assert.deepEqual(chrome.sent.filter((s) => s.method.startsWith('Input.')).map((s) => [s.method, s.params.type, s.params.x, s.params.y]), [
    ['Input.dispatchMouseEvent', 'mouseMoved', 10, 20],
    ['Input.dispatchMouseEvent', 'mousePressed', 10, 20],
    ['Input.dispatchMouseEvent', 'mouseReleased', 10, 20],
  ]);

  // A ref the page no longer has is stale: never another element.
  await r.fromHost({ type: 'agent.page', id: 'host-4', session: r.session, goal: 'g-1', op: 'tap', ref: 'e9', document: 'd1', timeoutMs: 1000, origins: ['http://127.0.0.1:1'] });
  const stale = host.answers.pop();
  assert.equal(stale.body.ok, false);
  assert.equal(stale.body.reason, 'stale');
  assert.equal(chrome.sent.filter((s) => s.method.startsWith('Input.')).length, 3, 'nothing was clicked for a stale ref');

  await r.fromHost({ type: 'agent.progress', id: 'host-5', session: r.session, goal: 'g-1', action: 'Tapping button "Add to cart"' });
  assert.equal(r.agent.action, 'Tapping button "Add to cart"');
  // The bar shows it.
  assert.ok(chrome.scripts.some((s) => s.args?.[0]?.text === 'Agent: Add the iPhone to the cart — Tapping button "Add to cart"' && s.args[0].running));

  r.fromPage({ interaction: { kind: 'click', screen: 's2', ref: 'e5' }, screen: '{"schema":1}' }, { tab: { id: 7 } });
  await r.fromHost({ type: 'agent.done', id: 'host-6', session: r.session, goal: 'g-1', state: 'done', message: 'the cart shows 1 item', calls: 2 });
  await settle();
  assert.deepEqual(host.stored.map((i) => i.kind), ['click', 'agentStart', 'click', 'agentEnd']);
  assert.deepEqual([host.stored[3].state, host.stored[3].message], ['done', 'the cart shows 1 item']);
  assert.equal(chrome.detached, 1, 'the debugger lets go when the goal ends');
  assert.equal(r.agent.state, 'done');
  assert.equal(r.agent.result, 'Done: the cart shows 1 item (2 model calls)');
});

test('the checks the agent passed ride the agentEnd back to the host, as they came', async () => {
  const { host, r } = await recording();
  const checks = [{ action: 1, from: 1760000000000, until: 1760000001000, assertChange: { mustInclude: [{ change: 'added', selector: { role: 'dialog' } }] } }];
  await r.handle({ op: 'ask', goal: 'Open the shipping info' });
  await settle();
  await r.fromHost({ type: 'agent.done', id: 'host-6', session: r.session, goal: 'g-1', state: 'done', message: 'tapped', calls: 2, checks });
  await settle();
  const end = host.stored.find((i) => i.kind === 'agentEnd');
  assert.deepEqual(end.checks, checks);

  // A goal whose agent.done carries none sends none.
  await r.handle({ op: 'ask', goal: 'Close it' });
  await settle();
  await r.fromHost({ type: 'agent.done', id: 'host-7', session: r.session, goal: 'g-1', state: 'done', message: 'tapped', calls: 1, checks: [] });
  await settle();
  const ends = host.stored.filter((i) => i.kind === 'agentEnd');
  assert.equal(ends.length, 2);
  assert.equal('checks' in ends[1], false);
});

test("the person's typing under way when a goal starts goes out before it, and stays the person's", async () => {
  const { host, chrome, r } = await recording();
  const run = chrome.scripting.executeScript;
  chrome.scripting.executeScript = async (o) => {
    // The recorder in the page flushes the typing it holds.
    if (String(o.func).includes('flush()')) r.fromPage({ interaction: { kind: 'type', screen: 's1', ref: 'e2', value: 'SUMMER' }, screen: '{"schema":1}' }, { tab: { id: 7 } });
    return run(o);
  };
  await r.handle({ op: 'ask', goal: 'Apply the code' });
  await settle();
  assert.deepEqual(host.stored.map((i) => i.kind), ['type', 'agentStart']);
});

test('the secrets the person offers go with the goal, and none when none are offered', async () => {
  const { host, r } = await recording();
  await r.handle({ op: 'ask', goal: 'Sign in as ada', secrets: ['demo-password'] });
  await settle();
  assert.deepEqual(host.requests.find((q) => q.type === 'agent.ask').body, { session: r.session, goal: 'Sign in as ada', secrets: ['demo-password'] });
});

test('Stop ends the goal, and Stop of the recording stops the goal first', async () => {
  const { host, r } = await recording();
  await r.handle({ op: 'ask', goal: 'Buy an iPhone' });
  await r.handle({ op: 'stop' });
  await settle();
  const types = host.requests.map((q) => q.type);
  assert.ok(types.indexOf('agent.stop') >= 0 && types.indexOf('agent.stop') < types.indexOf('record.stop'), types.join(' '));
  const kinds = host.stored.map((i) => i.kind);
  assert.deepEqual(kinds, ['agentStart', 'agentEnd']);
  assert.equal(host.stored[1].state, 'stopped');
  assert.equal(r.agent.state, 'stopped');
  assert.match(r.agent.result, /^Stopped \(1 model call\)\. What it did is kept/);
  assert.equal(r.phase, 'stopped');
});

test('a goal the host refuses ends at once, saying why', async () => {
  const { host, r } = await recording();
  host.askFails = 'No model is configured for the agent.';
  await r.handle({ op: 'ask', goal: 'Buy an iPhone' });
  await settle();
  assert.deepEqual(host.stored.map((i) => [i.kind, i.state ?? '']), [['agentStart', ''], ['agentEnd', 'failed']]);
  assert.equal(r.agent.state, 'failed');
  assert.match(r.agent.result, /No model is configured/);
  // A host that went away ends a goal under way.
  host.askFails = '';
  await r.handle({ op: 'ask', goal: 'Buy an iPhone' });
  r.hostLost();
  await settle();
  assert.equal(r.agent.state, 'failed');
  assert.match(r.agent.result, /connection to the host was lost/);
});

test('the agent asks nothing of a host that cannot run it, and says to update it', async () => {
  const host = new AgentHost();
  host.host = { types: ['record.start'] };
  const r = new Recording({ host, chrome: agentChrome() });
  host.recorder = r;
  await r.handle({ op: 'start', tab: 7 });
  assert.equal(r.agent.configured, false);
  assert.match(r.agent.message, /cannot run the agent/);
  assert.ok(!host.requests.some((q) => q.type === 'agent.status'));
});

test('keys the agent presses', () => {
  assert.deepEqual(keyInfo('Enter'), { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' });
  assert.deepEqual(keyInfo('a'), { key: 'a', code: 'KeyA', keyCode: 65, text: 'a' });
  assert.deepEqual(keyInfo('7'), { key: '7', code: 'Digit7', keyCode: 55, text: '7' });
  assert.equal(keyInfo('Space')?.text, ' ');
  assert.equal(keyInfo('Escape')?.text, undefined);
  assert.equal(keyInfo('F13'), null);
});

/**
 * Runs quietScreen in a fake page whose recorder says how long the DOM has
 * been quiet, on mocked timers, and says after how many ms it answered.
 */
async function quietScreenAnswersAfter(quietFor) {
  const g = /** @type {any} */ (globalThis);
  g.document = { readyState: 'complete' };
  g.MutationObserver = class { observe() {} disconnect() {} };
  g.__trailpinRecorder = { quietFor: () => quietFor, screenWire: () => '{"screen":1}' };
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 });
  try {
    let answered = null;
    const p = quietScreen(250, 2000).then((r) => { answered = r; });
    for (let ms = 0; ms <= 300; ms += 10) {
      mock.timers.tick(ms === 0 ? 0 : 10);
      for (let i = 0; i < 5; i++) await Promise.resolve();
      if (answered) {
        await p;
        assert.deepEqual(answered, { wire: '{"screen":1}' });
        return ms;
      }
    }
    throw new Error('quietScreen did not answer within 300 ms of mocked time');
  } finally {
    mock.timers.reset();
    delete g.document;
    delete g.MutationObserver;
    delete g.__trailpinRecorder;
  }
}

test('a page the recorder saw quiet long enough is taken at once, the rest of the quiet time waited for otherwise', async () => {
  assert.equal(await quietScreenAnswersAfter(60_000), 0, 'a page quiet for a minute waits for nothing');
  const after = await quietScreenAnswersAfter(100);
  assert.ok(after >= 150 && after <= 160, `a page quiet for 100 ms waits the 150 ms left, answered after ${after} ms`);
  const unknown = await quietScreenAnswersAfter(0);
  assert.ok(unknown >= 250, `a page the recorder does not watch waits the whole quiet time, answered after ${unknown} ms`);
});
