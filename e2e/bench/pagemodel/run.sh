#!/bin/sh
# Runs the page-model benchmark: ours and Playwright's, side by side in one
# headless Chromium. Arguments go to the Go program (-sizes, -runs, -launched).
set -e
cd "$(dirname "$0")/../../.."
[ -d node_modules/playwright-core ] || npm ci
exec go run ./e2e/bench/pagemodel "$@"
