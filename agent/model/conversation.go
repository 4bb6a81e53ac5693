package model

import (
	"encoding/json"
	"fmt"

	"github.com/openai/openai-go/v3"
)

// A Role is who wrote a message of a conversation.
type Role string

// The roles of a conversation.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant" // the model's earlier tool call
	RoleTool      Role = "tool"      // what a tool call did
)

// A Message is one turn of a conversation sent to the model.
type Message struct {
	Role Role
	// Text is the message; for RoleTool, the tool's result.
	Text string
	// Call is the model's earlier tool call (RoleAssistant), or the call a
	// RoleTool message answers.
	Call *ToolCall
}

// System is the instructions that start a conversation.
func System(text string) Message { return Message{Role: RoleSystem, Text: text} }

// User is a message from Trailpin to the model: the step, the screen.
func User(text string) Message { return Message{Role: RoleUser, Text: text} }

// Called is the model's own earlier call, sent back so that the next turn
// sees it.
func Called(call ToolCall) Message { return Message{Role: RoleAssistant, Call: &call} }

// Result is what call did, answering it.
func Result(call ToolCall, text string) Message {
	return Message{Role: RoleTool, Text: text, Call: &call}
}

// A Tool is a function the model may call. Its parameters are a strict
// JSON schema: every object lists all its properties as required and sets
// additionalProperties to false (an optional value is a null type), so that
// an endpoint with structured outputs can only produce valid arguments.
type Tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage
}

// A Schema is the JSON an answer of Structured must match, strict as a
// Tool's parameters.
type Schema struct {
	Name        string
	Description string
	Schema      json.RawMessage
}

// A ToolCall is the model's choice: a tool and its arguments, checked
// against the tool's schema.
type ToolCall struct {
	// ID is the endpoint's id of the call, which the Result answering it
	// repeats.
	ID        string
	Name      string
	Arguments json.RawMessage
}

// Decode unmarshals the call's arguments into v.
func (c ToolCall) Decode(v any) error {
	if err := json.Unmarshal(c.Arguments, v); err != nil {
		return fmt.Errorf("decoding the arguments of %s: %w", c.Name, err)
	}
	return nil
}

// messageParams turns a conversation into the SDK's messages.
func messageParams(msgs []Message) ([]openai.ChatCompletionMessageParamUnion, error) {
	out := make([]openai.ChatCompletionMessageParamUnion, 0, len(msgs))
	for i, m := range msgs {
		switch m.Role {
		case RoleSystem:
			out = append(out, openai.SystemMessage(m.Text))
		case RoleUser:
			out = append(out, openai.UserMessage(m.Text))
		case RoleAssistant:
			if m.Call == nil {
				out = append(out, openai.AssistantMessage(m.Text))
				continue
			}
			out = append(out, openai.ChatCompletionMessageParamUnion{OfAssistant: &openai.ChatCompletionAssistantMessageParam{
				ToolCalls: []openai.ChatCompletionMessageToolCallUnionParam{{OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID:       m.Call.ID,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: m.Call.Name, Arguments: string(m.Call.Arguments)},
				}}},
			}})
		case RoleTool:
			if m.Call == nil || m.Call.ID == "" {
				return nil, fmt.Errorf("message %d: a tool result must answer a call with an id", i)
			}
			out = append(out, openai.ToolMessage(m.Text, m.Call.ID))
		default:
			return nil, fmt.Errorf("message %d: unknown role %q", i, m.Role)
		}
	}
	return out, nil
}
