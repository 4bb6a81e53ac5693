package model

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strings"
)

// A Config says which model to call: the three model.* keys of the user
// config or trailpin.yaml (docs/agent.md).
type Config struct {
	// BaseURL is the endpoint's API root, such as https://api.openai.com/v1
	// or http://localhost:11434/v1. An Azure OpenAI resource is written
	// with its API version: https://NAME.openai.azure.com/?api-version=2024-10-21.
	BaseURL string
	// Name is the model (for Azure, the deployment) named in each request.
	Name string
	// APIKeyEnv names the environment variable that holds the API key; ""
	// for a server that takes none (a local Ollama, llama.cpp).
	APIKeyEnv string
	// AllowInsecureHTTP lets the key go over plain http to a host other
	// than this machine (model.allowInsecureHTTP): anyone on the network
	// between can read it, so it is refused unless the config says so in
	// words, and said when it happens (InsecureNotice).
	AllowInsecureHTTP bool
}

// ErrNotConfigured is wrapped when no model is configured: model.baseURL or
// model.name is missing.
var ErrNotConfigured = errors.New("no model is configured")

// ErrBadConfig is wrapped when a model.* value cannot be used.
var ErrBadConfig = errors.New("bad model configuration")

// configFix says how to configure a model, for every error about it.
const configFix = "set model.baseURL, model.name and model.apiKeyEnv in your user config or trailpin.yaml (see docs/agent.md)"

// envNameRule is what an environment variable's name may be. A key pasted
// in its place (sk-…) never matches, so it is refused without being shown.
var envNameRule = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Endpoint kinds: how requests are routed and authenticated.
const (
	kindOpenAI = "openai" // {baseURL}/chat/completions, Authorization: Bearer
	kindAzure  = "azure"  // {endpoint}/openai/deployments/{name}/chat/completions?api-version=…, api-key
)

// An endpoint is a checked base URL.
type endpoint struct {
	kind string
	// base is the URL requests go under; for Azure, the resource's
	// endpoint without the query.
	base       string
	apiVersion string
	// loopback: the server is on this machine (http is allowed for Azure's
	// request shape only there).
	loopback bool
}

// Check reports whether c can be used, without reading the key: an error
// wraps ErrNotConfigured or ErrBadConfig and says what to write.
func (c Config) Check() error {
	_, err := c.endpoint()
	return err
}

// Configured reports whether a model is configured at all.
func (c Config) Configured() bool { return c.BaseURL != "" || c.Name != "" }

func (c Config) endpoint() (endpoint, error) {
	switch {
	case c.BaseURL == "" && c.Name == "":
		return endpoint{}, fmt.Errorf("%w: %s", ErrNotConfigured, configFix)
	case c.BaseURL == "":
		return endpoint{}, fmt.Errorf("%w: model.name is set but model.baseURL is not: %s", ErrNotConfigured, configFix)
	case strings.TrimSpace(c.Name) == "":
		return endpoint{}, fmt.Errorf("%w: model.baseURL is set but model.name is not: name the model (for Azure, the deployment)", ErrNotConfigured)
	}
	if c.APIKeyEnv != "" && !envNameRule.MatchString(c.APIKeyEnv) {
		// Never quoted: it may be the key itself.
		return endpoint{}, fmt.Errorf("%w: model.apiKeyEnv is not an environment variable's name: write the name of the variable that holds the key, such as OPENAI_API_KEY, never the key itself", ErrBadConfig)
	}
	ep, err := parseBaseURL(c.BaseURL)
	if err != nil {
		return endpoint{}, err
	}
	if c.APIKeyEnv == "" && (ep.kind == kindAzure || isOpenAIHost(c.BaseURL)) {
		return endpoint{}, fmt.Errorf("%w: %s needs an API key: set model.apiKeyEnv to the variable that holds it", ErrBadConfig, hostOf(c.BaseURL))
	}
	if c.keyInTheClear(ep) && !c.AllowInsecureHTTP {
		secure, _ := url.Parse(c.BaseURL)
		secure.Scheme = "https"
		return endpoint{}, fmt.Errorf("%w: model.baseURL %q would send the API key in $%s over plain http to %s, which is not this machine, and anyone on the network between could read it: use https (%s), or, on a network you trust with the key, set model.allowInsecureHTTP: true",
			ErrBadConfig, c.BaseURL, c.APIKeyEnv, hostOf(c.BaseURL), secure)
	}
	return ep, nil
}

// keyInTheClear reports whether the key would travel unencrypted beyond
// this machine: a key, plain http, a host that is not loopback.
func (c Config) keyInTheClear(ep endpoint) bool {
	u, err := url.Parse(c.BaseURL)
	return err == nil && c.APIKeyEnv != "" && !ep.loopback && u.Scheme == "http"
}

// InsecureNotice is what to say, once, when model.allowInsecureHTTP lets
// the key go over plain http beyond this machine; "" otherwise (no key,
// https, loopback, or a configuration Check refuses).
func (c Config) InsecureNotice() string {
	ep, err := c.endpoint()
	if err != nil || !c.keyInTheClear(ep) {
		return ""
	}
	u, _ := url.Parse(c.BaseURL)
	return fmt.Sprintf("model.allowInsecureHTTP is true: the API key in $%s goes to %s over plain http, unencrypted", c.APIKeyEnv, u.Host)
}

// CheckBaseURL checks a model.baseURL as the client will use it; the
// error wraps ErrBadConfig and says what to write.
func CheckBaseURL(raw string) error {
	_, err := parseBaseURL(raw)
	return err
}

// parseBaseURL checks a model.baseURL: http or https, a host, no user or
// fragment; an api-version query selects Azure OpenAI's request shape,
// whose base URL is the resource's endpoint alone.
func parseBaseURL(raw string) (endpoint, error) {
	bad := func(format string, args ...any) (endpoint, error) {
		return endpoint{}, fmt.Errorf("%w: model.baseURL %q %s", ErrBadConfig, raw, fmt.Sprintf(format, args...))
	}
	u, err := url.Parse(raw)
	if err != nil {
		return bad("is not a URL: write one such as https://api.openai.com/v1")
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return bad("is not an http or https URL: write one such as https://api.openai.com/v1 or http://localhost:11434/v1")
	case u.Host == "" || u.Hostname() == "":
		return bad("has no host")
	case u.User != nil:
		// Not quoted again: the message already says where it is.
		return endpoint{}, fmt.Errorf("%w: model.baseURL holds a user name or password: remove it, and put the key in the variable model.apiKeyEnv names", ErrBadConfig)
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return bad("has a fragment (#…): remove it")
	}
	ep := endpoint{kind: kindOpenAI, loopback: isLoopback(u.Hostname())}
	q := u.Query()
	version := q.Get("api-version")
	q.Del("api-version")
	if len(q) > 0 {
		// Not quoted: a query may hold a key.
		return endpoint{}, fmt.Errorf("%w: model.baseURL has a query other than api-version: remove it, and put the key in the variable model.apiKeyEnv names", ErrBadConfig)
	}
	if version == "" {
		if strings.Contains(raw, "?") {
			return bad("has an empty query: remove the ?, or write ?api-version=… for Azure OpenAI")
		}
		if strings.HasSuffix(strings.ToLower(u.Hostname()), ".openai.azure.com") && !strings.Contains(u.Path, "/openai/v1") {
			return bad("is an Azure OpenAI resource without an API version: write https://%s/?api-version=2024-10-21 (deployment routes), or https://%s/openai/v1 (Azure's v1 API)", u.Host, u.Host)
		}
		ep.base = strings.TrimSuffix(raw, "/")
		return ep, nil
	}
	if strings.Trim(u.Path, "/") != "" {
		return bad("has a path (%s): for Azure OpenAI write the resource's endpoint alone, such as https://NAME.openai.azure.com/?api-version=%s, and the deployment in model.name", u.Path, version)
	}
	if u.Scheme == "http" && !ep.loopback {
		return bad("sends the key over plain http: Azure OpenAI's request shape takes https (http only on this machine)")
	}
	ep.kind, ep.apiVersion = kindAzure, version
	ep.base = u.Scheme + "://" + u.Host + "/"
	return ep, nil
}

// isLoopback reports whether host is this machine, as Azure's SDK decides
// it: localhost or a loopback address (127.0.0.0/8, ::1).
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func isOpenAIHost(raw string) bool { return strings.EqualFold(hostOf(raw), "api.openai.com") }

func hostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Hostname()
	}
	return ""
}
