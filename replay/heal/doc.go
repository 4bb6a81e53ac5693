// Package heal decides what becomes of a step the agent healed (docs/agent.md):
// whether its new flow is saved into the trail file, reported and written
// to the results folder for `host accept`, or not saved, and why, in one
// sentence a run can print. It also reads and writes the healed trails of a
// results folder, and holds the rules of what `host accept` may write from
// one (TrailPath, CheckHealed): a results folder is outside input.
//
// The decision is a pure function of the step's result (WhyNotSaved,
// Decide), so the engine and the host share one set of rules. The package
// imports only recorder/trail and storage/atomicfile: it must not reach the
// browser, the model or the database; the host decides when to write.
package heal
