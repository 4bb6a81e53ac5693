// The recorder's files, in the order they are injected into a recorded
// frame, after the page model's (pagemodel-files.js): each file uses what the
// files before it added to the recorder's namespace (content/core.js says
// how), and api.js installs it. The background
// injects them from this list (background/pagescripts.js), and Go reads the
// same list (embed.go), so this is the one place the order is written.
// Keep it a plain list of quoted paths: embed.go reads it as text.

/** @type {readonly string[]} */
export const RECORDER_FILES = Object.freeze([
  'content/core.js',
  'content/events.js',
  'content/frames.js',
  'content/secrets.js',
  'content/screens.js',
  'content/sending.js',
  'content/typing.js',
  'content/interactions.js',
  'content/picker.js',
  'content/listeners.js',
  'content/api.js',
]);
