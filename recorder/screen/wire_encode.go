package screen

import (
	"encoding/json"
	"fmt"
)

// EncodeWire writes a screen in the page model's wire form (captureWire,
// docs/screen-schema.md), which DecodeWire reads back to the same screen:
// what a door of the host that captures in Go (the headless tab) sends the
// recording service with an interaction, as the extension sends the page
// model's own. Texts are always written out, never as a join code.
func EncodeWire(s *Screen) (json.RawMessage, error) {
	if s == nil {
		return nil, fmt.Errorf("no screen to encode")
	}
	top := *s
	top.Root = nil
	head, err := json.Marshal(top)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(head, &fields); err != nil {
		return nil, err
	}
	if s.Root != nil {
		root, err := encodeWireNode(s.Root, 0)
		if err != nil {
			return nil, err
		}
		fields["root"] = root
	}
	return json.Marshal(fields)
}

func encodeWireNode(n *Node, depth int) (json.RawMessage, error) {
	if depth > maxWireDepth {
		return nil, fmt.Errorf("nodes nested deeper than %d", maxWireDepth)
	}
	if n.IsText() {
		switch {
		case n.Secret && n.Visible:
			return json.RawMessage("1"), nil
		case n.Secret:
			return json.RawMessage("0"), nil
		case n.Visible:
			return json.Marshal(n.Text)
		default:
			return json.Marshal([]string{n.Text})
		}
	}
	str := func(v string) json.RawMessage {
		b, _ := json.Marshal(v)
		return b
	}
	flags := 0
	extras := *n
	for bit, field := range wireFlags {
		if *field(n) {
			flags |= 1 << bit
		}
		*field(&extras) = false
	}
	zero := json.RawMessage("0")
	el := []json.RawMessage{str(n.Ref), str(n.Role), str(n.Tag), json.RawMessage(fmt.Sprint(flags)), zero, zero, zero, zero, zero}
	if n.Box != nil {
		b, err := json.Marshal([4]float64{n.Box.X, n.Box.Y, n.Box.Width, n.Box.Height})
		if err != nil {
			return nil, err
		}
		el[4] = b
	}
	if n.Name != "" {
		el[5] = str(n.Name)
	}
	if n.Text != "" {
		el[6] = str(n.Text)
	}
	extras.Ref, extras.Role, extras.Tag, extras.Name, extras.Text = "", "", "", "", ""
	extras.Box, extras.Children = nil, nil
	b, err := json.Marshal(extras)
	if err != nil {
		return nil, err
	}
	if string(b) != "{}" {
		el[7] = b
	}
	if len(n.Children) > 0 {
		kids := make([]json.RawMessage, len(n.Children))
		for i, c := range n.Children {
			if kids[i], err = encodeWireNode(c, depth+1); err != nil {
				return nil, err
			}
		}
		if el[8], err = json.Marshal(kids); err != nil {
			return nil, err
		}
	}
	for len(el) > 4 && string(el[len(el)-1]) == "0" {
		el = el[:len(el)-1]
	}
	return json.Marshal(el)
}
