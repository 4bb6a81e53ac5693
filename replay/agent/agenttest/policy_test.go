package agenttest

import (
	"slices"
	"testing"
)

func TestValues(t *testing.T) {
	tests := []struct {
		intent string
		want   []string
	}{
		{"apply the discount code SUMMER", []string{"SUMMER"}},
		{"apply SAVE10 with the staff PIN ${secret:staff-pin}", []string{"SAVE10", "${secret:staff-pin}"}},
		{`search for "blue mug" and open it`, []string{"blue mug"}},
		{"export the report as PDF", nil},
		{"log in as ${user:admin.username}", []string{"${user:admin.username}"}},
	}
	for _, tc := range tests {
		var got []string
		for _, v := range values(tc.intent) {
			got = append(got, v.text)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("values(%q) = %q, want %q", tc.intent, got, tc.want)
		}
	}
}

func TestOverlap(t *testing.T) {
	tests := []struct {
		goal, name string
		want       int
	}{
		{"apply the discount code", "Apply", 2},
		{"apply the discount code", "Redeem", 1},
		{"add the blue mug to the cart", "Add to cart", 4},
		{"apply the discount code", "Cart", 0},
		{"view your carts", "Cart", 2},
	}
	for _, tc := range tests {
		if got := overlap(words(tc.goal), words(tc.name)); got != tc.want {
			t.Errorf("overlap(%q, %q) = %d, want %d", tc.goal, tc.name, got, tc.want)
		}
	}
}
