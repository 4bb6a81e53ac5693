package extension

import "testing"

func TestID(t *testing.T) {
	id, err := ID()
	if err != nil {
		t.Fatal(err)
	}
	const want = "fjmncidonfkcepgogieobgonbpmpilie"
	if id != want {
		t.Errorf("ID() = %q, want %q", id, want)
	}
}
