package installer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// A Manifest is the native-messaging host manifest Chrome reads to start the
// host for an extension.
type Manifest struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Path is the host executable; Chrome requires it to be absolute on
	// Linux and macOS.
	Path           string   `json:"path"`
	Type           string   `json:"type"`
	AllowedOrigins []string `json:"allowed_origins"`
}

const description = "Trailpin host: records browser tests from the extension and replays them"

// ErrInvalidManifest is wrapped by every Validate failure.
var ErrInvalidManifest = errors.New("invalid manifest")

// Origin returns the origin Chrome gives an extension: chrome-extension://ID/.
func Origin(extensionID string) string { return "chrome-extension://" + extensionID + "/" }

// ValidExtensionID reports whether id looks like a Chrome extension ID: 32
// letters from a to p.
func ValidExtensionID(id string) bool {
	if len(id) != 32 {
		return false
	}
	for _, c := range id {
		if c < 'a' || c > 'p' {
			return false
		}
	}
	return true
}

// NewManifest returns the manifest for the host at hostPath, allowing only
// the extension with extensionID.
func NewManifest(p Platform, hostPath, extensionID string) (Manifest, error) {
	m := Manifest{
		Name:           HostName,
		Description:    description,
		Path:           hostPath,
		Type:           "stdio",
		AllowedOrigins: []string{Origin(extensionID)},
	}
	return m, m.Validate(p, extensionID)
}

// Validate checks m is a manifest Chrome accepts for Trailpin's host and the
// extension wantID (any valid ID when wantID is empty).
func (m Manifest) Validate(p Platform, wantID string) error {
	var problems []string
	if m.Name != HostName {
		problems = append(problems, fmt.Sprintf("name is %q, want %q", m.Name, HostName))
	}
	if m.Type != "stdio" {
		problems = append(problems, fmt.Sprintf("type is %q, want \"stdio\"", m.Type))
	}
	if !p.IsAbs(m.Path) {
		problems = append(problems, fmt.Sprintf("path %q is not absolute", m.Path))
	}
	switch {
	case len(m.AllowedOrigins) != 1:
		problems = append(problems, fmt.Sprintf("allowed_origins has %d entries, want exactly Trailpin's extension", len(m.AllowedOrigins)))
	case wantID != "" && m.AllowedOrigins[0] != Origin(wantID):
		problems = append(problems, fmt.Sprintf("allowed_origins is %q, want %q", m.AllowedOrigins[0], Origin(wantID)))
	case !ValidExtensionID(strings.TrimSuffix(strings.TrimPrefix(m.AllowedOrigins[0], "chrome-extension://"), "/")) ||
		!strings.HasSuffix(m.AllowedOrigins[0], "/"):
		problems = append(problems, fmt.Sprintf("allowed_origins entry %q is not chrome-extension://<32 letters a-p>/", m.AllowedOrigins[0]))
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s", ErrInvalidManifest, strings.Join(problems, "; "))
	}
	return nil
}

// ExtensionID returns the ID named by the manifest's only allowed origin, or
// "" when there is not exactly one.
func (m Manifest) ExtensionID() string {
	if len(m.AllowedOrigins) != 1 {
		return ""
	}
	return strings.TrimSuffix(strings.TrimPrefix(m.AllowedOrigins[0], "chrome-extension://"), "/")
}

// Encode returns the manifest as indented JSON with a final newline.
func (m Manifest) Encode() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		panic(err) // a struct of strings always encodes
	}
	return buf.Bytes()
}

// ParseManifest reads a manifest file's content.
func ParseManifest(b []byte) (Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return Manifest{}, fmt.Errorf("%w: not JSON: %v", ErrInvalidManifest, err)
	}
	return m, nil
}
