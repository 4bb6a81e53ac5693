// Package snapshotoracle compares Trailpin's snapshot text with
// Playwright's own, page by page: `host snapshot --mode aria` with
// locator('body').ariaSnapshot() and `--mode ai` with
// page.ariaSnapshot({mode: 'ai'}), refs set aside. playwright-core from the
// repository's node_modules drives Chromium for its side; Trailpin's page
// model runs in a tab of the caller's browser for the other.
//
// Compare is for tests: the fixture pages here (oracle_test.go) and any
// page another suite serves, such as the real-app corpus. It renders and
// reports; it must not paper over a difference (the deliberate ones are
// listed in docs/screen-schema.md and a page that shows one is not a
// fixture for this check).
package snapshotoracle
