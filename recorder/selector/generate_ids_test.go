package selector

import "testing"

func TestLooksGenerated(t *testing.T) {
	tests := []struct {
		id   string
		want bool
	}{
		// Written by people: kept.
		{"checkout", false},
		{"cart-link", false},
		{"submit-order", false},
		{"email", false},
		{"step-2", false},
		{"row-12", false},
		{"h1-title", false},
		{"mainContent", false},
		{"productList", false},
		{"q4-report", false},
		{"item-123", false},
		{"tab-panel-1", false},
		{"btnSubmit", false},
		{"iphone-17", false},
		{"user_name", false},
		{"cafe-menu", false},
		{"mp3-player", false},
		{"x", false},
		{"add-to-cart", false},
		{"search-results", false},
		{"a+b", false}, // too short for base64
		{"c++", false}, // nothing but the marks
		{"q&a", false},
		{"docs/intro", false},
		// Made by frameworks and builds: rejected.
		// Random bytes in base64 (Swagger UI's tab panels), which other
		// rules pass over in about half the cases.
		{"3aadtPg=", true},
		{"ATJvALE=", true},
		{"FRwtoYQ=", true},
		{"R14wrbc=", true},
		{"2hd+t6c=", true},
		{"k4Asj9A=", true},
		{"ab/c9Ef", true},
		{":r3:", true},
		{":R1a6:", true},
		{"«r0»", true},
		{"_r_1_", true},
		{"radix-:r2:", true},
		{":r1:-label", true},
		{"ember123", true},
		{"react-select-5-input", true},
		{"react-select-2-listbox", true},
		{"headlessui-menu-button-3", true},
		{"mat-input-0", true},
		{"cdk-overlay-3", true},
		{"ui-id-4", true},
		{"__BVID__42", true},
		{"mui-123", true},
		{"downshift-0-item-1", true},
		{"3f2504e0-4f89-11d3-9a0c-0305e82c3301", true},
		{"field-3F2504E0-4F89-11D3-9A0C-0305E82C3301", true},
		{"a3f9c2e1b7", true},
		{"btn-8f3a2c", true},
		{"css-1x2y3z", true},
		{"item_4kx9q2", true},
		{"field_20240101", true},
		{"p-123", true},
		{"x7Fq9LmZ2", true},
		{"ext-gen1234", true},
		{"el-id-1024-12", true},
		{"12ab34", true},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", true},
	}
	for _, tt := range tests {
		if got := LooksGenerated(tt.id); got != tt.want {
			t.Errorf("looksGenerated(%q) = %v, want %v", tt.id, got, tt.want)
		}
	}
}
