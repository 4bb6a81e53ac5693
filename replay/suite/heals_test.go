package suite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/heal"
	"github.com/trailpin/trailpin/replay/suite/suitetest"
	"github.com/trailpin/trailpin/storage"
)

// discountTrail is a trail kept by hand whose Apply button became Redeem.
const discountTrail = suitetest.DiscountTrail

// healedRun is the result of an attempt whose first step the agent healed
// by tapping Redeem, with the check after it passed.
func healedRun(file string) (Trail, *replay.TrailResult) {
	t, res := suitetest.HealedRun(file)
	return Trail{Trail: t, Slug: res.Slug}, res
}

func writeDiscountTrail(t *testing.T, dir string) string { return suitetest.WriteDiscountTrail(t, dir) }

func wantHealedFile(t *testing.T, got []byte) {
	t.Helper()
	suitetest.WantHealedFile(t, got)
}

func TestKeepHealsReadWriteRewritesTheStepAndSavesAVersion(t *testing.T) {
	dir := t.TempDir()
	file := writeDiscountTrail(t, dir)
	db, err := storage.Open(context.Background(), filepath.Join(dir, "trailpin.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k := &HealKeeper{ProjectDir: dir, DB: db}
	st, res := healedRun(file)
	k.Keep(context.Background(), st, res, heal.ModeReadWrite, filepath.Join(dir, "results"))
	h := res.Steps[0].Heal
	if h.Decision != replay.HealSaved || !strings.Contains(h.Reason, "saved: the check after it passed (assertVisible (line 15))") ||
		!strings.Contains(h.Reason, "version 1 in the database") {
		t.Errorf("decision = %q %q", h.Decision, h.Reason)
	}
	got, _ := os.ReadFile(file)
	wantHealedFile(t, got)
	v, err := db.Trail(context.Background(), "apply-a-discount")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(v.Content), "name: Redeem") {
		t.Errorf("the database's version does not hold the heal:\n%s", v.Content)
	}
	if _, err := os.Stat(filepath.Join(dir, "results")); !os.IsNotExist(err) {
		t.Errorf("a read-write run wrote a results folder (%v)", err)
	}
	// A retry of the trail replays the recording it loaded and heals the
	// step again: the file this run saved is not taken for a person's edit,
	// and is not written twice.
	st2, res2 := healedRun(file)
	st2.Trail = st.Trail
	res2.Attempt = 2
	k.Keep(context.Background(), st2, res2, heal.ModeReadWrite, filepath.Join(dir, "results"))
	if h2 := res2.Steps[0].Heal; h2.Decision != replay.HealDropped || !strings.Contains(h2.Reason, "an earlier attempt of this run saved its heal") {
		t.Errorf("a retry's heal: %q %q", h2.Decision, h2.Reason)
	}
	if again, _ := os.ReadFile(file); string(again) != string(got) {
		t.Errorf("a retry rewrote the saved file:\n%s", again)
	}
	// The file now replays the healed flow: the step's key belongs to it.
	saved, err := trail.LoadTrail(file, got)
	if err != nil {
		t.Fatal(err)
	}
	if miss := trail.RecordingMiss(saved.Steps[0], agent.ConfigKey()); miss != "" {
		t.Errorf("the saved recording is a miss at once: %s", miss)
	}
}

func TestKeepHealsReadOnlyWritesTheResultsFolder(t *testing.T) {
	dir := t.TempDir()
	file := writeDiscountTrail(t, dir)
	results := filepath.Join(dir, "results")
	k := &HealKeeper{ProjectDir: dir}
	st, res := healedRun(file)
	k.Keep(context.Background(), st, res, heal.ModeReadOnly, results)
	h := res.Steps[0].Heal
	if h.Decision != replay.HealReported || !strings.Contains(h.Reason, "host accept") || !strings.Contains(h.Reason, heal.HealedTrailFile) {
		t.Errorf("decision = %q %q", h.Decision, h.Reason)
	}
	if got, _ := os.ReadFile(file); string(got) != discountTrail {
		t.Errorf("a read-only run changed the trail file:\n%s", got)
	}
	healed, problems, err := heal.ReadHealed(results)
	if err != nil || len(problems) > 0 || len(healed) != 1 {
		t.Fatalf("ReadHealed = %d, %v, %v", len(healed), problems, err)
	}
	rec := healed[0].Record
	if rec.Source != "trails/apply-a-discount.trail.yaml" || rec.SourceSHA256 != heal.Digest([]byte(discountTrail)) ||
		len(rec.Steps) != 1 || rec.Steps[0].Step != 1 || rec.Steps[0].Calls != 2 {
		t.Errorf("healed record = %+v", rec)
	}
	wantHealedFile(t, healed[0].Trail)
}

func TestKeepHealsWritesNothingUnverified(t *testing.T) {
	tests := []struct {
		name   string
		mode   string
		change func(file string, res *replay.TrailResult)
		want   string
		says   string
	}{
		{"cache off", heal.ModeOff, func(string, *replay.TrailResult) {}, replay.HealReported, "cache.mode is off"},
		{"the file changed during the run", heal.ModeReadWrite, func(file string, _ *replay.TrailResult) {
			os.WriteFile(file, []byte(strings.Replace(discountTrail, "SUMMER}", "WINTER}", 1)), 0o644)
		}, replay.HealDropped, "changed while the trail ran"},
		{"a secret value in the flow", heal.ModeReadWrite, func(_ string, res *replay.TrailResult) {
			res.Steps[0].Heal.Actions[0] = trail.TypeText{Selector: selector.Selector{Role: "textbox", Name: "Discount code"}, Text: "hunter2-secret"}
		}, replay.HealDropped, "not written"},
		{"the engine's reason stands", heal.ModeReadWrite, func(_ string, res *replay.TrailResult) {
			res.Steps[0].Heal.NotSaved, res.Steps[0].Heal.Decision = "the agent had to repair an end-mismatch", replay.HealDropped
		}, replay.HealDropped, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			file := writeDiscountTrail(t, dir)
			st, res := healedRun(file)
			tt.change(file, res)
			before, _ := os.ReadFile(file)
			k := &HealKeeper{ProjectDir: dir, Secrets: func(*trail.Trail) []string { return []string{"hunter2-secret"} }}
			results := filepath.Join(dir, "results")
			k.Keep(context.Background(), st, res, tt.mode, results)
			h := res.Steps[0].Heal
			if h.Decision != tt.want || !strings.Contains(h.Reason, tt.says) {
				t.Errorf("decision = %q %q, want %q saying %q", h.Decision, h.Reason, tt.want, tt.says)
			}
			if strings.Contains(h.Reason, "hunter2-secret") {
				t.Errorf("the reason repeats the secret value: %s", h.Reason)
			}
			if after, _ := os.ReadFile(file); string(after) != string(before) {
				t.Errorf("the trail file was written:\n%s", after)
			}
			if got, _, _ := heal.ReadHealed(results); len(got) > 0 {
				t.Errorf("a healed trail was written to the results folder")
			}
		})
	}
}

// A trail replayed from the database has no file: its heal becomes the
// trail's next version, and a read-only run has nothing to put in the
// results folder.
func TestKeepHealsOfATrailFromTheDatabase(t *testing.T) {
	dir := t.TempDir()
	db, err := storage.Open(context.Background(), filepath.Join(dir, "trailpin.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, res := healedRun("")
	st.Trail.File, res.File = "", ""
	k := &HealKeeper{DB: db}
	k.Keep(context.Background(), st, res, heal.ModeReadWrite, filepath.Join(dir, "results"))
	h := res.Steps[0].Heal
	if h.Decision != replay.HealSaved || !strings.Contains(h.Reason, "trail apply-a-discount version 1 in the database") {
		t.Fatalf("decision = %q %q", h.Decision, h.Reason)
	}
	v, err := db.Trail(context.Background(), "apply-a-discount")
	if err != nil || !strings.Contains(string(v.Content), "name: Redeem") || !strings.Contains(string(v.Content), "key: agent-") {
		t.Errorf("version in the database (%v):\n%s", err, v.Content)
	}
	st, res = healedRun("")
	st.Trail.File, res.File = "", ""
	(&HealKeeper{}).Keep(context.Background(), st, res, heal.ModeReadOnly, filepath.Join(dir, "results"))
	if h := res.Steps[0].Heal; h.Decision != replay.HealReported || !strings.Contains(h.Reason, "no file to heal") {
		t.Errorf("read-only decision = %q %q", h.Decision, h.Reason)
	}
}

// A bare goal the agent performed gets its recording after its act:.
func TestKeepHealsRecordsABareGoal(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bare.trail.yaml")
	src := "version: 1\ntrail: Apply a discount\napp: shop\nstart: /checkout\nsteps:\n  - intent: Apply the discount code SUMMER\n    act: Apply the discount code SUMMER   # the agent does it\n  - intent: The total shows 10% off\n    actions:\n      - assertVisible: {selector: {role: status, text: 10% off}}\n"
	os.WriteFile(file, []byte(src), 0o644)
	tr, err := trail.LoadTrail(file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, res := healedRun(file)
	h := res.Steps[0].Heal
	h.Cache, h.Stopped, h.Replayed = replay.CacheAgent, "", 0
	(&HealKeeper{}).Keep(context.Background(), Trail{Trail: tr, Slug: "bare"}, res, heal.ModeReadWrite, filepath.Join(dir, "results"))
	if h.Decision != replay.HealSaved {
		t.Fatalf("decision = %q %q", h.Decision, h.Reason)
	}
	got, _ := os.ReadFile(file)
	want := strings.Replace(src, "# the agent does it\n", "# the agent does it\n    actions:\n      - type: {selector: {role: textbox, name: Discount code}, text: SUMMER}\n      - tap: {selector: {role: button, name: Redeem}}\n    key: "+
		trail.StepKey(tr.Steps[0], agent.ConfigKey())+"\n", 1)
	if string(got) != want {
		t.Errorf("the bare goal's file =\n%s\nwant\n%s", got, want)
	}
}

// checkoutTrail has two steps a run can heal, each followed by its check.
const checkoutTrail = `version: 1
trail: Check out
app: shop
start: /checkout
steps:
  - intent: Apply the discount code SUMMER
    actions:
      - tap: {selector: {role: button, name: Apply}}
  - intent: The total shows 10% off
    actions:
      - assertVisible: {selector: {role: status, text: 10% off}}
  - intent: Pay for the order
    actions:
      - tap: {selector: {role: button, name: Pay}}
  - intent: The order is confirmed
    actions:
      - assertVisible: {selector: {role: heading, name: Thank you}}
`

// healedStepRun is the result of an attempt of checkoutTrail whose step
// (0-based) the agent healed by tapping button, with the check after it
// passed.
func healedStepRun(t *testing.T, file string, step int, button string) (Trail, *replay.TrailResult) {
	t.Helper()
	tr, err := trail.LoadTrail(file, []byte(checkoutTrail))
	if err != nil {
		t.Fatal(err)
	}
	res := &replay.TrailResult{File: file, Slug: "check-out", Title: tr.Title, Attempt: 1, Status: replay.StatusHealed}
	for i, s := range tr.Steps {
		sr := replay.StepResult{Index: i + 1, Intent: s.Intent, Status: replay.StatusPassed, Cache: replay.CacheHit}
		if i == step {
			sr.Status, sr.Cache = replay.StatusHealed, replay.CacheHandOff
			sr.Heal = &replay.Heal{Cache: replay.CacheHandOff, Stopped: replay.StopTargetNotFound, Verdict: string(agent.VerdictDone),
				Summary: "tapped " + button, Check: fmt.Sprintf("assertVisible (line %d)", tr.Steps[i+1].Line+2), ConfigKey: agent.ConfigKey(), Calls: 1,
				Actions: []trail.Action{trail.Tap{Selector: selector.Selector{Role: "button", Name: button}}}}
		}
		res.Steps = append(res.Steps, sr)
	}
	return Trail{Trail: tr, Slug: "check-out"}, res
}

func writeCheckoutTrail(t *testing.T, dir string) string {
	t.Helper()
	file := filepath.Join(dir, "trails", "check-out.trail.yaml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(checkoutTrail), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// healedTap is how a step's healed tap reads in the file.
func healedTap(t *testing.T, intent, button string) string {
	t.Helper()
	return "      - tap: {selector: {role: button, name: " + button + "}}\n    key: " + trail.StepKey(trail.Step{Intent: intent}, agent.ConfigKey()) + "\n"
}

// Two runs heal different steps of one trail at once: the second saves
// between the first's read and its write. The first sees the file changed,
// makes its heal again from the file as it is now and writes both.
func TestKeepHealsTwoRunsHealingOneTrailLoseNothing(t *testing.T) {
	dir := t.TempDir()
	file := writeCheckoutTrail(t, dir)
	stA, resA := healedStepRun(t, file, 0, "Redeem")
	stB, resB := healedStepRun(t, file, 2, "Pay now")
	other := &HealKeeper{ProjectDir: dir}
	first := &HealKeeper{ProjectDir: dir, beforeWrite: func(string) {
		// The other run's heal lands once, between this run's read and
		// its write.
		if resB.Steps[2].Heal.Decision == "" {
			other.Keep(context.Background(), stB, resB, heal.ModeReadWrite, filepath.Join(dir, "results-b"))
		}
	}}
	first.Keep(context.Background(), stA, resA, heal.ModeReadWrite, filepath.Join(dir, "results-a"))
	for name, h := range map[string]*replay.Heal{"the first run's": resA.Steps[0].Heal, "the second run's": resB.Steps[2].Heal} {
		if h.Decision != replay.HealSaved || !strings.Contains(h.Reason, "rewritten") {
			t.Errorf("%s heal: %q %q", name, h.Decision, h.Reason)
		}
	}
	want := strings.Replace(checkoutTrail, "      - tap: {selector: {role: button, name: Apply}}\n", healedTap(t, "Apply the discount code SUMMER", "Redeem"), 1)
	want = strings.Replace(want, "      - tap: {selector: {role: button, name: Pay}}\n", healedTap(t, "Pay for the order", "Pay now"), 1)
	if got, _ := os.ReadFile(file); string(got) != want {
		t.Errorf("the trail file after both heals =\n%s\nwant\n%s", got, want)
	}
}

// A person saves the trail in an editor between the run's read and its
// write. A change the heal can go in beside (a comment, another step) is
// kept with the heal; a change to the healed step itself is kept and the
// heal is not written, saying why.
func TestKeepHealsKeepsAnEditorsSave(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(string) string
		saved  bool
		reason string
	}{
		{"a comment and another step", func(s string) string {
			s = strings.Replace(s, "steps:\n", "steps:  # reviewed\n", 1)
			return strings.Replace(s, "name: Thank you}", "name: Thanks}", 1)
		}, true, "rewritten"},
		{"the healed step", func(s string) string {
			return strings.Replace(s, "name: Apply}", "name: Apply now}", 1)
		}, false, "changed since the heal read it (another run or an editor saved it), and the heal cannot go into it as it is now"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			file := writeCheckoutTrail(t, dir)
			edited := tt.edit(checkoutTrail)
			saves := 0
			k := &HealKeeper{ProjectDir: dir, beforeWrite: func(file string) {
				if saves++; saves == 1 {
					if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}}
			st, res := healedStepRun(t, file, 0, "Redeem")
			k.Keep(context.Background(), st, res, heal.ModeReadWrite, filepath.Join(dir, "results"))
			h := res.Steps[0].Heal
			got, _ := os.ReadFile(file)
			if !tt.saved {
				if h.Decision != replay.HealDropped || !strings.Contains(h.Reason, tt.reason) {
					t.Errorf("decision = %q %q, want dropped saying %q", h.Decision, h.Reason, tt.reason)
				}
				if string(got) != edited {
					t.Errorf("the editor's save was overwritten:\n%s", got)
				}
				return
			}
			if h.Decision != replay.HealSaved || !strings.Contains(h.Reason, tt.reason) {
				t.Errorf("decision = %q %q", h.Decision, h.Reason)
			}
			want := strings.Replace(edited, "      - tap: {selector: {role: button, name: Apply}}\n", healedTap(t, "Apply the discount code SUMMER", "Redeem"), 1)
			if string(got) != want {
				t.Errorf("the trail file =\n%s\nwant the editor's save with the heal:\n%s", got, want)
			}
		})
	}
}

// A trail file kept as a symbolic link stays a link when a heal is saved;
// the file it points to gets the heal and keeps its mode.
func TestKeepHealsWritesThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	target := writeDiscountTrail(t, filepath.Join(dir, "shared"))
	if err := os.Chmod(target, 0o664); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "trails", "apply-a-discount.trail.yaml")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	st, res := healedRun(link)
	(&HealKeeper{ProjectDir: dir}).Keep(context.Background(), st, res, heal.ModeReadWrite, filepath.Join(dir, "results"))
	if h := res.Steps[0].Heal; h.Decision != replay.HealSaved {
		t.Fatalf("decision = %q %q", h.Decision, h.Reason)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the heal replaced the link with a file: %v, %v", fi, err)
	}
	got, _ := os.ReadFile(target)
	wantHealedFile(t, got)
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o664 {
		t.Errorf("the trail file's mode = %v, want 0664 kept", fi.Mode().Perm())
	}
}
