// The recorder's files, in the order they are injected into a recorded
// frame, after the page model's (pagemodel-files.js): the background
// injects them from this list (background/pagescripts.js), and Go reads the
// same list (embed.go), so this is the one place the order is written.
// Keep it a plain list of quoted paths: embed.go reads it as text.

/** @type {readonly string[]} */
export const RECORDER_FILES = Object.freeze([
  'recorder.js',
]);
