package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/host/recording"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage"
)

// reviewScreen is a screen of the review's dataset in the page model's
// wire form (docs/screen-schema.md), at origin, in document d1.
func reviewScreen(t *testing.T, screens, name, origin string) json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(screens, name))
	if err != nil {
		t.Fatal(err)
	}
	var s screen.Screen
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	s.URL, s.Document, s.Title, s.Viewport = origin+"/checkout", "d1", "Checkout", screen.Viewport{Width: 1280, Height: 800}
	head, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(head, &m); err != nil {
		t.Fatal(err)
	}
	m["root"] = wireOf(t, s.Root)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func wireOf(t *testing.T, n *screen.Node) json.RawMessage {
	str := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	if n.Tag == screen.TextTag {
		if !n.Visible {
			return json.RawMessage("[" + str(n.Text) + "]")
		}
		return json.RawMessage(str(n.Text))
	}
	flags := 0
	for bit, f := range []bool{n.Visible, n.AriaHidden, n.Inert, n.Secret, n.Disabled, n.Required, n.ReadOnly, n.Invalid,
		n.CrossOrigin, n.InTree, n.PointerCursor, n.NoPointerEvents, n.Block} {
		if f {
			flags |= 1 << bit
		}
	}
	box := "0"
	if n.Box != nil {
		box = fmt.Sprintf("[%v,%v,%v,%v]", n.Box.X, n.Box.Y, n.Box.Width, n.Box.Height)
	}
	c := *n
	c.Children = nil
	extras, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var kids []string
	for _, k := range n.Children {
		kids = append(kids, string(wireOf(t, k)))
	}
	return json.RawMessage(fmt.Sprintf("[%s,%s,%s,%d,%s,%s,%s,%s,[%s]]", str(n.Ref), str(n.Role), str(n.Tag), flags, box,
		str(n.Name), str(n.Text), extras, strings.Join(kids, ",")))
}

// savedCheckout records and saves, with no review (the recorder's
// choices), a checkout trail with a value assertion and a presence
// assertion, in the temporary home's database; it returns the slug.
func savedCheckout(t *testing.T, home, screens string) string {
	t.Helper()
	const origin = "http://shop.test:8080"
	cfg, err := config.Load(config.Options{Getenv: os.Getenv, Getwd: func() (string, error) { return home, nil }})
	if err != nil {
		t.Fatal(err)
	}
	svc := recording.New(recording.Options{Config: cfg, Getenv: os.Getenv})
	defer svc.Close()
	dir := filepath.Join(home, "src", "shop")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := svc.ProjectSet(ctx, recording.ProjectSetIn{Dir: dir, Create: true, Origin: origin}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.ProjectAddApp(ctx, recording.AddAppIn{Origin: origin, Name: "shop"}); err != nil {
		t.Fatal(err)
	}
	tab := 7
	const session = "r-cli-review"
	if _, err := svc.Start(ctx, recording.StartIn{Tab: &tab, URL: origin + "/checkout", Title: "Checkout",
		Viewport: &screen.Viewport{Width: 1280, Height: 800}, Session: session}); err != nil {
		t.Fatal(err)
	}
	// The last assertion is on the checkout a moment later: another
	// total, stored with the session.
	for i, it := range []string{"assertVisible e15 s1", "assertVisible e22 s1", "assertVisible e8 s2"} {
		f := strings.Fields(it)
		raw := fmt.Sprintf(`{"seq":%d,"time":%d,"tab":7,"url":"%s/checkout","kind":%q,"screen":%q,"ref":%q}`,
			i+1, 1733072400000+int64(i)*5000, origin, f[0], f[2], f[1])
		in := recording.InteractionIn{Session: session, Interaction: json.RawMessage(raw)}
		switch i {
		case 0:
			in.Screen = reviewScreen(t, screens, "checkout-1.json", origin)
		case 2:
			in.Screen = reviewScreen(t, screens, "checkout-2.json", origin)
		}
		if _, err := svc.Interaction(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Stop(ctx, recording.StopIn{Session: session, Screen: reviewScreen(t, screens, "checkout-2.json", origin)}); err != nil {
		t.Fatal(err)
	}
	saved, err := svc.Save(ctx, recording.SaveIn{Session: session, Title: "Checkout",
		Intents: map[string]string{"0": "the total is $42.00", "1": "the Pay button is shown", "2": "the Checkout heading is shown"}})
	if err != nil {
		t.Fatal(err)
	}
	return saved.Trail
}

// host review TRAIL prints the review of a saved trail from its stored
// screens; --json gives it to scripts; --apply writes the picks into the
// file and keeps its comments.
func TestReviewTrailPrintsAndApplies(t *testing.T) {
	screens, err := filepath.Abs(filepath.Join(reviewDataset, "screens"))
	if err != nil {
		t.Fatal(err)
	}
	home := tempHome(t)
	slug := savedCheckout(t, home, screens)

	out, err := runHost(t, "review", slug)
	if err != nil {
		t.Fatalf("host review %s: %v\n%s", slug, err, out)
	}
	t.Logf("host review %s:\n%s", slug, out)
	for _, want := range []string{"step 1, assertVisible: the total is $42.00", "step 2, assertVisible: the Pay button is shown",
		"the recorder's choice", "— fails when the price changes", "pick: ", "by the engine at", "no model configured"} {
		if !strings.Contains(out, want) {
			t.Errorf("host review does not say %q:\n%s", want, out)
		}
	}

	out, err = runHost(t, "review", slug, "--json")
	if err != nil {
		t.Fatalf("host review --json: %v\n%s", err, out)
	}
	var js recording.ReviewOut
	if err := json.Unmarshal([]byte(out), &js); err != nil {
		t.Fatalf("host review --json is not JSON: %v\n%s", err, out)
	}
	if len(js.Steps) < 2 || js.Steps[1].By != recording.PickedByEngine || js.Steps[1].Options[js.Steps[1].Pick-1].Recorded {
		t.Fatalf("the review of the Pay button's presence does not pick another selector than the recorder's: %+v", js.Steps)
	}
	pick := js.Steps[1].Options[js.Steps[1].Pick-1].Selector

	if out, err := runHost(t, "review", slug, "--apply"); err == nil || !strings.Contains(err.Error(), "host export") {
		t.Errorf("--apply on a slug: %v, want an error saying to export it\n%s", err, out)
	}

	// The trail as exported, with a comment of the person's.
	cfg, err := config.Load(config.Options{Getenv: os.Getenv, Getwd: func() (string, error) { return home, nil }})
	if err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(context.Background(), cfg.DBPath())
	if err != nil {
		t.Fatal(err)
	}
	v, err := db.Trail(context.Background(), slug)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(home, slug+".trail.yaml")
	src := "# checked by hand on Monday\n" + string(v.Content)
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = runHost(t, "review", file, "--apply")
	if err != nil {
		t.Fatalf("host review --apply: %v\n%s", err, out)
	}
	if !strings.Contains(out, file+": step 2:") || !strings.Contains(out, "the engine picked it") {
		t.Errorf("host review --apply does not list the change and why:\n%s", out)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "# checked by hand on Monday\n") {
		t.Errorf("--apply lost the file's comment:\n%s", data)
	}
	tr, err := trail.LoadTrail(file, data)
	if err != nil {
		t.Fatal(err)
	}
	if sel, _ := trail.ActionSelector(tr.Steps[1].Actions[0]); sel.String() != pick {
		t.Errorf("--apply wrote %s for the Pay button, want the pick %s:\n%s", sel, pick, data)
	}
	// Applied again: nothing left to change.
	out, err = runHost(t, "review", file, "--apply")
	if err != nil || !strings.Contains(out, "no selector to change") {
		t.Errorf("host review --apply again: %v, want no change\n%s", err, out)
	}
}
