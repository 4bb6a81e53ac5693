package replay

import "github.com/trailpin/trailpin/recorder/screen"

// DecodeWireScreen reads a screen in the page model's wire form
// (captureWire, docs/screen-schema.md): what the recording host receives
// from the extension with an interaction.
func DecodeWireScreen(b []byte) (*screen.Screen, error) { return decodeWireScreen(b) }
