package storage

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
	"strings"
)

// A Redactor rewrites text about to be stored so that no secret value is
// left in it. It must return its input unchanged when there is nothing to
// redact, and must keep valid JSON valid: Trailpin stores JSON payloads and
// screens, and a write whose JSON a redactor broke is refused.
type Redactor func(b []byte) []byte

// SecretRedactor returns a Redactor that replaces each secret value, as typed
// and as it appears inside a JSON string, with its reference
// ${secret:NAME}. secrets maps names to values; empty values are ignored.
// Longer values are replaced first, so a secret that contains another is
// replaced whole.
func SecretRedactor(secrets map[string]string) Redactor {
	type rule struct{ old, new []byte }
	var rules []rule
	for name, value := range secrets {
		if value == "" {
			continue
		}
		ref := []byte("${secret:" + name + "}")
		for _, form := range jsonForms(value) {
			rules = append(rules, rule{[]byte(form), ref})
		}
	}
	slices.SortFunc(rules, func(a, b rule) int {
		return cmp.Or(cmp.Compare(len(b.old), len(a.old)), bytes.Compare(a.old, b.old))
	})
	return func(b []byte) []byte {
		for _, r := range rules {
			if bytes.Contains(b, r.old) {
				b = bytes.ReplaceAll(b, r.old, r.new)
			}
		}
		return b
	}
}

// jsonForms is s as typed and as it appears inside a JSON string, with and
// without HTML escaping (encoding/json escapes <, > and & by default;
// JavaScript's JSON.stringify does not).
func jsonForms(s string) []string {
	forms := []string{s}
	add := func(f string) {
		if !slices.Contains(forms, f) {
			forms = append(forms, f)
		}
	}
	quoted, _ := json.Marshal(s)
	add(string(quoted[1 : len(quoted)-1]))
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	plain := strings.TrimSuffix(buf.String(), "\n")
	add(plain[1 : len(plain)-1])
	return forms
}

// redactString runs the redactor over one text column's value.
func (db *DB) redactString(s string) string {
	if s == "" {
		return s
	}
	return string(db.redact([]byte(s)))
}

// redactJSON runs the redactor over JSON and, when it changed something,
// checks the result is still JSON.
func (db *DB) redactJSON(what string, b []byte) ([]byte, error) {
	out := db.redact(b)
	if !bytes.Equal(out, b) && !json.Valid(out) {
		return nil, invalidf("%s is not valid JSON after redacting secrets; a secret value probably matched part of the JSON syntax (use a longer secret)", what)
	}
	return out, nil
}
