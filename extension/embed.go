// Package extension holds the Trailpin browser extension (loaded unpacked from
// this folder) and embeds its files for Go: the page model that replay
// injects into pages, the scripts replay runs beside it, the recorder's
// content scripts, and the manifest whose key fixes the extension's ID.
package extension

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

//go:embed manifest.json pagemodel-files.js pagemodel/*.js content-files.js content/*.js
var files embed.FS

// quotedPath is how a file list (pagemodel-files.js, content-files.js)
// writes each path.
var quotedPath = regexp.MustCompile(`'([^']+)'`)

// scriptList is a list of files injected in order into one world, as a
// file of the extension writes it: the array named in a JavaScript file.
type scriptList struct {
	file  string         // the file that lists them
	array *regexp.Regexp // the list in it
}

// read returns the listed files' paths and the files as one script, in
// their order.
func (l scriptList) read() ([]string, string) {
	list, err := files.ReadFile(l.file)
	if err != nil {
		panic(err) // embedded at build time; cannot be missing
	}
	m := l.array.FindSubmatch(list)
	if m == nil {
		panic(fmt.Sprintf("extension: %s has no list of files", l.file))
	}
	var names []string
	var src strings.Builder
	for _, q := range quotedPath.FindAllSubmatch(m[1], -1) {
		name := string(q[1])
		b, err := files.ReadFile(name)
		if err != nil {
			panic(fmt.Sprintf("extension: %s names %s: %v", l.file, name, err))
		}
		names = append(names, name)
		src.Write(b)
		// Each file is a classic script of its own in the extension; one
		// after another here, a line break keeps a last-line comment from
		// running into the next file.
		src.WriteString("\n")
	}
	return names, src.String()
}

// pageModel reads the page model's files once, in their order.
var pageModel = sync.OnceValues(scriptList{
	file:  "pagemodel-files.js",
	array: regexp.MustCompile(`(?s)PAGE_MODEL_FILES = Object\.freeze\(\[(.*?)\]\)`),
}.read)

// recorder reads the recorder's content scripts once, in their order.
var recorder = sync.OnceValues(scriptList{
	file:  "content-files.js",
	array: regexp.MustCompile(`(?s)RECORDER_FILES = Object\.freeze\(\[(.*?)\]\)`),
}.read)

// PageModelFiles returns the paths of the page model's files (relative to
// the extension's folder) in the order they must be injected into one world:
// the order pagemodel-files.js gives, which the extension uses too.
func PageModelFiles() []string {
	names, _ := pageModel()
	return append([]string(nil), names...)
}

// PageModel returns the page model as one script: its files in order, as the
// extension injects them as content scripts.
func PageModel() string {
	_, src := pageModel()
	return src
}

// RecorderFiles returns the paths of the recorder's content scripts in the
// order the extension injects them after the page model's: the order
// content-files.js gives.
func RecorderFiles() []string {
	names, _ := recorder()
	return append([]string(nil), names...)
}

// Recorder returns the recorder's content scripts as one script, in order,
// for a page that already has the page model (a benchmark runs it so).
func Recorder() string {
	_, src := recorder()
	return src
}

// Manifest returns the extension's manifest.json.
func Manifest() []byte {
	b, err := files.ReadFile("manifest.json")
	if err != nil {
		panic(err)
	}
	return b
}

// ID returns the extension ID fixed by the key in manifest.json, the way
// Chrome derives it: the first 128 bits of the SHA-256 of the public key,
// written with the letters a–p.
func ID() (string, error) {
	var m struct {
		Key string `json:"key"`
	}
	if err := json.Unmarshal(Manifest(), &m); err != nil {
		return "", fmt.Errorf("reading extension manifest: %w", err)
	}
	der, err := base64.StdEncoding.DecodeString(m.Key)
	if err != nil || len(der) == 0 {
		return "", fmt.Errorf("extension manifest has no valid key: %v", err)
	}
	sum := sha256.Sum256(der)
	id := make([]byte, 32)
	for i, b := range sum[:16] {
		id[2*i] = 'a' + b>>4
		id[2*i+1] = 'a' + b&0x0f
	}
	return string(id), nil
}
