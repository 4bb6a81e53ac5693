package storage

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestSecretRedactor(t *testing.T) {
	r := SecretRedactor(map[string]string{"pin": "1234", "long": "12345678", "empty": ""})
	tests := []struct{ in, want string }{
		{`{"value":"12345678"}`, `{"value":"${secret:long}"}`},
		{`{"value":"1234"}`, `{"value":"${secret:pin}"}`},
		{`nothing here`, `nothing here`},
		{``, ``},
	}
	for _, tt := range tests {
		if got := string(r([]byte(tt.in))); got != tt.want {
			t.Errorf("SecretRedactor(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}

	// A slug cannot hold a reference; a slug with a secret in it is
	// refused without showing it.
	sdb := openTest(t, WithRedactor(SecretRedactor(map[string]string{"word": "hunter2"})))
	_, err := sdb.SaveTrail(context.Background(), TrailInput{Slug: "log-in-as-hunter2", Title: "t", Content: []byte("x")})
	if !errors.Is(err, ErrInvalid) || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("SaveTrail(slug with a secret) = %v, want ErrInvalid without the secret", err)
	}

	// A secret that is also part of the JSON syntax cannot be redacted
	// without breaking the payload: the write is refused, not mangled.
	db := openTest(t, WithRedactor(SecretRedactor(map[string]string{"flag": "true"})))
	ctx := context.Background()
	s, err := db.CreateSession(ctx, NewSession{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.AppendInteraction(ctx, Interaction{SessionID: s.ID, Seq: 1, Kind: "check", Payload: []byte(`{"checked":true}`)}, nil)
	if !errors.Is(err, ErrInvalid) {
		t.Errorf("AppendInteraction whose redaction breaks its JSON = %v, want ErrInvalid", err)
	}
}
