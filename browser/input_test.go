package browser

import "testing"

func TestKeyFor(t *testing.T) {
	tests := []struct {
		name  string
		want  Key
		found bool
	}{
		{"Enter", Key{key: "Enter", code: "Enter", vk: 13, text: "\r"}, true},
		{"Escape", Key{key: "Escape", code: "Escape", vk: 27}, true},
		{"F5", Key{key: "F5", code: "F5", vk: 116}, true},
		{"Space", Key{key: " ", code: "Space", vk: 32, text: " "}, true},
		{"a", Key{key: "a", code: "KeyA", vk: 65, text: "a"}, true},
		{"A", Key{key: "A", code: "KeyA", vk: 65, text: "A", shift: true}, true},
		{"7", Key{key: "7", code: "Digit7", vk: 55, text: "7"}, true},
		{"&", Key{key: "&", code: "Digit7", vk: 55, text: "&", shift: true}, true},
		{"/", Key{key: "/", code: "Slash", vk: 191, text: "/"}, true},
		{"?", Key{key: "?", code: "Slash", vk: 191, text: "?", shift: true}, true},
		{"Shift", Key{key: "Shift", code: "ShiftLeft", vk: 16, location: 1}, true},
		{"é", Key{}, false},
		{"Nope", Key{}, false},
	}
	for _, tc := range tests {
		got, ok := KeyFor(tc.name)
		if ok != tc.found || got != tc.want {
			t.Errorf("KeyFor(%q) = %+v, %v; want %+v, %v", tc.name, got, ok, tc.want, tc.found)
		}
	}
}
