package screen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"testing"
)

func FuzzDecodeWire(f *testing.F) {
	f.Add([]byte(`{"schema":1,"url":"u","root":["e1","document","html",1,[0,0,10,10],0,"a",0,["a",["b"],0,1,["e2","button","button",1,0,"Save","Save",{"checked":"true","level":2}]]]}`))
	f.Add([]byte(`{"schema":1,"root":["e1","generic","div"]}`))
	f.Add([]byte(`{"schema":1,"root":[["x"]]}`))
	f.Add([]byte(`{"root":"text"}`))
	f.Add([]byte(`{"root":["e1","generic","div",0,0,0,0,0,0,0]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := DecodeWire(b)
		if err == nil && s == nil {
			t.Fatalf("DecodeWire(%q) = nil, nil", b)
		}
	})
}

// TestDecodeWireCodes checks the short forms of the wire: a ref "e<N>"
// written as N, a common role and tag as their index, and a name that is the
// element's text (here one joined from its children) as 1; a string still
// reads as itself.
func TestDecodeWireCodes(t *testing.T) {
	s, err := DecodeWire([]byte(`{"schema":1,"root":[1,1,45,1,0,0,1,0,[[12,4,7,1,0,1,3,0,["Save"," now"]],["f1e3","widget","x-widget",0,0,"Own",0]]]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := &Node{Ref: "e1", Role: "document", Tag: "html", Visible: true, Text: "Save now", Children: []*Node{
		{Ref: "e12", Role: "button", Tag: "button", Visible: true, Name: "Save now", Text: "Save now", Children: []*Node{
			{Tag: TextTag, Text: "Save", Visible: true}, {Tag: TextTag, Text: " now", Visible: true}}},
		{Ref: "f1e3", Role: "widget", Tag: "x-widget", Name: "Own"},
	}}
	if !reflect.DeepEqual(s.Root, want) {
		a, _ := json.Marshal(s.Root)
		t.Errorf("decoded %s", a)
	}
	// 5: the visible children's texts joined by a space, the hidden run left out.
	s, err = DecodeWire([]byte(`{"schema":1,"root":[3,0,0,1,0,0,5,0,["Total",["(hidden)"],"12"]]}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Root.Text != "Total 12" {
		t.Errorf("visible-only join gave %q, want %q", s.Root.Text, "Total 12")
	}
	for _, bad := range []string{
		`{"root":[1,0,0,0,0,0,7]}`,   // no join code beyond 6
		`{"root":[0,0,0]}`,           // no ref 0
		`{"root":[-3,0,0]}`,          // nor a negative one
		`{"root":[1.5,0,0]}`,         // nor a fraction
		`{"root":[1,999,0]}`,         // a role beyond the table
		`{"root":[1,0,-1]}`,          // a tag before it
		`{"root":[1,0,0,0,0,2]}`,     // a name code other than 1
		`{"root":[1,"generic",0.5]}`, // a fractional tag code
	} {
		if _, err := DecodeWire([]byte(bad)); err == nil {
			t.Errorf("DecodeWire(%s) = nil error, want one", bad)
		}
	}
}

// TestWireTablesMatchPageModel checks that the role and tag tables here are
// the page model's WIRE_ROLES and WIRE_TAGS, entry for entry.
func TestWireTablesMatchPageModel(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "extension", "pagemodel", "wire.js"))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]string{"WIRE_ROLES": wireRoles, "WIRE_TAGS": wireTags} {
		m := regexp.MustCompile(`const ` + name + ` = \[([^\]]*)\]`).FindSubmatch(b)
		if m == nil {
			t.Fatalf("wire.js has no %s", name)
		}
		var got []string
		for _, q := range regexp.MustCompile(`'([^']*)'`).FindAllSubmatch(m[1], -1) {
			got = append(got, string(q[1]))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s in wire.js is\n%q\nhere\n%q", name, got, want)
		}
	}
}
