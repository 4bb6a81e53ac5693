package browsertest

import (
	"errors"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how a test ended instead of ending.
type recorder struct {
	testing.TB
	failed, skipped bool
	msg             string
}

func (r *recorder) Helper()           {}
func (r *recorder) Fatal(args ...any) { r.failed, r.msg = true, args[0].(string) }
func (r *recorder) Skip(args ...any)  { r.skipped, r.msg = true, args[0].(string) }

func TestMissing(t *testing.T) {
	why := errors.New("no Chromium-based browser found")
	for _, tc := range []struct {
		ci       string
		wantFail bool
	}{{"", false}, {"true", true}} {
		t.Run("CI="+tc.ci, func(t *testing.T) {
			t.Setenv("CI", tc.ci)
			r := &recorder{TB: t}
			Missing(r, why)
			if r.failed != tc.wantFail || r.skipped == tc.wantFail {
				t.Errorf("Missing with CI=%q: failed %v, skipped %v; want failed %v", tc.ci, r.failed, r.skipped, tc.wantFail)
			}
			for _, want := range []string{why.Error(), "apt-get install chromium", "CHROME_PATH"} {
				if !strings.Contains(r.msg, want) {
					t.Errorf("Missing says %q, want it to contain %q", r.msg, want)
				}
			}
			if code := MissingInMain(why); (code != 0) != tc.wantFail {
				t.Errorf("MissingInMain with CI=%q = %d", tc.ci, code)
			}
		})
	}
}
