package config

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/trailpin/trailpin/recorder/review"
	"github.com/trailpin/trailpin/recorder/yamlerr"
)

// How a key's value is found (docs/config.md): viper holds the layers and
// decides which one wins, lowest first:
//
//	default < user config < project config < TRAILPIN_* variable < flag
//
// The files are decoded strictly by this package (decode.go), which keeps
// line numbers and the case of app names; viper is given the values they
// hold, each wrapped with where it was written, so that the value viper
// picks says where it came from. A variable or a flag reaches viper as text
// and is checked here by the same rules as the file.
//
// Secrets and credentials are not layered here: storage/secrets resolves
// them (TRAILPIN_SECRET_*, TRAILPIN_USER_*, then the project config), and
// their values are never put into viper.

// A Layer is one of the places a key's value can come from.
type Layer int

// The layers, lowest first: a later one overrides an earlier one.
const (
	LayerDefault Layer = iota
	LayerUser
	LayerProject
	LayerEnv
	LayerFlag
)

// A Source says which layer set a key: the file and line, the variable or
// the flag.
type Source struct {
	Layer Layer
	// File and Line: where a user or project config wrote the key.
	File string
	Line int
	// Env is the variable (LayerEnv); Flag the flag's name (LayerFlag).
	Env, Flag string
}

func (s Source) String() string {
	switch s.Layer {
	case LayerUser:
		return fmt.Sprintf("user %s:%d", s.File, s.Line)
	case LayerProject:
		return fmt.Sprintf("project %s:%d", s.File, s.Line)
	case LayerEnv:
		return "env " + s.Env
	case LayerFlag:
		return "flag --" + s.Flag
	}
	return "default"
}

// A Setting is one key in effect: its value as text and where it came from.
type Setting struct {
	// Key is written as in the config files: replay.actionTimeout,
	// apps.shop.baseURL.
	Key    string
	Value  string
	Source Source
}

// A keyDef is one layered key: its default, the flag that overrides it,
// and how text from a variable or the flag is checked.
type keyDef struct {
	name string
	// def is the default; nil for none.
	def any
	// flag is the name of the flag bound to the key, "" for none.
	flag string
	// parse checks text from a variable or a flag; nil takes it as it is.
	parse func(string) (any, error)
}

// Layered keys, as written in config files and listed by Settings.
const (
	KeyDB                = "db"
	KeyDataDir           = "dataDir"
	KeyExtensionID       = "extensionId"
	KeyPruneUnsavedAfter = "recording.pruneUnsavedAfter"
	KeyReviewThreshold   = "review.threshold"
	KeyTrailsDir         = "trails.dir"
	KeyCacheMode         = "cache.mode"
	KeyCacheStrict       = "cache.strict"
	KeyActionTimeout     = "replay.actionTimeout"
	KeyNavTimeout        = "replay.navigationTimeout"
	KeyReplayTimeout     = "replay.replayTimeout"
	KeyTrailTimeout      = "replay.trailTimeout"
	KeyTrace             = "trace"
)

// userKeyDefs are the layered keys of the user config; db and model.* may
// also be in the project config, which then wins (model.* as a whole, see
// agent.go). The default of dataDir depends on
// the platform (Load adds it).
var userKeyDefs = append([]keyDef{
	{name: KeyDB, def: "", flag: "db"},
	{name: KeyDataDir},
	{name: KeyExtensionID, def: ""},
	// Checked when the recording host reads it, so that a bad variable is
	// an error of that request, not of every one.
	{name: KeyPruneUnsavedAfter, def: defaultPruneUnsavedAfter},
	{name: KeyReviewThreshold, def: review.DefaultThreshold},
}, modelKeyDefs...)

// projectKeyDefs are the layered keys of trailpin.yaml, in the order
// `host project show` lists them. Apps (apps.<name>.baseURL) are layered
// too, one key per app the project config names (appDef).
var projectKeyDefs = append([]keyDef{
	{name: KeyTrailsDir, def: defaultTrailsDir},
	{name: KeyActionTimeout, def: defaultActionTimeout, parse: parseDurationValue},
	{name: KeyNavTimeout, def: defaultNavTimeout, parse: parseDurationValue},
	{name: KeyReplayTimeout, def: defaultReplayTimeout, parse: parseDurationValue},
	{name: KeyTrailTimeout, def: defaultTrailTimeout, parse: parseDurationValue},
	{name: KeyTrace, def: defaultTrace, flag: "trace", parse: parseTraceValue},
	// "": read-write, or read-only when CI is set (CacheConfig.ModeFor).
	{name: KeyCacheMode, def: "", parse: oneOfValue(cacheModes)},
	{name: KeyCacheStrict, def: false, parse: boolValue},
}, agentKeyDefs...)

// EnvVar is the variable that overrides a key: TRAILPIN_ plus the key
// upper-cased, with dots (and, in app names, '-') as underscores:
// TRAILPIN_REPLAY_ACTIONTIMEOUT, TRAILPIN_APPS_BACK_OFFICE_BASEURL.
func EnvVar(key string) string {
	return envPrefix + "_" + strings.ToUpper(strings.NewReplacer(".", "_", "-", "_").Replace(key))
}

// appKey is the key of an app's base URL, as written.
func appKey(name string) string { return "apps." + name + ".baseURL" }

// appDef is the layered key of one app of the project config.
func appDef(name string) keyDef {
	return keyDef{name: appKey(name), parse: func(s string) (any, error) { return ParseBaseURL(s) }}
}

// viperKey is where viper keeps a key. Viper folds keys to lower case and
// splits them at dots, so an app's name, which may hold both capitals and
// dots, is hex-encoded there; every other key is its own name.
func viperKey(key string) string {
	if name, ok := strings.CutPrefix(key, "apps."); ok {
		name = strings.TrimSuffix(name, ".baseURL")
		return "apps." + hex.EncodeToString([]byte(name)) + ".baseurl"
	}
	return strings.ToLower(key)
}

// A sourced value is what viper holds for a default or a file: the value,
// already checked, and where it was written.
type sourced struct {
	value any
	src   Source
}

// A fileValue is a key a config file sets, decoded and checked.
type fileValue struct {
	value any
	line  int
}

// A resolved key: its value and where it came from.
type resolved struct {
	value any
	src   Source
}

// text writes a value as `host project show` prints it.
func (r resolved) text() string {
	if s, ok := r.value.(string); ok {
		return s
	}
	return fmt.Sprint(r.value)
}

// layers is the viper instance of one load, with the keys it knows.
type layers struct {
	v     *viper.Viper
	defs  []keyDef
	flags *pflag.FlagSet
}

// newLayers registers defs with their defaults and, when env is set, their
// variables (the popup reads the project config as written: no variables).
// flags, when not nil, are bound to the keys they set.
func newLayers(defs []keyDef, env bool, flags *pflag.FlagSet) (*layers, error) {
	l := &layers{v: viper.New(), defs: defs, flags: flags}
	for _, d := range defs {
		vk := viperKey(d.name)
		if d.def != nil {
			l.v.SetDefault(vk, sourced{value: d.def})
		}
		if env {
			// Bound one by one rather than AutomaticEnv, so that only
			// these keys read the environment, each from its variable.
			if err := l.v.BindEnv(vk, EnvVar(d.name)); err != nil {
				return nil, err
			}
		}
		if flags != nil && d.flag != "" {
			if f := flags.Lookup(d.flag); f != nil {
				if err := l.v.BindPFlag(vk, f); err != nil {
					return nil, err
				}
			}
		}
	}
	return l, nil
}

// file adds a config file's values as the next layer up.
func (l *layers) file(layer Layer, file string, values map[string]fileValue) error {
	m := map[string]any{}
	for key, fv := range values {
		parts := strings.Split(viperKey(key), ".")
		node := m
		for _, p := range parts[:len(parts)-1] {
			next, ok := node[p].(map[string]any)
			if !ok {
				next = map[string]any{}
				node[p] = next
			}
			node = next
		}
		node[parts[len(parts)-1]] = sourced{value: fv.value, src: Source{Layer: layer, File: file, Line: fv.line}}
	}
	return l.v.MergeConfigMap(m)
}

// resolve asks viper for every key and returns what is in effect; a key
// with no value in any layer is left out. Text from a variable or a flag
// that does not check is an error naming it.
func (l *layers) resolve() (map[string]resolved, error) {
	out := map[string]resolved{}
	var errs yamlerr.List
	for _, d := range l.defs {
		raw := l.v.Get(viperKey(d.name))
		switch x := raw.(type) {
		case nil:
			continue
		case sourced:
			out[d.name] = resolved(x)
			continue
		}
		// Viper found text in a variable or a flag; the flag is what it
		// returns when the flag was given.
		text := fmt.Sprint(raw)
		src := Source{Layer: LayerEnv, Env: EnvVar(d.name)}
		if l.flags != nil && d.flag != "" {
			if f := l.flags.Lookup(d.flag); f != nil && f.Changed {
				src = Source{Layer: LayerFlag, Flag: d.flag}
			}
		}
		var value any = text
		if d.parse != nil {
			v, err := d.parse(text)
			if err != nil {
				errs = append(errs, sourceError(src, err))
				continue
			}
			value = v
		}
		out[d.name] = resolved{value: value, src: src}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

// sourceError explains text from a variable or a flag that does not check.
func sourceError(src Source, err error) *yamlerr.Error {
	if src.Layer == LayerFlag {
		return &yamlerr.Error{File: "command line", Path: "--" + src.Flag, Msg: err.Error(), Fix: "fix the flag's value", Err: ErrInvalid}
	}
	return &yamlerr.Error{File: "environment", Path: "$" + src.Env, Msg: err.Error(), Fix: "fix or unset the variable", Err: ErrInvalid}
}

func parseDurationValue(s string) (any, error) { return parseDuration(s) }

func boolValue(s string) (any, error) {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return nil, fmt.Errorf("%q is not true or false", s)
	}
	return b, nil
}

func oneOfValue(allowed []string) func(string) (any, error) {
	return func(s string) (any, error) {
		if !slices.Contains(allowed, s) {
			return nil, fmt.Errorf("%q is not one of %s", s, strings.Join(allowed, ", "))
		}
		return s, nil
	}
}

// parseTraceValue reads trace from a variable or --trace, which have
// always taken any case and surrounding space.
func parseTraceValue(s string) (any, error) {
	return oneOfValue(traceModes)(strings.ToLower(strings.TrimSpace(s)))
}
