// Package model is Trailpin's one client of language models: any
// OpenAI-compatible chat-completions endpoint (OpenAI, Azure OpenAI's
// deployment routes, Ollama, vLLM, LM Studio, llama.cpp's server), reached
// through github.com/openai/openai-go/v3. The agent calls it for each turn,
// and the save-time selector review for its one question.
//
//	New(cfg, opts...)                       a client of model.baseURL / model.name / model.apiKeyEnv
//	(*Client).CallTool(ctx, msgs, tools, b)  exactly one call of one of the tools, with strict schemas
//	(*Client).Structured(ctx, msgs, out, b)  one JSON answer matching a strict schema
//	NewCallBudget(n)                         the calls a whole run may make (agent.maxCalls)
//
// Every answer that is not usable (429, 5xx, a timeout, an unreachable
// server, malformed arguments, a tool that does not exist, text instead of
// a call) is retried within the caller's budget — its context's deadline
// and a number of attempts — and then returned as a *CallError whose
// message names what went wrong. A call never waits past its context.
// Every attempt is counted (tokens in and out, latency) in the Usage it
// returns, failed ones included.
//
// What it must not do: send a secret or the API key in a body. Every
// request body passes through the one redactor (storage/redact) before it
// leaves, and a body that still holds the key is not sent. The key is read
// only from the environment variable model.apiKeyEnv names; it goes in the
// Authorization (or Azure's api-key) header and nowhere else: no body, no
// log line, no error message; and over plain http only to this machine,
// unless model.allowInsecureHTTP says otherwise (Config.InsecureNotice is
// what the caller then says).
//
// It imports storage/redact and the SDK only; it knows nothing of pages,
// steps or the database.
package model
