package trail

import (
	"fmt"
	"net/url"
	"strings"
)

// A ForeignOriginError is a URL that is not on the app's origin, so it
// cannot be stored as a path of the app.
type ForeignOriginError struct {
	URL       string
	Origin    string // the URL's origin
	AppOrigin string // the app's origin
}

func (e *ForeignOriginError) Error() string {
	return fmt.Sprintf("url %s is on origin %s, not the app's origin %s: a trail stores paths inside one app; record it under an app whose baseURL is %s",
		e.URL, e.Origin, e.AppOrigin, e.Origin)
}

// AppPath returns rawURL as a trail stores it: path, query and fragment,
// without the origin, so a trail recorded on localhost:3000 replays on a
// preview deployment. appBase is the app's base URL (only its origin
// counts). A URL on another origin is a *ForeignOriginError; a path
// ("/checkout?step=2") is returned as it is.
func AppPath(rawURL, appBase string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", fmt.Errorf("reading url %q: %w", rawURL, err)
	}
	if u.Scheme == "" && u.Host == "" {
		if !strings.HasPrefix(rawURL, "/") {
			return "", fmt.Errorf("url %q is neither absolute nor a path starting with /", rawURL)
		}
		return rawURL, nil
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("url %q is not http or https", rawURL)
	}
	if appBase != "" {
		base, err := url.Parse(appBase)
		if err != nil || base.Host == "" {
			return "", fmt.Errorf("app base URL %q is not an absolute URL", appBase)
		}
		if OriginOf(u) != OriginOf(base) {
			return "", &ForeignOriginError{URL: rawURL, Origin: OriginOf(u), AppOrigin: OriginOf(base)}
		}
	}
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if u.RawQuery != "" || u.ForceQuery {
		p += "?" + u.RawQuery
	}
	if u.Fragment != "" {
		p += "#" + u.EscapedFragment()
	}
	return p, nil
}

// PageOrigin is the origin of the page at raw, as an origin check compares
// it: scheme://host[:port] for http and https, the scheme alone ("data:",
// "about:") for others, and raw itself when it is no URL.
func PageOrigin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return raw
	}
	if s := strings.ToLower(u.Scheme); (s == "http" || s == "https") && u.Host != "" {
		return OriginOf(u)
	}
	return strings.ToLower(u.Scheme) + ":"
}

// OriginOf is the origin of u, scheme://host[:port] in the form browsers compare: lower case,
// without the scheme's default port.
func OriginOf(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	port := u.Port()
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host
}
