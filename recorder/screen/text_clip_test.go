package screen

import (
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"Apply", 5, "Apply"},
		{"Apply a discount", 8, "Apply a…"},
		{"Zürich café", 4, "Zür…"},
		{"abc", 1, "…"},
	} {
		if got := Clip(c.in, c.n); got != c.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
		if got := Clip(c.in, c.n); utf8.RuneCountInString(got) > c.n {
			t.Errorf("Clip(%q, %d) = %q: longer than %d characters", c.in, c.n, got, c.n)
		}
	}
}

func TestClipBytes(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"passed", 6, "passed"},
		{"Apply a discount", 10, "Apply a…"},
		{"Zürich", 6, "Zü…"},
		{"Zürich", 5, "Z…"}, // two bytes left would split the ü
		{"ab", 1, "…"},      // a budget smaller than the mark gives the mark alone
	} {
		got := ClipBytes(c.in, c.n)
		if got != c.want {
			t.Errorf("ClipBytes(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("ClipBytes(%q, %d) = %q: cut inside a character", c.in, c.n, got)
		}
	}
}

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"  the agent\n\tsaid:  done \r\n": "the agent said: done",
		"no\u00a0break\u2003space":        "no break space",
		"":                                "",
	} {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}
