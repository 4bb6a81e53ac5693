// The recording's queue of interactions (host/PROTOCOL.md, Recording): it
// numbers the interactions the pages report, sends them to the host one at
// a time in that order, and keeps each one until the host acknowledged it.
// What is not acknowledged is kept in a storage area too
// (chrome.storage.session in the extension), so a service worker Chrome
// stopped (idle, crash, update) loses none of it: the next one sends it
// again.
//
// Nothing here touches chrome.* or the DOM: the storage area and the
// recording it serves are handed in, so node can test it (test/queue.test.mjs).

/** @typedef {import('../protocol.js').Message} Message */

/**
 * The parts of HostConnection a recording uses (a fake in unit tests).
 * @typedef {object} Host
 * @property {string} state
 * @property {(type: string, body?: Record<string, unknown>, timeoutMs?: number) => Promise<Message>} request
 * @property {(id: string, type: string, body?: Record<string, unknown>) => void} [answer] answers a message the host started
 * @property {{types: string[]} | null} [host] the host's hello
 */

/**
 * What the queue needs of the recording it serves.
 * @typedef {object} QueueOwner
 * @property {Host} host
 * @property {string} session
 * @property {string} error the recording's error: the queue says there what it could not send, and clears it once sent
 * @property {string} damaged the host's words when it said its database is damaged: nothing more is sent then
 * @property {(e: unknown) => boolean} noteDamage takes note of a damaged database; whether e said so
 * @property {() => void} changed the recording changed: tell the pages, persist it
 */

/**
 * The parts of chrome.storage.session the queue uses (a map in unit tests).
 * @typedef {object} StorageArea
 * @property {(items: Record<string, unknown>) => Promise<void>} set
 * @property {(keys: string | string[] | null) => Promise<Record<string, any>>} get
 * @property {(keys: string | string[]) => Promise<void>} remove
 * @property {(keys: null) => Promise<number>} [getBytesInUse]
 * @property {number} [QUOTA_BYTES]
 */

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
/** A screen as big as this goes out with a longer reply timeout. */
export const BIG_SCREEN_CHARS = 2_000_000;
/**
 * How long the host has to answer an interaction. It answers once it stored
 * it; a host just started again (after a crash, with its database checked)
 * on a loaded machine took over 10 s, and an answer that comes late only
 * holds the queue back, which keeps everything. A host that hangs is still
 * said, after a minute.
 */
export const INTERACTION_TIMEOUT_MS = 60_000;
/** How an error about a host that does not answer starts. */
const NO_ANSWER = 'the host has not answered interaction';
/** How long to wait before sending again an interaction the host did not answer. */
const NO_ANSWER_RETRY_MS = 1_000;
/** How long Stop waits for the host to acknowledge what is queued. */
const STOP_DRAIN_MS = 15_000;

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

export class InteractionQueue {
  /**
   * @param {object} opts
   * @param {QueueOwner} opts.owner the recording
   * @param {() => StorageArea | undefined} opts.storage where unacknowledged interactions are kept, if anywhere
   */
  constructor({ owner, storage }) {
    this.owner = owner;
    this.storage = storage;
    this.nextSeq = 1;
    /** @type {Queued[]} sent or not, not yet acknowledged, in seq order */
    this.items = [];
    this.acked = 0;
    this.pumping = false;
    /** While the recording asks the host where it stands, nothing is sent. */
    this.resyncing = false;
    /** @type {Set<number>} seqs the storage could not keep (full): in memory only */
    this.unkept = new Set();
    /** Set by takeUp: the next resumeAfter checks that nothing pending was lost. */
    this.checkLost = false;
    /** @type {Promise<unknown>} the storage writes, one after another, in order */
    this.writes = Promise.resolve();
  }

  /** Forgets every interaction, and what the storage keeps of them. */
  reset() {
    this.nextSeq = 1;
    this.items = [];
    this.acked = 0;
    this.pumping = false;
    this.resyncing = false;
    this.unkept = new Set();
    this.checkLost = false;
    this.write(() => this.clearPending());
  }

  /**
   * Runs a storage write after the ones before it.
   * @param {() => Promise<unknown>|undefined} fn
   */
  write(fn) {
    this.writes = this.writes.then(fn).catch(() => {});
    return this.writes;
  }

  /** The storage's size limit, in bytes. */
  quota() {
    return Number(this.storage()?.QUOTA_BYTES) || 10 * 1048576;
  }

  /** What the person must know of interactions kept in memory only; '' when none is. */
  warning() {
    if (!this.unkept.size) return '';
    return `${this.unkept.size} interaction${this.unkept.size === 1 ? ' is' : 's are'} kept only in memory: the host has not `
      + 'acknowledged them and the browser\'s session storage for the extension is full '
      + `(${Math.round(this.quota() / 1048576)} MB). They are lost if Chrome stops the extension's service worker before the host `
      + 'is back: reconnect the host now (trailpin doctor says what is wrong), then go on recording.';
  }

  /**
   * Numbers an interaction and queues it for the host.
   * @param {Record<string, unknown>} interaction
   * @param {string} [screen] wire form of the screen it names, the first time
   * @param {Promise<void>} [ready]
   */
  add(interaction, screen, ready) {
    const seq = this.nextSeq++;
    interaction.seq = seq;
    /** @type {Queued} */
    const q = { seq, interaction, screen, ready };
    this.items.push(q);
    this.owner.changed();
    // What did not fit before is tried again first, in order.
    for (const u of this.items) if (this.unkept.has(u.seq)) this.keep(u);
    this.keep(q);
    // Kept again once complete (a navigation's direction, a tab's title).
    if (ready) ready.then(() => this.keep(q));
    this.pump();
  }

  /**
   * Keeps an unacknowledged interaction in the storage, unless it was
   * acknowledged already. When the storage is full it stays in memory
   * only, and the popup and the recording bar say so (warning).
   * @param {Queued} q
   */
  keep(q) {
    const area = this.storage();
    if (!area) return;
    this.write(async () => {
      if (!this.items.includes(q)) return;
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
        if (this.unkept.delete(q.seq)) this.owner.changed();
      } catch {
        // Full (QUOTA_BYTES): kept in memory; tried again when an
        // acknowledgement makes room.
        if (!this.unkept.has(q.seq)) {
          this.unkept.add(q.seq);
          this.owner.changed();
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
    this.write(() => this.storage()?.remove(seqs.map((s) => PENDING_PREFIX + s)));
    // Room again for what did not fit.
    if (retry) for (const q of this.items) if (this.unkept.has(q.seq)) this.keep(q);
  }

  /** Removes every kept interaction (of an earlier recording). */
  async clearPending() {
    const area = this.storage();
    if (!area) return;
    const all = await area.get(null);
    const keys = Object.keys(all ?? {}).filter((k) => k.startsWith(PENDING_PREFIX));
    if (keys.length) await area.remove(keys);
  }

  /**
   * The interactions a stopped service worker kept, in seq order, from
   * everything its storage holds.
   * @param {Record<string, any>} stored
   * @returns {Promise<Queued[]>}
   */
  static async kept(stored) {
    /** @type {Queued[]} */
    const queue = [];
    for (const [k, /** @type {PendingEntry} */ v] of Object.entries(stored)) {
      if (!k.startsWith(PENDING_PREFIX) || !v || !(Number(v.seq) > 0) || !v.interaction) continue;
      /** @type {Queued} */
      const q = { seq: Number(v.seq), interaction: v.interaction };
      if (typeof v.screen === 'string') q.screen = v.screen;
      else if (typeof v.screenGzip === 'string') q.screen = await gunzipBase64(v.screenGzip).catch(() => undefined);
      queue.push(q);
    }
    queue.sort((a, b) => a.seq - b.seq);
    return queue;
  }

  /**
   * Goes on with what a stopped service worker left: the interactions it
   * kept, and the numbering after what it handed out, kept or not. The
   * next resumeAfter checks that none is missing.
   * @param {Queued[]} items from kept
   * @param {number} nextSeq
   */
  takeUp(items, nextSeq) {
    this.items = items;
    this.nextSeq = nextSeq;
    this.acked = items.length ? items[0].seq - 1 : nextSeq - 1;
    this.checkLost = true;
  }

  /**
   * The host has every interaction up to last: those are forgotten, and
   * numbering goes on after it (a restarted worker may not know of the last
   * ones stored). Returns the seqs that were lost: handed out by a worker
   * before this one (takeUp), not kept, and not stored by the host.
   * @param {number} last the host's lastSeq
   * @returns {number[]}
   */
  resumeAfter(last) {
    this.unkeep(this.items.filter((q) => q.seq <= last).map((q) => q.seq));
    this.items = this.items.filter((q) => q.seq > last);
    this.acked = Math.max(this.acked, last);
    this.nextSeq = Math.max(this.nextSeq, last + 1);
    if (!this.checkLost) return [];
    this.checkLost = false;
    return this.lostAfter(last);
  }

  /**
   * The seqs a restarted worker handed out before, that the host does not
   * have and that were not kept.
   * @param {number} last the host's lastSeq
   * @returns {number[]}
   */
  lostAfter(last) {
    const have = new Set(this.items.map((q) => q.seq));
    const lost = [];
    for (let seq = last + 1; seq < this.nextSeq; seq++) if (!have.has(seq)) lost.push(seq);
    return lost;
  }

  /** Resolves once nothing is being sent. */
  async idle() {
    while (this.pumping) await new Promise((r) => setTimeout(r, 20));
  }

  /** Resolves once every queued interaction is acknowledged, or rejects after ms. */
  async drained(ms = STOP_DRAIN_MS) {
    const deadline = Date.now() + ms;
    while (this.items.length) {
      if (this.owner.damaged) throw new Error(this.owner.damaged);
      if (Date.now() > deadline) {
        throw new Error(`the host has not acknowledged ${this.items.length} interactions; is it connected? Press Stop again once it is`);
      }
      this.pump();
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Sends what is queued, in seq order, one at a time. */
  async pump() {
    const owner = this.owner;
    if (this.pumping || this.resyncing || owner.damaged) return;
    this.pumping = true;
    try {
      while (this.items.length && owner.host.state === 'connected' && !owner.damaged) {
        const q = this.items[0];
        if (q.ready) await q.ready;
        /** @type {Record<string, unknown>} */
        const body = { session: owner.session, interaction: q.interaction };
        if (q.screen) body.screen = JSON.parse(q.screen);
        const reply = await owner.host.request('record.interaction', body, INTERACTION_TIMEOUT_MS);
        if (this.items[0] === q && Number(reply.seq) === q.seq) {
          this.items.shift();
          this.acked = q.seq;
          this.unkeep([q.seq]);
          if (owner.error.startsWith(NO_ANSWER)) owner.error = '';
          owner.changed();
        }
      }
    } catch (e) {
      // A disconnect: the recording's resync sends it again once the host
      // is back. No answer in time (a host that hangs): it may still store
      // it, so it is kept and sent again (the same seq is harmless). Any
      // other refusal is a bug on one side; say it, keep the rest.
      // A damaged database: kept, and not sent again to this host.
      const err = /** @type {{code?: number, name?: string}} */ (e ?? {});
      if (owner.noteDamage(e)) {
        // The queue stays as it is.
      } else if (owner.host.state === 'connected' && err.name === 'HostError' && err.code === undefined) {
        owner.error = `${NO_ANSWER} ${this.items[0]?.seq} (${e instanceof Error ? e.message : e}); it is kept and sent again`;
        owner.changed();
        setTimeout(() => this.pump(), NO_ANSWER_RETRY_MS);
      } else if (owner.host.state === 'connected') {
        owner.error = `the host refused interaction ${this.items[0]?.seq}: ${e instanceof Error ? e.message : e}`;
        const refused = this.items.shift();
        if (refused) this.unkeep([refused.seq]);
        owner.changed();
      }
    } finally {
      this.pumping = false;
    }
    if (this.items.length && owner.host.state === 'connected' && !owner.error) this.pump();
  }
}
