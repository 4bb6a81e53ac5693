// Package secrets resolves the secret references of a trail —
// ${secret:NAME} and ${user:NAME.username|password} — to their values at
// the last moment before replay types them (docs/config.md).
//
// A value comes from the environment first (TRAILPIN_SECRET_NAME,
// TRAILPIN_USER_NAME_PASSWORD), then from the project config. The
// environment is read through a getenv function the caller passes, so the
// package does no I/O of its own and tests need no real environment.
//
// It must never log, print or wrap a secret value into an error: errors name
// the reference and the variable to set, and the types that hold values
// print as <set> or <missing>. It imports recorder (for references) and
// nothing of host or storage.
package secrets
