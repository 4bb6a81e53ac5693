package agenttest

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/agent/model/modeltest"
	"github.com/trailpin/trailpin/recorder/screen"
)

// A step is what a request to the agent's model says: the step, what was
// done so far, and the latest screen.
type step struct {
	intent  string
	expect  []string
	secrets []string
	// performed are the hand-off's lines of what replay already did.
	performed []string
	// calls are the agent's earlier calls, in order.
	calls []priorCall
	// screen is the latest snapshot, full says it is the full form.
	screen []*screen.SnapshotNode
	full   bool
	// parsed says the latest screen was found and read.
	parsed bool
	// at is where the latest screen says the page is, title its title.
	at, title string
}

type priorCall struct {
	name string
	args map[string]any
}

func (c priorCall) arg(k string) string {
	s, _ := c.args[k].(string)
	return s
}

var (
	secretRef    = regexp.MustCompile(`\$\{(?:secret|user):[A-Za-z0-9_.-]+\}`)
	performedRow = regexp.MustCompile(`^\d+\. (.*)$`)
)

// readStep reads a request's body as the agent writes it.
func readStep(r modeltest.Request) step {
	var st step
	msgs, _ := r.Decoded()["messages"].([]any)
	latest := ""
	for _, raw := range msgs {
		m, _ := raw.(map[string]any)
		content, _ := m["content"].(string)
		switch m["role"] {
		case "user":
			if st.intent == "" {
				readFirst(&st, content)
			}
		case "assistant":
			tcs, _ := m["tool_calls"].([]any)
			for _, tc := range tcs {
				fn, _ := tc.(map[string]any)["function"].(map[string]any)
				name, _ := fn["name"].(string)
				argText, _ := fn["arguments"].(string)
				var args map[string]any
				json.Unmarshal([]byte(argText), &args)
				st.calls = append(st.calls, priorCall{name: name, args: args})
			}
		}
		if i := screenStart(content); i >= 0 {
			latest = content[i:]
		}
	}
	if latest != "" {
		head, _, _ := strings.Cut(latest, "\n")
		st.full = strings.Contains(head, "every element")
		if _, at, ok := strings.Cut(head, ") at "); ok {
			st.at = strings.TrimSuffix(at, ":")
		}
		if title, body, ok := pageContent(latest); ok {
			st.title = title
			if body == nothingShown {
				st.parsed = true // a screen with nothing to act on
			} else if nodes, err := screen.ParseSnapshot(body); err == nil {
				st.screen, st.parsed = nodes, true
			}
		}
	}
	return st
}

// nothingShown is the snapshot of a screen with no element of the form
// asked for.
const nothingShown = "(nothing is shown)"

// pageContent is the page's title and snapshot between the fence's lines
// of a screen block; ok is false when the block has no whole fence.
func pageContent(block string) (title, snapshot string, ok bool) {
	lines := strings.Split(block, "\n")
	begin := -1
	for i, l := range lines {
		switch {
		case begin < 0 && strings.HasPrefix(l, agent.FenceBegin):
			begin = i
		case begin >= 0 && strings.HasPrefix(l, agent.FenceEnd) && strings.TrimPrefix(l, agent.FenceEnd) == strings.TrimPrefix(lines[begin], agent.FenceBegin):
			body := lines[begin+1 : i]
			if len(body) > 0 && strings.HasPrefix(body[0], agent.TitleMark) {
				title, _ = strconv.Unquote(strings.TrimPrefix(body[0], agent.TitleMark))
				body = body[1:]
			}
			return title, strings.Join(body, "\n"), true
		}
	}
	return "", "", false
}

// screenStart is where the screen block of a message starts, -1 for none.
func screenStart(content string) int {
	if strings.HasPrefix(content, agent.ScreenMark+" (") {
		return 0
	}
	if i := strings.LastIndex(content, "\n"+agent.ScreenMark+" ("); i >= 0 {
		return i + 1
	}
	return -1
}

// readFirst reads the first message: the step, its hand-off, what the end
// state shows, the secrets.
func readFirst(st *step, content string) {
	inExpect, inPerformed := false, false
	for _, line := range strings.Split(content, "\n") {
		switch {
		case strings.HasPrefix(line, agent.StepMark):
			st.intent = strings.TrimPrefix(line, agent.StepMark)
		case line == agent.ExpectMark:
			inExpect = true
			continue
		case strings.HasPrefix(line, "Already performed"):
			inPerformed = true
			continue
		case strings.HasPrefix(line, agent.SecretsMark):
			st.secrets = secretRef.FindAllString(line, -1)
		}
		if inExpect {
			if t, ok := strings.CutPrefix(line, "- "); ok {
				if u, err := strconv.Unquote(t); err == nil {
					st.expect = append(st.expect, u)
					continue
				}
			}
			inExpect = false
		}
		if inPerformed {
			if m := performedRow.FindStringSubmatch(line); m != nil {
				st.performed = append(st.performed, m[1])
				continue
			}
			inPerformed = false
		}
		if strings.HasPrefix(line, agent.ScreenMark+" (") {
			return
		}
	}
}
