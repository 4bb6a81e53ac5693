package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/host/nativemsg"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage"
)

// An exportDoor is one way a person exports a trail: the popup's Export
// (the trail.export message) or `host export`. Both must behave the same.
type exportDoor struct {
	name string
	// export exports ref into the project repo; unchanged is known only
	// where the door reports it.
	export func(t *testing.T, repo, ref string) (path string, unchanged *bool, err error)
}

var exportDoors = []exportDoor{
	{"popup", func(t *testing.T, repo, ref string) (string, *bool, error) {
		reply, err := popupRequest(t, "trail.export", map[string]any{"trail": ref, "project": repo})
		if err != nil {
			return "", nil, err
		}
		path, _ := reply["path"].(string)
		unchanged, ok := reply["unchanged"].(bool)
		if !ok {
			t.Fatalf("trail.export reply %v has no unchanged", reply)
		}
		return path, &unchanged, nil
	}},
	{"cli", func(t *testing.T, repo, ref string) (string, *bool, error) {
		out, _, err := run(t, nil, "export", ref)
		return strings.TrimSuffix(out, "\n"), nil, err
	}},
}

// extensionOrigin is what Chrome passes to the host it starts for the
// extension (the development key's id).
const extensionOrigin = "chrome-extension://fjmncidonfkcepgogieobgonbpmpilie/"

// popupRequest sends one request to the host in native-messaging mode, after
// hello, as the extension does, and returns the reply's fields; an error
// reply is returned as a *nativemsg.Error.
func popupRequest(t *testing.T, typ string, body map[string]any) (map[string]any, error) {
	t.Helper()
	msg := map[string]any{"v": 1, "id": "r1", "type": typ}
	maps.Copy(msg, body)
	b, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	in := append(frame(`{"v":1,"id":"h1","type":"hello","protocol":1,"version":"0.1.0"}`), frame(string(b))...)
	out, _, err := run(t, in, extensionOrigin)
	if err != nil {
		t.Fatalf("host in native-messaging mode: %v", err)
	}
	frames := readFrames(t, out)
	if len(frames) != 2 {
		t.Fatalf("got frames %q, want the hello and one reply", frames)
	}
	var reply map[string]any
	if err := json.Unmarshal([]byte(frames[1]), &reply); err != nil {
		t.Fatal(err)
	}
	if reply["id"] != "r1" {
		t.Fatalf("reply %s does not answer the request", frames[1])
	}
	if reply["type"] == "error" {
		code, _ := reply["code"].(float64)
		message, _ := reply["message"].(string)
		return nil, &nativemsg.Error{Code: nativemsg.Code(code), Message: message}
	}
	return reply, nil
}

// saveRaw stores content as the next version of slug in the host's
// database as given, the way an older host stored it: `host import` would
// rewrite it in today's layout.
func saveRaw(t *testing.T, slug string, content []byte) {
	t.Helper()
	tr, err := trail.LoadTrail(slug, content)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := storage.Open(ctx, filepath.Join(os.Getenv("XDG_DATA_HOME"), "trailpin", "trailpin.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.SaveTrail(ctx, storage.TrailInput{Slug: slug, Title: tr.Title, App: tr.App, Content: content}); err != nil {
		t.Fatal(err)
	}
}

// importTrail stores content as the next version of slug through `host
// import`, in the layout this host writes.
func importTrail(t *testing.T, slug string, content []byte) {
	t.Helper()
	p := filepath.Join(t.TempDir(), slug+trail.TrailFileExt)
	writeFile(t, p, string(content))
	mustRun(t, nil, "import", p)
}

// TestExportDoors exports through the popup and the CLI: the canonical
// bytes into trails.dir, by slug or title, an earlier export replaced, a
// file edited by hand refused and left as it was.
func TestExportDoors(t *testing.T) {
	for _, door := range exportDoors {
		t.Run(door.name, func(t *testing.T) {
			repo := cliRepo(t)
			golden := readBytes(t, filepath.Join(trailTestdata(t), "checkout.golden.yaml"))
			importTrail(t, "checkout", golden)
			dir := filepath.Join(repo, "trails")

			path, unchanged, err := door.export(t, repo, "checkout")
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(dir, "checkout.trail.yaml"); path != want {
				t.Errorf("export = %q, want %q", path, want)
			}
			if unchanged != nil && *unchanged {
				t.Errorf("the first export says unchanged")
			}
			if got := readBytes(t, path); !bytes.Equal(got, golden) {
				t.Errorf("export wrote\n%s\nwant the canonical trail\n%s", got, golden)
			}
			fi, err := os.Stat(path)
			if err != nil || fi.Mode().Perm() != 0o644 {
				t.Errorf("the exported file's mode = %v, want 0644 (it is part of the repository)", fi.Mode())
			}
			again, unchanged, err := door.export(t, repo, "Apply a discount at checkout")
			if err != nil || again != path || (unchanged != nil && !*unchanged) {
				t.Errorf("export(by title, again) = %q, unchanged %v, %v; want %q, unchanged", again, unchanged, err, path)
			}

			t.Run("comment added by hand", func(t *testing.T) {
				writeFile(t, path, "# reviewed\n"+string(golden))
				_, _, err := door.export(t, repo, "checkout")
				assertExportRefused(t, err, "only in comments or layout")
				if got := readBytes(t, path); !strings.HasPrefix(string(got), "# reviewed\n") {
					t.Errorf("the refused export changed the file")
				}
			})
			t.Run("step changed by hand", func(t *testing.T) {
				edited := strings.Replace(string(golden), "Search for headphones", "Search for speakers", 1)
				writeFile(t, path, edited)
				_, _, err := door.export(t, repo, "checkout")
				assertExportRefused(t, err, "host import "+path)
				if got := string(readBytes(t, path)); got != edited {
					t.Errorf("the refused export changed the file")
				}
			})
			t.Run("an earlier version is replaced", func(t *testing.T) {
				writeFile(t, path, string(golden))
				v2 := []byte(strings.Replace(string(golden), "Search for headphones", "Search for speakers", 1))
				importTrail(t, "checkout", v2)
				if _, _, err := door.export(t, repo, "checkout"); err != nil {
					t.Fatalf("export over the export of version 1: %v", err)
				}
				if got := readBytes(t, path); !bytes.Equal(got, v2) {
					t.Errorf("the export of version 1 was not replaced by version 2")
				}
			})
			_, _, err = door.export(t, repo, "nope")
			var ne *nativemsg.Error
			if !errors.Is(err, storage.ErrNotFound) && !(errors.As(err, &ne) && ne.Code == nativemsg.CodeBadRequest && strings.Contains(ne.Message, "nope")) {
				t.Errorf("export(unknown) error = %v, want not found", err)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("the trails folder holds %d entries, want the one trail file (no temporary files)", len(entries))
			}
		})
	}
}

// assertExportRefused checks a refusal of either door: the CLI's
// *handEditedError, the popup's error 5, each saying what to do.
func assertExportRefused(t *testing.T, err error, want string) {
	t.Helper()
	var he *handEditedError
	var ne *nativemsg.Error
	switch {
	case errors.As(err, &he) && errors.Is(err, errHandEdited):
	case errors.As(err, &ne) && ne.Code == nativemsg.CodeBadRequest:
	default:
		t.Fatalf("export over a file edited by hand: error = %v, want a refusal", err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("export refused with %q, want it to say %q", err, want)
	}
}

// TestExportOlderLayout stores a version as written by hand (not in the
// layout this host writes): export writes the canonical layout, and still
// knows the canonical form of that version as its own earlier export.
func TestExportOlderLayout(t *testing.T) {
	for _, door := range exportDoors {
		t.Run(door.name, func(t *testing.T) {
			repo := cliRepo(t)
			raw := readBytes(t, filepath.Join(trailTestdata(t), "checkout.trail.yaml"))
			golden := readBytes(t, filepath.Join(trailTestdata(t), "checkout.golden.yaml"))
			if bytes.Equal(raw, golden) {
				t.Fatal("the test needs a trail whose file differs from its canonical form")
			}
			saveRaw(t, "checkout", raw)
			path := filepath.Join(repo, "trails", "checkout.trail.yaml")

			// The stored bytes themselves count as an earlier export.
			writeFile(t, path, string(raw))
			if _, _, err := door.export(t, repo, "checkout"); err != nil {
				t.Fatalf("export over the stored bytes: %v", err)
			}
			if got := readBytes(t, path); !bytes.Equal(got, golden) {
				t.Errorf("export wrote\n%s\nwant the canonical layout\n%s", got, golden)
			}
			// So does the canonical form of an earlier version.
			importTrail(t, "checkout", []byte(strings.Replace(string(golden), "Search for headphones", "Search for speakers", 1)))
			writeFile(t, path, string(golden))
			if _, _, err := door.export(t, repo, "checkout"); err != nil {
				t.Errorf("export over version 1 in today's layout: %v", err)
			}
		})
	}
}

func TestCanonicalTrailIsAFixedPoint(t *testing.T) {
	for _, name := range trailInputs {
		golden := readBytes(t, filepath.Join(trailTestdata(t), name+".golden.yaml"))
		raw := readBytes(t, filepath.Join(trailTestdata(t), name+trail.TrailFileExt))
		for _, in := range [][]byte{raw, golden} {
			out, err := canonicalTrail(name, in)
			if err != nil || !bytes.Equal(out, golden) {
				t.Errorf("canonicalTrail(%s) = %v error, output equal to golden %v", name, err, bytes.Equal(out, golden))
			}
		}
	}
	if _, err := canonicalTrail("broken", []byte("version: 1\n")); err == nil || !strings.Contains(err.Error(), "does not load") {
		t.Errorf("canonicalTrail(a broken stored trail) error = %v", err)
	}
}

// TestExportRefusalWritesNothing exports two trails when one file was
// edited by hand: neither is written, --force writes both.
func TestExportRefusalWritesNothing(t *testing.T) {
	repo := cliRepo(t)
	for _, name := range trailInputs {
		mustRun(t, nil, "import", copyTrailInput(t, t.TempDir(), name))
	}
	trails := filepath.Join(repo, "trails")
	handWritten := filepath.Join(trails, "checkout.trail.yaml")
	writeFile(t, handWritten, "# a teammate's version\n")
	_, _, err := run(t, nil, "export")
	if err == nil || !strings.Contains(err.Error(), "nothing written") || !strings.Contains(err.Error(), handWritten) {
		t.Errorf("host export with a hand-written file: error = %v", err)
	}
	if _, err := os.Stat(filepath.Join(trails, "every-action.trail.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused export wrote the other trail")
	}
	if _, _, err := run(t, nil, "export", "every-action", "nope"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("host export of an unknown trail: error = %v, want not found", err)
	}
	if _, err := os.Stat(filepath.Join(trails, "every-action.trail.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an export naming an unknown trail wrote the others")
	}
	out := mustRun(t, nil, "export", "--force")
	if strings.Count(out, "\n") != 2 {
		t.Errorf("host export --force printed %q, want both paths", out)
	}
	if got := readBytes(t, handWritten); !bytes.Equal(got, readBytes(t, filepath.Join(trailTestdata(t), "checkout.golden.yaml"))) {
		t.Errorf("host export --force did not overwrite the hand-written file")
	}
}

// TestExportRefusesSecretValues: a stored trail that holds the value of a
// secret configured later is not written into the repository, whichever
// door it leaves by.
func TestExportRefusesSecretValues(t *testing.T) {
	for _, door := range exportDoors {
		t.Run(door.name, func(t *testing.T) {
			repo := cliRepo(t)
			mustRun(t, nil, "import", copyTrailInput(t, t.TempDir(), "checkout"))
			// "headphones" is typed in step 2; configure it as a secret's value.
			writeFile(t, filepath.Join(repo, "trailpin.yaml"), "secrets:\n  search-term: headphones\n")
			_, _, err := door.export(t, repo, "checkout")
			var se *trail.SecretInTrailError
			var ne *nativemsg.Error
			switch {
			case errors.As(err, &se):
			case errors.As(err, &ne) && ne.Code == nativemsg.CodeBadRequest && strings.Contains(ne.Message, "holds a secret value"):
			default:
				t.Fatalf("export of a trail holding a secret value: error = %v, want a refusal saying the trail holds a secret value", err)
			}
			if strings.Contains(err.Error(), "headphones") {
				t.Errorf("the refusal shows the secret's value: %v", err)
			}
			if _, err := os.Stat(filepath.Join(repo, "trails", "checkout.trail.yaml")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the trail holding a secret value was written")
			}
		})
	}
}

// A trail file kept as a symbolic link stays a link when export replaces
// an earlier export; the file it points to gets the new version and keeps
// its mode.
func TestExportWritesThroughASymlink(t *testing.T) {
	for _, door := range exportDoors {
		t.Run(door.name, func(t *testing.T) {
			repo := cliRepo(t)
			golden := readBytes(t, filepath.Join(trailTestdata(t), "checkout.golden.yaml"))
			importTrail(t, "checkout", golden)
			target := filepath.Join(repo, "shared", "checkout.trail.yaml")
			writeFile(t, target, string(golden))
			if err := os.Chmod(target, 0o664); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(repo, "trails", "checkout.trail.yaml")
			if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join("..", "shared", "checkout.trail.yaml"), link); err != nil {
				t.Skipf("no symbolic links here: %v", err)
			}
			v2 := []byte(strings.Replace(string(golden), "Search for headphones", "Search for speakers", 1))
			importTrail(t, "checkout", v2)
			if _, _, err := door.export(t, repo, "checkout"); err != nil {
				t.Fatalf("export over a linked earlier export: %v", err)
			}
			if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("export replaced the link with a file: %v, %v", fi, err)
			}
			if got := readBytes(t, target); !bytes.Equal(got, v2) {
				t.Errorf("the link's target holds\n%s\nwant version 2", got)
			}
			if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o664 {
				t.Errorf("the trail file's mode = %v, want 0664 kept", fi.Mode().Perm())
			}
		})
	}
}

// An editor saves the file, or creates it, after export read the folder and
// before it writes: the save is kept and export says the file changed.
func TestExportKeepsASaveBetweenReadAndWrite(t *testing.T) {
	for _, existed := range []bool{true, false} {
		t.Run(fmt.Sprintf("file existed %v", existed), func(t *testing.T) {
			repo := cliRepo(t)
			golden := readBytes(t, filepath.Join(trailTestdata(t), "checkout.golden.yaml"))
			importTrail(t, "checkout", golden)
			dir := filepath.Join(repo, "trails")
			path := filepath.Join(dir, "checkout.trail.yaml")
			if existed {
				writeFile(t, path, string(golden))
				importTrail(t, "checkout", []byte(strings.Replace(string(golden), "Search for headphones", "Search for speakers", 1)))
			}
			ctx := context.Background()
			db, err := storage.Open(ctx, filepath.Join(os.Getenv("XDG_DATA_HOME"), "trailpin", "trailpin.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			plan, err := planExport(ctx, db, "checkout", dir, nil)
			if err != nil || plan.unchanged {
				t.Fatalf("planExport = %+v, %v", plan, err)
			}
			edited := "# saved by an editor\n" + string(golden)
			writeFile(t, path, edited)
			err = plan.write()
			if !errors.Is(err, errExportChanged) || !strings.Contains(err.Error(), path+" changed since export read it") {
				t.Errorf("write after an editor's save = %v, want it to say the file changed since export read it", err)
			}
			if got := string(readBytes(t, path)); got != edited {
				t.Errorf("the editor's save was overwritten:\n%s", got)
			}
		})
	}
}
