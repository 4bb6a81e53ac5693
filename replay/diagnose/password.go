package diagnose

import (
	"regexp"

	"github.com/trailpin/trailpin/recorder/screen"
)

// passwordLabel recognises a password field among secret fields (which
// also include card numbers and one-time codes).
var passwordLabel = regexp.MustCompile(`(?i)pass(word|phrase)?|kennwort|mot de passe|contraseña`)

// HasPasswordField reports a visible password field on the screen.
func HasPasswordField(s *screen.Screen) bool {
	if s == nil {
		return false
	}
	found := false
	walkAll(s.Root, func(n *screen.Node) {
		if !found && n.Secret && n.Visible && n.Tag == "input" &&
			(passwordLabel.MatchString(n.Name) || passwordLabel.MatchString(n.Label) || passwordLabel.MatchString(n.Placeholder)) {
			found = true
		}
	})
	return found
}
