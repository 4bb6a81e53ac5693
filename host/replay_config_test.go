package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/report"
)

// noProject is a repository without a trailpin.yaml (cliRepo's removed),
// with TRAILPIN_* variables and CI unset.
func noProject(t *testing.T) string {
	t.Helper()
	repo := cliRepo(t)
	if err := os.Remove(filepath.Join(repo, "trailpin.yaml")); err != nil {
		t.Fatal(err)
	}
	return repo
}

// replaySetupFor sets up `host replay FLAGS… trail` in the working
// directory repo, as the command does before it starts a browser, and
// returns what the run would use. CI is set, so no database is opened.
func replaySetupFor(t *testing.T, repo string, flags ...string) *replaySetup {
	t.Helper()
	t.Chdir(repo)
	t.Setenv("CI", "true")
	trailFile := filepath.Join(repo, "trails", "open.trail.yaml")
	writeFile(t, trailFile, "version: 1\ntrail: Open\napp: shop\nstart: /\nsteps:\n  - intent: see the shop\n    actions:\n      - assertVisible: {selector: {role: heading}}\n")
	e := &env{stdin: nil, stdout: io.Discard, stderr: io.Discard, getenv: os.Getenv, environ: os.Environ, getwd: os.Getwd,
		executable: os.Executable, goos: runtime.GOOS}
	cmd, _, err := newRootCmd(e).Find([]string{"replay"})
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.ParseFlags(flags); err != nil {
		t.Fatal(err)
	}
	s, err := setupReplay(cmd, e, replayFlags{workers: 1, format: formatText, results: t.TempDir()}, []string{trailFile})
	if err != nil {
		t.Fatalf("host replay %v: %v", flags, err)
	}
	t.Cleanup(s.close)
	return s
}

// TestReplaySettingsWithoutProject: the replay settings of `host replay`
// come from the same layers with or without a trailpin.yaml (flags, then
// TRAILPIN_* variables, then the file, then the defaults): a variable set
// in CI for a run of trail files that has no project config is honoured,
// not dropped.
func TestReplaySettingsWithoutProject(t *testing.T) {
	repo := noProject(t)
	t.Setenv("TRAILPIN_REPLAY_NAVIGATIONTIMEOUT", "45s")
	t.Setenv("TRAILPIN_REPLAY_ACTIONTIMEOUT", "7s")
	t.Setenv("TRAILPIN_REPLAY_REPLAYTIMEOUT", "21s")
	t.Setenv("TRAILPIN_REPLAY_TRAILTIMEOUT", "3m")
	t.Setenv("TRAILPIN_TRACE", "on")
	t.Setenv("TRAILPIN_CACHE_MODE", "off")
	t.Setenv("TRAILPIN_CACHE_STRICT", "true")

	s := replaySetupFor(t, repo)
	if s.ProjectDir != "" {
		t.Fatalf("the run found a project config in %s", s.ProjectDir)
	}
	got := replay.Options{ActionTimeout: s.Engine.ActionTimeout, NavigationTimeout: s.Engine.NavigationTimeout,
		ReplayTimeout: s.Engine.ReplayTimeout, TrailTimeout: s.Engine.TrailTimeout}
	want := replay.Options{ActionTimeout: 7 * time.Second, NavigationTimeout: 45 * time.Second,
		ReplayTimeout: 21 * time.Second, TrailTimeout: 3 * time.Minute}
	if got.ActionTimeout != want.ActionTimeout || got.NavigationTimeout != want.NavigationTimeout ||
		got.ReplayTimeout != want.ReplayTimeout || got.TrailTimeout != want.TrailTimeout {
		t.Errorf("without a trailpin.yaml, host replay uses action %s, navigation %s, replay %s, trail %s; want the variables' %s, %s, %s, %s",
			got.ActionTimeout, got.NavigationTimeout, got.ReplayTimeout, got.TrailTimeout,
			want.ActionTimeout, want.NavigationTimeout, want.ReplayTimeout, want.TrailTimeout)
	}
	if s.Trace != report.TraceOn {
		t.Errorf("without a trailpin.yaml, TRAILPIN_TRACE=on gives trace %q", s.Trace)
	}
	if s.Engine.CacheMode != replay.CacheModeOff || !s.Engine.Strict {
		t.Errorf("without a trailpin.yaml, TRAILPIN_CACHE_MODE=off and TRAILPIN_CACHE_STRICT=true give cache mode %q, strict %v",
			s.Engine.CacheMode, s.Engine.Strict)
	}

	// A flag still beats the variable.
	if s := replaySetupFor(t, repo, "--trace", "off"); s.Trace != report.TraceOff {
		t.Errorf("--trace off with TRAILPIN_TRACE=on gives trace %q", s.Trace)
	}
}

// TestReplaySettingsLayers: with a trailpin.yaml, the file's replay
// settings apply, and a variable beats the file.
func TestReplaySettingsLayers(t *testing.T) {
	repo := cliRepo(t)
	writeFile(t, filepath.Join(repo, "trailpin.yaml"), "replay:\n  navigationTimeout: 40s\n  actionTimeout: 12s\n")
	t.Setenv("TRAILPIN_REPLAY_NAVIGATIONTIMEOUT", "45s")

	s := replaySetupFor(t, repo)
	if s.Engine.NavigationTimeout != 45*time.Second || s.Engine.ActionTimeout != 12*time.Second {
		t.Errorf("navigation %s (file 40s, variable 45s), action %s (file 12s); want 45s and 12s",
			s.Engine.NavigationTimeout, s.Engine.ActionTimeout)
	}
}

// TestReplayAgentBudgetsWithoutProject: the agent's budgets are layered
// as the other settings are: without a trailpin.yaml, TRAILPIN_AGENT_*
// applies, and the defaults are the project config's.
func TestReplayAgentBudgetsWithoutProject(t *testing.T) {
	repo := noProject(t)
	t.Setenv("TRAILPIN_MODEL_BASEURL", "http://127.0.0.1:1/v1")
	t.Setenv("TRAILPIN_MODEL_NAME", "m")

	s := replaySetupFor(t, repo)
	if a := s.Engine.Agent; a == nil || a.MaxActions != 10 || a.StepDeadline != 2*time.Minute {
		t.Fatalf("without a trailpin.yaml the agent is %+v, want the default budgets (10 actions, 2m a step)", a)
	}
	t.Setenv("TRAILPIN_AGENT_MAXACTIONS", "4")
	t.Setenv("TRAILPIN_AGENT_STEPDEADLINE", "30s")
	s = replaySetupFor(t, repo)
	if a := s.Engine.Agent; a == nil || a.MaxActions != 4 || a.StepDeadline != 30*time.Second {
		t.Errorf("without a trailpin.yaml, TRAILPIN_AGENT_MAXACTIONS=4 and TRAILPIN_AGENT_STEPDEADLINE=30s give the agent %+v", a)
	}
}
