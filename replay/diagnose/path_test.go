package diagnose

import "testing"

func TestSamePath(t *testing.T) {
	tests := []struct {
		at, want string
		same     bool
	}{
		{"/products", "/products", true},
		{"/products?q=iphone", "/products", true},
		{"/products?q=iphone", "/products?q=iphone", true},
		{"/products?q=case", "/products?q=iphone", false},
		{"/products#top", "/products", true},
		{"/login?next=%2Fproducts", "/products", false},
	}
	for _, tc := range tests {
		if got := SamePath(tc.at, tc.want); got != tc.same {
			t.Errorf("SamePath(%q, %q) = %v, want %v", tc.at, tc.want, got, tc.same)
		}
	}
}
