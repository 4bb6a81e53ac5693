// Stands in for WPT's ATTAcomm.js: the manual pages construct one; the oracle
// test reads its expectations from manual-cases.json instead.
window.ATTAcomm = function () {};
