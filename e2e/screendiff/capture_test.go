package screendiff

import (
	"github.com/trailpin/trailpin/e2e/golden"

	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/screendiff"
)

// TestFixtureScreens keeps recorder/screendiff/testdata/screens in step with
// the page model. Every page there defines window.diffFixture = {steps,
// run(step)}; the test captures the page as loaded ("before"), then runs
// each step and captures after it.
//
// How strict: a stored screen must equal the live one except for boxes
// (font metrics and layout differ between machines) and the document token
// (new on every load), and the diff from the stored "before" to each stored
// step must list the same changes as the live one (kinds, refs and fields;
// boxes are what decide moved and resized, so this is where a layout that
// now differs shows). -update rewrites the files of a page that differs.
func TestFixtureScreens(t *testing.T) {
	browsertest.Need(t)
	pages, err := filepath.Glob(filepath.Join(fixtureDir, "pages", "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Fatalf("no fixture pages in %s", filepath.Join(fixtureDir, "pages"))
	}
	for _, p := range pages {
		name := strings.TrimSuffix(filepath.Base(p), ".html")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			live := capturePage(t, name)
			problems := compareStored(t, name, live)
			if len(problems) == 0 {
				return
			}
			if golden.Update() {
				for step, s := range live {
					writeScreen(t, screenPath(name, step), s)
				}
				t.Logf("wrote the screens of %s: now run go test ./recorder/screendiff -update and check the diffs", name)
				return
			}
			t.Errorf("the stored screens of %s are stale:\n%s\nCheck what the page model sees now, then run go test ./e2e/screendiff -update "+
				"and go test ./recorder/screendiff -update", name, strings.Join(problems, "\n"))
		})
	}
}

func screenPath(page, step string) string {
	return filepath.Join(fixtureDir, "screens", page+"."+step+".json")
}

// capturePage loads a fixture page in a fresh browser context and captures
// it before and after each of its steps.
func capturePage(t *testing.T, page string) map[string]*screen.Screen {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browserCtx, chromedp.WithNewBrowserContext())
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, pageTimeout)
	defer cancelTimeout()
	u := fixtureOrigin + "/" + page + ".html"
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(browser.DefaultViewportWidth, browser.DefaultViewportHeight),
		chromedp.Navigate(u),
	); err != nil {
		t.Fatalf("loading %s: %v", u, err)
	}
	steps, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.diffFixture ? window.diffFixture.steps : null`))
	if err != nil || len(steps) == 0 {
		t.Fatalf("%s defines no window.diffFixture.steps (%v)", page, err)
	}
	out := map[string]*screen.Screen{"before": capture(t, ctx, page, "before")}
	for _, step := range steps {
		run := fmt.Sprintf(`Promise.resolve(window.diffFixture.run(%q)).then(() => true)`, step)
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](run, chromedp.EvalAwaitPromise)); err != nil {
			t.Fatalf("%s: step %s: %v", page, step, err)
		}
		out[step] = capture(t, ctx, page, step)
	}
	return out
}

func capture(t *testing.T, ctx context.Context, page, step string) *screen.Screen {
	t.Helper()
	s, err := browser.Capture(ctx, browser.CaptureOptions{})
	if err != nil {
		t.Fatalf("capturing %s %s: %v", page, step, err)
	}
	return s
}

// compareStored says how the stored screens of page differ from live ones;
// nothing when they agree.
func compareStored(t *testing.T, page string, live map[string]*screen.Screen) []string {
	t.Helper()
	stored := map[string]*screen.Screen{}
	var problems []string
	for step := range live {
		s, err := readScreen(screenPath(page, step))
		if errors.Is(err, os.ErrNotExist) {
			problems = append(problems, screenPath(page, step)+" is missing")
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		stored[step] = s
		if !bytes.Equal(withoutBoxes(s), withoutBoxes(live[step])) {
			problems = append(problems, fmt.Sprintf("%s: the page model captures %s %s differently (boxes and the document token aside)", screenPath(page, step), page, step))
		}
	}
	if len(problems) > 0 {
		return problems
	}
	for step := range live {
		if step == "before" {
			continue
		}
		want := changeList(t, stored["before"], stored[step])
		got := changeList(t, live["before"], live[step])
		if want != got {
			problems = append(problems, fmt.Sprintf("the diff before → %s of %s is now:\n%s\nthe stored screens give:\n%s", step, page, got, want))
		}
	}
	return problems
}

// changeList is the diff of two screens without the boxes of moves and
// resizes: which changes, on which refs, of which fields.
func changeList(t *testing.T, before, after *screen.Screen) string {
	t.Helper()
	r, err := screendiff.Diff(before, after, screendiff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, c := range r.Changes {
		fmt.Fprintf(&b, "%s", c.Kind)
		if c.Before != nil {
			fmt.Fprintf(&b, " before=%s", c.Before.Ref)
		}
		if c.After != nil {
			fmt.Fprintf(&b, " after=%s", c.After.Ref)
		}
		for _, d := range c.Deltas {
			fmt.Fprintf(&b, " %s=%q→%q", d.Field, d.From, d.To)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func withoutBoxes(s *screen.Screen) []byte {
	data, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	var c screen.Screen
	if err := json.Unmarshal(data, &c); err != nil {
		panic(err)
	}
	c.Document = ""
	var walk func(n *screen.Node)
	walk = func(n *screen.Node) {
		n.Box = nil
		for _, k := range n.Children {
			walk(k)
		}
	}
	walk(c.Root)
	out, err := json.MarshalIndent(&c, "", " ")
	if err != nil {
		panic(err)
	}
	return out
}

func readScreen(path string) (*screen.Screen, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s screen.Screen
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return &s, nil
}

// writeScreen writes a screen file atomically: a temporary file in the same
// folder, synced, renamed over the old one.
func writeScreen(t *testing.T, path string, s *screen.Screen) {
	t.Helper()
	data, err := json.MarshalIndent(s, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, '\n')
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(tmp.Name()) // fails harmlessly after the rename
	_, werr := tmp.Write(data)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr, os.Chmod(tmp.Name(), 0o644)); err != nil {
		t.Fatalf("writing %s: %v", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		t.Fatal(err)
	}
}
