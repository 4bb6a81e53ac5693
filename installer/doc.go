// Package installer writes and removes the native-messaging manifest that lets
// Chrome, Chromium, Edge and Brave start the Trailpin host, per user or
// system-wide, on Linux, macOS and Windows.
//
// It only touches Trailpin's own manifests and registry keys.
package installer
