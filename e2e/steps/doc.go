// Package steps checks the step builder on screens captured by the real page
// model in headless Chromium, so recorder's own tests stay free of browsers.
package steps
