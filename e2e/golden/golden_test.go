package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tb records how Check ended a test instead of ending it.
type tb struct {
	testing.TB
	failed bool
	msg    string
}

func (r *tb) Helper()                        {}
func (r *tb) Name() string                   { return "TestSomething/sub" }
func (r *tb) Fatal(args ...any)              { r.failed, r.msg = true, args[0].(string) }
func (r *tb) Fatalf(format string, a ...any) { r.failed, r.msg = true, sprintf(format, a...) }
func (r *tb) Errorf(format string, a ...any) { r.failed, r.msg = true, sprintf(format, a...) }
func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "out.golden")

	r := &tb{TB: t}
	Check(r, path, []byte("a\nb\n"))
	if !r.failed || !strings.Contains(r.msg, "-run '^TestSomething$' -update") {
		t.Errorf("a missing golden file: failed %v, %q; want a failure naming the command that writes it", r.failed, r.msg)
	}

	*update = true
	r = &tb{TB: t}
	Check(r, path, []byte("a\nb\n"))
	*update = false
	if r.failed {
		t.Fatalf("under -update Check failed: %s", r.msg)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "a\nb\n" {
		t.Fatalf("under -update the file holds %q, %v; want what the test produced", b, err)
	}

	r = &tb{TB: t}
	Check(r, path, []byte("a\nb\n"))
	if r.failed {
		t.Errorf("the same output failed: %s", r.msg)
	}

	r = &tb{TB: t}
	CheckString(r, path, "a\nc\n")
	if !r.failed || !strings.Contains(r.msg, `line 2: got "c", want "b"`) {
		t.Errorf("a changed output: failed %v, %q; want a failure at line 2", r.failed, r.msg)
	}
}

func TestFirstDifference(t *testing.T) {
	for _, c := range []struct{ got, want, say string }{
		{"a\nb", "a\nb", "no difference"},
		{"a\nb", "a\nc", `line 2: got "b", want "c"`},
		{"a", "a\nmore", `line 2: got "", want "more"`},
	} {
		if got := FirstDifference(c.got, c.want); got != c.say {
			t.Errorf("FirstDifference(%q, %q) = %q, want %q", c.got, c.want, got, c.say)
		}
	}
}
