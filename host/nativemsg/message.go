package nativemsg

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// ProtocolVersion is the version of the wire protocol in host/PROTOCOL.md.
// It changes only when a change would break the other side: a new message
// type or a new optional field does not change it.
const ProtocolVersion = 1

// Message types defined by this package; features add their own.
const (
	TypeHello = "hello"
	TypeError = "error"
	TypeChunk = "chunk"
)

// An Envelope is what every message carries beside its own fields.
type Envelope struct {
	V    int    `json:"v"`
	ID   string `json:"id"`
	Type string `json:"type"`
}

// errorBody is the payload of an error reply.
type errorBody struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
}

// parseEnvelope reads the envelope of an incoming frame. When the frame is
// not a JSON object it returns CodeMalformed; when the object is there but
// its envelope is wrong it returns CodeBadEnvelope together with whatever id
// could be read, so the reply can still be matched.
func parseEnvelope(payload []byte) (Envelope, *Error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(payload, &raw); err != nil || raw == nil {
		return Envelope{}, Errorf(CodeMalformed, "the message is not a JSON object")
	}
	var env Envelope
	if id, ok := raw["id"]; ok {
		if err := json.Unmarshal(id, &env.ID); err != nil {
			return Envelope{}, Errorf(CodeBadEnvelope, "id must be a string")
		}
	} else {
		return env, Errorf(CodeBadEnvelope, "the message has no id")
	}
	if err := json.Unmarshal(raw["type"], &env.Type); err != nil || env.Type == "" {
		return env, Errorf(CodeBadEnvelope, "type must be a non-empty string")
	}
	if err := json.Unmarshal(raw["v"], &env.V); err != nil || env.V <= 0 {
		return env, Errorf(CodeBadEnvelope, "v must be a positive integer (this host speaks %d)", ProtocolVersion)
	}
	return env, nil
}

// errBodyCollides is returned when a reply body would overwrite the envelope.
var errBodyCollides = errors.New("reply body must not set v, id or type")

// encodeMessage writes env followed by the fields of body (a struct or map
// that marshals to a JSON object, or nil) as one JSON object.
func encodeMessage(env Envelope, body any) ([]byte, error) {
	head, err := json.Marshal(env)
	if err != nil {
		return nil, fmt.Errorf("encoding envelope: %w", err)
	}
	if body == nil {
		return head, nil
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("encoding %s body: %w", env.Type, err)
	}
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		return head, nil
	}
	if len(b) < 2 || b[0] != '{' {
		return nil, fmt.Errorf("encoding %s body: must be a JSON object, got %.20s", env.Type, b)
	}
	var probe struct {
		V    json.RawMessage `json:"v"`
		ID   json.RawMessage `json:"id"`
		Type json.RawMessage `json:"type"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return nil, fmt.Errorf("encoding %s body: %w", env.Type, err)
	}
	if probe.V != nil || probe.ID != nil || probe.Type != nil {
		return nil, fmt.Errorf("encoding %s body: %w", env.Type, errBodyCollides)
	}
	inner := b[1 : len(b)-1]
	if len(bytes.TrimSpace(inner)) == 0 {
		return head, nil
	}
	out := make([]byte, 0, len(head)+1+len(inner))
	out = append(out, head[:len(head)-1]...)
	out = append(out, ',')
	out = append(out, inner...)
	out = append(out, '}')
	return out, nil
}
