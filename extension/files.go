package extension

import (
	"embed"
	"io/fs"
)

//go:embed manifest.json *.js *.html *.css pagemodel/*.js replay/*.js background/*.js content/*.js
var all embed.FS

// Files returns the whole extension as it loads unpacked: manifest, service
// worker and its modules, popup, page model and the recorder's content scripts. The host can write it out where a browser
// should load it from.
func Files() fs.FS { return all }
