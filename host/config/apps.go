package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// baseURLFix is the fix for every bad base URL.
const baseURLFix = "write an origin such as http://localhost:3000 or https://shop.example.com"

// BaseURLFix is the fix for a bad base URL given outside trailpin.yaml
// (--base-url).
const BaseURLFix = baseURLFix

// ErrAppExists is wrapped by addApp when the name is taken by another URL.
var ErrAppExists = errors.New("the app exists")

// ErrOriginTaken is wrapped by addApp when another app has the origin.
var ErrOriginTaken = errors.New("origin taken")

// parseBaseURL checks an app's base URL and returns it as an origin:
// http or https, a host, an optional port, and nothing else. Trails hold
// paths relative to it, so a path here would be applied twice or lost.
func ParseBaseURL(s string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return "", fmt.Errorf("%q is not a URL", s)
	}
	switch {
	case u.Scheme == "" || u.Opaque != "" || (u.Host == "" && u.Scheme != "http" && u.Scheme != "https"):
		return "", fmt.Errorf("%q is not an http:// or https:// URL", s)
	case !strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https"):
		return "", fmt.Errorf("%q is a %s: URL, not http:// or https://", s, u.Scheme)
	case u.Host == "":
		return "", fmt.Errorf("%q has no host", s)
	case strings.HasSuffix(u.Host, ":"):
		// Go reads "host:" as the default port; a browser would too, so a
		// port left out by mistake would send the run to port 80.
		return "", fmt.Errorf("%q has a colon but no port", s)
	case u.User != nil:
		return "", fmt.Errorf("%q has a user name or password in it (keep logins under credentials)", s)
	case u.Path != "" && u.Path != "/":
		return "", fmt.Errorf("%q has a path (%s); trails hold the paths, the base URL only the origin", s, u.Path)
	case u.RawQuery != "" || u.ForceQuery:
		return "", fmt.Errorf("%q has a query; trails hold queries, the base URL only the origin", s)
	case u.Fragment != "":
		return "", fmt.Errorf("%q has a fragment; the base URL is only the origin", s)
	}
	return originFromURL(u, s)
}

// originOf returns the origin of a URL or origin as the browser reports it
// (scheme://host[:port]); its path, query and fragment are ignored.
func OriginOf(s string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.Host == "" || (!strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https")) {
		return "", fmt.Errorf("%q is not an http:// or https:// origin", s)
	}
	return originFromURL(u, s)
}

// originFromURL writes u's origin the way browsers do: lower-case scheme and
// host, no default port.
func originFromURL(u *url.URL, s string) (string, error) {
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	if host == "" {
		return "", fmt.Errorf("%q has no host", s)
	}
	port := u.Port()
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return "", fmt.Errorf("%q has a bad port %q", s, port)
		}
		port = strconv.Itoa(n)
	}
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if port == "" && strings.Contains(host, ":") {
		return scheme + "://[" + host + "]", nil
	}
	if port == "" {
		return scheme + "://" + host, nil
	}
	return scheme + "://" + net.JoinHostPort(host, port), nil
}

// addApp adds apps.<name>.baseURL to trailpin.yaml and to p. The file is
// re-read first (someone may have edited it since p was loaded), edited in
// place so that its comments, blank lines and key order stay as they were,
// checked, and written atomically. Adding an app that is already there with
// the same origin does nothing. A name taken by another origin wraps
// ErrAppExists; an origin another app has wraps ErrOriginTaken.
func (p *Project) AddApp(name, baseURL string) error {
	if err := checkAppName(name); err != nil {
		return fmt.Errorf("adding app: %w: use letters, digits, '_', '-' and '.'", err)
	}
	origin, err := ParseBaseURL(baseURL)
	if err != nil {
		return fmt.Errorf("adding app %q: %w", name, err)
	}
	src, err := readConfigBytes(p.File)
	if err != nil {
		return fmt.Errorf("adding app %q: %w", name, err)
	}
	current, err := parseProject(p.File, src)
	if err != nil {
		return fmt.Errorf("adding app %q: fix %s first: %w", name, p.File, err)
	}
	if have, ok := current.Apps[name]; ok {
		if have == origin {
			p.Apps[name] = origin
			return nil
		}
		return fmt.Errorf("adding app %q: %w: it already has base URL %s; choose another name, or edit %s", name, ErrAppExists, have, p.File)
	}
	if other, ok := current.AppForOrigin(origin); ok {
		return fmt.Errorf("adding app %q: %w: app %q already has %s", name, ErrOriginTaken, other, origin)
	}
	out, err := addMapEntry(p.File, src, "apps", name, []yamlLine{
		{0, yamlKey(name) + ":"},
		{1, "baseURL: " + yamlScalar(origin)},
	}, map[string]any{"baseURL": origin})
	if err != nil {
		return fmt.Errorf("adding app %q to %s: %w", name, p.File, err)
	}
	if _, err := parseProject(p.File, out); err != nil {
		return fmt.Errorf("adding app %q to %s: the edited file does not load (nothing written): %w", name, p.File, err)
	}
	if err := writeConfigFile(p.File, out, projectFileMode); err != nil {
		return fmt.Errorf("adding app %q: %w", name, err)
	}
	p.Apps[name] = origin
	return nil
}

// originsFix is the fix for a bad entry of apps.<name>.origins.
const originsFix = "write each entry as an origin, such as https://login.example.com"

// appOrigins reads apps.<name>.origins: a list of origins the agent may act
// on besides the app's base URL. Each is an origin as a base URL is (http
// or https, a host, an optional port, no path): the agent's rule is about
// origins, and a path would suggest a narrower trust than the browser
// gives. An origin listed twice is refused, so that the list reads as
// what it allows.
func (d *configDecoder) appOrigins(n *yaml.Node, path string) []string {
	if yamlNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		d.fail(n, path, "write a list, one origin a line: `- https://login.example.com`", "must be a list of origins, not %s", describeConfigNode(n))
		return nil
	}
	var out []string
	for i, item := range n.Content {
		at := fmt.Sprintf("%s[%d]", path, i)
		s, ok := d.str(item, at)
		if !ok {
			continue
		}
		origin, err := parseOrigin(s)
		if err != nil {
			d.fail(item, at, originsFix, "%v", err)
			continue
		}
		if slices.Contains(out, origin) {
			d.fail(item, at, "keep one of them", "%s is listed twice", origin)
			continue
		}
		out = append(out, origin)
	}
	return out
}

// parseOrigin checks an entry of apps.<name>.origins: an origin, with
// nothing after it but an optional slash.
func parseOrigin(s string) (string, error) {
	if u, err := url.Parse(strings.TrimSpace(s)); err == nil && u.Host != "" {
		switch {
		case u.Path != "" && u.Path != "/":
			return "", fmt.Errorf("%q has a path (%s); an origin is scheme, host and port only, and the agent is trusted with all of it or none", s, u.Path)
		case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
			return "", fmt.Errorf("%q has a query or fragment; an origin is scheme, host and port only", s)
		}
	}
	return ParseBaseURL(s)
}
