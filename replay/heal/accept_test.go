package heal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/trail"
)

// acceptSrc is a trail file with a step to heal, a step that sets up and a
// check.
const acceptSrc = `version: 1
trail: Apply a discount
app: shop
start: /checkout
params: {code: SUMMER}
steps:
  - intent: Apply the code
    actions:
      - tap: {selector: {role: button, name: Apply}}
  - intent: Open the cart
    actions:
      - tap: {selector: {role: link, name: Cart}}
    end: {url: /cart}
  - intent: The total shows 10% off
    actions:
      - assertVisible: {selector: {role: status, text: 10% off}}
`

func TestCheckHealed(t *testing.T) {
	healStep1 := func(s string) string {
		return strings.Replace(s, "name: Apply}}\n", "name: Redeem}}\n    end: {url: /checkout}\n    key: agent-1+3f2a9c1b7d20/6d17851875e2\n", 1)
	}
	tests := []struct {
		name    string
		healed  string
		steps   []int
		wantErr string // "" for a proper heal
	}{
		{"a proper heal", healStep1(acceptSrc), []int{1}, ""},
		{"only comments and layout differ", "# kept\n" + healStep1(acceptSrc), []int{1}, ""},
		{"the check step dropped", healStep1(acceptSrc[:strings.Index(acceptSrc, "  - intent: The total")]), []int{1},
			"the trail file has 3 steps and the healed trail 2: a heal never adds or removes a step"},
		{"another step's selector changed", strings.Replace(healStep1(acceptSrc), "name: Cart}", "name: Basket}", 1), []int{1},
			`step 2 ("Open the cart", line 10): its actions changed, and it is not a step the run healed`},
		{"the check emptied", strings.Replace(healStep1(acceptSrc), "text: 10% off", "text: Total", 1), []int{1},
			`step 3 ("The total shows 10% off", line 14): its actions changed, and it is not a step the run healed`},
		{"another step's end changed", strings.Replace(healStep1(acceptSrc), "end: {url: /cart}", "end: {url: /elsewhere}", 1), []int{1},
			`step 2 ("Open the cart", line 10): its end changed, and it is not a step the run healed`},
		{"the title changed", strings.Replace(healStep1(acceptSrc), "trail: Apply a discount", "trail: Something else", 1), []int{1},
			`the trail's title (trail:) changed from "Apply a discount" to "Something else"`},
		{"the start changed", strings.Replace(healStep1(acceptSrc), "start: /checkout", "start: /other", 1), []int{1},
			`the trail's start changed`},
		{"the app changed", strings.Replace(healStep1(acceptSrc), "app: shop", "app: blog", 1), []int{1}, `the trail's app changed`},
		{"the params changed", strings.Replace(healStep1(acceptSrc), "code: SUMMER", "code: FREE", 1), []int{1}, `the trail's params changed`},
		{"a viewport added", strings.Replace(healStep1(acceptSrc), "start: /checkout\n", "start: /checkout\nviewport: {width: 400, height: 800}\n", 1), []int{1},
			`the trail's viewport changed`},
		{"the healed step's intent changed", strings.Replace(healStep1(acceptSrc), "intent: Apply the code", "intent: Do anything", 1), []int{1},
			`step 1 ("Apply the code", line 7): its intent changed (a heal changes only a step's actions, end and key)`},
		{"a step the record does not name", healStep1(acceptSrc), []int{2}, `step 1 ("Apply the code", line 7): its actions changed, and it is not a step the run healed`},
		{"a step the trail does not have", healStep1(acceptSrc), []int{1, 4}, "the record names step 4 as healed, and the trail file has 3 steps"},
		{"a step named twice", healStep1(acceptSrc), []int{1, 1}, "the record names step 1 twice"},
	}
	current, err := trail.LoadTrail("a.trail.yaml", []byte(acceptSrc))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			healed, err := trail.LoadTrail("healed.trail.yaml", []byte(tt.healed))
			if err != nil {
				t.Fatalf("the healed trail does not load: %v", err)
			}
			var steps []HealedStep
			for _, n := range tt.steps {
				steps = append(steps, HealedStep{Step: n})
			}
			err = CheckHealed(current, healed, steps)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("CheckHealed = %v, want nil", err)
			case tt.wantErr != "" && (!errors.Is(err, ErrNotAHeal) || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("CheckHealed = %v, want ErrNotAHeal saying %q", err, tt.wantErr)
			}
		})
	}
}

func TestTrailPath(t *testing.T) {
	project := t.TempDir()
	trails := filepath.Join(project, "trails")
	outside := t.TempDir()
	for _, d := range []string{filepath.Join(trails, "shop"), filepath.Join(project, "notes")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path string) {
		if err := os.WriteFile(path, []byte(acceptSrc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(trails, "a.trail.yaml"))
	write(filepath.Join(trails, "shop", "b.trail.yaml"))
	write(filepath.Join(outside, "x.trail.yaml"))
	write(filepath.Join(project, "notes", "n.trail.yaml"))
	write(filepath.Join(project, "trailpin.yaml"))
	links := true
	if err := os.Symlink(filepath.Join(outside, "x.trail.yaml"), filepath.Join(trails, "out.trail.yaml")); err != nil {
		links = false
	}
	if links {
		os.Symlink(filepath.Join("..", "trailpin.yaml"), filepath.Join(trails, "config.trail.yaml"))
		os.Symlink(outside, filepath.Join(trails, "elsewhere"))
		os.Symlink("a.trail.yaml", filepath.Join(trails, "kept-as-link.trail.yaml"))
		os.Symlink(filepath.Join(outside, "missing.trail.yaml"), filepath.Join(trails, "dangling.trail.yaml"))
	}

	tests := []struct {
		source  string
		want    string // the path returned; "" when refused
		refusal string
		link    bool
	}{
		{source: "trails/a.trail.yaml", want: filepath.Join(trails, "a.trail.yaml")},
		{source: "trails/shop/b.trail.yaml", want: filepath.Join(trails, "shop", "b.trail.yaml")},
		{source: "trails/shop/../a.trail.yaml", want: filepath.Join(trails, "a.trail.yaml")},
		{source: "trails/new.trail.yaml", want: filepath.Join(trails, "new.trail.yaml")},
		{source: "/etc/passwd", refusal: "by an absolute path"},
		{source: filepath.ToSlash(filepath.Join(outside, "x.trail.yaml")), refusal: "by an absolute path"},
		{source: "../../x.trail.yaml", refusal: "outside the trails folder"},
		{source: "trails/../notes/n.trail.yaml", refusal: "outside the trails folder"},
		{source: "trails/../../../../../../etc/passwd", refusal: "not a trail file"},
		{source: "trailpin.yaml", refusal: "not a trail file"},
		{source: "trails/out.trail.yaml", refusal: "outside the trails folder", link: true},
		{source: "trails/elsewhere/x.trail.yaml", refusal: "outside the trails folder", link: true},
		{source: "trails/config.trail.yaml", refusal: "outside the trails folder", link: true},
		{source: "trails/dangling.trail.yaml", refusal: "a symbolic link to a file that does not exist", link: true},
		{source: "trails/kept-as-link.trail.yaml", want: filepath.Join(trails, "kept-as-link.trail.yaml"), link: true},
	}
	for _, tt := range tests {
		t.Run(tt.source, func(t *testing.T) {
			if tt.link && !links {
				t.Skip("no symbolic links here")
			}
			got, err := TrailPath(project, trails, tt.source)
			if tt.refusal == "" {
				if err != nil || got != tt.want {
					t.Errorf("TrailPath(%q) = %q, %v; want %q", tt.source, got, err, tt.want)
				}
				return
			}
			if !errors.Is(err, ErrNotATrailInTrails) || !strings.Contains(err.Error(), tt.refusal) || got != "" {
				t.Errorf("TrailPath(%q) = %q, %v; want a refusal saying %q", tt.source, got, err, tt.refusal)
			}
		})
	}
	// A trails folder kept as a link holds its trails like any other.
	if links {
		linked := filepath.Join(project, "linked-trails")
		if err := os.Symlink(trails, linked); err != nil {
			t.Fatal(err)
		}
		if got, err := TrailPath(project, linked, "linked-trails/a.trail.yaml"); err != nil || got != filepath.Join(linked, "a.trail.yaml") {
			t.Errorf("TrailPath in a linked trails folder = %q, %v", got, err)
		}
	}
}
