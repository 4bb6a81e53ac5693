// The page model's files, in the order they are injected into one world: each
// file uses what the files before it added to the page model's namespace
// (extension/pagemodel/core.js says how). The extension injects them from
// this list (background/pagescripts.js), and Go reads the same list to give
// replay the page model (embed.go), so this is the one place the order is
// written.
// Keep it a plain list of quoted paths: embed.go reads it as text.

/** @type {readonly string[]} */
export const PAGE_MODEL_FILES = Object.freeze([
  'pagemodel/core.js',
  'pagemodel/sheets.js',
  'pagemodel/refs.js',
  'pagemodel/visibility.js',
  'pagemodel/hover.js',
  'pagemodel/roles.js',
  'pagemodel/names.js',
  'pagemodel/capture.js',
  'pagemodel/wire.js',
  'pagemodel/incremental.js',
  'pagemodel/directed.js',
  'pagemodel/api.js',
]);
