package trail

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/selector"
)

func TestParseRefs(t *testing.T) {
	tests := []struct {
		in   string
		want []Ref
		bad  bool
	}{
		{in: "plain $5.00 text"},
		{in: "${secret:stripe-key}", want: []Ref{{RefSecret, "stripe-key"}}},
		{in: "a ${param:coupon} b ${user:admin.password}", want: []Ref{{RefParam, "coupon"}, {RefUser, "admin.password"}}},
		{in: "$${param:literal}"},
		{in: "$$${param:x}"},
		{in: "${param:x", bad: true},
		{in: "${secrets:x}", bad: true},
		{in: "${x}", bad: true},
		{in: "${user:admin}", bad: true},
		{in: "${user:admin.email}", bad: true},
		{in: "${param:}", bad: true},
		{in: "${param:a b}", bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseRefs(tt.in)
			if tt.bad {
				var re *RefError
				if !errors.As(err, &re) {
					t.Fatalf("ParseRefs(%q) = %v, %v; want a RefError", tt.in, got, err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("ParseRefs(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestExpandRefs(t *testing.T) {
	values := map[Ref]string{{RefParam, "coupon"}: "WINTER", {RefSecret, "pw"}: "s3cr3t"}
	lookup := func(r Ref) (string, error) {
		if v, ok := values[r]; ok {
			return v, nil
		}
		return "", fmt.Errorf("no value for %s", r)
	}
	tests := []struct{ in, want string }{
		{"code ${param:coupon}!", "code WINTER!"},
		{"${secret:pw}", "s3cr3t"},
		{"$${param:coupon}", "${param:coupon}"},
		{"$$${param:coupon}", "$${param:coupon}"},
		{"$5 and $$ stay", "$5 and $$ stay"},
	}
	for _, tt := range tests {
		if got, err := ExpandRefs(tt.in, lookup); err != nil || got != tt.want {
			t.Errorf("ExpandRefs(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if _, err := ExpandRefs("${param:missing}", lookup); err == nil {
		t.Errorf("ExpandRefs(missing param) = nil error, want the lookup's error")
	}
	for _, literal := range []string{"${param:coupon}", "$${x}", "a ${b", "plain"} {
		got, err := ExpandRefs(EscapeRefs(literal), lookup)
		if err != nil || got != literal {
			t.Errorf("ExpandRefs(EscapeRefs(%q)) = %q, %v; want it back", literal, got, err)
		}
	}
}

func TestTrailReferences(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "trails", "every-action.trail.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := LoadTrail("every-action.trail.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	got := tr.References()
	want := []Ref{{RefParam, "order"}, {RefParam, "size"}, {RefSecret, "new-name"}}
	if !slices.Equal(got, want) {
		t.Errorf("References() = %v, want %v", got, want)
	}
	src, _ = os.ReadFile(filepath.Join("testdata", "trails", "checkout.trail.yaml"))
	tr, err = LoadTrail("checkout.trail.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	got = tr.References()
	want = []Ref{{RefParam, "coupon"}, {RefUser, "admin.password"}, {RefUser, "admin.username"}}
	if !slices.Equal(got, want) {
		t.Errorf("References() = %v, want %v", got, want)
	}
	if !got[1].IsSecret() || got[2].IsSecret() || got[0].IsSecret() {
		t.Errorf("IsSecret: password %v, username %v, param %v; want true, false, false", got[1].IsSecret(), got[2].IsSecret(), got[0].IsSecret())
	}
}

// RenameRefs renames a reference in every place one can sit: where
// references are expanded (the start page, each action's values and
// selectors, assertChange's url and selectors, the end state) and the
// goal texts replay offers the agent (a step's intent and act); an
// escaped literal, another name and another kind stay as they are.
func TestRenameRefsEverywhere(t *testing.T) {
	const old = "${secret:old}"
	sel := func() selector.Selector {
		return selector.Selector{Role: "textbox", Name: old, Text: old, TestID: old, ID: old, Label: old, Placeholder: old,
			Within: &selector.Selector{Role: "form", Name: old}}
	}
	s := sel()
	tr := &Trail{Start: "/login?u=" + old, Steps: []Step{{
		Intent: "Sign in with " + old, Act: "Sign in with " + old + " and $${secret:old}",
		Actions: []Action{
			Navigate{To: "/x/" + old},
			TypeText{Selector: sel(), Text: old + " ${secret:other} ${param:old}"},
			Set{Selector: sel(), Value: old},
			SelectOption{Selector: sel(), Options: []string{old, "plain"}},
			Dialog{Accept: true, PromptText: old},
			SwitchTab{URL: "/t/" + old, Title: old},
			AssertNotVisible{Text: old},
			AssertValue{Selector: sel(), Value: old},
			AssertURL{URL: "/u/" + old},
			AssertChange{URL: "/c/" + old, BecameVisible: []selector.Selector{sel()}, BecameCovered: []selector.Selector{sel()},
				Exists: []selector.Selector{sel()}, NotCovered: []selector.Selector{sel()}, Ignore: []selector.Selector{sel()},
				MustInclude: []ChangeMatch{{Selector: &s}}, MustNotInclude: []ChangeMatch{{Selector: &s}}, Only: []ChangeMatch{{Selector: &s}}},
		},
		End: &End{URL: "/e/" + old, Shows: []selector.Selector{sel()}, Values: []EndValue{{Selector: sel(), Property: EndPropertyValue, Want: old}}},
	}}}
	before, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	places := strings.Count(string(before), old) - strings.Count(string(before), "$"+old)
	RenameRefs(tr, RefSecret, map[string]string{"old": "new"})
	after, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	got := string(after)
	if n := strings.Count(got, old) - strings.Count(got, "$"+old); n != 0 {
		t.Errorf("%d of %d references to old are left:\n%s", n, places, got)
	}
	if n := strings.Count(got, "${secret:new}"); n != places {
		t.Errorf("%d references renamed, want %d", n, places)
	}
	for _, keep := range []string{"$${secret:old}", "${secret:other}", "${param:old}"} {
		if !strings.Contains(got, keep) {
			t.Errorf("%s was changed:\n%s", keep, got)
		}
	}
	if s.Name != old || s.Within.Name != old {
		t.Errorf("the selector shared with the caller was changed: %+v", s)
	}
}
