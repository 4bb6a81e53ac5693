package installer

import "strings"

// executables names, per OS, the files whose presence shows a browser is
// installed: command names looked up on $PATH on Linux, absolute paths (with
// %VARS% on Windows) elsewhere.
var executables = map[string]map[Browser][]string{
	"linux": {
		Chrome:   {"google-chrome", "google-chrome-stable"},
		Chromium: {"chromium", "chromium-browser"},
		Edge:     {"microsoft-edge", "microsoft-edge-stable"},
		Brave:    {"brave-browser", "brave"},
	},
	"darwin": {
		Chrome:   {"/Applications/Google Chrome.app"},
		Chromium: {"/Applications/Chromium.app"},
		Edge:     {"/Applications/Microsoft Edge.app"},
		Brave:    {"/Applications/Brave Browser.app"},
	},
	"windows": {
		Chrome:   {`%ProgramFiles%\Google\Chrome\Application\chrome.exe`, `%ProgramFiles(x86)%\Google\Chrome\Application\chrome.exe`, `%LOCALAPPDATA%\Google\Chrome\Application\chrome.exe`},
		Chromium: {`%LOCALAPPDATA%\Chromium\Application\chrome.exe`, `%ProgramFiles%\Chromium\Application\chrome.exe`},
		Edge:     {`%ProgramFiles(x86)%\Microsoft\Edge\Application\msedge.exe`, `%ProgramFiles%\Microsoft\Edge\Application\msedge.exe`},
		Brave:    {`%ProgramFiles%\BraveSoftware\Brave-Browser\Application\brave.exe`, `%LOCALAPPDATA%\BraveSoftware\Brave-Browser\Application\brave.exe`},
	},
}

// Installed returns the browsers that look installed on p: an executable is
// found, or the per-user manifest folder's parent (the browser's profile
// folder) exists. exists reports whether a path exists.
func Installed(p Platform, exists func(string) bool) []Browser {
	var out []Browser
	for _, b := range Browsers {
		if p.hasExecutable(b, exists) || p.hasProfile(b, exists) {
			out = append(out, b)
		}
	}
	return out
}

func (p Platform) hasExecutable(b Browser, exists func(string) bool) bool {
	for _, name := range executables[p.GOOS][b] {
		if p.GOOS == "linux" {
			for dir := range strings.SplitSeq(p.Getenv("PATH"), ":") {
				if dir != "" && exists(p.join(dir, name)) {
					return true
				}
			}
			continue
		}
		if full, ok := p.expand(name); ok && exists(full) {
			return true
		}
	}
	return false
}

// hasProfile reports whether the folder holding the per-user manifest folder
// exists: the browser has run for this user.
func (p Platform) hasProfile(b Browser, exists func(string) bool) bool {
	if p.GOOS == "windows" {
		return false // the manifest folder there is Trailpin's own
	}
	t, err := Locate(p, b, User)
	if err != nil {
		return false
	}
	return exists(p.dir(p.dir(t.ManifestPath)))
}

// expand replaces %NAME% with environment values; ok is false when one is
// unset.
func (p Platform) expand(s string) (string, bool) {
	for {
		i := strings.IndexByte(s, '%')
		if i < 0 {
			return s, true
		}
		j := strings.IndexByte(s[i+1:], '%')
		if j < 0 {
			return s, true
		}
		v := p.Getenv(s[i+1 : i+1+j])
		if v == "" {
			return "", false
		}
		s = s[:i] + v + s[i+2+j:]
	}
}
