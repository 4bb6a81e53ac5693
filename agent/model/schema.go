package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/trailpin/trailpin/recorder/screen"
)

// toolNameRule is what the chat-completions API accepts as a function's
// name.
var toolNameRule = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// A checker validates arguments against one compiled strict schema.
type checker struct {
	name string
	// subject names what is checked in messages: "the arguments of tap".
	subject string
	params  map[string]any // the schema as sent
	schema  *jsonschema.Schema
}

// newChecker checks that a schema is strict (see Tool) and compiles it. The
// error is the caller's mistake, not the model's: it is never retried.
func newChecker(name string, raw json.RawMessage, subject string) (*checker, error) {
	if !toolNameRule.MatchString(name) {
		return nil, fmt.Errorf("%q is not a tool or schema name: use 1 to 64 letters, digits, '_' and '-'", name)
	}
	var params map[string]any
	if err := json.Unmarshal(raw, &params); err != nil {
		return nil, fmt.Errorf("the schema of %s is not a JSON object: %w", name, err)
	}
	if params["type"] != "object" {
		return nil, fmt.Errorf("the schema of %s must be of type object", name)
	}
	if err := strictObject(params, name); err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("the schema of %s: %w", name, err)
	}
	c := jsonschema.NewCompiler()
	url := "tool:" + name
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("the schema of %s: %w", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("the schema of %s does not compile: %w", name, err)
	}
	return &checker{name: name, subject: subject, params: params, schema: s}, nil
}

// strictObject walks a schema and refuses what strict mode refuses: an
// object that allows other properties or leaves one out of required.
func strictObject(node any, path string) error {
	switch n := node.(type) {
	case []any:
		for i, v := range n {
			if err := strictObject(v, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case map[string]any:
		if props, ok := n["properties"].(map[string]any); ok || isObjectType(n["type"]) {
			if n["additionalProperties"] != false {
				return fmt.Errorf("%s: a strict schema's object sets additionalProperties to false", path)
			}
			required, _ := n["required"].([]any)
			for name := range props {
				if !slices.Contains(required, any(name)) {
					return fmt.Errorf("%s: property %q is not required; in a strict schema every property is (make an optional one nullable)", path, name)
				}
			}
		}
		for k, v := range n {
			if err := strictObject(v, path+"."+k); err != nil {
				return err
			}
		}
	}
	return nil
}

func isObjectType(t any) bool {
	switch t := t.(type) {
	case string:
		return t == "object"
	case []any:
		return slices.Contains(t, any("object"))
	}
	return false
}

// check validates arguments the model wrote; the error says what is wrong
// in a line the model can be shown.
func (c *checker) check(args string) (json.RawMessage, error) {
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(args))
	if err != nil {
		return nil, fmt.Errorf("%s is not JSON: %v", c.subject, err)
	}
	if err := c.schema.Validate(v); err != nil {
		return nil, fmt.Errorf("%s does not match the schema: %s", c.subject, screen.OneLine(err.Error()))
	}
	return json.RawMessage(args), nil
}
