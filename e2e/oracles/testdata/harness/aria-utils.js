// Stands in for WPT's aria-utils.js: records which elements the page wants
// checked; the oracle test reads their data-expectedlabel afterwards.
window.AriaUtils = {
  verifyLabelsBySelector: function (selector) {
    (window.__oracleSelectors = window.__oracleSelectors || []).push(selector);
  },
};
