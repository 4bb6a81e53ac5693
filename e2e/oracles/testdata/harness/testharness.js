// Stands in for WPT's testharness.js: the oracle pages only need these names.
window.setup = function () {};
window.test = function () {};
window.async_test = function () { return { step: function () {}, done: function () {} }; };
window.promise_test = function () {};
window.done = function () {};
