// The extension's side of host/PROTOCOL.md: names and numbers both sides
// must agree on. Change them only together with the Go side.

/** Native-messaging host name registered by `host install`. */
export const HOST_NAME = 'dev.trailpin.host';

/** Protocol version this extension speaks (nativemsg.ProtocolVersion). */
export const PROTOCOL_VERSION = 1;

/** Error codes of error replies; append-only, see host/PROTOCOL.md. */
export const ErrorCode = Object.freeze({
  MALFORMED: 1,
  BAD_ENVELOPE: 2,
  UNKNOWN_TYPE: 3,
  PROTOCOL_VERSION: 4,
  BAD_REQUEST: 5,
  INTERNAL: 6,
  DATABASE_DAMAGED: 7,
});

/**
 * Connection states the background reports to extension pages.
 * - connecting: a port is open and hello has not been answered yet
 * - connected: hello answered with our protocol version
 * - missing: no manifest for dev.trailpin.host is installed
 * - forbidden: a manifest exists but does not allow this extension
 * - unstartable: the manifest names a program that cannot be started
 * - exited: the host started and then stopped or broke the protocol
 * - mismatch: the host speaks another protocol version
 * @typedef {'connecting'|'connected'|'missing'|'forbidden'|'unstartable'|'exited'|'mismatch'} ConnectionState
 */

/**
 * Every message wears this envelope (host/PROTOCOL.md).
 * @typedef {{v: number, id: string, type: string} & Record<string, unknown>} Message
 */

/**
 * What the host said in its hello.
 * @typedef {{version: string, protocol: number, types: string[]}} HostInfo
 */

/**
 * The connection as extension pages see it.
 * @typedef {object} Status
 * @property {ConnectionState} state
 * @property {string} detail Chrome's or the host's words about the last failure, '' when none.
 * @property {HostInfo|null} host The host's hello, once received.
 * @property {number} protocol The extension's protocol version.
 * @property {string} version The extension's version.
 * @property {string} extensionId
 */

/**
 * Requests extension pages send to the background with
 * chrome.runtime.sendMessage. status, reconnect, request, record and agents come
 * only from the extension's own pages; a recorded tab's content scripts
 * send interaction, record-stop, agent-stop and record-changes, each checked
 * (senders.js).
 * @typedef {{to: 'background', kind: 'status'}
 *   | {to: 'background', kind: 'reconnect'}
 *   | {to: 'background', kind: 'request', type: string, body?: Record<string, unknown>, timeoutMs?: number}
 *   | ({to: 'background', kind: 'record'} & RecordOp)
 *   | {to: 'background', kind: 'agents', op: 'state'|'decide'|'revoke'|'share'|'disconnect', client?: string, allow?: boolean, tab?: number, on?: boolean}
 *   | {to: 'background', kind: 'record-stop'}
 *   | {to: 'background', kind: 'agent-stop'}
 *   | {to: 'background', kind: 'record-changes', screen: string}
 *   | {to: 'background', kind: 'traversal', url: string, byPerson: boolean}
 *   | {to: 'background', kind: 'interaction', interaction: Record<string, unknown>, screen?: string}} PageRequest
 */

/**
 * What an extension page asks of the recording (answered with a
 * RecordingView). The recorded pages send 'interaction' (a
 * recorder.Interaction without seq and tab, and the wire form of the screen
 * it names the first time that screen is used) and 'record-stop'.
 * @typedef {{op: 'state'}
 *   | {op: 'start', tab: number, project?: string}
 *   | {op: 'stop'}
 *   | {op: 'project', dir: string, create?: boolean}
 *   | {op: 'addApp', name: string}
 *   | {op: 'save', title: string, secrets?: Record<string, string>, intents?: Record<string, string>}
 *   | {op: 'discard'}
 *   | {op: 'export'}
 *   | {op: 'ask', goal: string, secrets?: string[]}
 *   | {op: 'askStop'}
 *   | {op: 'agentStatus'}} RecordOp
 */

/**
 * What the agent does in a recording ("Ask the agent"), for the popup and
 * the recording bar.
 * @typedef {object} AgentView
 * @property {'idle'|'running'|'done'|'stopped'|'failed'} state
 * @property {boolean} known whether the host said if a model is configured
 * @property {boolean} configured a model is configured: the agent can be asked
 * @property {string} model the model's name
 * @property {string} message why the agent cannot be asked, and how to fix it; '' when it can
 * @property {string} goal the goal asked last
 * @property {string} action what the agent is doing now
 * @property {string} result how the last goal ended, in words
 */

/**
 * A recording as the popup shows it. review, saved and exported are the
 * host's replies to record.stop, record.save and trail.export
 * (host/PROTOCOL.md).
 * @typedef {object} RecordingView
 * @property {'idle'|'starting'|'recording'|'stopping'|'stopped'|'saved'} phase
 * @property {string} session
 * @property {number} tab the recorded tab (-1 when none)
 * @property {number} interactions how many were recorded
 * @property {number} unacknowledged how many the host has not acknowledged yet
 * @property {{dir: string, name: string}|null} project
 * @property {{name: string, baseUrl: string}|null} app
 * @property {string} origin
 * @property {boolean} needsProject
 * @property {boolean} needsApp
 * @property {Record<string, any>|null} review
 * @property {Record<string, any>|null} saved
 * @property {Record<string, any>|null} exported
 * @property {string} error the last failure, in words; '' when none
 * @property {string} warning a risk to what was recorded, in words (the session storage is full, the host's database is damaged); '' when none
 * @property {boolean} damaged the host said its database is damaged (error 7): nothing is sent until the person reconnects
 * @property {AgentView} agent what the agent does in the recorded tab
 */

/**
 * The background's answer to a 'request': the host's reply, or an error.
 * @typedef {{ok: true, reply: Message} | {ok: false, error: string, code?: number}} PageReply
 */

/**
 * The background's answer to a message it does not take from its sender
 * (senders.js: a content script asking what only the extension's pages may,
 * a tab that is not recorded, a malformed message). Nothing changed.
 * @typedef {{ok: false, refused: true, error: string}} Refusal
 */
