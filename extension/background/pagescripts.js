// What the recording puts into a recorded tab: the recorder's content
// scripts in the extension's world, the dialog watch in the page's world
// (docs/recording.md, Dialogs), the typing's timers there too and the
// recording bar; and the registration
// of the dialog watch for every new document while recording.

import { PAGE_MODEL_FILES } from '../pagemodel-files.js';
import { RECORDER_FILES } from '../content-files.js';

/** Scripts of a recorded frame, in the extension's world, in order. */
export const ISOLATED_FILES = [...PAGE_MODEL_FILES, ...RECORDER_FILES];
/**
 * In the page's own world of a recorded frame: says that a dialog opened in
 * a document dialogs.js did not start with (docs/recording.md, Dialogs).
 */
export const MAIN_FILES = ['dialogs-unverified.js'];
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
/**
 * In the page's own world of every recorded frame: follows the timers its
 * typing set off, so that a key pressed before they ran is recorded as
 * pressed at once (docs/trail-format.md, press).
 */
export const TIMER_FILES = ['typingtimers.js'];
/** The recording bar, in the top frame only. */
export const BAR_FILES = ['changelist.js', 'recordbar.js'];

/** DIALOG_SCRIPTS registered while recording, and removed after. */
export class DialogWatch {
  /** @param {any} chrome the chrome.* APIs (a fake in unit tests) */
  constructor(chrome) {
    this.chrome = chrome;
    /** @type {Promise<void>} DIALOG_SCRIPTS registered or not, one change after another */
    this.done = Promise.resolve();
    /** Whether DIALOG_SCRIPTS are registered: new documents start with them. */
    this.watched = false;
  }

  /**
   * Registers DIALOG_SCRIPTS while recording, and removes them after: they
   * would run in every page the person opens.
   * @param {boolean} on
   * @returns {Promise<void>}
   */
  set(on) {
    this.done = this.done.then(async () => {
      this.watched = false;
      const scripting = this.chrome.scripting;
      if (!scripting?.registerContentScripts) return;
      const ids = DIALOG_SCRIPTS.map((d) => d.id);
      /** @type {{id: string}[]} */
      const have = await scripting.getRegisteredContentScripts({ ids }).catch(() => []);
      if (on && have.length === ids.length) {
        this.watched = true;
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
      this.watched = true;
    }).catch(() => {
      // Not registered: no document's dialogs are recorded, and the
      // recording bar says so when one opens (Recording.inject).
    });
    return this.done;
  }
}
