// The toolbar popup: shows whether the host is connected and, when it is
// not, the exact command that fixes it.

import { PROTOCOL_VERSION } from './protocol.js';

/** @typedef {import('./protocol.js').Status} Status */

/**
 * The --browser value of `host install` for the browser this runs in.
 * @returns {string}
 */
export function browserFlag() {
  /** @type {{brands?: {brand: string}[]} | undefined} */
  const uaData = /** @type {any} */ (navigator).userAgentData;
  const brands = (uaData?.brands ?? []).map((b) => b.brand);
  if (brands.includes('Microsoft Edge')) return 'edge';
  if (/** @type {any} */ (navigator).brave) return 'brave';
  if (brands.includes('Google Chrome')) return 'chrome';
  return 'chromium';
}

/**
 * What the popup says about a status: a headline, and for a problem its
 * explanation, the command that fixes it and a hint for when it is not enough.
 * @param {Status} s
 * @param {string} browser --browser value for this browser
 * @returns {{headline: string, problem?: string, command?: string, hint?: string}}
 */
export function describe(s, browser) {
  const install = `./bin/host install --browser ${browser}`;
  switch (s.state) {
    case 'connecting':
      return { headline: 'Connecting…' };
    case 'connected':
      return { headline: 'Connected' };
    case 'missing':
      return {
        headline: 'Host not installed',
        problem: 'The browser found no Trailpin host (dev.trailpin.host), or the program its manifest names is gone.',
        hint: 'Not built yet? Run ./scripts/quickstart in your Trailpin folder instead.',
        command: install,
      };
    case 'forbidden':
      return {
        headline: 'Host refuses this extension',
        problem: `The installed host does not allow this extension (ID ${s.extensionId}).`,
        command: `${install} --extension-id ${s.extensionId}`,
      };
    case 'unstartable':
      return {
        headline: 'Host cannot be started',
        problem: 'The host manifest names a program that cannot run.',
        command: `go build -o bin/host ./host && ${install}`,
      };
    case 'exited':
      return {
        headline: 'Host stopped',
        problem: 'The host stopped, or could not be run.',
        hint: 'Its log is in ~/.local/share/trailpin/host.log.',
        command: './bin/host doctor',
      };
    case 'mismatch': {
      const hostProtocol = s.host?.protocol ?? 0;
      if (hostProtocol < PROTOCOL_VERSION) {
        return {
          headline: 'Host is out of date',
          problem: `The host (version ${s.host?.version}) speaks protocol ${hostProtocol}; this extension speaks ${PROTOCOL_VERSION}.`,
          command: `go build -o bin/host ./host && ${install}`,
        };
      }
      return {
        headline: 'Extension is out of date',
        problem: `The host (version ${s.host?.version}) speaks protocol ${hostProtocol}; this extension speaks ${PROTOCOL_VERSION}.`,
        hint: 'Then reload the extension on chrome://extensions.',
        command: 'git pull',
      };
    }
  }
}

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
function el(id) {
  const e = document.getElementById(id);
  if (!e) throw new Error(`popup.html lacks #${id}`);
  return e;
}

/** @param {Status} s */
function render(s) {
  const d = describe(s, browserFlag());
  const state = el('state');
  state.textContent = d.headline;
  state.dataset.state = s.state;

  const versions = el('versions');
  versions.hidden = !s.host;
  el('host-version').textContent = s.host?.version ?? '';
  el('host-protocol').textContent = s.host ? String(s.host.protocol) : '';

  el('problem').hidden = !d.problem;
  el('problem-text').textContent = d.problem ?? '';
  el('fix-command').textContent = d.command ?? '';
  el('fix-hint').textContent = d.hint ?? '';
  el('problem-detail').textContent = s.detail ? `Browser said: ${s.detail}` : '';
  el('retry').hidden = s.state === 'connected';
}

/** How often the popup asks again while the service worker is starting. */
const STATUS_RETRIES = 20;
const STATUS_RETRY_MS = 250;

async function refresh() {
  for (let attempt = 1; ; attempt++) {
    try {
      /** @type {Status} */
      const s = await chrome.runtime.sendMessage({ to: 'background', kind: 'status' });
      render(s);
      return;
    } catch (e) {
      // The service worker may not listen yet right after the browser starts.
      if (attempt >= STATUS_RETRIES) throw e;
      await new Promise((r) => setTimeout(r, STATUS_RETRY_MS));
    }
  }
}

el('retry').addEventListener('click', async () => {
  render(await chrome.runtime.sendMessage({ to: 'background', kind: 'reconnect' }));
});

el('copy').addEventListener('click', async () => {
  const copy = el('copy');
  try {
    await navigator.clipboard.writeText(el('fix-command').textContent ?? '');
    copy.textContent = 'Copied';
  } catch {
    copy.textContent = 'Copy failed: select the command';
  }
});

chrome.runtime.onMessage.addListener((/** @type {{kind?: string, status?: Status}} */ msg) => {
  if (msg?.kind === 'status-changed' && msg.status) render(msg.status);
});

refresh();
