// Package extension holds the Trailpin browser extension (loaded unpacked from
// this folder) and embeds its files for Go: the page-model script that replay
// injects into pages, and the manifest whose key fixes the extension's ID.
package extension

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
)

//go:embed manifest.json pagemodel.js
var files embed.FS

// PageModel returns the page-model script: the same file the extension loads
// as a content script.
func PageModel() string {
	b, err := files.ReadFile("pagemodel.js")
	if err != nil {
		panic(err) // embedded at build time; cannot be missing
	}
	return string(b)
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
