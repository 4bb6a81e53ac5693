// Package suite replays a suite of trails: the one place `host replay`,
// `host demo` and any other door (an MCP trail_replay tool) run trails
// through. It owns
//
//   - selection: which trails a run takes, by file, folder, name, --grep
//     and --shard (Select, select.go);
//   - the run: workers, retries, the circuit breaker (runner.go) and Run,
//     the typed entry point with its Events (run.go);
//   - what a run leaves behind: trace pages, the run store in the database
//     (store.go) and the verified heals it keeps (heals.go);
//   - the agent a run hands stale steps to (agent.go);
//   - the exit codes CI trusts (package exitcode).
//
// The caller reads flags and trailpin.yaml into Options, starts the
// browser, and writes what it shows from the Events and the Summary:
// progress, status lines, the summary and JUnit (package report).
package suite
