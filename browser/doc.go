// Package browser drives a Chromium page and reads it: it finds and starts
// the browser (FindChrome, Start), runs the page model of extension/pagemodel
// in an isolated world of every frame, captures screens (Capture, CaptureURL)
// with cross-origin frames merged in, resolves refs to points and elements,
// and sends trusted mouse and keyboard input. docs/screen-schema.md describes
// the screens it returns.
//
// It knows nothing of trails: the replay engine, the demo and the tests build
// on it. It never imports replay or host.
package browser
