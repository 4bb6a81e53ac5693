package trail

import (
	"errors"
	"testing"
)

func TestAppPath(t *testing.T) {
	const base = "http://localhost:3000/"
	tests := []struct {
		raw, base, want string
		foreign         bool
		bad             bool
	}{
		{raw: "http://localhost:3000/checkout?step=2#pay", base: base, want: "/checkout?step=2#pay"},
		{raw: "http://LOCALHOST:3000", base: base, want: "/"},
		{raw: "https://shop.example:443/a%20b", base: "https://shop.example/app/", want: "/a%20b"},
		{raw: "http://shop.example:80/x", base: "http://shop.example", want: "/x"},
		{raw: "/already/a/path?q=1", base: base, want: "/already/a/path?q=1"},
		{raw: "http://[::1]:8080/x?", base: "http://[::1]:8080/", want: "/x?"},
		{raw: "https://evil.example/x", base: base, foreign: true},
		{raw: "http://localhost:3001/x", base: base, foreign: true},
		{raw: "https://localhost:3000/x", base: base, foreign: true},
		{raw: "checkout", base: base, bad: true},
		{raw: "ftp://localhost:3000/x", base: base, bad: true},
		{raw: "https://any.example/y", base: "", want: "/y"},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			got, err := AppPath(tt.raw, tt.base)
			var fe *ForeignOriginError
			switch {
			case tt.foreign:
				if !errors.As(err, &fe) {
					t.Fatalf("AppPath(%q, %q) = %q, %v; want a ForeignOriginError", tt.raw, tt.base, got, err)
				}
			case tt.bad:
				if err == nil {
					t.Fatalf("AppPath(%q, %q) = %q, want an error", tt.raw, tt.base, got)
				}
			case err != nil || got != tt.want:
				t.Errorf("AppPath(%q, %q) = %q, %v; want %q", tt.raw, tt.base, got, err, tt.want)
			}
		})
	}
}
