package extension

import (
	"encoding/json"
	"io/fs"
	"path"
	"regexp"
	"testing"
)

// TestReferencedFilesExist checks every file the manifest and the popup name
// is part of the extension, so a rename cannot leave the extension broken.
func TestReferencedFilesExist(t *testing.T) {
	var m struct {
		Background struct {
			ServiceWorker string `json:"service_worker"`
			Type          string `json:"type"`
		} `json:"background"`
		Action struct {
			DefaultPopup string `json:"default_popup"`
		} `json:"action"`
	}
	if err := json.Unmarshal(Manifest(), &m); err != nil {
		t.Fatal(err)
	}
	if m.Background.Type != "module" {
		t.Errorf("background type = %q, want module (background.js uses import)", m.Background.Type)
	}
	refs := []string{m.Background.ServiceWorker, m.Action.DefaultPopup}
	popup, err := fs.ReadFile(Files(), m.Action.DefaultPopup)
	if err != nil {
		t.Fatal(err)
	}
	for _, match := range regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllSubmatch(popup, -1) {
		refs = append(refs, string(match[1]))
	}
	// Every module's imports, relative to the module (the service worker's
	// modules in background/ import from ../ too).
	modules, err := fs.Glob(Files(), "*.js")
	if err != nil {
		t.Fatal(err)
	}
	inFolder, err := fs.Glob(Files(), "background/*.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append(modules, inFolder...) {
		src, err := fs.ReadFile(Files(), f)
		if err != nil {
			t.Fatal(err)
		}
		for _, match := range regexp.MustCompile(`(?m)^import .* from '(\.\.?/[^']+)'`).FindAllSubmatch(src, -1) {
			refs = append(refs, path.Join(path.Dir(f), string(match[1])))
		}
	}
	for _, ref := range refs {
		if _, err := fs.Stat(Files(), ref); err != nil {
			t.Errorf("%s is referenced but not in the extension: %v", ref, err)
		}
	}
	if len(refs) < 6 {
		t.Errorf("found only %d references (%q); the patterns no longer match the sources", len(refs), refs)
	}
}
