package replay

import "testing"

func TestKeyFor(t *testing.T) {
	tests := []struct {
		name  string
		want  key
		found bool
	}{
		{"Enter", key{key: "Enter", code: "Enter", vk: 13, text: "\r"}, true},
		{"Escape", key{key: "Escape", code: "Escape", vk: 27}, true},
		{"F5", key{key: "F5", code: "F5", vk: 116}, true},
		{"Space", key{key: " ", code: "Space", vk: 32, text: " "}, true},
		{"a", key{key: "a", code: "KeyA", vk: 65, text: "a"}, true},
		{"A", key{key: "A", code: "KeyA", vk: 65, text: "A", shift: true}, true},
		{"7", key{key: "7", code: "Digit7", vk: 55, text: "7"}, true},
		{"&", key{key: "&", code: "Digit7", vk: 55, text: "&", shift: true}, true},
		{"/", key{key: "/", code: "Slash", vk: 191, text: "/"}, true},
		{"?", key{key: "?", code: "Slash", vk: 191, text: "?", shift: true}, true},
		{"Shift", key{key: "Shift", code: "ShiftLeft", vk: 16, location: 1}, true},
		{"é", key{}, false},
		{"Nope", key{}, false},
	}
	for _, tc := range tests {
		got, ok := keyFor(tc.name)
		if ok != tc.found || got != tc.want {
			t.Errorf("keyFor(%q) = %+v, %v; want %+v, %v", tc.name, got, ok, tc.want, tc.found)
		}
	}
}
