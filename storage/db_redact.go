package storage

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/trailpin/trailpin/storage/redact"
)

// A Redactor rewrites text about to be stored so that no secret value is
// left in it. It must return its input unchanged when there is nothing to
// redact, and must keep valid JSON valid: Trailpin stores JSON payloads and
// screens, and a write whose JSON a redactor broke is refused.
type Redactor func(b []byte) []byte

// SecretRedactor returns a Redactor that replaces each secret value, in
// every form it can take in stored text (as typed, JSON-escaped,
// URL-encoded, HTML-escaped), with its reference ${secret:NAME}, which
// saving a recording turns back into a secret field. secrets maps names to
// values; empty values are ignored. The rule is redact.New's: values shorter
// than redact.MinInside characters are replaced only where they are a whole
// value (a JSON string), never inside other text.
func SecretRedactor(secrets map[string]string) Redactor {
	r := redact.New(SecretList(secrets), SecretReference)
	return r.Bytes
}

// SecretReference is the placeholder stored for a secret: the reference a
// trail uses for it.
func SecretReference(name string) string { return "${secret:" + name + "}" }

// SecretList turns names and values into the secrets redact.New takes, in
// the order of their names.
func SecretList(secrets map[string]string) []redact.Secret {
	list := make([]redact.Secret, 0, len(secrets))
	for name, value := range secrets {
		list = append(list, redact.Secret{Name: name, Value: value})
	}
	slices.SortFunc(list, func(a, b redact.Secret) int { return strings.Compare(a.Name, b.Name) })
	return list
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
		return nil, invalidf("%s is %v", what, redact.ErrBrokeJSON)
	}
	return out, nil
}
