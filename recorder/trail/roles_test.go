package trail

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/selector"
)

// TestSchemaRolesAreTheSelectorRoles keeps the roles an editor offers from
// docs/trail.schema.json equal to the ones the loader and the matcher accept.
func TestSchemaRolesAreTheSelectorRoles(t *testing.T) {
	src, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Defs map[string]struct {
			Properties map[string]struct {
				Enum []string `json:"enum"`
			} `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(src, &schema); err != nil {
		t.Fatalf("%s: %v", schemaPath, err)
	}
	got := slices.Sorted(slices.Values(schema.Defs["selector"].Properties["role"].Enum))
	if want := selector.Roles(); !slices.Equal(got, want) {
		t.Errorf("%s: the selector's role enum is\n%q\nwant selector.Roles():\n%q", schemaPath, got, want)
	}
}

// TestEveryRoleRoundTrips: for each role, the selector the generator writes
// for an element of that role is read back by the trail loader, passes the
// matcher's Validate and names the element again. Two frames give the
// selector `host suggest-selector` writes for the second, {role: iframe,
// index: 1}, which `host match` once refused.
func TestEveryRoleRoundTrips(t *testing.T) {
	for _, role := range selector.Roles() {
		s := screentest.Page(
			screentest.El(role, screentest.Ref("a"), screentest.ID("first")),
			screentest.El(role, screentest.Ref("b")),
		)
		sel, err := selector.Generate(selector.PurposeAssert, "b", s, nil)
		if err != nil {
			t.Errorf("Generate(assert, b) on two %s elements: %v", role, err)
			continue
		}
		out, err := MarshalSelector(sel)
		if err != nil {
			t.Fatalf("MarshalSelector(%v): %v", sel, err)
		}
		back, err := ParseSelector(out)
		if err != nil {
			t.Errorf("ParseSelector(%q), written by Generate for a %s: %v", out, role, err)
			continue
		}
		if back.Role != "" && back.Role != role {
			t.Errorf("Generate(assert, b) on two %s elements wrote role %q", role, back.Role)
		}
		if err := back.Validate(); err != nil {
			t.Errorf("Validate(%s), written by Generate for a %s: %v", back, role, err)
			continue
		}
		nodes, err := selector.Match(s, back)
		if err != nil || len(nodes) != 1 || nodes[0].Ref != "b" {
			t.Errorf("Match(%s) on two %s elements = %v, %v; want the second", back, role, nodes, err)
		}
	}
	frames := screentest.Page(screentest.El("iframe", screentest.Tag("iframe")), screentest.El("iframe", screentest.Tag("iframe")))
	sel, err := selector.Generate(selector.PurposeAssert, "e4", frames, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sel.String(), "{role: iframe, index: 1}"; got != want {
		t.Errorf("Generate(assert, second frame) = %s, want %s", got, want)
	}
}
