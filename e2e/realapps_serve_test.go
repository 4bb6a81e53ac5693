package e2e

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

// The real-app corpus: open-source web apps no one on this project wrote,
// installed from npm as pinned devDependencies (package.json; `npm ci`
// installs them, nothing of them is committed) and served from loopback as
// they are. Three serve-time changes exist, each one deliberate:
//
//   - an address outside loopback that a page loads (a CDN stylesheet, a web
//     font) is rewritten to the local copy from node_modules the app's entry
//     names, or to an empty local file when the package ships none: the suite
//     has no network, and a page must not wait on one;
//   - the churned copy renames class names and ids consistently across the
//     app's HTML, CSS and JavaScript (churn below);
//   - a value variant changes one value a person reads (valueVariant below).

// A realApp is one app of the corpus.
type realApp struct {
	// name is the app's name in test names and trails.
	name string
	// pkg and version are the npm package and its pinned version, which
	// package.json must name exactly.
	pkg, version string
	// start is the path the flow begins on.
	start string
	// rewrites maps an outside address a page loads to a local path ("" for
	// an empty file).
	rewrites map[string]string
	// css lists the stylesheets (paths from the package root) whose class and
	// id selectors the churn renames, with the class and id attributes of
	// pages.
	css, pages []string
	// churnJS lists the scripts (and JSON files holding markup) whose
	// string literals the churn rewrites.
	churnJS []string
	// keep lists class names and ids the churn leaves alone, each because
	// the app also uses the word as data (a route, a key of its model).
	keep []string
	// libraryJS lists the library scripts the app loads that the churn
	// leaves as they are; every name their string literals hold stays too,
	// as a rebuild of the app's own styles would not rename a class a
	// library adds or looks for (Bootstrap's "show", DataTables' "sorting").
	libraryJS []string
	// churnDOM renames the app's classes where its scripts write them into
	// the page and look for them there (class attributes, className,
	// classList, the selectors they query) instead of in the scripts'
	// source. For a minified bundle that holds the app with its libraries
	// and uses its class names as data too (Swagger UI's "description",
	// "parameters" and "required" are also OpenAPI keys it reads): a
	// rewrite of its string literals changes what the app reads, and a
	// scan for literals misreads the regular expressions and templates of
	// minified code. What the page holds is what a rebuild with hashed
	// class names gives.
	churnDOM bool
	// extra serves paths that are not files of the package (the API a
	// spec names); nil for none.
	extra http.Handler
	// volatile lists regular expressions (JavaScript's) of text that
	// differs between any two runs of the unchanged app, such as a
	// response's Date header: the churn check reads it as <volatile>.
	volatile []string
	// secrets are the values the flow types into fields it marks
	// sensitive, by the name the trail reads each from
	// (${secret:NAME}): replay gets them from the environment, and none
	// may appear in anything the recording or a replay wrote.
	secrets map[string]string
	// paceDiffers, when set, is why the flow recorded at a machine's pace
	// is known to give another trail than at a person's: a recorder
	// defect written down in docs/recording.md and not fixed yet. The
	// machine-pace subtest is skipped with it, and says so.
	paceDiffers string
	// fewClasses, when set, is why the app's own styles hold fewer than
	// ten class names for the churn to rename (which it otherwise takes
	// for a churn that proves little): it renames every one of them.
	fewClasses string
}

// nodeModules is the folder npm ci installs the corpus into.
func nodeModules() string { return filepath.Join(RepoRoot(), "node_modules") }

// checkInstalled fails the test unless the app's package is installed at
// its pinned version, naming the command that installs it.
func (a *realApp) checkInstalled(t *testing.T) string {
	t.Helper()
	root := filepath.Join(nodeModules(), a.pkg)
	src, err := os.ReadFile(filepath.Join(root, "package.json"))
	var meta struct{ Version string }
	if err == nil {
		err = json.Unmarshal(src, &meta)
	}
	if err != nil || meta.Version != a.version {
		t.Fatalf("the real app %s needs npm package %s@%s in %s (found %q, %v): run npm ci", a.name, a.pkg, a.version, root, meta.Version, err)
	}
	var pkg struct{ DevDependencies map[string]string }
	if src, err := os.ReadFile(filepath.Join(RepoRoot(), "package.json")); err == nil {
		_ = json.Unmarshal(src, &pkg)
	}
	if got := pkg.DevDependencies[a.pkg]; got != a.version {
		t.Fatalf("package.json pins %s at %q; the corpus is written for exactly %s", a.pkg, got, a.version)
	}
	return root
}

// serveOptions says which copy of an app a server serves.
type serveOptions struct {
	churn   bool
	variant *valueVariant
}

// serveApp serves the app's package folder on loopback with the rewrites of
// opts; transformed files are computed once per server.
func serveApp(t *testing.T, a *realApp, opts serveOptions) *httptest.Server {
	t.Helper()
	root := a.checkInstalled(t)
	var ch *churn
	if opts.churn {
		ch = a.churn(t, root)
	}
	var cache sync.Map
	files := http.FileServer(http.Dir(root))
	mux := http.NewServeMux()
	if a.extra != nil {
		mux.Handle("/api/", a.extra)
		mux.Handle("/openapi.json", a.extra)
	}
	mux.HandleFunc("/__empty", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", mime.TypeByExtension(path.Ext(r.URL.Query().Get("as"))))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		p := path.Clean(r.URL.Path)
		if strings.HasSuffix(r.URL.Path, "/") {
			p = path.Join(p, "index.html")
		}
		ext := path.Ext(p)
		if ext != ".html" && ext != ".css" && ext != ".js" && ext != ".json" {
			files.ServeHTTP(w, r)
			return
		}
		body, ok := cache.Load(p)
		if !ok {
			src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
			if err != nil {
				http.NotFound(w, r)
				return
			}
			out := a.rewrite(string(src), ext)
			if ch != nil {
				out = ch.apply(p, out, ext)
			}
			if ext == ".html" && opts.variant != nil {
				out = opts.variant.inject(out)
			}
			body, _ = cache.LoadOrStore(p, []byte(out))
		}
		w.Header().Set("Content-Type", mime.TypeByExtension(ext))
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(body.([]byte))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// rewrite replaces the outside addresses the app's pages load with local
// ones. A key ending in * stands for every address that starts with the rest,
// up to the closing quote.
func (a *realApp) rewrite(src, ext string) string {
	keys := make([]string, 0, len(a.rewrites))
	for k := range a.rewrites {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return len(keys[i]) > len(keys[j]) })
	for _, k := range keys {
		to := a.rewrites[k]
		prefix, wild := strings.CutSuffix(k, "*")
		if to == "" {
			to = "/__empty?as=" + path.Ext(strings.SplitN(prefix, "?", 2)[0])
		}
		if !wild {
			src = strings.ReplaceAll(src, k, to)
			continue
		}
		re := regexp.MustCompile(regexp.QuoteMeta(prefix) + `[^"' )]*`)
		src = re.ReplaceAllLiteralString(src, to)
	}
	return src
}

// A churn renames class names the way a rebuild with hashed class
// names does: each name becomes another, the same everywhere, so nothing a
// person sees changes but every selector that named a class or an id by
// its old name breaks.
type churn struct {
	// names maps each churned name (letters, digits, _ and -) to its new
	// name; a name is renamed only where it stands whole.
	names map[string]string
	js    map[string]bool
	// dom says the pages get churnDOMScript.
	dom bool
}

var (
	cssSelectorName = regexp.MustCompile(`([.#])(-?[A-Za-z_][\w-]*)`)
	htmlClassAttr   = regexp.MustCompile(`(\sclass=)("[^"]*"|'[^']*')`)
	jsString        = regexp.MustCompile(`'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"`)
	htmlClassOrID   = regexp.MustCompile(`\s(class|id)="([^"]*)"`)
	styleOrScript   = regexp.MustCompile(`(?s)(<style[^>]*>)(.*?)(</style>)|(<script(?:\s[^>]*)?>)(.*?)(</script>)`)
)

// churnedName is the new name of name: a short hash, as CSS modules write.
func churnedName(name string) string {
	h := sha1.Sum([]byte("churn:" + name))
	return "c" + hex.EncodeToString(h[:4])
}

// churn collects the class names the app's stylesheets and pages use. Ids
// stay: the apps' ids are written by hand, stable, and a selector may use
// them; a name that is also an id stays too, as scripts name both the same
// way.
func (a *realApp) churn(t *testing.T, root string) *churn {
	t.Helper()
	classes, ids := map[string]bool{}, map[string]bool{}
	for _, f := range a.css {
		src, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatalf("churn: %v", err)
		}
		for _, sel := range cssSelectors(string(src)) {
			for _, m := range cssSelectorName.FindAllStringSubmatch(sel, -1) {
				if m[1] == "." {
					classes[m[2]] = true
				} else {
					ids[m[2]] = true
				}
			}
		}
	}
	for _, f := range a.pages {
		src, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatalf("churn: %v", err)
		}
		for _, m := range htmlClassOrID.FindAllStringSubmatch(string(src), -1) {
			for _, n := range strings.Fields(m[2]) {
				if strings.ContainsAny(n, "{}<>$") {
					continue
				}
				if m[1] == "class" {
					classes[n] = true
				} else {
					ids[n] = true
				}
			}
		}
	}
	library := map[string]bool{}
	for _, f := range a.libraryJS {
		src, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatalf("churn: %v", err)
		}
		for _, lit := range jsString.FindAllString(string(src), -1) {
			for _, w := range libraryWord.FindAllString(lit, -1) {
				library[w] = true
			}
		}
	}
	names := map[string]string{}
	for n := range classes {
		if !ids[n] && !library[n] && !slices.Contains(a.keep, n) {
			names[n] = churnedName(n)
		}
	}
	if len(names) < 10 && a.fewClasses == "" {
		t.Fatalf("churn: only %d class names found for %s; the churn would prove little", len(names), a.name)
	}
	ch := &churn{names: names, js: map[string]bool{}, dom: a.churnDOM}
	for _, f := range a.churnJS {
		ch.js["/"+f] = true
	}
	return ch
}

// cssSelectors returns the selector parts of a stylesheet: the text before
// each block that is not an at-rule.
func cssSelectors(src string) []string {
	var out []string
	src = stripCSSComments(src)
	start := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '{':
			sel := strings.TrimSpace(src[start:i])
			if !strings.HasPrefix(sel, "@") {
				out = append(out, sel)
			}
			start = i + 1
		case '}', ';':
			start = i + 1
		}
	}
	return out
}

var libraryWord = regexp.MustCompile(`[\w-]+`)

var cssComment = regexp.MustCompile(`(?s)/\*.*?\*/`)

func stripCSSComments(src string) string { return cssComment.ReplaceAllString(src, "") }

// replaceWords renames every whole name in s, except where the name is
// part of a path or a file name ("examples/", "learn.json").
func (c *churn) replaceWords(s string) string {
	return c.renameNames(s, func(i, j int) bool {
		return !(i > 0 && s[i-1] == '/') && !(j < len(s) && s[j] == '/') && !fileExt.MatchString(s[j:])
	})
}

// renameNames renames each whole name of s (a run of name bytes) that the
// churn renames and rename(start, end) allows. A scan rather than one
// regular expression of every name: an app's stylesheet can hold thousands
// (a utility-class library), and a script megabytes of strings.
func (c *churn) renameNames(s string, rename func(i, j int) bool) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		if !isNameByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isNameByte(s[j]) {
			j++
		}
		if to, ok := c.names[s[i:j]]; ok && rename(i, j) {
			b.WriteString(s[last:i])
			b.WriteString(to)
			last = j
		}
		i = j
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

var fileExt = regexp.MustCompile(`^\.(json|js|mjs|css|html|png|svg|gif|jpg)\b`)

func isNameByte(b byte) bool {
	return b == '_' || b == '-' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// css renames the class selectors of a stylesheet, and nothing in
// its declarations.
func (c *churn) css(src string) string {
	var b strings.Builder
	start := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '{':
			sel := src[start:i]
			if !strings.HasPrefix(strings.TrimSpace(sel), "@") {
				classes := sel
				sel = c.renameNames(classes, func(i, _ int) bool { return i > 0 && classes[i-1] == '.' })
			}
			b.WriteString(sel)
			b.WriteByte('{')
			start = i + 1
		case '}', ';':
			b.WriteString(src[start : i+1])
			start = i + 1
		}
	}
	b.WriteString(src[start:])
	return b.String()
}

// jsStrings renames whole names inside a script's string literals: where
// scripts name classes and ids ('.toggle', '#todo-list', 'class="view"').
func (c *churn) jsStrings(src string) string {
	return jsString.ReplaceAllStringFunc(src, c.replaceWords)
}

// jsSelectors renames the class selectors inside a script's string
// literals, and no other word: what a flow's waits need ('tr' in
// "tr[data-param-name=status]" is an element, even where a utility class
// has the same name).
func (c *churn) jsSelectors(src string) string {
	return jsString.ReplaceAllStringFunc(src, func(lit string) string {
		return c.renameNames(lit, func(i, _ int) bool { return i > 0 && lit[i-1] == '.' })
	})
}

// apply churns one file.
func (c *churn) apply(p, src, ext string) string {
	switch ext {
	case ".css":
		return c.css(src)
	case ".js", ".json":
		if c.js[p] {
			return c.jsStrings(src)
		}
		return src
	}
	src = htmlClassAttr.ReplaceAllStringFunc(src, func(m string) string {
		sub := htmlClassAttr.FindStringSubmatch(m)
		return sub[1] + c.replaceWords(sub[2])
	})
	src = styleOrScript.ReplaceAllStringFunc(src, func(m string) string {
		sub := styleOrScript.FindStringSubmatch(m)
		if sub[1] != "" {
			return sub[1] + c.css(sub[2]) + sub[3]
		}
		if strings.Contains(sub[4], "src=") {
			return m
		}
		return sub[4] + c.jsStrings(sub[5]) + sub[6]
	})
	if c.dom {
		// After the rest: the script's own strings are not the app's.
		src = c.injectDOMScript(src)
	}
	return src
}

// churnDOMScript renames, in the page, every class name the churn renames:
// in class attributes and className as scripts set them, in classList
// calls, and in the selectors scripts query with. The class names the
// app's scripts read back stay churned, as a rebuild's would.
const churnDOMScript = `<script>(() => {
  const names = new Map(Object.entries(%s));
  const classes = (v) => String(v).split(/(\s+)/).map((t) => names.get(t) ?? t).join('');
  const selector = (v) => typeof v !== 'string' ? v : v.replace(/\.(-?[_a-zA-Z][\w-]*)/g, (m, n) => names.has(n) ? '.' + names.get(n) : m);
  const wrap = (proto, method, map) => {
    const native = proto[method];
    proto[method] = function (...args) { return native.apply(this, map(args)); };
  };
  wrap(Element.prototype, 'setAttribute', ([n, v, ...rest]) => [n, String(n).toLowerCase() === 'class' ? classes(v) : v, ...rest]);
  const className = Object.getOwnPropertyDescriptor(Element.prototype, 'className');
  Object.defineProperty(Element.prototype, 'className', {...className, set(v) { className.set.call(this, classes(v)); }});
  for (const m of ['add', 'remove', 'toggle', 'contains', 'replace'])
    wrap(DOMTokenList.prototype, m, (args) => args.map((a, i) => m === 'toggle' && i > 0 ? a : typeof a === 'string' ? names.get(a) ?? a : a));
  for (const proto of [Element.prototype, Document.prototype, DocumentFragment.prototype])
    for (const m of ['querySelector', 'querySelectorAll', 'matches', 'closest'])
      if (proto[m]) wrap(proto, m, ([sel, ...rest]) => [selector(sel), ...rest]);
  for (const proto of [Element.prototype, Document.prototype])
    wrap(proto, 'getElementsByClassName', ([v]) => [classes(v)]);
})();</script>`

// injectDOMScript puts churnDOMScript first into a page.
func (c *churn) injectDOMScript(html string) string {
	names, _ := json.Marshal(c.names)
	script := fmt.Sprintf(churnDOMScript, names)
	if i := strings.Index(strings.ToLower(html), "<head>"); i >= 0 {
		return html[:i+6] + script + html[i+6:]
	}
	return script + html
}

// translate renames the class selectors of a CSS selector the flow
// uses, so the same flow can drive the churned copy.
func (c *churn) translate(sel string) string {
	if c == nil {
		return sel
	}
	out := c.css(sel + "{}")
	return out[:len(out)-2]
}

// A valueVariant is a copy of an app in which one value a person reads is
// changed: wherever the smallest element whose text is whole shows it (or a
// field holds it as its value), from becomes to. A script injected first
// into every page does it, again after every change of the page, so it
// holds through the app's own rendering.
type valueVariant struct {
	whole, from, to string
	// only is CSS for the elements the change may be in: those of the
	// checked element's role when its selector names one (a link that reads
	// the same as the checked heading stays, or the copy would change what
	// the person clicks rather than what they read); "" for any.
	only string
}

// variantRoles is CSS for the elements of a role a value check names.
var variantRoles = map[string]string{
	"heading": "h1, h2, h3, h4, h5, h6, [role=heading]", "link": "a[href], [role=link]",
	"button": "button, [role=button], input[type=button], input[type=submit]", "status": "[role=status], output",
	"cell": "td, [role=cell]", "gridcell": "td, [role=gridcell]", "listitem": "li, [role=listitem]",
	"textbox": "input, textarea", "combobox": "select, input", "slider": "input[type=range]",
}

func (v *valueVariant) String() string {
	return fmt.Sprintf("%q with %q for %q", v.whole, v.to, v.from)
}

const variantScript = `<script>(() => {
  const [whole, from, to, only] = %s;
  const allowed = (el) => !only || !!el.closest(only);
  const squash = (s) => (s || '').replace(/\s+/g, '');
  const want = squash(whole);
  function fix() {
    for (const el of document.querySelectorAll('input, textarea')) {
      if (el.value === whole && allowed(el)) el.value = whole.replace(from, to);
    }
    if (!document.body) return;
    for (const el of document.body.querySelectorAll('*')) {
      if (squash(el.textContent) !== want || !allowed(el)) continue;
      if ([...el.children].some((c) => squash(c.textContent) === want)) continue;
      const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        if (n.data.includes(from)) { n.data = n.data.replace(from, to); break; }
      }
    }
  }
  // A value the app's script writes into a field (an autocomplete's
  // chosen suggestion) comes with no event: the copy's fields write the
  // changed value instead.
  for (const proto of [HTMLInputElement.prototype, HTMLTextAreaElement.prototype]) {
    const value = Object.getOwnPropertyDescriptor(proto, 'value');
    Object.defineProperty(proto, 'value', {...value, set(v) {
      value.set.call(this, v === whole && allowed(this) ? whole.replace(from, to) : v);
    }});
  }
  new MutationObserver(fix).observe(document, {subtree: true, childList: true, characterData: true});
  document.addEventListener('input', fix, true);
  document.addEventListener('change', fix, true);
  document.addEventListener('DOMContentLoaded', fix);
})();</script>`

// inject puts the variant's script first into a page.
func (v *valueVariant) inject(html string) string {
	args, _ := json.Marshal([]string{v.whole, v.from, v.to, v.only})
	script := fmt.Sprintf(variantScript, args)
	if i := strings.Index(strings.ToLower(html), "<head>"); i >= 0 {
		return html[:i+6] + script + html[i+6:]
	}
	return script + html
}

var firstNumber = regexp.MustCompile(`\d+`)
var firstWord = regexp.MustCompile(`[A-Za-z]{3,}`)

// variantFor is the change that makes a value assertion on text false: its
// first number off by one, else its first word changed.
func variantFor(text string) *valueVariant {
	if m := firstNumber.FindString(text); m != "" {
		n := 0
		fmt.Sscan(m, &n)
		return &valueVariant{whole: text, from: m, to: fmt.Sprint(n + 1)}
	}
	if m := firstWord.FindString(text); m != "" {
		changed := m[:len(m)-1] + string(rune('a'+(m[len(m)-1]-'a'+1)%26))
		if m[len(m)-1] < 'a' {
			changed = m + "s"
		}
		return &valueVariant{whole: text, from: m, to: changed}
	}
	return nil
}
