// Package agent is Trailpin's agent: it performs a step's goal on a page,
// one model call at a time, through tools that take the refs of the
// snapshot it was shown (tap, type, select, press, navigate, assertVisible,
// assertNotVisibleWithText, snapshot, done, fail) and never selectors. It
// is what replay hands a step to when the step's recording no longer
// replays (docs/agent.md), and what runs a bare goal (act:).
//
//	Run(ctx, cfg, page, goal)  the step's goal on page, within its budgets: an *Outcome
//
// Page is the small interface it acts through: replay implements it on its
// chromedp tab (replay/agent_page.go), the extension's live tab is the other.
// The outcome is the actions performed as trail actions, with selectors the
// recorder's generator wrote from the screens acted on (the healed
// recording, once a check proves it), the agent's turns for the trace page,
// and a verdict: done, app-bug, blocked (reported as agent-misread), budget,
// model-error, page-error, refused (an action outside the app's origins,
// agent-misread) or cancelled. The agent's own done is never a pass by
// itself: the step's checks decide.
//
// What it must not do: see or send a secret's value (the model types
// ${secret:NAME}; the Page fills it in at the last moment; every request
// goes through the model client's redactor, and every turn it keeps through
// cfg.Redactor); type a secret its goal was not offered, or put one into a
// URL; act on a page or in a frame outside the app's origins (cfg.Origins),
// whatever the page says (trust.go; the page's content reaches the model
// fenced, as data); map a ref the page no longer shows to another element
// (it is refused, with a fresh snapshot); wait past agent.stepDeadline;
// act more than agent.maxActions times in a step, replayed actions
// included.
//
// It imports the model client, the recorder's screen, selector and trail
// packages, and replay/assertchange (the checks of an assertChange, which
// drive no browser); it never imports the replay engine (package replay)
// or host.
package agent
