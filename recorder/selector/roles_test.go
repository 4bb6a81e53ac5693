package selector

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

// ariaRolesInJS finds the page model's list of the roles it reports.
var ariaRolesInJS = regexp.MustCompile(`(?s)const ARIA_ROLES = new Set\(\[(.*?)\]\)`)

var quotedWord = regexp.MustCompile(`'([a-z]+)'`)

// TestRolesAreThePageModelRoles keeps Roles equal to what the page model
// reports: its ARIA_ROLES, and iframe for frames. A role the page model
// writes that Roles lacked would give selectors the loader refuses; one
// Roles had that the page model never writes would be accepted and match
// nothing.
func TestRolesAreThePageModelRoles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "extension", "pagemodel*", "*.js"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join("..", "..", "extension", "pagemodel*.js"))
	var found []string
	var where string
	for _, f := range append(files, more...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := ariaRolesInJS.FindSubmatch(src); m != nil {
			for _, w := range quotedWord.FindAllSubmatch(m[1], -1) {
				found = append(found, string(w[1]))
			}
			where = f
		}
	}
	if where == "" {
		t.Fatal("no ARIA_ROLES list in extension/pagemodel*: where did the page model's roles go?")
	}
	want := append(found, "iframe")
	slices.Sort(want)
	if got := Roles(); !slices.Equal(got, want) {
		t.Errorf("Roles() = %q\nwant ARIA_ROLES of %s and iframe: %q", got, where, want)
	}
	if !slices.IsSorted(roles) || len(slices.Compact(slices.Clone(roles))) != len(roles) {
		t.Error("roles must be sorted and without repeats: IsRole searches them")
	}
}

func TestValidateRefusesAnUnknownRole(t *testing.T) {
	for _, tc := range []struct{ role, want string }{
		{"iframe", ""},
		{"generic", ""},
		{"buton", `did you mean "button"?`},
		{"doc-chapter", "matches nothing"},
	} {
		err := Selector{Role: tc.role}.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Validate({role: %s}) = %v, want nil", tc.role, err)
		case tc.want != "" && (err == nil || !regexp.MustCompile(regexp.QuoteMeta(tc.want)).MatchString(err.Error())):
			t.Errorf("Validate({role: %s}) = %v, want an error saying %q", tc.role, err, tc.want)
		}
	}
}

// TestRoleSetsAreRoles keeps the generator's role sets inside Roles: a role
// misspelt there would never be met and its rule would silently not apply.
func TestRoleSetsAreRoles(t *testing.T) {
	for name, set := range map[string]map[string]bool{
		"unnamedRoles": unnamedRoles, "controlRoles": controlRoles, "scopeRoles": scopeRoles, "rowRoles": rowRoles,
	} {
		for role := range set {
			if role != "" && !IsRole(role) {
				t.Errorf("%s has %q, which is not in Roles", name, role)
			}
		}
	}
}
