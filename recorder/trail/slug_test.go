package trail

import (
	"strings"
	"testing"
)

func TestSlug(t *testing.T) {
	tests := []struct{ title, want string }{
		{"Apply a discount", "apply-a-discount"},
		{"Apply a discount at checkout", "apply-a-discount-at-checkout"},
		{"  Log in -- as the ADMIN!  ", "log-in-as-the-admin"},
		{"Crème brûlée: 10% off", "creme-brulee-10-off"},
		{"Straße über Ørsted", "strasse-uber-orsted"},
		{"ﬁle Ｆｕｌｌ　width", "file-full-width"},
		{"注文を確定する", "注文を確定する"},
		{"한국어 제목", "한국어-제목"},
		{"Заказ №5", "заказ-no5"},
		{"", "trail"},
		{"!!!", "trail"},
		{"CON", "con-trail"},
		{"a/b\\c:d*e?f\"g<h>i|j", "a-b-c-d-e-f-g-h-i-j"},
		{strings.Repeat("word ", 20), "word-word-word-word-word-word-word-word-word-word-word-word"},
		{strings.Repeat("x", 70), strings.Repeat("x", 60)},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			if got := Slug(tt.title); got != tt.want {
				t.Errorf("Slug(%q) = %q, want %q", tt.title, got, tt.want)
			}
		})
	}
}

func TestFreeTrailFileName(t *testing.T) {
	tests := []struct {
		title    string
		existing []string
		want     string
	}{
		{"Apply a discount", nil, "apply-a-discount.trail.yaml"},
		{"Apply a discount", []string{"other.trail.yaml"}, "apply-a-discount.trail.yaml"},
		{"Apply a discount", []string{"apply-a-discount.trail.yaml"}, "apply-a-discount-2.trail.yaml"},
		{"Apply a discount", []string{"Apply-A-Discount.trail.yaml", "apply-a-discount-2.trail.yaml"}, "apply-a-discount-3.trail.yaml"},
		{"Apply a discount", []string{"apply-a-discount-2.trail.yaml"}, "apply-a-discount.trail.yaml"},
	}
	for _, tt := range tests {
		if got := FreeTrailFileName(tt.title, tt.existing); got != tt.want {
			t.Errorf("FreeTrailFileName(%q, %q) = %q, want %q", tt.title, tt.existing, got, tt.want)
		}
	}
}
