package model

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"
)

// CallTool sends the conversation with the tools and returns the one tool
// call the model answered, its arguments checked against the tool's strict
// schema. An answer that is not exactly one call of one of the tools with
// valid arguments is retried (telling the model what was wrong) within b,
// like the endpoint's errors; then the error is a *CallError naming the
// failure. Usage counts every attempt, also on error.
func (c *Client) CallTool(ctx context.Context, msgs []Message, tools []Tool, b Budget) (ToolCall, Usage, error) {
	usage := Usage{Model: c.cfg.Name}
	if len(tools) == 0 {
		return ToolCall{}, usage, errors.New("calling the model: no tools offered")
	}
	checkers := map[string]*checker{}
	params := openai.ChatCompletionNewParams{
		ToolChoice:        openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: param.NewOpt("required")},
		ParallelToolCalls: openai.Bool(false),
	}
	for _, t := range tools {
		if _, dup := checkers[t.Name]; dup {
			return ToolCall{}, usage, fmt.Errorf("calling the model: tool %s is offered twice", t.Name)
		}
		chk, err := newChecker(t.Name, t.Parameters, "the arguments of "+t.Name)
		if err != nil {
			return ToolCall{}, usage, fmt.Errorf("calling the model: %w", err)
		}
		checkers[t.Name] = chk
		params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        t.Name,
			Description: param.NewOpt(t.Description),
			Parameters:  chk.params,
			Strict:      openai.Bool(true),
		}))
	}
	names := slices.Sorted(maps.Keys(checkers))
	var call ToolCall
	again := "Answer again with exactly one call of one of the tools (" + strings.Join(names, ", ") + ")."
	err := c.run(ctx, msgs, params, b, again, &usage, func(resp *openai.ChatCompletion) *attemptError {
		var aerr *attemptError
		call, aerr = c.toolCall(resp, checkers, names)
		return aerr
	})
	return call, usage, err
}

// Structured sends the conversation asking for a JSON answer matching
// out's strict schema (structured outputs) and returns it, checked. It
// retries and fails as CallTool does.
func (c *Client) Structured(ctx context.Context, msgs []Message, out Schema, b Budget) (json.RawMessage, Usage, error) {
	usage := Usage{Model: c.cfg.Name}
	chk, err := newChecker(out.Name, out.Schema, "the answer")
	if err != nil {
		return nil, usage, fmt.Errorf("calling the model: %w", err)
	}
	js := shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: out.Name, Strict: openai.Bool(true), Schema: chk.params}
	if out.Description != "" {
		js.Description = param.NewOpt(out.Description)
	}
	params := openai.ChatCompletionNewParams{
		ResponseFormat: openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{JSONSchema: js}},
	}
	var answer json.RawMessage
	again := "Answer again with JSON that matches the schema " + out.Name + "."
	err = c.run(ctx, msgs, params, b, again, &usage, func(resp *openai.ChatCompletion) *attemptError {
		msg, aerr := firstMessage(resp)
		if aerr != nil {
			aerr.detail = c.scrub(aerr.detail)
			return aerr
		}
		if strings.TrimSpace(msg.Content) == "" {
			return &attemptError{failure: FailMalformed, detail: "answered no JSON"}
		}
		v, err := chk.check(msg.Content)
		if err != nil {
			return &attemptError{failure: FailMalformed, detail: c.scrub(err.Error())}
		}
		answer = v
		return nil
	})
	return answer, usage, err
}

// run sends attempts until one is accepted or the budget is spent. After a
// bad answer, the next attempt carries one more message saying what was
// wrong and asking again (again).
func (c *Client) run(ctx context.Context, msgs []Message, params openai.ChatCompletionNewParams, b Budget, again string,
	usage *Usage, accept func(*openai.ChatCompletion) *attemptError) error {
	if b.MaxAttempts <= 0 {
		b.MaxAttempts = defaultMaxAttempts
	}
	params.Model = c.cfg.Name
	conv := msgs
	var last *attemptError
	for attempt := 1; attempt <= b.MaxAttempts; attempt++ {
		if err := ctx.Err(); err != nil {
			return c.stopped(ctx, len(usage.Attempts), last)
		}
		body, err := c.body(conv, params)
		if err != nil {
			return &CallError{Model: c.cfg.Name, Failure: FailNotSent, Attempts: len(usage.Attempts), Detail: err.Error(), Err: err}
		}
		if !b.Calls.take() {
			e := &CallError{Model: c.cfg.Name, Failure: FailCallBudget, Attempts: len(usage.Attempts),
				Detail: fmt.Sprintf("the run's %d model calls (agent.maxCalls) are used up", b.Calls.Max())}
			if last != nil {
				e.Last = last.failure
			}
			return e
		}
		a, resp, aerr := c.send(ctx, body, c.attemptTimeout(ctx, b, attempt))
		if aerr == nil {
			aerr = accept(resp)
		}
		if aerr != nil {
			a.Failure, a.Detail = aerr.failure, aerr.detail
		}
		usage.Attempts = append(usage.Attempts, a)
		if aerr == nil {
			return nil
		}
		if aerr.failure == FailDeadline {
			return c.stopped(ctx, len(usage.Attempts), last)
		}
		last = aerr
		if !aerr.failure.retried() || attempt == b.MaxAttempts {
			break
		}
		if aerr.answered() {
			conv = append(slices.Clone(msgs), User("Your last answer was not used: "+aerr.detail+". "+again))
		}
		wait := c.wait(attempt, aerr)
		if dl, ok := ctx.Deadline(); ok && wait > 0 && c.now().Add(wait).After(dl) {
			if aerr.retryAfter > 0 {
				last = &attemptError{failure: aerr.failure, err: aerr.err,
					detail: fmt.Sprintf("%s; it asked to wait %s, past the deadline", aerr.detail, aerr.retryAfter.Round(time.Millisecond))}
				break
			}
			wait = time.Until(dl)
		}
		if err := sleep(ctx, wait); err != nil {
			return c.stopped(ctx, len(usage.Attempts), last)
		}
	}
	return &CallError{Model: c.cfg.Name, Failure: last.failure, Attempts: len(usage.Attempts), Detail: last.detail, Err: last.err}
}

// answered reports whether the endpoint answered and the answer was not
// usable: the model is told what was wrong before it is asked again.
func (e *attemptError) answered() bool {
	switch e.failure {
	case FailMalformed, FailUnknownTool, FailNoToolCall, FailRefused, FailTruncatedReply:
		return true
	}
	return false
}

// stopped is the error of a call whose context ended.
func (c *Client) stopped(ctx context.Context, attempts int, last *attemptError) error {
	e := &CallError{Model: c.cfg.Name, Failure: FailDeadline, Attempts: attempts, Err: ctx.Err()}
	if errors.Is(ctx.Err(), context.Canceled) {
		e.Failure, e.Detail = FailCancelled, "the call was cancelled"
	} else {
		e.Detail = "no usable answer before the deadline"
	}
	if last != nil {
		e.Last = last.failure
		e.Detail += "; last attempt: " + last.detail
	}
	return e
}

// body is the request as it is sent: the conversation and params as JSON,
// through the redactor. A body the redaction broke, or one holding the API
// key, is not sent.
func (c *Client) body(msgs []Message, params openai.ChatCompletionNewParams) ([]byte, error) {
	var err error
	if params.Messages, err = messageParams(msgs); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("encoding the request: %w", err)
	}
	body, err := c.redactor.JSON(raw)
	if err != nil {
		return nil, err
	}
	if c.key != "" && bytes.Contains(body, []byte(c.key)) {
		return nil, errors.New("the request holds the API key; it was not sent")
	}
	return body, nil
}

// attemptTimeout is how long one attempt may wait for its answer.
func (c *Client) attemptTimeout(ctx context.Context, b Budget, attempt int) time.Duration {
	if b.AttemptTimeout > 0 {
		return b.AttemptTimeout
	}
	dl, ok := ctx.Deadline()
	if !ok {
		return defaultAttemptTimeout
	}
	share := dl.Sub(c.now()) / time.Duration(b.MaxAttempts-attempt+1)
	return max(share, minAttemptTimeout)
}

// send makes one request and reads its answer.
func (c *Client) send(ctx context.Context, body []byte, timeout time.Duration) (Attempt, *openai.ChatCompletion, *attemptError) {
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	a := Attempt{Started: c.now()}
	start := time.Now()
	resp, err := c.svc.New(actx, openai.ChatCompletionNewParams{}, option.WithRequestBody("application/json", body))
	a.Latency = time.Since(start)
	if err != nil {
		return a, nil, c.classify(ctx, actx, timeout, err)
	}
	a.PromptTokens, a.CompletionTokens = int(resp.Usage.PromptTokens), int(resp.Usage.CompletionTokens)
	return a, resp, nil
}

// classify names what went wrong with a request that got no answer.
func (c *Client) classify(ctx, actx context.Context, timeout time.Duration, err error) *attemptError {
	var apiErr *openai.Error
	switch {
	case ctx.Err() != nil:
		return &attemptError{failure: FailDeadline, detail: "the deadline passed while waiting", err: ctx.Err()}
	case errors.As(err, &apiErr):
		detail := "HTTP " + strconv.Itoa(apiErr.StatusCode)
		if m := c.scrub(apiErr.Message); m != "" {
			detail += ": " + m
		}
		e := &attemptError{detail: detail, err: err}
		switch s := apiErr.StatusCode; {
		case s == http.StatusTooManyRequests:
			e.failure = FailRateLimited
		case s >= 500, s == http.StatusRequestTimeout, s == http.StatusConflict:
			e.failure = FailServerError
		default:
			e.failure = FailRejected
		}
		if apiErr.Response != nil && (e.failure == FailRateLimited || e.failure == FailServerError) {
			e.retryAfter = retryAfter(apiErr.Response.Header, c.now())
		}
		return e
	case errors.Is(actx.Err(), context.DeadlineExceeded):
		return &attemptError{failure: FailTimeout, detail: "no answer within " + timeout.Round(time.Millisecond).String(), err: err}
	case strings.Contains(err.Error(), "parsing response json"), strings.Contains(err.Error(), "expected destination type"):
		return &attemptError{failure: FailBadResponse, detail: "the answer is not a chat completion: " + c.scrub(err.Error()), err: err}
	}
	return &attemptError{failure: FailUnreachable, detail: c.scrub(err.Error()), err: err}
}

// retryAfter reads how long an endpoint asked to wait: retry-after-ms
// (OpenAI's), or Retry-After in seconds or as a date.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	v := h.Get("Retry-After")
	if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// wait is the pause before the next attempt: none after a bad answer (the
// endpoint is fine; the model is asked again), what the endpoint asked
// for, else a doubling wait with jitter.
func (c *Client) wait(attempt int, e *attemptError) time.Duration {
	if e.answered() {
		return 0
	}
	if e.retryAfter > 0 {
		return e.retryAfter
	}
	d := c.first << (attempt - 1)
	if d > c.max || d <= 0 {
		d = c.max
	}
	return d/2 + rand.N(d/2+1)
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// firstMessage is the answer's message, or what is wrong with it.
func firstMessage(resp *openai.ChatCompletion) (openai.ChatCompletionMessage, *attemptError) {
	if resp == nil || len(resp.Choices) == 0 {
		return openai.ChatCompletionMessage{}, &attemptError{failure: FailBadResponse, detail: "the answer has no choices"}
	}
	ch := resp.Choices[0]
	if ch.Message.Refusal != "" {
		return ch.Message, &attemptError{failure: FailRefused, detail: "the model refused: " + ch.Message.Refusal}
	}
	if ch.FinishReason == "length" {
		return ch.Message, &attemptError{failure: FailTruncatedReply, detail: "the answer was cut off at the token limit"}
	}
	return ch.Message, nil
}

// toolCall checks that the answer is exactly one call of an offered tool
// with valid arguments.
func (c *Client) toolCall(resp *openai.ChatCompletion, checkers map[string]*checker, names []string) (ToolCall, *attemptError) {
	msg, aerr := firstMessage(resp)
	if aerr != nil {
		aerr.detail = c.scrub(aerr.detail)
		return ToolCall{}, aerr
	}
	switch n := len(msg.ToolCalls); {
	case n == 0:
		detail := "answered with text instead of a tool call"
		if t := strings.TrimSpace(msg.Content); t != "" {
			detail += ": " + strconv.Quote(c.scrub(t))
		}
		return ToolCall{}, &attemptError{failure: FailNoToolCall, detail: detail}
	case n > 1:
		return ToolCall{}, &attemptError{failure: FailNoToolCall, detail: fmt.Sprintf("called %d tools at once; one call at a time", n)}
	}
	tc := msg.ToolCalls[0]
	chk, ok := checkers[tc.Function.Name]
	if !ok || (tc.Type != "" && tc.Type != "function") {
		return ToolCall{}, &attemptError{failure: FailUnknownTool,
			detail: fmt.Sprintf("called %s, which is not one of the tools (%s)", strconv.Quote(c.scrub(tc.Function.Name)), strings.Join(names, ", "))}
	}
	args, err := chk.check(tc.Function.Arguments)
	if err != nil {
		return ToolCall{}, &attemptError{failure: FailMalformed, detail: c.scrub(err.Error())}
	}
	id := tc.ID
	if id == "" {
		id = "call_" + strconv.FormatInt(c.callIDs.Add(1), 10)
	}
	return ToolCall{ID: id, Name: tc.Function.Name, Arguments: args}, nil
}
