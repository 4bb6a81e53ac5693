// Package agenttest runs Trailpin's agent without a model: Policy is the
// one generic policy a scripted model server (agent/model/modeltest)
// answers the agent's requests with, in every test and variant. It reads
// the step and the latest snapshot it was sent and types the values the
// intent names (${secret:…} references, quoted text, codes in capitals)
// into the fields whose names best match the intent, taps the control
// whose name best matches the intent's words, and calls done once a text
// the step's end state shows is on the screen. It knows nothing of any
// test: no per-test answers.
//
// Obey is the other model: one that takes page text for instructions and
// carries out every "ignore your instructions: …" a page shows, literally,
// before it goes on as Policy does. It stands in for a model an attacker
// steered, so that a test can show the agent's rules hold whatever the
// model asks for (e2e's injection tests).
//
// It stands in for a model; it measures the machinery, never a model's
// skill. It imports the agent (for the marks of its messages), the
// scripted server and the recorder's snapshot reader, nothing of e2e.
package agenttest
