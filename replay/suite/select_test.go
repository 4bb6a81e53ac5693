package suite

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/recorder/yamlerr"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
)

// writeTrail writes a small valid trail file titled title at dir/name.
func writeTrail(t *testing.T, dir, name, title string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := fmt.Sprintf("version: 1\ntrail: %s\napp: shop\nstart: /\nsteps:\n  - intent: Open the shop\n    actions:\n      - navigate: /\n", title)
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func slugs(ts []Trail) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Slug)
	}
	return out
}

func TestSelect(t *testing.T) {
	root := t.TempDir()
	trails := filepath.Join(root, "trails")
	signIn := writeTrail(t, trails, "sign-in.trail.yaml", "Sign in")
	writeTrail(t, trails, "checkout.trail.yaml", "Checkout with a discount")
	writeTrail(t, filepath.Join(trails, "admin"), "checkout.trail.yaml", "Admin checkout")
	writeTrail(t, filepath.Join(trails, ".hidden"), "secret.trail.yaml", "Hidden")
	other := writeTrail(t, filepath.Join(root, "other"), "sign-in.trail.yaml", "Sign in again")
	os.WriteFile(filepath.Join(trails, "notes.md"), []byte("not a trail"), 0o644)
	db := map[string]*trail.Trail{"refund-an-order": {Title: "Refund an order"}}
	lookup := func(name string) (*trail.Trail, error) {
		if t, ok := db[name]; ok {
			return t, nil
		}
		return nil, errors.New("no trail with that name in the database")
	}
	tests := []struct {
		name string
		opts Selection
		want []string
	}{
		{"a folder, recursively, sorted by path, hidden folders skipped",
			Selection{Args: []string{trails}}, []string{"checkout", "checkout-2", "sign-in"}},
		{"a file given twice, directly and in its folder, runs once",
			Selection{Args: []string{signIn, trails}}, []string{"sign-in", "checkout", "checkout-2"}},
		{"same file name in two folders",
			Selection{Args: []string{signIn, other}}, []string{"sign-in", "sign-in-2"}},
		{"a name from the database",
			Selection{Args: []string{signIn, "refund-an-order"}, Lookup: lookup}, []string{"sign-in", "refund-an-order"}},
		{"grep on titles",
			Selection{Args: []string{trails}, Grep: "(?i)checkout"}, []string{"checkout", "checkout-2"}},
		{"grep anchored",
			Selection{Args: []string{trails}, Grep: "^Sign"}, []string{"sign-in"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Select(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(slugs(got), tt.want) {
				t.Errorf("Select(%v) = %v, want %v", tt.opts.Args, slugs(got), tt.want)
			}
		})
	}
}

func TestSelectErrors(t *testing.T) {
	root := t.TempDir()
	good := writeTrail(t, root, "good.trail.yaml", "Good")
	bad1 := filepath.Join(root, "bad-1.trail.yaml")
	bad2 := filepath.Join(root, "bad-2.trail.yaml")
	os.WriteFile(bad1, []byte("version: 1\ntrail: Bad\napp: shop\nstart: /\nsteps:\n  - intent: x\n    actions:\n      - tapp: {selector: {role: button}}\n"), 0o644)
	os.WriteFile(bad2, []byte("version: 1\ntrail: Bad two\napp: shop\nstart: /\nsteps: []\nextra: 1\n"), 0o644)
	notTrail := filepath.Join(root, "notes.yaml")
	os.WriteFile(notTrail, []byte("a: 1"), 0o644)
	empty := filepath.Join(root, "empty")
	os.Mkdir(empty, 0o755)
	tests := []struct {
		name  string
		opts  Selection
		wants []string
		is    error
	}{
		{"no arguments", Selection{}, []string{"give trail files, folders or names"}, ErrNoTrails},
		{"every bad file is named", Selection{Args: []string{good, bad1, bad2}},
			[]string{"bad-1.trail.yaml:8", "bad-2.trail.yaml:"}, yamlerr.ErrUnknownKey},
		{"a missing path", Selection{Args: []string{"trails/nope.trail.yaml"}}, []string{"trails/nope.trail.yaml: no such trail file or folder"}, nil},
		{"a name without a database", Selection{Args: []string{"checkout"}}, []string{"checkout: no such trail file or folder, and no database"}, nil},
		{"a name the database lacks", Selection{Args: []string{"checkout"}, Lookup: func(string) (*trail.Trail, error) {
			return nil, errors.New("not found")
		}}, []string{`trail "checkout": not found`}, nil},
		{"a file that is not a trail file", Selection{Args: []string{notTrail}}, []string{"a trail file's name ends in .trail.yaml"}, nil},
		{"a folder without trails", Selection{Args: []string{empty}}, []string{"holds no .trail.yaml files"}, nil},
		{"a bad --grep", Selection{Args: []string{good}, Grep: "("}, []string{`--grep "(" is not a regular expression`}, nil},
		{"--grep matching nothing", Selection{Args: []string{good}, Grep: "Checkout"}, []string{`--grep "Checkout" matches none of the titles of 1 trails`}, ErrNoTrails},
		{"a bad --shard", Selection{Args: []string{good}, Shard: "4/3"}, []string{`--shard "4/3": the shard's number must be from 1 to 3`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Select(tt.opts)
			if err == nil {
				t.Fatalf("Select() = %v, want an error", slugs(got))
			}
			for _, want := range tt.wants {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %q is not %v", err, tt.is)
			}
			if code := exitcode.Of(err); code != exitcode.Usage {
				t.Errorf("exitcode.Of(%q) = %d, want %d (usage)", err, code, exitcode.Usage)
			}
		})
	}
}

// TestShardsCoverEveryTrailOnce runs 1/n … n/n over one suite and checks
// that together they hold every trail exactly once, for several n.
func TestShardsCoverEveryTrailOnce(t *testing.T) {
	dir := t.TempDir()
	titles := []string{"Sign in", "Wrong password shows an error", "Buy two iPhone items with a discount",
		"Full shopping journey", "Big page"}
	for i := range 40 {
		titles = append(titles, fmt.Sprintf("Generated trail %d", i))
	}
	for _, title := range titles {
		writeTrail(t, dir, trail.Slug(title)+trail.TrailFileExt, title)
	}
	for _, n := range []int{1, 2, 3, 4, 7} {
		t.Run(fmt.Sprintf("%d shards", n), func(t *testing.T) {
			seen := map[string]int{}
			for i := 1; i <= n; i++ {
				got, err := Select(Selection{Args: []string{dir}, Shard: fmt.Sprintf("%d/%d", i, n)})
				if err != nil {
					t.Fatal(err)
				}
				if n == 3 && len(got) == 0 {
					t.Errorf("shard %d/3 of %d trails is empty", i, len(titles))
				}
				for _, s := range slugs(got) {
					seen[s]++
				}
			}
			if len(seen) != len(titles) {
				t.Errorf("the shards hold %d distinct trails, want %d", len(seen), len(titles))
			}
			for s, c := range seen {
				if c != 1 {
					t.Errorf("trail %s is in %d shards, want 1", s, c)
				}
			}
		})
	}
}

// TestShardsStable checks that a trail's shard depends on nothing but its
// own slug: adding other trails moves none.
func TestShardsStable(t *testing.T) {
	dir := t.TempDir()
	for i := range 12 {
		writeTrail(t, dir, fmt.Sprintf("trail-%d.trail.yaml", i), fmt.Sprintf("Trail %d", i))
	}
	shardOf := func() map[string]int {
		m := map[string]int{}
		for i := 1; i <= 3; i++ {
			got, err := Select(Selection{Args: []string{dir}, Shard: fmt.Sprintf("%d/3", i)})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range slugs(got) {
				m[s] = i
			}
		}
		return m
	}
	before := shardOf()
	for i := range 12 {
		writeTrail(t, dir, fmt.Sprintf("added-%d.trail.yaml", i), fmt.Sprintf("Added %d", i))
	}
	after := shardOf()
	for slug, shard := range before {
		if after[slug] != shard {
			t.Errorf("adding other trails moved %s from shard %d to %d", slug, shard, after[slug])
		}
	}
	// Fixed values, computed outside Go: every machine and every version of
	// the host must agree, or shards of one CI run would overlap.
	for slug, want := range map[string]int{"sign-in": 1, "full-shopping-journey": 2} {
		if got := ShardOf(slug, 3); got != want {
			t.Errorf("ShardOf(%q, 3) = %d, want %d (FNV-1a 32 mod 3 + 1); a change here reshuffles every suite", slug, got, want)
		}
	}
}

func TestParseShard(t *testing.T) {
	tests := []struct {
		in      string
		want    Shard
		wantErr string
	}{
		{"", Shard{}, ""},
		{"1/3", Shard{1, 3}, ""},
		{" 3/3 ", Shard{3, 3}, ""},
		{"1/1", Shard{1, 1}, ""},
		{"0/3", Shard{}, "from 1 to 3"},
		{"4/3", Shard{}, "from 1 to 3"},
		{"-1/3", Shard{}, "from 1 to 3"},
		{"1/0", Shard{}, "at least 1"},
		{"3", Shard{}, "write i/n"},
		{"a/3", Shard{}, "write i/n"},
		{"1/3/4", Shard{}, "write i/n"},
		{"1 / 3", Shard{}, "write i/n"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseShard(tt.in)
			if tt.wantErr == "" {
				if err != nil || got != tt.want {
					t.Errorf("ParseShard(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseShard(%q) error = %v, want one saying %q", tt.in, err, tt.wantErr)
			}
		})
	}
}
