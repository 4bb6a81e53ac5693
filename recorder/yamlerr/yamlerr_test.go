package yamlerr

import (
	"errors"
	"testing"
)

func TestErrorReads(t *testing.T) {
	tests := []struct {
		e    Error
		want string
	}{
		{Error{File: "a.trail.yaml", Line: 3, Msg: "unknown key \"nmae\"", Fix: "did you mean name?"}, "a.trail.yaml:3: unknown key \"nmae\": did you mean name?"},
		{Error{File: "a.trail.yaml", Msg: "file is empty"}, "a.trail.yaml: file is empty"},
		{Error{File: "trailpin.yaml", Line: 7, Path: "apps.shop.baseURL", Msg: "not an absolute URL", Fix: "write https://…"}, "trailpin.yaml:7: apps.shop.baseURL: not an absolute URL: write https://…"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestListUnwrapsEachProblem(t *testing.T) {
	errLegacy := errors.New("legacy")
	l := List{{File: "f", Line: 1, Msg: "a", Err: ErrUnknownKey}, {File: "f", Line: 2, Msg: "b", Err: errLegacy}}
	if !errors.Is(l, ErrUnknownKey) || !errors.Is(l, errLegacy) {
		t.Errorf("errors.Is on %v misses a category", l)
	}
	var e *Error
	if !errors.As(l, &e) || e.Line != 1 {
		t.Errorf("errors.As(List) = %v, want the first problem", e)
	}
	if got, want := l.Error(), "f:1: a\nf:2: b"; got != want {
		t.Errorf("List.Error() = %q, want %q", got, want)
	}
}

func TestDidYouMean(t *testing.T) {
	allowed := []string{"role", "name", "text", "textRegex", "placeholder"}
	tests := []struct{ got, want string }{
		{"nmae", "name"},
		{"Role", "role"},
		{"textregx", "textRegex"},
		{"placeholdr", "placeholder"},
		{"colour", ""},
	}
	for _, tt := range tests {
		if got := DidYouMean(tt.got, allowed); got != tt.want {
			t.Errorf("DidYouMean(%q) = %q, want %q", tt.got, got, tt.want)
		}
	}
}
