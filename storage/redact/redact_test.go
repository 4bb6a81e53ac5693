package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

func reportPlaceholder(name string) string { return "[secret:" + name + "]" }

const secret = `p@ss w+rd/é&"<😀`

func TestRedactorEveryForm(t *testing.T) {
	if disabled {
		t.Skip("built with trailpin_noredact: nothing is redacted")
	}
	r := New([]Secret{{Name: "pw", Value: secret}}, reportPlaceholder)
	quoted, _ := json.Marshal(secret)
	forms := append([]string{secret, string(quoted[1 : len(quoted)-1])}, URLEncodings(secret)...)
	forms = append(forms, HTMLEscapes(secret)...)
	if len(forms) < 10 {
		t.Fatalf("only %d forms: %q", len(forms), forms)
	}
	for _, f := range forms {
		in := "before " + f + " after"
		if got, want := r.String(in), "before [secret:pw] after"; got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRedactorShortValues(t *testing.T) {
	if disabled {
		t.Skip("built with trailpin_noredact: nothing is redacted")
	}
	r := New([]Secret{{Name: "pin", Value: "x"}, {Name: "long", Value: "hunter 22"}, {Name: "e", Value: "é"},
		{Name: "signs", Value: "!@#$%"}, {Name: "twice", Value: "ab-ab"}}, reportPlaceholder)
	tests := []struct{ in, want string }{
		{"Checkbox two", "Checkbox two"},
		{"x", "[secret:pin]"},
		{"%C3%A9", "[secret:e]"},
		{"caf%C3%A9", "caf%C3%A9"},
		{`{"value":"x"}`, `{"value":"[secret:pin]"}`},
		{`{"x": 1, "y":"x"}`, `{"x": 1, "y":"[secret:pin]"}`},
		{`read value "x" after`, `read value "[secret:pin]" after`},
		{`"{\"v\":\"x\"}"`, `"{\"v\":\"[secret:pin]\"}"`},
		{"https://example.test/?q=x", "https://example.test/?q=x"},
		{"typed hunter 22 and hunter2", "typed [secret:long] and hunter2"},
		{"?q=hunter+22&r=hunter%2022", "?q=[secret:long]&r=[secret:long]"},
		{"no letters: %21%40%23%24%25 and !@#$%", "no letters: [secret:signs] and [secret:signs]"},
		{"ab-ab-ab-ab, ab%2Dab", "[secret:twice]-[secret:twice], [secret:twice]"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := r.String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := TooShort([]Secret{{"pin", "x"}, {"long", "hunter22"}, {"empty", ""}, {"four", "abcd"}}); len(got) != 1 || got[0] != "pin" {
		t.Errorf("TooShort = %q, want [pin]", got)
	}
	if n := ShortNotice([]string{"${secret:pin}"}); !strings.Contains(n, "${secret:pin}") || !strings.Contains(n, "4 characters") {
		t.Errorf("ShortNotice = %q, want the name and the rule", n)
	}
}

func TestRedactorLongerFirstAndIdempotent(t *testing.T) {
	if disabled {
		t.Skip("built with trailpin_noredact: nothing is redacted")
	}
	ref := func(name string) string { return "${secret:" + name + "}" }
	r := New([]Secret{{Name: "a", Value: "secret"}, {Name: "ab", Value: "secret-and-more"}}, ref)
	once := r.String("use secret-and-more, then secret")
	if want := "use ${secret:ab}, then ${secret:a}"; once != want {
		t.Errorf("String = %q, want %q", once, want)
	}
	if twice := r.String(once); twice != once {
		t.Errorf("redacting again = %q, want it unchanged (%q)", twice, once)
	}
}

func TestRedactorJSON(t *testing.T) {
	if disabled {
		t.Skip("built with trailpin_noredact: nothing is redacted")
	}
	r := New([]Secret{{Name: "flag", Value: "true"}}, reportPlaceholder)
	if _, err := r.JSON([]byte(`{"checked":true}`)); err != ErrBrokeJSON {
		t.Errorf("JSON(a secret that is JSON syntax) = %v, want ErrBrokeJSON", err)
	}
	r = New([]Secret{{Name: "pw", Value: secret}}, reportPlaceholder)
	body, _ := json.Marshal(map[string]string{"prompt": "the password is " + secret})
	got, err := r.JSON(body)
	if err != nil || strings.Contains(string(got), "p@ss") || !strings.Contains(string(got), "[secret:pw]") {
		t.Errorf("JSON(model request) = %s, %v", got, err)
	}
}

func TestNilRedactor(t *testing.T) {
	var r *Redactor
	if r.String("a") != "a" || string(r.Bytes([]byte("b"))) != "b" {
		t.Error("a nil Redactor changed its input")
	}
	if New(nil, reportPlaceholder) != nil || New([]Secret{{"e", ""}}, reportPlaceholder) != nil {
		t.Error("New with nothing to hide is not nil")
	}
}
