package trail

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
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
