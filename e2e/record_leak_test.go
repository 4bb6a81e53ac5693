package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"unicode/utf16"
)

// scanPasswordLeaks returns a line for every file that holds secret in any
// form: as typed, JSON-escaped, UTF-16 (both byte orders), base64, or any
// prefix of it longer than three characters (a per-keystroke leak).
func scanPasswordLeaks(t *testing.T, secret string, files []string) []string {
	t.Helper()
	var needles [][]byte
	for n := 4; n <= len(secret); n++ {
		p := secret[:n]
		needles = append(needles, []byte(p))
		j, _ := json.Marshal(p)
		needles = append(needles, bytes.Trim(j, `"`))
		var le, be []byte
		for _, u := range utf16.Encode([]rune(p)) {
			le = append(le, byte(u), byte(u>>8))
			be = append(be, byte(u>>8), byte(u))
		}
		needles = append(needles, le, be)
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		// base64 of the value at each of the three alignments it can have
		// inside a longer encoded message.
		for pad := 0; pad < 3; pad++ {
			s := enc.EncodeToString(append(bytes.Repeat([]byte{0}, pad), secret...))
			skip := (pad*4 + 2) / 3
			needles = append(needles, []byte(s[skip+1:len(s)-4]))
		}
	}
	var found []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			found = append(found, fmt.Sprintf("reading %s: %v", f, err))
			continue
		}
		for _, n := range needles {
			if i := bytes.Index(b, n); i >= 0 {
				found = append(found, fmt.Sprintf("%s holds %q (the password or a part of it, encoded) at byte %d", f, n, i))
				break
			}
		}
	}
	return found
}
