package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Environment variables that override trailpin.yaml for a command (a CI job
// replaying against a preview deployment, a slower runner). Each is
// TRAILPIN_ plus the key upper-cased with dots as underscores, the rule
// viper applies to every other key. An empty variable counts as unset. They
// apply to commands only: the recording popup reads and edits the file as
// written.
const (
	envTrailsDir     = "TRAILPIN_TRAILS_DIR"
	envCacheMode     = "TRAILPIN_CACHE_MODE"
	envCacheStrict   = "TRAILPIN_CACHE_STRICT"
	envActionTimeout = "TRAILPIN_REPLAY_ACTIONTIMEOUT"
	envReplayTimeout = "TRAILPIN_REPLAY_REPLAYTIMEOUT"
	envTrailTimeout  = "TRAILPIN_REPLAY_TRAILTIMEOUT"
	envTrace         = "TRAILPIN_TRACE"
)

// appEnv is the variable that overrides an app's base URL:
// TRAILPIN_APPS_SHOP_BASEURL for app "shop".
func appEnv(name string) string {
	return "TRAILPIN_APPS_" + strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(name)) + "_BASEURL"
}

// applyEnv applies the TRAILPIN_* overrides of project keys. A bad value is
// an error naming the variable.
func (p *project) applyEnv(getenv func(string) string) error {
	var errs configErrors
	bad := func(name, format string, args ...any) {
		errs = append(errs, &configError{File: "environment", Key: "$" + name, Msg: fmt.Sprintf(format, args...),
			Fix: "fix or unset the variable"})
	}
	if v := getenv(envTrailsDir); v != "" {
		p.TrailsDir = v
	}
	if v := getenv(envCacheMode); v != "" {
		if !slices.Contains(cacheModes, v) {
			bad(envCacheMode, "%q is not one of %s", v, strings.Join(cacheModes, ", "))
		} else {
			p.Cache.Mode = v
		}
	}
	if v := getenv(envCacheStrict); v != "" {
		if b, err := strconv.ParseBool(v); err != nil {
			bad(envCacheStrict, "%q is not true or false", v)
		} else {
			p.Cache.Strict = b
		}
	}
	for _, o := range []struct {
		env string
		dst *time.Duration
	}{
		{envActionTimeout, &p.Replay.ActionTimeout},
		{envReplayTimeout, &p.Replay.ReplayTimeout},
		{envTrailTimeout, &p.Replay.TrailTimeout},
	} {
		if v := getenv(o.env); v != "" {
			d, err := parseDuration(v)
			if err != nil {
				bad(o.env, "%v", err)
				continue
			}
			*o.dst = d
		}
	}
	if v := getenv(envTrace); v != "" {
		if !slices.Contains(traceModes, v) {
			bad(envTrace, "%q is not one of %s", v, strings.Join(traceModes, ", "))
		} else {
			p.Trace = v
		}
	}
	byEnv := map[string]string{}
	for _, name := range p.appNames() {
		env := appEnv(name)
		if other, dup := byEnv[env]; dup {
			if getenv(env) != "" {
				bad(env, "apps %q and %q both read it; rename one of them in %s", other, name, p.File)
			}
			continue
		}
		byEnv[env] = name
		if v := getenv(env); v != "" {
			origin, err := parseBaseURL(v)
			if err != nil {
				bad(env, "%v", err)
				continue
			}
			p.Apps[name] = origin
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}
