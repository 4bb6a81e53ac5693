// Package recording is the host's recording service: a person (or the
// agent, while the person records) records a session in the browser, and
// the service stores it, builds its steps, and saves it as a trail
// (host/PROTOCOL.md, Recording).
//
// Each operation takes a typed request and returns a typed answer; no
// transport type reaches it. The doors in front of it (native messaging
// in host/, and later a websocket API and an MCP server) decode their
// messages into those requests and map an *Error to their own error
// codes. The agent's live tab is reached through Tab, which each door
// implements.
package recording
