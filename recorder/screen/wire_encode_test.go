package screen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestEncodeWireRoundTrip checks that every screen of the snapshot fixtures
// (captured pages: states, boxes, secrets, frames) decodes from its wire form
// to the very screen it was encoded from.
func TestEncodeWireRoundTrip(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "snapshot", "screens", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixture screens: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var s Screen
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		wire, err := EncodeWire(&s)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		got, err := DecodeWire(wire)
		if err != nil {
			t.Fatalf("%s: the wire form does not decode: %v", f, err)
		}
		if !reflect.DeepEqual(&s, got) {
			a, _ := json.Marshal(&s)
			b, _ := json.Marshal(got)
			t.Errorf("%s: the wire form decodes to another screen:\nwant %s\ngot  %s", f, a, b)
		}
	}
}

// TestEncodeWireFlags checks each boolean the wire form packs into flags,
// one at a time, and the hidden and secret text runs.
func TestEncodeWireFlags(t *testing.T) {
	for bit, field := range wireFlags {
		n := &Node{Ref: "e2", Role: "button", Tag: "button", Name: "Save"}
		*field(n) = true
		s := &Screen{Schema: ScreenSchema, URL: "https://shop.test/", Root: &Node{Ref: "e1", Role: "document", Tag: "html", Visible: true,
			Children: []*Node{n, {Tag: TextTag, Text: "shown", Visible: true}, {Tag: TextTag, Text: "hidden"}, {Tag: TextTag, Secret: true, Visible: true}}}}
		wire, err := EncodeWire(s)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeWire(wire)
		if err != nil {
			t.Fatalf("flag %d: %v", bit, err)
		}
		if !reflect.DeepEqual(s, got) {
			t.Errorf("flag %d: %s decodes to another screen", bit, wire)
		}
	}
}
