package e2e

import (
	"encoding/json"

	"github.com/trailpin/trailpin/recorder/screen"
)

// WireScreen is screen.EncodeWire for tests, which build their screens: it
// writes a screen in the page model's wire form (captureWire,
// docs/screen-schema.md): what the extension sends the host with an
// interaction. Tests use it to send screens built or loaded in Go;
// screen.DecodeWire reads it back to the same screen (a test checks).
// Texts are always written out (never as a join code).
func WireScreen(s *screen.Screen) json.RawMessage {
	out, err := screen.EncodeWire(s)
	if err != nil {
		panic(err)
	}
	return out
}
