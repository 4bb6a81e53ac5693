package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// The agent's trust boundaries (docs/agent.md, What the agent may and may
// not do). Page text is written by whoever controls the page, so nothing
// the page says widens what the agent may do:
//
//   - it acts (tap, type, select, press, navigate) only on a page, and in
//     a frame, of the app's origins: the app's base URL and the origins the
//     person listed for it (apps.<name>.origins). An action anywhere else
//     is refused and ends the step; a page the agent's action took it to
//     on another origin is named in the outcome, and such a flow is never
//     saved;
//   - it types only the secrets its goal was offered, and never a secret
//     into a URL;
//   - it reads the page's content between markers the page cannot forge,
//     as data.

// OriginOf is the origin of a page's (or frame's) URL as the rules compare
// it: scheme://host[:port] for http and https, in the form browsers use;
// the scheme alone ("about:", "data:") for any other URL, which no listed
// origin matches.
func OriginOf(raw string) string { return trail.PageOrigin(raw) }

// origins are the origins a run may act on; the first is the app's own.
type origins []string

func (o origins) app() string {
	if len(o) == 0 {
		return ""
	}
	return o[0]
}

func (o origins) allow(origin string) bool { return origin != "" && slices.Contains(o, origin) }

// list names them for the model and for messages.
func (o origins) list() string { return strings.Join(o, ", ") }

// allowedOrigins are cfg.Origins in origin form, the app's first; with
// none configured, the origin of the page the agent is first shown.
func allowedOrigins(cfg Config, first *screen.Screen) origins {
	var out origins
	for _, o := range cfg.Origins {
		if o = OriginOf(o); o != "" && !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	if len(out) == 0 && first != nil {
		out = origins{OriginOf(first.URL)}
	}
	return out
}

// frameOrigin is the origin of the document that holds the element of ref
// on s: the page's, or that of the innermost frame around it. A
// cross-origin frame whose origin the capture did not learn gives "".
// found is false when s has no such ref.
func frameOrigin(s *screen.Screen, ref string) (origin string, found bool) {
	var walk func(n *screen.Node, in string) (string, bool)
	walk = func(n *screen.Node, in string) (string, bool) {
		if n.Ref == ref {
			return in, true
		}
		inside := in
		if n.Frame != "" && n.CrossOrigin {
			inside = n.Origin
		}
		for _, c := range n.Children {
			if o, ok := walk(c, inside); ok {
				return o, true
			}
		}
		return "", false
	}
	if s == nil || s.Root == nil || ref == "" {
		return "", false
	}
	return walk(s.Root, OriginOf(s.URL))
}

// foreignFrames lists the frames of s whose documents are on an origin
// the run may not act on, as "ref (origin)", for the model to know before
// it tries.
func foreignFrames(s *screen.Screen, allowed origins) []string {
	var out []string
	var walk func(n *screen.Node)
	walk = func(n *screen.Node) {
		if n.Frame != "" && n.CrossOrigin && n.Ref != "" && !allowed.allow(n.Origin) {
			o := n.Origin
			if o == "" {
				o = "an origin that could not be read"
			}
			out = append(out, n.Ref+" ("+o+")")
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	if s != nil && s.Root != nil {
		walk(s.Root)
	}
	return out
}

// offOrigin says why the call may not act on the screen it was shown, or
// "" when it may: the page is on another origin, or the element (for
// press, the focused one) is in a frame of another origin. navigate to a
// path of the app is the way back, and always allowed.
func (r *run) offOrigin(tool string, a toolArgs) (origin, why string) {
	page := OriginOf(r.shown.URL)
	if tool == ToolNavigate && !slices.Contains(historyMoves, a.Path) {
		if o := webOrigin(a.Path); o != "" && !r.origins.allow(o) {
			return o, fmt.Sprintf("navigate to %s goes to %s", a.Path, o)
		}
		return "", ""
	}
	if !r.origins.allow(page) {
		return page, fmt.Sprintf("the page is on %s", page)
	}
	if tool == ToolTap {
		if o := r.linkOrigin(a.Ref); o != "" && !r.origins.allow(o) {
			return o, fmt.Sprintf("%s is a link to %s", a.Ref, o)
		}
	}
	ref := a.Ref
	if tool == ToolPress {
		ref = r.shown.Focused
	}
	if ref == "" || tool == ToolNavigate {
		return "", ""
	}
	fo, found := frameOrigin(r.shown, ref)
	switch {
	case !found:
		return "", "" // a ref the screen does not have is refused as such
	case fo == "":
		return "a frame of unknown origin", fmt.Sprintf("%s is in a frame whose origin could not be read", ref)
	case !r.origins.allow(fo):
		return fo, fmt.Sprintf("%s is in a frame of %s", ref, fo)
	}
	return "", ""
}

// webOrigin is the origin of an absolute http(s) URL, "" for anything
// else (a path, javascript:, mailto:).
func webOrigin(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || (!strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https")) {
		return ""
	}
	return trail.OriginOf(u)
}

// linkOrigin is the origin a tap on ref would open: that of the link it
// is, or is inside of, when the link goes to an http(s) URL; "" when it is
// no such link. A control whose script takes the page elsewhere is seen
// only after the tap (Outcome.OffOrigins).
func (r *run) linkOrigin(ref string) string {
	var path []*screen.Node
	var find func(n *screen.Node) bool
	find = func(n *screen.Node) bool {
		path = append(path, n)
		if n.Ref == ref {
			return true
		}
		for _, c := range n.Children {
			if find(c) {
				return true
			}
		}
		path = path[:len(path)-1]
		return false
	}
	if r.shown == nil || r.shown.Root == nil || !find(r.shown.Root) {
		return ""
	}
	for i := len(path) - 1; i >= 0; i-- {
		n := path[i]
		if n.Frame != "" && i < len(path)-1 {
			return "" // the link would be outside the frame the ref is in
		}
		if n.Role == "link" || n.Tag == "a" {
			return webOrigin(n.URL)
		}
	}
	return ""
}

// refuseOffOrigin ends the run on an action outside the app's origins: the
// step fails, saying which origin was refused and how to allow it.
func (r *run) refuseOffOrigin(tool, origin, why string) result {
	if strings.Contains(origin, ":") {
		r.noteOff(origin)
	}
	msg := fmt.Sprintf("%s refused: %s, which is not one of the app's origins (%s)", tool, why, r.origins.list())
	r.out.Refused = append(r.out.Refused, r.cfg.Redact(msg))
	allow := "list it under " + r.originsKey() + " in trailpin.yaml"
	if strings.Contains(origin, "://") {
		allow = "add " + origin + " to " + r.originsKey() + " in trailpin.yaml"
	}
	r.stop(VerdictRefused, msg+". The agent acts only on the app's origins, whatever a page says; if the app really goes through that origin and you trust it, "+allow)
	return result{outcome: "Refused: " + why + ", which is not one of the app's origins. Nothing was done, and the step ends here.", stop: true}
}

// originsKey is the config key that lists the app's other origins.
func (r *run) originsKey() string {
	app := r.cfg.App
	if app == "" {
		app = "<app>"
	}
	return "apps." + app + ".origins"
}

// noteOff records an origin outside the allowed ones the agent's page
// reached or was refused on: a flow that went there is never saved.
func (r *run) noteOff(origin string) {
	if origin != "" && !slices.Contains(r.out.OffOrigins, origin) {
		r.out.OffOrigins = append(r.out.OffOrigins, origin)
	}
}

// notOffered says why the call uses a reference it may not, or "" when
// it may: a ${secret:…} or ${user:…} the goal was not offered, or any of
// them in a URL. Params are not secret and pass.
func (r *run) notOffered(tool string, a toolArgs) string {
	var text string
	switch tool {
	case ToolType:
		text = a.Text
	case ToolSelect:
		text = a.Option
	case ToolNavigate:
		text = a.Path
	default:
		return ""
	}
	refs, err := trail.ParseRefs(text)
	if err != nil {
		return fmt.Sprintf("Refused: %v. Nothing was done; %s", err, r.offeredLine())
	}
	for _, ref := range refs {
		if ref.Kind == trail.RefParam {
			continue
		}
		if tool == ToolNavigate {
			return fmt.Sprintf("Refused: navigate never puts %s into a URL (a URL reaches servers' logs and other sites); nothing was done.", ref)
		}
		if !r.offered(ref) {
			return fmt.Sprintf("Refused: %s was not offered to this step, so nothing was typed and no value was filled in. %s", ref, r.offeredLine())
		}
	}
	return ""
}

// offered reports whether the goal offers the reference.
func (r *run) offered(ref trail.Ref) bool {
	switch ref.Kind {
	case trail.RefSecret:
		return slices.Contains(r.goal.Secrets, ref.Name)
	case trail.RefUser:
		return slices.Contains(r.goal.Users, ref.Name)
	}
	return false
}

// offeredLine names the references the model may type.
func (r *run) offeredLine() string {
	refs := offeredRefs(r.goal)
	if len(refs) == 0 {
		return "This step was offered no secrets: type none."
	}
	return "The secrets this step may type: " + strings.Join(refs, " ") + "."
}

// offeredRefs are the goal's secrets and users as the model types them.
func offeredRefs(g Goal) []string {
	var out []string
	for _, n := range g.Secrets {
		out = append(out, trail.Ref{Kind: trail.RefSecret, Name: n}.String())
	}
	for _, n := range g.Users {
		out = append(out, trail.Ref{Kind: trail.RefUser, Name: n}.String())
	}
	return out
}

// refuseRef answers a call that used a reference it may not: nothing is
// done, the model is told which it may use, and the run goes on.
func (r *run) refuseRef(ctx context.Context, why string) result {
	r.out.Refused = append(r.out.Refused, r.cfg.Redact(why))
	return r.refused(ctx, why)
}

// A fence marks where the page's content begins and ends in a message.
// Its nonce is drawn for each run, after the page was loaded, so no text
// on a page can close it early or open one of its own.
type fence struct{ begin, end string }

func newFence() fence {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	n := hex.EncodeToString(b)
	return fence{begin: FenceBegin + n + ">>>", end: FenceEnd + n + ">>>"}
}

// The starts of the fence's lines; each goes on with the run's nonce and
// ">>>". A reader of a request (a test's policy) finds the page's content
// between them.
const (
	FenceBegin = "<<<page-content "
	FenceEnd   = "<<<end-page-content "
)
