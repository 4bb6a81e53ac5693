// One persistent native-messaging port to the Trailpin host: requests are
// matched to replies by id with a timeout, chunked replies are reassembled,
// the port reconnects with backoff, and pending requests fail on disconnect.

import { HOST_NAME, PROTOCOL_VERSION } from './protocol.js';

/** @typedef {import('./protocol.js').Message} Message */
/** @typedef {import('./protocol.js').HostInfo} HostInfo */
/** @typedef {import('./protocol.js').ConnectionState} ConnectionState */

/** How long a request waits for its reply unless the caller says otherwise. */
export const REQUEST_TIMEOUT_MS = 10_000;
/** First reconnect delay; doubled after each failure up to the maximum. */
const BACKOFF_FIRST_MS = 500;
/** Longest wait between reconnects: a host installed later is found within it. */
const BACKOFF_MAX_MS = 30_000;

/** An error reply from the host, or a failure of the connection. */
export class HostError extends Error {
  /**
   * @param {string} message
   * @param {number} [code] error code from host/PROTOCOL.md; absent for connection failures
   */
  constructor(message, code) {
    super(message);
    this.name = 'HostError';
    this.code = code;
  }
}

/**
 * Maps Chrome's reason for a closed native port to a connection state.
 * @param {string} reason chrome.runtime.lastError.message
 * @returns {ConnectionState}
 */
export function classifyDisconnect(reason) {
  if (/not found/i.test(reason)) return 'missing';
  if (/forbidden/i.test(reason)) return 'forbidden';
  if (/failed to start/i.test(reason)) return 'unstartable';
  return 'exited';
}

/**
 * @typedef {object} Pending
 * @property {(m: Message) => void} resolve
 * @property {(e: Error) => void} reject
 * @property {ReturnType<typeof setTimeout>} timer
 */

export class HostConnection {
  /**
   * @param {object} opts
   * @param {string} opts.extensionVersion sent in hello
   * @param {(c: HostConnection) => void} [opts.onChange] called after every state change
   * @param {(m: Message) => void} [opts.onHostMessage] messages the host starts (not replies)
   */
  constructor({ extensionVersion, onChange = () => {}, onHostMessage = () => {} }) {
    this.extensionVersion = extensionVersion;
    this.onChange = onChange;
    this.onHostMessage = onHostMessage;
    /** @type {chrome.runtime.Port|null} */
    this.port = null;
    /** @type {ConnectionState} */
    this.state = 'connecting';
    /** Chrome's or the host's words about the last failure. */
    this.detail = '';
    /** @type {HostInfo|null} */
    this.host = null;
    /** @type {Map<string, Pending>} */
    this.pending = new Map();
    /** @type {Map<string, string[]>} base64 pieces of chunked messages, by id */
    this.chunks = new Map();
    this.nextId = 1;
    this.backoffMs = BACKOFF_FIRST_MS;
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.retryTimer = undefined;
  }

  /**
   * Opens the port and says hello. A port already open is closed first.
   * @param {{retry?: boolean}} [opts] an automatic retry keeps showing the
   *   last failure until it succeeds, so the popup does not flicker
   */
  connect({ retry = false } = {}) {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (this.port) {
      const old = this.port;
      this.port = null;
      old.disconnect();
      this.failPending('reconnecting');
    }
    this.host = null;
    if (!retry) this.setState('connecting', '');
    const port = chrome.runtime.connectNative(HOST_NAME);
    this.port = port;
    port.onMessage.addListener((m) => this.receive(m));
    port.onDisconnect.addListener(() => {
      const reason = chrome.runtime.lastError?.message ?? 'the host closed the connection';
      if (this.port === port) this.disconnected(reason);
    });
    this.hello(port);
  }

  /** @param {chrome.runtime.Port} port the port hello goes out on */
  async hello(port) {
    try {
      const reply = await this.request('hello', { protocol: PROTOCOL_VERSION, version: this.extensionVersion });
      if (this.port !== port) return; // replaced by a newer connection
      const host = {
        version: String(reply.version ?? ''),
        protocol: Number(reply.protocol ?? 0),
        types: Array.isArray(reply.types) ? reply.types.map(String) : [],
      };
      this.host = host;
      if (host.protocol !== PROTOCOL_VERSION) {
        // Nothing else can be said on this connection; wait for the
        // person to update one side and press Retry.
        this.port = null;
        port.disconnect();
        this.failPending('protocol mismatch');
        this.setState('mismatch', `host speaks protocol ${host.protocol}, this extension ${PROTOCOL_VERSION}`);
        return;
      }
      this.backoffMs = BACKOFF_FIRST_MS;
      this.setState('connected', '');
    } catch (e) {
      // After a disconnect the state is set and a retry is scheduled
      // already; a host that never answers is treated like one that exited.
      if (this.port === port) {
        port.disconnect();
        this.disconnected(e instanceof Error ? e.message : String(e));
      }
    }
  }

  /**
   * Sends a request and resolves with the host's reply.
   * @param {string} type
   * @param {Record<string, unknown>} [body] fields beside the envelope
   * @param {number} [timeoutMs]
   * @returns {Promise<Message>} rejects with HostError on an error reply, a timeout or a disconnect
   */
  request(type, body = {}, timeoutMs = REQUEST_TIMEOUT_MS) {
    const port = this.port;
    if (!port) return Promise.reject(new HostError(`not connected to the host (${this.state})`));
    if (type !== 'hello' && this.state !== 'connected') {
      return Promise.reject(new HostError(`not connected to the host (${this.state})`));
    }
    const id = String(this.nextId++);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new HostError(`the host did not answer ${type} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      try {
        port.postMessage({ ...body, v: PROTOCOL_VERSION, id, type });
      } catch (e) {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(new HostError(`sending ${type}: ${e instanceof Error ? e.message : e}`));
      }
    });
  }

  /**
   * Answers a message the host started (its id is "host-…"): no reply to
   * this one is awaited.
   * @param {string} id the host's message id
   * @param {string} type
   * @param {Record<string, unknown>} [body]
   */
  answer(id, type, body = {}) {
    if (!this.port || this.state !== 'connected') throw new HostError(`not connected to the host (${this.state})`);
    this.port.postMessage({ ...body, v: PROTOCOL_VERSION, id, type });
  }

  /** @param {Message} m */
  receive(m) {
    if (m.type === 'chunk') {
      const whole = this.addChunk(m);
      if (whole) this.receive(whole);
      return;
    }
    const p = this.pending.get(m.id);
    if (!p) {
      // Messages the host starts have ids of their own; anything else is
      // a reply that came after its request timed out.
      if (String(m.id).startsWith('host-')) this.onHostMessage(m);
      return;
    }
    this.pending.delete(m.id);
    clearTimeout(p.timer);
    if (m.type === 'error') {
      p.reject(new HostError(String(m.message ?? 'error'), Number(m.code)));
    } else {
      p.resolve(m);
    }
  }

  /**
   * Collects one chunk; returns the whole message once its last piece is in.
   * @param {Message} m
   * @returns {Message|null}
   */
  addChunk(m) {
    const seq = Number(m.seq), count = Number(m.count);
    const parts = this.chunks.get(m.id) ?? new Array(count).fill('');
    parts[seq] = String(m.data ?? '');
    this.chunks.set(m.id, parts);
    if (seq !== count - 1) return null;
    this.chunks.delete(m.id);
    const pieces = parts.map((b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
    const bytes = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of pieces) {
      bytes.set(p, at);
      at += p.length;
    }
    return JSON.parse(new TextDecoder().decode(bytes));
  }

  /** @param {string} reason */
  disconnected(reason) {
    this.port = null;
    this.chunks.clear();
    this.failPending(reason);
    this.setState(classifyDisconnect(reason), reason);
    this.retryTimer = setTimeout(() => this.connect({ retry: true }), this.backoffMs);
    this.backoffMs = Math.min(this.backoffMs * 2, BACKOFF_MAX_MS);
  }

  /** @param {string} reason */
  failPending(reason) {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new HostError(`disconnected from the host: ${reason}`));
      this.pending.delete(id);
    }
  }

  /**
   * @param {ConnectionState} state
   * @param {string} detail
   */
  setState(state, detail) {
    this.state = state;
    this.detail = detail;
    this.onChange(this);
  }
}
