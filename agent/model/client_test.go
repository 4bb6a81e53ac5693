package model_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/agent/model"
	"github.com/trailpin/trailpin/agent/model/modeltest"
	"github.com/trailpin/trailpin/storage/redact"
)

// testKey is the API key the tests put in the environment; it must reach
// the server in the auth header only.
const testKey = "tk-9f3b7c1e5a2d4e6f8a0b"

// tapTool is a strict tool like the agent's.
var tapTool = model.Tool{
	Name:        "tap",
	Description: "Tap the control with this ref.",
	Parameters: json.RawMessage(`{"type":"object","properties":{"ref":{"type":"string","description":"a ref from the snapshot"}},
		"required":["ref"],"additionalProperties":false}`),
}

var doneTool = model.Tool{
	Name:       "done",
	Parameters: json.RawMessage(`{"type":"object","properties":{"summary":{"type":"string"}},"required":["summary"],"additionalProperties":false}`),
}

var tools = []model.Tool{tapTool, doneTool}

var conversation = []model.Message{
	model.System("You finish a step of a web test."),
	model.User("Step: add the blue mug to the cart.\n- button \"Add to cart\" [ref=e4]"),
}

func env(name, value string) func(string) string {
	return func(k string) string {
		if k == name {
			return value
		}
		return ""
	}
}

// newClient is a client of srv's OpenAI shape with the key in
// $TEST_MODEL_KEY and short waits between attempts.
func newClient(t *testing.T, srv *modeltest.Server, opts ...model.Option) *model.Client {
	t.Helper()
	opts = append([]model.Option{model.WithGetenv(env("TEST_MODEL_KEY", testKey)), model.WithBackoff(time.Millisecond, 5*time.Millisecond)}, opts...)
	c, err := model.New(model.Config{BaseURL: srv.URL, Name: "test-model", APIKeyEnv: "TEST_MODEL_KEY"}, opts...)
	if err != nil {
		t.Fatalf("model.New: %v", err)
	}
	return c
}

// checkNoKeyInBodies fails when any request body holds the API key.
func checkNoKeyInBodies(t *testing.T, srv *modeltest.Server) {
	t.Helper()
	for i, r := range srv.Requests() {
		if strings.Contains(string(r.Body), testKey) {
			t.Errorf("request %d: the body holds the API key", i+1)
		}
	}
}

func TestCallToolAnswersOneCheckedCall(t *testing.T) {
	srv := modeltest.Start(t, modeltest.WithKey(testKey))
	srv.Script(modeltest.Call("tap", map[string]string{"ref": "e4"}).WithUsage(120, 7))
	c := newClient(t, srv)

	call, usage, err := c.CallTool(context.Background(), conversation, tools, model.Budget{})
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	var args struct{ Ref string }
	if err := call.Decode(&args); err != nil {
		t.Fatal(err)
	}
	if call.Name != "tap" || args.Ref != "e4" || call.ID == "" {
		t.Errorf("CallTool = %+v (ref %q), want a tap of e4 with an id", call, args.Ref)
	}
	if len(usage.Attempts) != 1 || usage.PromptTokens() != 120 || usage.CompletionTokens() != 7 || usage.Latency() <= 0 || usage.Model != "test-model" {
		t.Errorf("usage = %+v (in %d, out %d, latency %s), want one attempt, 120 in, 7 out, a latency", usage, usage.PromptTokens(), usage.CompletionTokens(), usage.Latency())
	}
	if usage.Attempts[0].Failure != "" || usage.Attempts[0].Started.IsZero() {
		t.Errorf("attempt = %+v, want a start time and no failure", usage.Attempts[0])
	}

	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("server got %d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer "+testKey || r.Header.Get("Api-Key") != "" {
		t.Errorf("request %s with Authorization %q, Api-Key %q; want /v1/chat/completions with the bearer key only",
			r.Path, r.Header.Get("Authorization"), r.Header.Get("Api-Key"))
	}
	body := r.Decoded()
	if body["model"] != "test-model" || body["tool_choice"] != "required" || body["parallel_tool_calls"] != false {
		t.Errorf("body model %v, tool_choice %v, parallel_tool_calls %v; want test-model, required, false", body["model"], body["tool_choice"], body["parallel_tool_calls"])
	}
	for _, tool := range body["tools"].([]any) {
		fn := tool.(map[string]any)["function"].(map[string]any)
		if fn["strict"] != true {
			t.Errorf("tool %v is not strict", fn["name"])
		}
	}
	if got := strings.Join(r.ToolNames(), ","); got != "tap,done" {
		t.Errorf("tools offered = %s, want tap,done", got)
	}
	checkNoKeyInBodies(t, srv)
}

func TestAzureRequestShape(t *testing.T) {
	srv := modeltest.Start(t, modeltest.WithKey(testKey))
	srv.Script(modeltest.Call("done", map[string]string{"summary": "added"}))
	c, err := model.New(model.Config{BaseURL: srv.AzureURL("2024-10-21"), Name: "shop-gpt4o", APIKeyEnv: "AZURE_OPENAI_API_KEY"},
		model.WithGetenv(env("AZURE_OPENAI_API_KEY", testKey)))
	if err != nil {
		t.Fatal(err)
	}
	call, _, err := c.CallTool(context.Background(), conversation, tools, model.Budget{})
	if err != nil || call.Name != "done" {
		t.Fatalf("CallTool = %+v, %v; want done", call, err)
	}
	r := srv.Requests()[0]
	if r.Path != "/openai/deployments/shop-gpt4o/chat/completions" || r.Query.Get("api-version") != "2024-10-21" {
		t.Errorf("request %s?%s, want /openai/deployments/shop-gpt4o/chat/completions?api-version=2024-10-21", r.Path, r.Query.Encode())
	}
	if r.Header.Get("Api-Key") != testKey || r.Header.Get("Authorization") != "" {
		t.Errorf("Api-Key %q, Authorization %q; want the key in api-key only", r.Header.Get("Api-Key"), r.Header.Get("Authorization"))
	}
	checkNoKeyInBodies(t, srv)
}

// TestFailuresAreRetriedThenNamed: each way an answer can be unusable is
// tried again within the budget, and a call whose every attempt fails so
// ends with an error naming it; one good answer after a bad one is used.
func TestFailuresAreRetriedThenNamed(t *testing.T) {
	// attemptTimeout is far longer than a loopback answer takes on a busy
	// machine, and far shorter than the slow reply's wait.
	const attemptTimeout = time.Second
	slow := 30 * time.Second
	cases := []struct {
		name   string
		bad    modeltest.Reply
		want   model.Failure
		detail string
	}{
		{"429", modeltest.RateLimited(0), model.FailRateLimited, "HTTP 429"},
		{"429 with a short Retry-After", modeltest.RateLimited(20 * time.Millisecond), model.FailRateLimited, "HTTP 429"},
		{"500", modeltest.Status(500), model.FailServerError, "HTTP 500"},
		{"503", modeltest.Status(503), model.FailServerError, "HTTP 503"},
		{"slow", modeltest.Slow(slow, modeltest.Call("tap", map[string]string{"ref": "e4"})), model.FailTimeout, "no answer within"},
		{"arguments not JSON", modeltest.RawCall("tap", `{"ref": e4`), model.FailMalformed, "the arguments of tap is not JSON"},
		{"arguments off the schema", modeltest.RawCall("tap", `{"selector":"#buy"}`), model.FailMalformed, "does not match the schema"},
		{"unknown tool", modeltest.Call("click", map[string]string{"ref": "e4"}), model.FailUnknownTool, `called "click", which is not one of the tools (done, tap)`},
		{"text instead of a call", modeltest.Text("I would tap the button."), model.FailNoToolCall, "answered with text instead of a tool call"},
		{"two calls at once", modeltest.Calls([2]string{"tap", `{"ref":"e4"}`}, [2]string{"done", `{"summary":"x"}`}), model.FailNoToolCall, "called 2 tools at once"},
		{"body not JSON", modeltest.Garbage(), model.FailBadResponse, "not a chat completion"},
		{"refusal", modeltest.Refusal("I can't help with that."), model.FailRefused, "the model refused"},
		{"cut off", modeltest.Truncated(`{"ref":`), model.FailTruncatedReply, "token limit"},
	}
	for _, tc := range cases {
		t.Run(tc.name+"/every attempt", func(t *testing.T) {
			srv := modeltest.Start(t)
			srv.Script(tc.bad, tc.bad, tc.bad)
			c := newClient(t, srv)
			start := time.Now()
			_, usage, err := c.CallTool(context.Background(), conversation, tools, model.Budget{MaxAttempts: 3, AttemptTimeout: attemptTimeout})
			var ce *model.CallError
			if !errors.As(err, &ce) {
				t.Fatalf("CallTool error = %v, want a *CallError", err)
			}
			if ce.Failure != tc.want || ce.Attempts != 3 || !errors.Is(err, tc.want) {
				t.Errorf("CallError = %+v, want %s after 3 attempts", ce, tc.want)
			}
			if msg := err.Error(); !strings.Contains(msg, string(tc.want)+" after 3 attempts") || !strings.Contains(msg, tc.detail) || !strings.Contains(msg, "test-model") {
				t.Errorf("error %q does not name the model, %s after 3 attempts and %q", msg, tc.want, tc.detail)
			}
			if n := len(srv.Requests()); n != 3 || len(usage.Attempts) != 3 {
				t.Errorf("server got %d requests, usage has %d attempts; want 3 and 3", n, len(usage.Attempts))
			}
			for i, a := range usage.Attempts {
				if a.Failure != tc.want {
					t.Errorf("attempt %d failure = %q, want %q", i+1, a.Failure, tc.want)
				}
			}
			if elapsed := time.Since(start); elapsed > slow/2 {
				t.Errorf("the call took %s", elapsed)
			}
		})
		t.Run(tc.name+"/then a good answer", func(t *testing.T) {
			srv := modeltest.Start(t)
			srv.Script(tc.bad, modeltest.Call("tap", map[string]string{"ref": "e4"}).WithUsage(50, 5))
			c := newClient(t, srv)
			call, usage, err := c.CallTool(context.Background(), conversation, tools, model.Budget{MaxAttempts: 3, AttemptTimeout: attemptTimeout})
			if err != nil || call.Name != "tap" {
				t.Fatalf("CallTool = %+v, %v; want the tap of the second answer", call, err)
			}
			if len(usage.Attempts) != 2 || usage.Attempts[0].Failure != tc.want || usage.Attempts[1].Failure != "" {
				t.Errorf("attempts = %+v, want a %s then a success", usage.Attempts, tc.want)
			}
			reqs := srv.Requests()
			second := reqs[len(reqs)-1].LastUserText()
			answered := tc.want != model.FailRateLimited && tc.want != model.FailServerError && tc.want != model.FailTimeout && tc.want != model.FailBadResponse
			if told := strings.Contains(second, "Your last answer was not used"); told != answered {
				t.Errorf("second request's last message %q: told what was wrong = %v, want %v", second, told, answered)
			}
		})
	}
}

func TestRejectedRequestIsNotRetried(t *testing.T) {
	srv := modeltest.Start(t, modeltest.WithKey("another-key-altogether"))
	c := newClient(t, srv)
	_, usage, err := c.CallTool(context.Background(), conversation, tools, model.Budget{MaxAttempts: 3})
	if !errors.Is(err, model.FailRejected) || len(srv.Requests()) != 1 || len(usage.Attempts) != 1 {
		t.Errorf("CallTool error %v after %d requests, want rejected after 1", err, len(srv.Requests()))
	}
	if !strings.Contains(err.Error(), "HTTP 401") {
		t.Errorf("error %q does not give the status", err)
	}
}

func TestKeyEchoedByTheEndpointIsHidden(t *testing.T) {
	srv := modeltest.Start(t)
	srv.Script(modeltest.Failed(401, "Incorrect API key provided: "+testKey+"."))
	c := newClient(t, srv)
	_, _, err := c.CallTool(context.Background(), conversation, tools, model.Budget{})
	if err == nil || strings.Contains(err.Error(), testKey) || !strings.Contains(err.Error(), "[model.apiKeyEnv]") {
		t.Errorf("error %q: want the echoed key replaced by [model.apiKeyEnv]", err)
	}
}

func TestDeadlineEndsTheCall(t *testing.T) {
	srv := modeltest.Start(t)
	srv.Script(modeltest.Slow(time.Minute, modeltest.Text("late")), modeltest.Slow(time.Minute, modeltest.Text("late")))
	c := newClient(t, srv)
	// Long enough that each attempt's share (half) is above the 2s least.
	ctx, cancel := context.WithTimeout(context.Background(), 4500*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err := c.CallTool(ctx, conversation, tools, model.Budget{MaxAttempts: 2})
	if elapsed := time.Since(start); elapsed > 15*time.Second {
		t.Errorf("the call returned after %s, long past its 4.5s deadline", elapsed)
	}
	var ce *model.CallError
	if !errors.As(err, &ce) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error = %v, want a *CallError wrapping the deadline", err)
	}
	// The first attempt has half the time and times out; the second runs
	// into the deadline.
	if ce.Failure != model.FailDeadline || ce.Last != model.FailTimeout || ce.Attempts != 2 {
		t.Errorf("CallError = %+v, want deadline after 2 attempts, the first a timeout", ce)
	}
	if !strings.Contains(err.Error(), "deadline after 2 attempts (last attempt: timeout)") {
		t.Errorf("error %q does not say what happened", err)
	}
}

func TestRetryAfterPastTheDeadlineStopsAtOnce(t *testing.T) {
	srv := modeltest.Start(t)
	srv.Script(modeltest.RateLimited(30 * time.Second))
	c := newClient(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	_, _, err := c.CallTool(ctx, conversation, tools, model.Budget{})
	if !errors.Is(err, model.FailRateLimited) || !strings.Contains(err.Error(), "asked to wait 30s, past the deadline") {
		t.Errorf("error = %v, want rate-limited saying the wait is past the deadline", err)
	}
	if n := len(srv.Requests()); n != 1 || time.Since(start) > 4*time.Second {
		t.Errorf("%d requests in %s, want 1 and no wait", n, time.Since(start))
	}
}

func TestCancelledCall(t *testing.T) {
	srv := modeltest.Start(t)
	srv.Script(modeltest.Slow(time.Minute, modeltest.Text("late")))
	c := newClient(t, srv)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	_, _, err := c.CallTool(ctx, conversation, tools, model.Budget{AttemptTimeout: time.Minute})
	if !errors.Is(err, model.FailCancelled) || !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want cancelled", err)
	}
}

func TestUnreachableEndpoint(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c, err := model.New(model.Config{BaseURL: "http://" + addr + "/v1", Name: "m"}, model.WithBackoff(time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	_, usage, err := c.CallTool(context.Background(), conversation, tools, model.Budget{MaxAttempts: 2})
	if !errors.Is(err, model.FailUnreachable) || len(usage.Attempts) != 2 {
		t.Errorf("error = %v after %d attempts, want unreachable after 2", err, len(usage.Attempts))
	}
}

func TestRunCallBudget(t *testing.T) {
	srv := modeltest.Start(t)
	srv.Script(modeltest.Call("tap", map[string]string{"ref": "e4"}), modeltest.Status(500), modeltest.Status(500))
	c := newClient(t, srv)
	budget := model.NewCallBudget(2)
	if _, _, err := c.CallTool(context.Background(), conversation, tools, model.Budget{Calls: budget}); err != nil {
		t.Fatal(err)
	}
	_, usage, err := c.CallTool(context.Background(), conversation, tools, model.Budget{MaxAttempts: 3, Calls: budget})
	var ce *model.CallError
	if !errors.As(err, &ce) || ce.Failure != model.FailCallBudget || ce.Last != model.FailServerError {
		t.Fatalf("error = %v, want call-budget after a server error", err)
	}
	if !strings.Contains(err.Error(), "2 model calls (agent.maxCalls) are used up") {
		t.Errorf("error %q does not name agent.maxCalls", err)
	}
	if budget.Used() != 2 || len(srv.Requests()) != 2 || len(usage.Attempts) != 1 {
		t.Errorf("budget used %d, %d requests, %d attempts in the second call; want 2, 2, 1", budget.Used(), len(srv.Requests()), len(usage.Attempts))
	}
}

func TestSecretsAreRedactedFromEveryBody(t *testing.T) {
	const secret = "correct-horse-battery-staple"
	r := redact.New([]redact.Secret{{Name: "secret:password", Value: secret}}, func(n string) string { return "${" + n + "}" })
	srv := modeltest.Start(t, modeltest.WithKey(testKey))
	srv.Script(modeltest.Text("no"), modeltest.Call("done", map[string]string{"summary": "ok"}))
	c := newClient(t, srv, model.WithRedactor(r))
	msgs := append(conversation[:2:2], model.User(`- textbox "Password" value="`+secret+`" [ref=e7]`))
	if _, _, err := c.CallTool(context.Background(), msgs, tools, model.Budget{}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (the retry too)", len(reqs))
	}
	for i, req := range reqs {
		if strings.Contains(string(req.Body), secret) {
			t.Errorf("request %d holds the secret's value", i+1)
		}
		if !strings.Contains(string(req.Body), "${secret:password}") {
			t.Errorf("request %d does not hold the secret's reference in its place", i+1)
		}
		if req.Decoded() == nil {
			t.Errorf("request %d is not JSON after redaction", i+1)
		}
	}
	checkNoKeyInBodies(t, srv)
}

func TestBodyHoldingTheKeyIsNotSent(t *testing.T) {
	srv := modeltest.Start(t)
	c := newClient(t, srv)
	msgs := append(conversation[:2:2], model.User("the key is "+testKey))
	_, _, err := c.CallTool(context.Background(), msgs, tools, model.Budget{})
	if !errors.Is(err, model.FailNotSent) || len(srv.Requests()) != 0 {
		t.Errorf("error = %v with %d requests, want not-sent and none", err, len(srv.Requests()))
	}
	if strings.Contains(err.Error(), testKey) {
		t.Errorf("the error %q shows the key", err)
	}
}

// TestEnvironmentOfTheSDKIsNotRead: only model.apiKeyEnv gives a key; the
// SDK's own variables are ignored.
func TestEnvironmentOfTheSDKIsNotRead(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sdk-variable-key-0000")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
	t.Setenv("OPENAI_CUSTOM_HEADERS", "X-Leak: sdk-variable-key-0000")
	srv := modeltest.Start(t)
	srv.Script(modeltest.Call("done", map[string]string{"summary": "ok"}))
	c, err := model.New(model.Config{BaseURL: srv.URL, Name: "local"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.CallTool(context.Background(), conversation, tools, model.Budget{}); err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[0]
	if r.Header.Get("Authorization") != "" || r.Header.Get("X-Leak") != "" {
		t.Errorf("a keyless endpoint got Authorization %q, X-Leak %q", r.Header.Get("Authorization"), r.Header.Get("X-Leak"))
	}
}

func TestConversationWithEarlierCalls(t *testing.T) {
	srv := modeltest.Start(t)
	srv.Script(modeltest.Call("done", map[string]string{"summary": "added"}))
	c := newClient(t, srv)
	first := model.ToolCall{ID: "call_7", Name: "tap", Arguments: json.RawMessage(`{"ref":"e4"}`)}
	msgs := append(conversation[:2:2], model.Called(first), model.Result(first, "tapped; the cart shows 1 item"))
	if _, _, err := c.CallTool(context.Background(), msgs, tools, model.Budget{}); err != nil {
		t.Fatal(err)
	}
	got := srv.Requests()[0].Decoded()["messages"].([]any)
	assistant, tool := got[2].(map[string]any), got[3].(map[string]any)
	call := assistant["tool_calls"].([]any)[0].(map[string]any)
	if assistant["role"] != "assistant" || call["id"] != "call_7" || call["function"].(map[string]any)["arguments"] != `{"ref":"e4"}` {
		t.Errorf("assistant message = %v", assistant)
	}
	if tool["role"] != "tool" || tool["tool_call_id"] != "call_7" || tool["content"] != "tapped; the cart shows 1 item" {
		t.Errorf("tool message = %v", tool)
	}
}

func TestStructuredAnswer(t *testing.T) {
	schema := model.Schema{Name: "pick", Schema: json.RawMessage(`{"type":"object","properties":{"option":{"type":"integer","minimum":1}},
		"required":["option"],"additionalProperties":false}`)}
	srv := modeltest.Start(t)
	srv.Script(modeltest.JSON(map[string]any{"option": 0}), modeltest.JSON(map[string]any{"option": 2}))
	c := newClient(t, srv)
	got, usage, err := c.Structured(context.Background(), conversation, schema, model.Budget{})
	if err != nil || string(got) != `{"option":2}` {
		t.Fatalf("Structured = %s, %v; want option 2", got, err)
	}
	if len(usage.Attempts) != 2 || usage.Attempts[0].Failure != model.FailMalformed {
		t.Errorf("attempts = %+v, want a malformed answer, then the good one", usage.Attempts)
	}
	rf, _ := srv.Requests()[0].Decoded()["response_format"].(map[string]any)
	js, _ := rf["json_schema"].(map[string]any)
	if rf["type"] != "json_schema" || js["name"] != "pick" || js["strict"] != true || js["schema"] == nil {
		t.Errorf("response_format = %v, want a strict json_schema named pick", rf)
	}
	if _, ok := srv.Requests()[0].Decoded()["tools"]; ok {
		t.Errorf("a structured request offers tools")
	}
}

func TestNonStrictSchemaIsRefusedBeforeSending(t *testing.T) {
	cases := map[string]string{
		"extra properties allowed": `{"type":"object","properties":{"ref":{"type":"string"}},"required":["ref"]}`,
		"optional property":        `{"type":"object","properties":{"ref":{"type":"string"},"n":{"type":"integer"}},"required":["ref"],"additionalProperties":false}`,
		"nested object not strict": `{"type":"object","properties":{"o":{"type":"object","properties":{"a":{"type":"string"}}}},"required":["o"],"additionalProperties":false}`,
		"not an object":            `{"type":"string"}`,
		"not JSON":                 `{`,
	}
	srv := modeltest.Start(t)
	c := newClient(t, srv)
	for name, schema := range cases {
		t.Run(name, func(t *testing.T) {
			_, _, err := c.CallTool(context.Background(), conversation, []model.Tool{{Name: "t", Parameters: json.RawMessage(schema)}}, model.Budget{})
			if err == nil {
				t.Errorf("CallTool with schema %s: no error", schema)
			}
		})
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent with a non-strict schema", n)
	}
}

// TestNoHang: a server that accepts and never answers still ends the call
// within the attempts' time.
func TestNoHang(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	c, err := model.New(model.Config{BaseURL: "http://" + ln.Addr().String() + "/v1", Name: "m"}, model.WithBackoff(time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, usage, err := c.CallTool(context.Background(), conversation, tools, model.Budget{MaxAttempts: 2, AttemptTimeout: 200 * time.Millisecond})
	if !errors.Is(err, model.FailTimeout) || len(usage.Attempts) != 2 || time.Since(start) > 10*time.Second {
		t.Errorf("error = %v after %d attempts in %s, want timeout after 2", err, len(usage.Attempts), time.Since(start))
	}
}

func TestStructuredRefusalIsNamedAndScrubbed(t *testing.T) {
	schema := model.Schema{Name: "pick", Schema: json.RawMessage(`{"type":"object","properties":{"option":{"type":"integer"}},"required":["option"],"additionalProperties":false}`)}
	srv := modeltest.Start(t)
	refusal := modeltest.Refusal("I won't use " + testKey)
	srv.Script(refusal, refusal)
	c := newClient(t, srv)
	_, usage, err := c.Structured(context.Background(), conversation, schema, model.Budget{MaxAttempts: 2})
	if !errors.Is(err, model.FailRefused) || len(usage.Attempts) != 2 {
		t.Fatalf("Structured error = %v after %d attempts, want refused after 2", err, len(usage.Attempts))
	}
	if strings.Contains(err.Error(), testKey) {
		t.Errorf("error %q shows the key", err)
	}
	checkNoKeyInBodies(t, srv)
}
