package storage

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func trailYAML(title string, steps int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "version: 1\ntrail: %s\napp: shop\nstart: /checkout\nsteps:\n", title)
	for i := range steps {
		fmt.Fprintf(&b, "  - intent: Click button %d\n    actions:\n      - tap: {selector: {role: button, name: Button %d}}\n", i, i)
	}
	return []byte(b.String())
}

func TestTrailVersions(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s, err := db.CreateSession(ctx, NewSession{Title: "Apply a discount"})
	if err != nil {
		t.Fatal(err)
	}
	v1, err := db.SaveTrail(ctx, TrailInput{Slug: "apply-a-discount", Title: "Apply a discount", App: "shop",
		Content: trailYAML("Apply a discount", 2), SessionID: s.ID})
	if err != nil {
		t.Fatal(err)
	}
	if v1.Version != 1 || v1.Versions != 1 || v1.TrailID == 0 || v1.SessionID != s.ID {
		t.Errorf("first SaveTrail() = %+v, want version 1 of a new trail from session %s", v1, s.ID)
	}
	if got, _ := db.Session(ctx, s.ID); got.SavedAt.IsZero() {
		t.Errorf("SaveTrail did not mark its session saved")
	}
	v2, err := db.SaveTrail(ctx, TrailInput{Slug: "apply-a-discount", Title: "Apply the SUMMER discount", App: "shop",
		Content: trailYAML("Apply the SUMMER discount", 3)})
	if err != nil {
		t.Fatal(err)
	}
	if v2.Version != 2 || v2.TrailID != v1.TrailID {
		t.Errorf("second SaveTrail() = version %d of trail %d, want version 2 of trail %d", v2.Version, v2.TrailID, v1.TrailID)
	}
	other, err := db.SaveTrail(ctx, TrailInput{Slug: "search", Title: "Search", App: "shop", Content: trailYAML("Search", 1)})
	if err != nil {
		t.Fatal(err)
	}

	list, err := db.Trails(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Slug != "apply-a-discount" || list[0].Version != 2 || list[0].Versions != 2 ||
		list[0].Title != "Apply the SUMMER discount" || list[0].Content != nil || list[1].Slug != "search" {
		t.Errorf("Trails() = %+v, want the latest versions of apply-a-discount (2 of 2) and search, without content", list)
	}

	// Every way a person names a trail finds it.
	for _, ref := range []string{"apply-a-discount", fmt.Sprint(v1.TrailID), "Apply the SUMMER discount"} {
		got, err := db.Trail(ctx, ref)
		if err != nil {
			t.Errorf("Trail(%q): %v", ref, err)
			continue
		}
		if got.Version != 2 || string(got.Content) != string(trailYAML("Apply the SUMMER discount", 3)) {
			t.Errorf("Trail(%q) = version %d, content %q; want version 2", ref, got.Version, got.Content)
		}
	}
	old, err := db.TrailAt(ctx, "apply-a-discount", 1)
	if err != nil || old.Version != 1 || string(old.Content) != string(trailYAML("Apply a discount", 2)) || old.SessionID != s.ID {
		t.Errorf("TrailAt(1) = %+v, %v; want version 1 as first saved", old, err)
	}
	if _, err := db.Trail(ctx, "Apply a discount"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Trail(an old title) = %v, want ErrNotFound: titles match the latest version", err)
	}
	if _, err := db.TrailAt(ctx, "apply-a-discount", 3); !errors.Is(err, ErrNotFound) {
		t.Errorf("TrailAt(3) = %v, want ErrNotFound", err)
	}
	hist, err := db.TrailHistory(ctx, "apply-a-discount")
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 2 || hist[0].Version != 2 || hist[1].Version != 1 || hist[0].Content != nil {
		t.Errorf("TrailHistory() = %+v, want versions 2 then 1, without content", hist)
	}

	d, err := db.DeleteTrail(ctx, "apply-a-discount")
	if err != nil {
		t.Fatal(err)
	}
	want := DeletedTrail{TrailID: v1.TrailID, Slug: "apply-a-discount", Title: "Apply the SUMMER discount", Versions: 2}
	if d != want {
		t.Errorf("DeleteTrail() = %+v, want %+v", d, want)
	}
	if _, err := db.Trail(ctx, "apply-a-discount"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Trail() after delete = %v, want ErrNotFound", err)
	}
	if _, err := db.DeleteTrail(ctx, "apply-a-discount"); !errors.Is(err, ErrNotFound) {
		t.Errorf("second DeleteTrail() = %v, want ErrNotFound", err)
	}
	if got, _ := db.Session(ctx, s.ID); !got.SavedAt.IsZero() {
		t.Errorf("the session of a deleted trail is still marked saved; pruning would never collect it")
	}
	if got, err := db.Trail(ctx, "search"); err != nil || got.Version != other.Version {
		t.Errorf("Trail(search) after deleting another = %+v, %v", got, err)
	}
	checkIntegrity(t, ctx, db)
}

func TestTrailRefs(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	save := func(slug, title string) TrailVersion {
		t.Helper()
		v, err := db.SaveTrail(ctx, TrailInput{Slug: slug, Title: title, Content: trailYAML(title, 1)})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	a := save("log-in", "Log in")
	save("log-in-2", "Log in")
	numeric := save("2024", "Yearly report")

	if _, err := db.Trail(ctx, "Log in"); !errors.Is(err, ErrAmbiguous) || !strings.Contains(err.Error(), "log-in-2") {
		t.Errorf("Trail(shared title) = %v, want ErrAmbiguous naming both slugs", err)
	}
	// A slug wins over an id that happens to be the same text.
	if got, err := db.Trail(ctx, "2024"); err != nil || got.TrailID != numeric.TrailID {
		t.Errorf("Trail(\"2024\") = %+v, %v; want the trail with slug 2024", got, err)
	}
	if got, err := db.Trail(ctx, fmt.Sprint(a.TrailID)); err != nil || got.Slug != "log-in" {
		t.Errorf("Trail(id) = %+v, %v; want log-in", got, err)
	}

	free, err := db.FreeSlug(ctx, "log-in")
	if err != nil || free != "log-in-3" {
		t.Errorf("FreeSlug(log-in) = %q, %v; want log-in-3", free, err)
	}
	v, err := db.SaveTrail(ctx, TrailInput{Slug: "log-in", New: true, Title: "Log in", Content: trailYAML("Log in", 2)})
	if err != nil || v.Slug != "log-in-3" || v.Version != 1 {
		t.Errorf("SaveTrail(log-in, New) = %q version %d, %v; want version 1 of log-in-3", v.Slug, v.Version, err)
	}
	if got, _ := db.Trail(ctx, "log-in"); got.Versions != 1 {
		t.Errorf("SaveTrail(New) added a version to the existing log-in")
	}
	free, err = db.FreeSlug(ctx, "checkout")
	if err != nil || free != "checkout" {
		t.Errorf("FreeSlug(checkout) = %q, %v; want checkout", free, err)
	}
	long := strings.Repeat("a", maxSlugLen)
	save(long, "Long")
	free, err = db.FreeSlug(ctx, long)
	if err != nil || len(free) > maxSlugLen || !strings.HasSuffix(free, "-2") {
		t.Errorf("FreeSlug(100 a's) = %q, %v; want a slug within %d characters ending in -2", free, err, maxSlugLen)
	}
}

func TestSaveTrailRefusesBadInput(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	good := TrailInput{Slug: "ok", Title: "OK", Content: []byte("version: 1\n")}
	tests := []struct {
		name string
		edit func(*TrailInput)
		want error
	}{
		{"upper-case slug", func(in *TrailInput) { in.Slug = "Log-In" }, ErrInvalid},
		{"slug with a double hyphen", func(in *TrailInput) { in.Slug = "log--in" }, ErrInvalid},
		{"slug with a path", func(in *TrailInput) { in.Slug = "../etc/passwd" }, ErrInvalid},
		{"empty slug", func(in *TrailInput) { in.Slug = "" }, ErrInvalid},
		{"slug too long", func(in *TrailInput) { in.Slug = strings.Repeat("a", maxSlugLen+1) }, ErrInvalid},
		{"blank title", func(in *TrailInput) { in.Title = "  " }, ErrInvalid},
		{"no content", func(in *TrailInput) { in.Content = nil }, ErrInvalid},
		{"content not UTF-8", func(in *TrailInput) { in.Content = []byte("trail: \xff\n") }, ErrInvalid},
		{"unknown session", func(in *TrailInput) { in.SessionID = "gone" }, ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := good
			tt.edit(&in)
			if _, err := db.SaveTrail(ctx, in); !errors.Is(err, tt.want) {
				t.Errorf("SaveTrail(%s) = %v, want an error wrapping %v", tt.name, err, tt.want)
			}
		})
	}
	if list, _ := db.Trails(ctx); len(list) != 0 {
		t.Errorf("refused saves left trails behind: %+v", list)
	}
}
