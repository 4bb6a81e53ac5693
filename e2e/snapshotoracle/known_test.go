package snapshotoracle

import (
	"slices"
	"strings"
	"testing"
)

func TestResultDiff(t *testing.T) {
	for _, tc := range []struct {
		name, ours, theirs   string
		wantOurs, wantTheirs []string
	}{
		{"same", "- a\n- b", "- a\n- b", nil, nil},
		{"one line changed", "- a\n- b\n- c", "- a\n- B\n- c", []string{"- b"}, []string{"- B"}},
		{"a line only ours", "- a\n- x\n- b", "- a\n- b", []string{"- x"}, nil},
		{"a line only theirs, at the end", "- a", "- a\n- z", nil, []string{"- z"}},
		{"indentation counts", "- a\n  - b", "- a\n- b", []string{"  - b"}, []string{"- b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ours, theirs := Result{Trailpin: tc.ours, Playwright: tc.theirs}.Diff()
			if !slices.Equal(ours, tc.wantOurs) || !slices.Equal(theirs, tc.wantTheirs) {
				t.Errorf("Diff(%q, %q) = %q, %q; want %q, %q", tc.ours, tc.theirs, ours, theirs, tc.wantOurs, tc.wantTheirs)
			}
		})
	}
}

func TestCheckHoldsAPageToItsListedLines(t *testing.T) {
	differs := Result{URL: "p", Trailpin: "- a\n- b", Playwright: "- a\n- B"}
	listed := &Difference{Trailpin: []string{"- b"}, Playwright: []string{"- B"}, Why: "w"}
	for _, tc := range []struct {
		name    string
		r       Result
		known   *Difference
		wantErr string
	}{
		{"equal and not listed", Result{Trailpin: "- a", Playwright: "- a"}, nil, ""},
		{"differs as listed", differs, listed, ""},
		{"differs and not listed", differs, nil, `Trailpin: []string{"- b"}`},
		{"listed but equal now", Result{URL: "p", Trailpin: "- a", Playwright: "- a"}, listed, "now matches"},
		{"differs by one more line", Result{URL: "p", Trailpin: "- a\n- b\n- c", Playwright: "- a\n- B"}, listed, "otherwise than listed"},
		{"one listed line no longer differs", differs, &Difference{Trailpin: []string{"- b", "- x"}, Playwright: []string{"- B"}}, "otherwise than listed"},
		{"wrapped by a line, with the listed lines", Result{URL: "p", Trailpin: "- a\n- b", Playwright: "- w:\n  - a\n  - b\n  - z"},
			&Difference{Playwright: []string{"- z"}, Unwrap: "- w:"}, ""},
		{"wrapped, and a line more", Result{URL: "p", Trailpin: "- a\n- b", Playwright: "- w:\n  - a\n  - B\n  - z"},
			&Difference{Playwright: []string{"- z"}, Unwrap: "- w:"}, "otherwise than listed"},
		{"no longer wrapped", Result{URL: "p", Trailpin: "- a\n- b", Playwright: "- a\n- b\n- z"},
			&Difference{Playwright: []string{"- z"}, Unwrap: "- w:"}, "no longer opens with"},
		{"wrapping not all", Result{URL: "p", Trailpin: "- a", Playwright: "- w:\n  - a\n- z"},
			&Difference{Playwright: []string{"- z"}, Unwrap: "- w:"}, "no longer opens with"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Check(tc.r, tc.known)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("Check = %v, want nil", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("Check = %v, want an error with %q", err, tc.wantErr)
			}
		})
	}
}
