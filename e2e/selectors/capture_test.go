package selectors

import (
	"github.com/trailpin/trailpin/e2e/golden"

	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"go.yaml.in/yaml/v3"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/recorder/screen"
)

// The capture test keeps recorder/selector/testdata/selectors/screens in step with the
// page model. For every page the corpus names (cases.yaml, matrix.yaml) it
// loads the page in a fresh browser context, captures the screen with the
// page's sensitive values, resolves every CSS target of the page to its
// element's ref, and compares the result with the stored screen file.
//
// How strict: everything the page model reports must be the same except
//   - box: boxes come from font metrics and layout, which differ between
//     machines and Chromium builds without the page model seeing anything
//     else; no selector reads them;
//   - document: a random token that is new on every load.
// A stored file that differs in anything else is stale: the page model now
// sees the page differently, and the corpus's expectations must be checked
// against what it sees. -update rewrites the stale and missing files (only
// those, so a capture on another machine does not churn the boxes).

// pageModelWorld is the isolated world replay runs the page model in
// (docs/screen-schema.md, "Go"). Its ref numbering lives there, so targets
// are resolved to refs in that same world.
const pageModelWorld = "trailpin"

// A screenFile is one screens/*.json file (format in the corpus README).
type screenFile struct {
	Page      string            `json:"page"`
	Sensitive []string          `json:"sensitive"`
	Targets   map[string]string `json:"targets"`
	Screen    *screen.Screen    `json:"screen"`
}

// A pageSpec is what the corpus needs captured from one page.
type pageSpec struct {
	page      string
	sensitive []string
	targets   []string
	// path is the screen file; a .gz one is written gzip-compressed.
	path string
	// minElements is the fewest elements with a ref the capture must have.
	minElements int
}

// corpusFiles is the part of cases.yaml and matrix.yaml the capture reads:
// pages, sensitive values and CSS targets.
type corpusFiles struct {
	cases struct {
		Pages map[string]struct {
			Sensitive []string `yaml:"sensitive"`
		} `yaml:"pages"`
		Cases []struct {
			Page     string `yaml:"page"`
			Target   string `yaml:"target"`
			Resolves string `yaml:"resolves"`
		} `yaml:"cases"`
	}
	matrix struct {
		Base      string            `yaml:"base"`
		Sensitive []string          `yaml:"sensitive"`
		Variants  map[string]string `yaml:"variants"`
		Steps     []struct {
			Target   string `yaml:"target"`
			Resolves string `yaml:"resolves"`
		} `yaml:"steps"`
	}
}

func readYAML(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
}

// corpusPages lists every page the corpus names, with its sensitive values
// and targets, plus the large benchmark page.
func corpusPages(t *testing.T) []pageSpec {
	var f corpusFiles
	readYAML(t, filepath.Join(corpusDir, "cases.yaml"), &f.cases)
	readYAML(t, filepath.Join(corpusDir, "matrix.yaml"), &f.matrix)

	specs := map[string]*pageSpec{}
	spec := func(page string, sensitive []string) *pageSpec {
		s, ok := specs[page]
		if !ok {
			s = &pageSpec{page: page, sensitive: sensitive, path: filepath.Join(corpusDir, "screens", strings.TrimSuffix(page, ".html")+".json")}
			specs[page] = s
		}
		return s
	}
	addTarget := func(s *pageSpec, css string) {
		if css != "" && !slices.Contains(s.targets, css) {
			s.targets = append(s.targets, css)
		}
	}
	for _, c := range f.cases.Cases {
		s := spec(c.Page, f.cases.Pages[c.Page].Sensitive)
		addTarget(s, c.Target)
		addTarget(s, c.Resolves)
	}
	matrixPages := []string{f.matrix.Base}
	for _, p := range f.matrix.Variants {
		matrixPages = append(matrixPages, p)
	}
	for _, p := range matrixPages {
		s := spec(p, f.matrix.Sensitive)
		for _, step := range f.matrix.Steps {
			addTarget(s, step.Target)
			addTarget(s, step.Resolves)
		}
	}
	out := make([]pageSpec, 0, len(specs)+1)
	for _, s := range specs {
		if s.sensitive == nil {
			s.sensitive = []string{}
		}
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].page < out[j].page })
	return append(out, largePageSpec())
}

func TestCorpusScreens(t *testing.T) {
	browsertest.Need(t)
	for _, spec := range corpusPages(t) {
		t.Run(spec.page, func(t *testing.T) {
			t.Parallel()
			got := capturePage(t, spec)
			stored, err := readScreenFile(spec.path)
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("reading %s: %v", spec.path, err)
			}
			var diff string
			if err == nil {
				diff = compareScreenFiles(stored, got)
				if diff == "" {
					return
				}
			}
			if golden.Update() {
				if err := writeScreenFile(spec.path, got); err != nil {
					t.Fatal(err)
				}
				t.Logf("wrote %s", spec.path)
				return
			}
			if stored == nil {
				t.Fatalf("%s is missing: run go test ./e2e/selectors -update to capture it", spec.path)
			}
			t.Errorf("%s is stale: the page model now captures %s differently (boxes and the document token are not compared):\n%s\n"+
				"Check the corpus cases against what it sees now, then run go test ./e2e/selectors -update", spec.path, spec.page, diff)
		})
	}
}

// capturePage loads spec's page in a fresh browser context and captures it.
func capturePage(t *testing.T, spec pageSpec) *screenFile {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browserCtx, chromedp.WithNewBrowserContext())
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, pageTimeout)
	defer cancelTimeout()
	url := corpusOrigin + "/" + spec.page
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(browser.DefaultViewportWidth, browser.DefaultViewportHeight),
		chromedp.Navigate(url),
	); err != nil {
		t.Fatalf("loading %s: %v", url, err)
	}
	captured, err := browser.Capture(ctx, browser.CaptureOptions{Sensitive: browser.Sensitive{Values: spec.sensitive}})
	if err != nil {
		t.Fatalf("capturing %s: %v", url, err)
	}
	found, err := chromedp.Run(ctx, resolveTargets(spec.targets))
	if err != nil {
		t.Fatalf("resolving the targets of %s: %v", spec.page, err)
	}
	tags := map[string]string{}
	elements := 0
	walk(captured.Root, func(n *screen.Node) {
		if n.Ref != "" {
			tags[n.Ref] = n.Tag
			elements++
		}
	})
	if elements < spec.minElements {
		t.Fatalf("%s: the screen has %d elements, want at least %d", spec.page, elements, spec.minElements)
	}
	targets := map[string]string{}
	for _, css := range spec.targets {
		r := found[css]
		if r.Error != "" {
			t.Fatalf("%s: target %q: %s", spec.page, css, r.Error)
		}
		if tag, ok := tags[r.Ref]; !ok || tag != r.Tag {
			t.Fatalf("%s: target %q is the <%s> with ref %s, but the screen has %q there", spec.page, css, r.Tag, r.Ref, tag)
		}
		targets[css] = r.Ref
	}
	return &screenFile{Page: spec.page, Sensitive: spec.sensitive, Targets: targets, Screen: captured}
}

// A resolvedTarget is the element a CSS target selects: its ref and tag, or
// why there is none.
type resolvedTarget struct {
	Ref   string `json:"ref"`
	Tag   string `json:"tag"`
	Error string `json:"error"`
}

// resolveTargetsJS selects each target (" >>> " steps into the open shadow
// root or the iframe document of what the step before selected; every step
// must select exactly one element) and asks the page model for its ref.
const resolveTargetsJS = `((targets) => {
  const pm = globalThis.__trailpinPageModel;
  if (!pm) return {'': {error: 'the page model is not installed in its world'}};
  const out = {};
  for (const css of targets) {
    let root = document, el = null, error = '';
    for (const step of css.split(' >>> ')) {
      if (el) {
        root = el.shadowRoot || el.contentDocument;
        if (!root) { error = 'the <' + el.localName + '> before ' + JSON.stringify(step) + ' has no open shadow root and no document'; break; }
      }
      const all = root.querySelectorAll(step);
      if (all.length !== 1) { error = JSON.stringify(step) + ' selects ' + all.length + ' elements, want exactly one'; break; }
      el = all[0];
    }
    out[css] = error ? {error} : {ref: pm.refForElement(el), tag: el.localName};
  }
  return out;
})(%s)`

// resolveTargets resolves CSS targets to refs in the page model's world.
func resolveTargets(targets []string) chromedp.Action[map[string]resolvedTarget] {
	return func(ctx context.Context, t *chromedp.Target) (map[string]resolvedTarget, error) {
		tree, err := cdp.Call(ctx, t, page.GetFrameTree, cdp.Empty{})
		if err != nil {
			return nil, err
		}
		world, err := cdp.Call(ctx, t, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{
			FrameID:   tree.FrameTree.Frame.ID,
			WorldName: pageModelWorld,
		})
		if err != nil {
			return nil, err
		}
		list, err := json.Marshal(targets)
		if err != nil {
			return nil, err
		}
		inWorld := func(p *runtime.EvaluateParams) { p.ContextID = world.ExecutionContextID }
		got, err := chromedp.Evaluate[map[string]resolvedTarget](fmt.Sprintf(resolveTargetsJS, list), inWorld)(ctx, t)
		if err != nil {
			return nil, err
		}
		if r, ok := got[""]; ok {
			return nil, errors.New(r.Error)
		}
		return got, nil
	}
}

func walk(n *screen.Node, fn func(*screen.Node)) {
	if n == nil {
		return
	}
	fn(n)
	for _, c := range n.Children {
		walk(c, fn)
	}
}

// compareScreenFiles returns "" when the files agree in everything but boxes
// and the document token, or else where they first differ.
func compareScreenFiles(stored, got *screenFile) string {
	a, b := comparable(stored), comparable(got)
	if bytes.Equal(a, b) {
		return ""
	}
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	i := 0
	for i < len(al) && i < len(bl) && al[i] == bl[i] {
		i++
	}
	var d strings.Builder
	const context = 6 // lines before the first difference, to show where it is
	for k := max(0, i-context); k < i; k++ {
		fmt.Fprintf(&d, "   %s\n", al[k])
	}
	for k := i; k < min(len(al), i+3); k++ {
		fmt.Fprintf(&d, " - %s\n", al[k])
	}
	for k := i; k < min(len(bl), i+3); k++ {
		fmt.Fprintf(&d, " + %s\n", bl[k])
	}
	return fmt.Sprintf("first difference at line %d of the compared form (- stored, + captured now):\n%s", i+1, d.String())
}

// comparable writes f without boxes and document token, indented.
func comparable(f *screenFile) []byte {
	data, err := json.Marshal(f)
	if err != nil {
		panic(err)
	}
	var c screenFile
	if err := json.Unmarshal(data, &c); err != nil {
		panic(err)
	}
	if c.Screen != nil {
		c.Screen.Document = ""
		walk(c.Screen.Root, func(n *screen.Node) { n.Box = nil })
	}
	out, err := json.MarshalIndent(&c, "", " ")
	if err != nil {
		panic(err)
	}
	return out
}

func readScreenFile(path string) (*screenFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		if data, err = io.ReadAll(zr); err != nil {
			return nil, err
		}
	}
	var f screenFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	return &f, nil
}

// writeScreenFile writes f atomically: a temporary file in the same folder,
// synced, then renamed over the old one.
func writeScreenFile(path string, f *screenFile) error {
	data, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if strings.HasSuffix(path, ".gz") {
		var buf bytes.Buffer
		zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		if err != nil {
			return err
		}
		// No name and no time in the header: the same screen compresses to
		// the same bytes.
		if _, err := zw.Write(data); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		data = buf.Bytes()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly after the rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
