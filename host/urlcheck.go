package main

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/trailpin/trailpin/host/config"
)

// Every URL a command is given is checked before it opens a browser: a URL
// that cannot be reached (no host, a colon with no port) is a usage error
// with the fix, not a run that fails later as if the app were down.

// browserURLFix is the fix for a bad --browser-url.
const browserURLFix = "give the browser's DevTools URL, such as ws://127.0.0.1:9222/devtools/browser/<id> or http://127.0.0.1:9222"

// checkBaseURL checks --base-url and returns it as an origin.
func checkBaseURL(s string) (string, error) {
	origin, err := config.ParseBaseURL(s)
	if err != nil {
		return "", fmt.Errorf("--base-url %v: %s", err, config.BaseURLFix)
	}
	return origin, nil
}

// checkBrowserURL checks --browser-url: ws, wss, http or https, a host, and
// a port that is a number when a colon is there.
func checkBrowserURL(s string) error {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("--browser-url %q is not a URL: %s", s, browserURLFix)
	}
	switch strings.ToLower(u.Scheme) {
	case "ws", "wss", "http", "https":
	default:
		return fmt.Errorf("--browser-url %q is not a ws://, wss://, http:// or https:// URL: %s", s, browserURLFix)
	}
	if err := checkHostPort(u, s); err != nil {
		return fmt.Errorf("--browser-url %v: %s", err, browserURLFix)
	}
	return nil
}

// checkHostPort says what is wrong with u's host and port, if anything.
func checkHostPort(u *url.URL, s string) error {
	if u.Hostname() == "" {
		return fmt.Errorf("%q has no host", s)
	}
	if strings.HasSuffix(u.Host, ":") {
		return fmt.Errorf("%q has a colon but no port", s)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("%q has a bad port %q (a number from 1 to 65535)", s, p)
		}
	}
	return nil
}
