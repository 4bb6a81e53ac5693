package e2e

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/extension"
)

// shortcutsPage has what the capture's shortcuts must read as the browser
// does: links whose href is a fragment or a path from the root (every
// printable ASCII character in it, and some the URL parser encodes or
// rewrites), other links, and controls disabled
// or not by fieldsets in the document, in a shadow root and across a slot;
// with base, the document has a <base href> of it.
func shortcutsPage(base string) string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><title>Shortcuts</title>`)
	if base != "" {
		b.WriteString(`<base href="` + base + `">`)
	}
	b.WriteString(`</head><body>
<nav>`)
	for c := 0x20; c < 0x7f; c++ {
		frag := string(rune(c))
		switch frag {
		case `"`:
			frag = "&quot;"
		case "&":
			frag = "&amp;"
		case "<":
			frag = "&lt;"
		}
		b.WriteString(`<a href="#x` + frag + `y">char ` + strings.Repeat("I", 1) + `</a> `)
	}
	// Paths from the root, with every printable character in them, and
	// the dot segments, slashes and backslashes the URL parser rewrites.
	for c := 0x20; c < 0x7f; c++ {
		ch := string(rune(c))
		switch ch {
		case `"`:
			ch = "&quot;"
		case "&":
			ch = "&amp;"
		case "<":
			ch = "&lt;"
		}
		b.WriteString(`<a href="/p` + ch + `q/r">path</a> `)
	}
	b.WriteString(`<a href="/">root</a> <a href="//elsewhere.test/x">two slashes</a> <a href="/\back">backslash</a>
<a href="/a\b">inner backslash</a> <a href="/a/./b">dot</a> <a href="/a/../b">dots</a> <a href="/.">end dot</a>
<a href="/..">end dots</a> <a href="/a/.">trailing dot</a> <a href="/.hidden/..x">not dot segments</a>
<a href="/a//b">double slash inside</a> <a href="/é">accent path</a> <a href="/%41">percent path</a> `)
	b.WriteString(`<a href="#">top</a> <a href="##a#b">hashes</a> <a href="#%41%zz">percents</a>
<a href="#é">accent</a> <a href=" #padded">padded</a> <a href="#tab	in">tab</a>
<a href="other?q=1#frag">relative</a> <a href="/abs#f">absolute</a> <a href="https://example.com/#x">away</a>
<div role="link" href="#not-a-link">role link</div>
<svg width="20" height="20"><a href="#svg-link"><rect width="20" height="20"/><text y="10">svg</text></a></svg>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" usemap="#m" width="20" height="20" alt="map">
<map name="m"><area href="#area-frag" shape="rect" coords="0,0,20,20" alt="area"></map>
</nav>
<fieldset disabled><legend><button>in legend</button></legend><button>in disabled fieldset</button>
  <fieldset><input aria-label="nested"></fieldset></fieldset>
<fieldset><button>in enabled fieldset</button><select aria-label="pick"><optgroup label="g" disabled><option>o</option></optgroup></select></fieldset>
<button disabled>own attribute</button>
<div id="host"><button slot="s">slotted</button></div>
<div id="plain-host"></div>
<script>
  const root = document.getElementById('host').attachShadow({mode: 'open'});
  root.innerHTML = '<fieldset disabled><button>shadow disabled</button><slot name="s"></slot></fieldset>';
  const plain = document.getElementById('plain-host').attachShadow({mode: 'open'});
  plain.innerHTML = '<button>shadow enabled</button><a href="#in-shadow">shadow link</a>';
</script>
</body></html>`)
	return b.String()
}

// TestCaptureLinksAndDisabledAsTheBrowser: the capture resolves a link's
// fragment or root-path href without asking the element, and asks whether a fieldset
// disables a control only where its tree has a disabled fieldset; both
// must give what the browser gives: the href property and :disabled.
func TestCaptureLinksAndDisabledAsTheBrowser(t *testing.T) {
	t.Parallel()
	br := StartBrowser(t, Options{NoHost: true})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(shortcutsPage(r.URL.Query().Get("base"))))
	}))
	t.Cleanup(srv.Close)
	type check struct {
		Links     int      `json:"links"`
		Fields    int      `json:"fields"`
		Disabled  int      `json:"disabled"`
		Problems  []string `json:"problems"`
		Documents int      `json:"documents"`
	}
	run := func(t *testing.T, url string) check {
		tab := br.OpenTab(t, url)
		WaitFor[bool](t, tab, `document.getElementById('plain-host').shadowRoot !== null`)
		Eval[chromedp.Void](t, tab, extension.PageModel())
		return Eval[check](t, tab, `(() => {
			const pm = globalThis.__trailpinPageModel;
			const screen = pm.capture({coverage: 'none'});
			const out = {links: 0, fields: 0, disabled: 0, problems: [], documents: 1};
			const walk = (n) => {
				if (n.ref) {
					const found = pm.elementForRef(n.ref);
					const el = found.element;
					if (!el) {
						out.problems.push(n.ref + ': no element');
					} else {
						if (n.role === 'link' && el.namespaceURI === 'http://www.w3.org/1999/xhtml') {
							out.links++;
							const want = typeof el.href === 'string' ? el.href : '';
							if ((n.url || '') !== want)
								out.problems.push('link ' + JSON.stringify(el.getAttribute('href')) + ': url ' + JSON.stringify(n.url) + ', the browser ' + JSON.stringify(want));
							const written = el.getAttribute('href');
							const wantHref = written !== null && written !== want ? written : undefined;
							if (n.href !== wantHref)
								out.problems.push('link ' + JSON.stringify(written) + ': href ' + JSON.stringify(n.href));
						}
						if (['button', 'input', 'select', 'textarea', 'option', 'optgroup'].includes(el.localName)) {
							out.fields++;
							const want = el.matches(':disabled');
							if (want)
								out.disabled++;
							if (!!n.disabled !== want)
								out.problems.push(el.localName + ' ' + JSON.stringify(el.textContent || el.getAttribute('aria-label')) + ': disabled ' + !!n.disabled + ', the browser ' + want);
						}
					}
				}
				for (const c of n.children || [])
					walk(c);
			};
			walk(screen.root);
			return out;
		})()`)
	}
	for _, tc := range []struct{ name, path string }{
		{"plain", "/shortcuts?n=1"},
		{"with a fragment", "/shortcuts?n=1#somewhere"},
		{"with a base", "/shortcuts?base=/other/path%3Fq%3D1%23f#here"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := run(t, srv.URL+tc.path)
			for _, p := range got.Problems {
				t.Error(p)
			}
			// Every printable character, the few more, the shadow's: the
			// page's links were all read; the fields both ways.
			if want := 2*(0x7f-0x20) + 11 + 14; got.Links < want {
				t.Errorf("read %d links, want at least %d", got.Links, want)
			}
			if got.Fields < 10 || got.Disabled < 5 || got.Disabled == got.Fields {
				t.Errorf("read %d fields, %d disabled: the page's fields were not all read", got.Fields, got.Disabled)
			}
		})
	}
}
