package e2e

import (
	"encoding/json"

	"github.com/trailpin/trailpin/recorder/screen"
)

// WireScreen writes a screen in the page model's wire form (captureWire,
// docs/screen-schema.md): what the extension sends the host with an
// interaction. Tests use it to send screens built or loaded in Go;
// screen.DecodeWire reads it back to the same screen (a test checks).
// Texts are always written out (never as a join code).
func WireScreen(s *screen.Screen) json.RawMessage {
	top := *s
	top.Root = nil
	head, err := json.Marshal(top)
	if err != nil {
		panic(err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(head, &fields); err != nil {
		panic(err)
	}
	if s.Root != nil {
		fields["root"] = wireNode(s.Root)
	}
	out, err := json.Marshal(fields)
	if err != nil {
		panic(err)
	}
	return out
}

func wireNode(n *screen.Node) json.RawMessage {
	mustJSON := func(v any) json.RawMessage {
		b, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		return b
	}
	if n.IsText() {
		switch {
		case n.Secret && n.Visible:
			return json.RawMessage("1")
		case n.Secret:
			return json.RawMessage("0")
		case n.Visible:
			return mustJSON(n.Text)
		default:
			return mustJSON([]string{n.Text})
		}
	}
	flags := 0
	for i, on := range []bool{n.Visible, n.AriaHidden, n.Inert, n.Secret, n.Disabled, n.Required, n.ReadOnly, n.Invalid, n.CrossOrigin} {
		if on {
			flags |= 1 << i
		}
	}
	zero := json.RawMessage("0")
	el := []json.RawMessage{mustJSON(n.Ref), mustJSON(n.Role), mustJSON(n.Tag), mustJSON(flags), zero, zero, zero, zero, zero}
	if n.Box != nil {
		el[4] = mustJSON([4]float64{n.Box.X, n.Box.Y, n.Box.Width, n.Box.Height})
	}
	if n.Name != "" {
		el[5] = mustJSON(n.Name)
	}
	if n.Text != "" {
		el[6] = mustJSON(n.Text)
	}
	extras := *n
	extras.Ref, extras.Role, extras.Tag, extras.Name, extras.Text = "", "", "", "", ""
	extras.Box, extras.Children = nil, nil
	extras.Visible, extras.AriaHidden, extras.Inert, extras.Secret, extras.Disabled = false, false, false, false, false
	extras.Required, extras.ReadOnly, extras.Invalid, extras.CrossOrigin = false, false, false, false
	if b := mustJSON(extras); string(b) != "{}" {
		el[7] = b
	}
	if len(n.Children) > 0 {
		kids := make([]json.RawMessage, len(n.Children))
		for i, c := range n.Children {
			kids[i] = wireNode(c)
		}
		el[8] = mustJSON(kids)
	}
	for len(el) > 3 && string(el[len(el)-1]) == "0" {
		el = el[:len(el)-1]
	}
	return mustJSON(el)
}
