package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/trailpin/trailpin/storage"
)

const plantedSecret = `Q>?~"vörtex/Plum<42`

// noise is reproducible filler bytes around a planted leak.
func noise(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 7))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.IntN(256))
	}
	return b
}

// b64Inside is base64 text around a planted base64 leak, so the leak is
// found inside a longer encoding at any alignment.
func b64Inside(enc *base64.Encoding, before int, secret []byte) []byte {
	payload := append(append(noise(uint64(before), before), secret...), noise(99, 11)...)
	return []byte(enc.EncodeToString(payload))
}

func utf16le(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	return b
}

func utf16be(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = binary.BigEndian.AppendUint16(b, u)
	}
	return b
}

func jsonString(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// TestLeakScannerFindsPlantedLeaks plants the secret in every form the
// scanner must find, one blob each, and checks each is found with the
// right form; then that clean blobs and too-short prefixes are not.
func TestLeakScannerFindsPlantedLeaks(t *testing.T) {
	prefix := string([]rune(plantedSecret)[:6]) // a keystroke-by-keystroke leak
	ascii := strings.NewReplacer("ö", `\u00f6`).Replace(string(jsonString(plantedSecret)))
	type leakCase struct {
		name, form string
		blob       []byte
	}
	cases := []leakCase{
		{"as typed", "as typed", []byte("title=" + plantedSecret + ";")},
		{"JSON, Go default", "JSON-escaped", jsonString(plantedSecret)},
		{"JSON, no HTML escape", "JSON-escaped", []byte(`{"v":"Q>?~\"vörtex/Plum<42"}`)},
		{"JSON, ASCII only", "JSON-escaped", []byte(ascii)},
		{"JSON, upper-case escapes", "JSON-escaped", []byte(`"Q\u003E?~\"v\u00F6rtex/Plum\u003C42"`)},
		{"JSON, escaped slash", "JSON-escaped", []byte(`"Q>?~\"vörtex\/Plum<42"`)},
		{"UTF-16LE", "UTF-16LE", append(noise(1, 33), utf16le(plantedSecret)...)},
		{"UTF-16BE", "UTF-16BE", append(noise(2, 33), utf16be(plantedSecret)...)},
		{"prefix as typed", "as typed, prefix of 6 characters", []byte("value=" + prefix)},
		{"prefix UTF-16LE", "UTF-16LE, prefix of 6 characters", utf16le("xx" + prefix + "yy")},
		{"prefix JSON", "JSON-escaped, prefix of 6 characters", jsonString(prefix)},
		{"shortest prefix", "as typed, prefix of 4 characters", []byte("..." + string([]rune(plantedSecret)[:4]) + "...")},
	}
	for k := range 3 {
		for _, enc := range []struct {
			name string
			e    *base64.Encoding
		}{{"base64", base64.StdEncoding}, {"base64url", base64.URLEncoding}} {
			if padded := append(make([]byte, k), prefix...); enc.name == "base64url" && base64.RawStdEncoding.EncodeToString(padded) == base64.RawURLEncoding.EncodeToString(padded) {
				t.Fatalf("choose a secret whose base64 has + or / at alignment %d, so the URL alphabet is tested", k)
			}
			cases = append(cases,
				leakCase{
					enc.name + " alignment", enc.name + " (alignment " + string(rune('0'+k)) + ")",
					b64Inside(enc.e, k, []byte(plantedSecret))},
				leakCase{
					enc.name + " prefix", enc.name + " (alignment " + string(rune('0'+k)) + "), prefix of 6 characters",
					b64Inside(enc.e, k, []byte(prefix))},
			)
		}
	}
	for _, c := range cases {
		leaks, err := FindSecretLeaks(plantedSecret, LeakBytes(c.name, append(append(noise(5, 100), c.blob...), noise(6, 100)...)))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, l := range leaks {
			if l.Where == c.name && l.Form == c.form {
				found = true
			}
			if strings.Contains(l.String(), plantedSecret) {
				t.Errorf("%s: the report holds the secret: %s", c.name, l)
			}
		}
		if !found {
			t.Errorf("%s: not found as %q (found %v)", c.name, c.form, leaks)
		}
	}

	clean := [][]byte{
		noise(8, 1<<16),
		[]byte("Q> is not enough: three characters " + string([]rune(plantedSecret)[:3]) + " are ordinary text"),
		[]byte(base64.StdEncoding.EncodeToString(noise(9, 4096))),
	}
	for i, b := range clean {
		leaks, err := FindSecretLeaks(plantedSecret, LeakBytes("clean", b))
		if err != nil || len(leaks) > 0 {
			t.Errorf("clean blob %d: %v %v", i, leaks, err)
		}
	}
	if _, err := FindSecretLeaks("abc"); err == nil {
		t.Error("a three-character secret was accepted")
	}
}

// TestLeakScannerReadsFilesAndDatabases plants the secret in a file and in
// a database (file and values) and checks CheckNoSecretLeaks fails on them.
func TestLeakScannerReadsFilesAndDatabases(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "export.trail.yaml")
	os.WriteFile(file, []byte("text: "+plantedSecret+"\n"), 0o644)
	leaks, err := FindSecretLeaks(plantedSecret, LeakFile(file), LeakFile(filepath.Join(dir, "missing.log")))
	if err != nil || len(leaks) != 1 || leaks[0].Where != file {
		t.Errorf("file: %v %v", leaks, err)
	}

	ctx := context.Background()
	path := filepath.Join(dir, "t.db")
	db, err := storage.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateSession(ctx, storage.NewSession{Title: "x" + plantedSecret}); err != nil {
		t.Fatal(err)
	}
	leaks, err = FindSecretLeaks(plantedSecret, LeakDatabase(path)...)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(leaks) == 0 {
		t.Fatal("a secret stored in the database was not found")
	}

	ft := &fakeT{}
	CheckNoSecretLeaks(ft, plantedSecret, LeakFile(file))
	if !ft.failed || strings.Contains(ft.msg, plantedSecret) {
		t.Errorf("CheckNoSecretLeaks: failed %v, message %q", ft.failed, ft.msg)
	}
	ft = &fakeT{}
	CheckNoSecretLeaks(ft, plantedSecret, LeakBytes("clean", []byte("nothing here")))
	if ft.failed {
		t.Errorf("CheckNoSecretLeaks failed on a clean blob: %s", ft.msg)
	}
}

// fakeT records a failure instead of failing the test.
type fakeT struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Errorf(format string, args ...any) {
	f.failed = true
	var b bytes.Buffer
	b.WriteString(strings.TrimSpace(strings.ReplaceAll(format, "%", "")))
	f.msg = b.String()
	for _, a := range args {
		f.msg += " " + strings.TrimSpace(toString(a))
	}
}
func (f *fakeT) Fatal(args ...any) { f.failed = true }

func toString(a any) string {
	b, _ := json.Marshal(a)
	return string(b)
}
