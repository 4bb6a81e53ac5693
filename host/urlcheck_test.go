package main

import (
	"strings"
	"testing"
)

func TestCheckFlagURLs(t *testing.T) {
	for _, tc := range []struct {
		flag, in, wantErr string
	}{
		{"--base-url", "http://127.0.0.1:3000", ""},
		{"--base-url", "http://127.0.0.1:", "has a colon but no port: write an origin such as http://localhost:3000"},
		{"--base-url", "http://", "has no host"},
		{"--base-url", "127.0.0.1:3000", "is not a URL"}, // no scheme
		{"--base-url", "ftp://127.0.0.1:21", "not http:// or https://"},
		{"--browser-url", "ws://127.0.0.1:9222/devtools/browser/abc", ""},
		{"--browser-url", "http://127.0.0.1:9222", ""},
		{"--browser-url", "wss://grid.example.com/devtools/browser/abc", ""},
		{"--browser-url", "ws://127.0.0.1:", "has a colon but no port: give the browser's DevTools URL"},
		{"--browser-url", "ws://127.0.0.1:99999", "bad port"},
		{"--browser-url", "ws://127.0.0.1:x/", "is not a URL"},
		{"--browser-url", "ws:///devtools/browser/abc", "has no host"},
		{"--browser-url", "127.0.0.1:9222", "is not a URL"}, // no scheme,
		{"--browser-url", "file:///tmp/x", "is not a ws://"},
	} {
		var err error
		if tc.flag == "--base-url" {
			_, err = checkBaseURL(tc.in)
		} else {
			err = checkBrowserURL(tc.in)
		}
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s %q: %v, want no error", tc.flag, tc.in, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.HasPrefix(err.Error(), tc.flag)):
			t.Errorf("%s %q: error %v, want one naming the flag and saying %q", tc.flag, tc.in, err, tc.wantErr)
		}
	}
}
