package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The churn and the value variants are what the real-app tests lean on to
// say "nothing a person sees changed" and "this value changed"; these
// checks need no browser.

func TestChurnRenamesClassesOnly(t *testing.T) {
	root := t.TempDir()
	css := `.view, .toggle:checked + label { display: block; }
#list .destroy:hover, .learn > .quote { color: #fff; }
@media (max-width: 400px) { .edit { width: 1px } }
.a1 {} .a2 {} .a3 {} .a4 {} .a5 {} .a6 {} .block {}`
	html := `<ul id="list" class="view block"><li class="edit"><label for="list">x</label></li></ul>`
	if err := os.WriteFile(filepath.Join(root, "app.css"), []byte(css), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "index.html"), []byte(html), 0o600); err != nil {
		t.Fatal(err)
	}
	a := &realApp{name: "unit", css: []string{"app.css"}, pages: []string{"index.html"}, churnJS: []string{"app.js"}, keep: []string{"quote"}}
	ch := a.churn(t, root)
	n := churnedName

	gotCSS := ch.apply("/app.css", css, ".css")
	for _, want := range []string{"." + n("view") + ", ." + n("toggle") + ":checked", "{ display: block; }", "#list ." + n("destroy") + ":hover",
		"." + n("learn") + " > .quote", "{ color: #fff; }", "@media (max-width: 400px) { ." + n("edit") + " {"} {
		if !strings.Contains(gotCSS, want) {
			t.Errorf("churned CSS lacks %q:\n%s", want, gotCSS)
		}
	}
	gotHTML := ch.apply("/index.html", html, ".html")
	if want := `<ul id="list" class="` + n("view") + ` ` + n("block") + `"><li class="` + n("edit") + `"><label for="list">`; !strings.HasPrefix(gotHTML, want) {
		t.Errorf("churned HTML = %s, want it to start %s", gotHTML, want)
	}
	js := `qs('.toggle', li); el.className = 'edit view'; classList.toggle(x); get('learn.json'); base.indexOf('examples/'); var block = "#list .destroy";`
	gotJS := ch.apply("/app.js", js, ".js")
	for _, want := range []string{"qs('." + n("toggle") + "', li)", "'" + n("edit") + " " + n("view") + "'", "classList.toggle(x)", "'learn.json'", "var block = \"#list ." + n("destroy") + "\""} {
		if !strings.Contains(gotJS, want) {
			t.Errorf("churned JS lacks %q:\n%s", want, gotJS)
		}
	}
	if other := ch.apply("/other.js", js, ".js"); other != js {
		t.Errorf("a script outside churnJS changed:\n%s", other)
	}
	if got, want := ch.translate("#list li.edit > .view"), "#list li."+n("edit")+" > ."+n("view"); got != want {
		t.Errorf("translate = %q, want %q", got, want)
	}
}

func TestVariantFor(t *testing.T) {
	tests := []struct{ text, from, to string }{
		{"Showing 1 to 10 of 57 entries", "1", "2"},
		{"Clear completed (2)", "2", "3"},
		{"Welcome Back!", "Welcome", "Welcomf"},
		{"Ready to Leave?", "Ready", "Readz"},
	}
	for _, tt := range tests {
		v := variantFor(tt.text)
		if v == nil || v.from != tt.from || v.to != tt.to || v.whole != tt.text {
			t.Errorf("variantFor(%q) = %+v, want %q for %q", tt.text, v, tt.to, tt.from)
		}
	}
	if v := variantFor("✔ ✖"); v != nil {
		t.Errorf("variantFor of glyphs = %+v, want none", v)
	}
	page := (&valueVariant{whole: "2 items left", from: "2", to: "3"}).inject("<html><head><title>x</title></head></html>")
	if !strings.HasPrefix(page, `<html><head><script>(() => {
  const [whole, from, to, only] = ["2 items left","2","3",""];`) {
		t.Errorf("the variant's script is not first in the head:\n%s", page)
	}
}

func TestInStatusLine(t *testing.T) {
	line := `ASSERTION_FAILED|swagger-flow-11|app-bug: assertVisible {text: "\\"Bird of paradise\\""}: expected "\\"Bird of paradise\\"", the page shows "\\"Bire of paradise\\""`
	for _, tt := range []struct {
		value string
		want  bool
	}{{`"Bird of paradise"`, true}, {`"Bire of paradise"`, true}, {`"Bird of paradise!"`, false}, {"404", false}} {
		if got := inStatusLine(line, tt.value); got != tt.want {
			t.Errorf("inStatusLine(%q) = %v, want %v", tt.value, got, tt.want)
		}
	}
}
