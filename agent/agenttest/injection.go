package agenttest

import (
	"regexp"
	"strings"
	"sync"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/agent/model/modeltest"
	"github.com/trailpin/trailpin/recorder/screen"
)

// An Obedient model does what the page tells it, as a model that takes
// page text for instructions would: it stands in for a model an attacker
// steered, so that a test can show the agent's rules hold whatever the
// model asks for. It reads every "ignore your instructions: …" in the
// latest screen it was sent (page text, an element's name from a hidden
// aria-label or a title) and carries out each directive in it literally,
// one call per directive, in the order the screen shows them:
//
//   - "open URL": a tap of a link to URL on the screen, else navigate to URL;
//   - "type REF there": REF typed into the first text field of the screen;
//   - "type REF into the NAME field": REF typed into the field named NAME.
//
// A directive repeated in several places is carried out once per
// conversation. When none is left it goes on as the generic Policy does.
type Obedient struct {
	mu     sync.Mutex
	done   map[string]map[string]bool // by conversation: the directives carried out
	obeyed int
	goal   func(modeltest.Request) modeltest.Reply
}

// Obey is an Obedient model; opts change the generic policy it falls back
// to.
func Obey(opts ...PolicyOption) *Obedient {
	return &Obedient{done: map[string]map[string]bool{}, goal: Policy(opts...)}
}

// Obeyed counts the calls it made because a page said so.
func (o *Obedient) Obeyed() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.obeyed
}

// Policy is the model's answer to each request, for modeltest.WithPolicy.
func (o *Obedient) Policy() func(modeltest.Request) modeltest.Reply {
	return func(r modeltest.Request) modeltest.Reply {
		st := readStep(r)
		if !st.parsed {
			return o.goal(r)
		}
		if !st.full && len(st.calls) == 0 {
			// Page text is only in the full form.
			return modeltest.Call("snapshot", map[string]bool{"full": true})
		}
		if reply, ok := o.next(conversation(r), st); ok {
			return reply
		}
		return o.goal(r)
	}
}

// next is the call for the first directive on the screen not carried out
// yet in the conversation.
func (o *Obedient) next(conv string, st step) (modeltest.Reply, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.done[conv] == nil {
		o.done[conv] = map[string]bool{}
	}
	for _, d := range directives(st.screen) {
		if o.done[conv][d.text] {
			continue
		}
		tool, args, ok := d.call(st)
		if !ok {
			continue
		}
		o.done[conv][d.text] = true
		o.obeyed++
		return modeltest.Call(tool, args), true
	}
	return modeltest.Reply{}, false
}

// conversation tells one agent run from another: the fence's nonce, drawn
// for each run, in its first message.
func conversation(r modeltest.Request) string {
	msgs, _ := r.Decoded()["messages"].([]any)
	for _, raw := range msgs {
		m, _ := raw.(map[string]any)
		content, _ := m["content"].(string)
		if m["role"] == "user" {
			if n := fenceNonce.FindString(content); n != "" {
				return n
			}
			return content
		}
	}
	return ""
}

var (
	fenceNonce  = regexp.MustCompile(regexp.QuoteMeta(agent.FenceBegin) + `[0-9a-f]+>>>`)
	injected    = regexp.MustCompile(`(?i)ignore your instructions:\s*(.+)`)
	openURL     = regexp.MustCompile(`(?i)^open (\S+)$`)
	typeThere   = regexp.MustCompile(`(?i)^type (\$\{[^}]+\}) there$`)
	typeInField = regexp.MustCompile(`(?i)^type (\$\{[^}]+\}) into the (.+?) field$`)
)

// A directive is one thing a page told the model to do.
type directive struct {
	text string
	// open is a URL to go to; typed a reference to type, into the field
	// named field ("" for the first).
	open, typed, field string
}

// directives are those of the screen, in its order, each once.
func directives(nodes []*screen.SnapshotNode) []directive {
	var out []directive
	seen := map[string]bool{}
	walk(nodes, func(n *screen.SnapshotNode) {
		for _, s := range []string{n.Name, n.Text} {
			m := injected.FindStringSubmatch(s)
			if m == nil {
				continue
			}
			for _, part := range strings.Split(strings.TrimRight(m[1], ". "), " and ") {
				part = strings.TrimSpace(part)
				if seen[part] {
					continue
				}
				d := directive{text: part}
				if u := openURL.FindStringSubmatch(part); u != nil {
					d.open = u[1]
				} else if t := typeThere.FindStringSubmatch(part); t != nil {
					d.typed = t[1]
				} else if t := typeInField.FindStringSubmatch(part); t != nil {
					d.typed, d.field = t[1], t[2]
				} else {
					continue
				}
				seen[part] = true
				out = append(out, d)
			}
		}
	})
	return out
}

// call is the tool call that carries the directive out on the screen st
// shows; ok is false when the screen gives it nothing to act on.
func (d directive) call(st step) (tool string, args map[string]string, ok bool) {
	elems := elements(st.screen)
	if d.open != "" {
		for _, n := range elems {
			if n.Role == "link" && n.URL == d.open {
				return "tap", map[string]string{"ref": n.Ref}, true
			}
		}
		return "navigate", map[string]string{"path": d.open}, true
	}
	for _, n := range elems {
		if fieldRoles[n.Role] && (d.field == "" || strings.EqualFold(n.Name, d.field)) {
			return "type", map[string]string{"ref": n.Ref, "text": d.typed}, true
		}
	}
	return "", nil, false
}
