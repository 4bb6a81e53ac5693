// Package atomicfile writes files so that a reader sees either the old
// content or the whole new content, never a part of it, and so that the
// new content survives a crash once the write returns: manifests, trail
// files, config files and reports all go through it.
//
// A write goes to a temporary file in the destination's folder, which is
// synced and then renamed over the destination; the folder is synced too
// so that the rename itself is durable (not on Windows, which cannot sync
// a folder and whose rename is atomic without it).
//
// A file a person keeps is written as they keep it (ReplaceIfUnchanged):
// through a symbolic link rather than over it, with its permissions, and
// only while it still holds what the writer read, under a lock that every
// such writer takes, so that two writers, or a writer and an editor, never
// lose each other's work silently.
//
// It imports only the standard library and golang.org/x/sys (for the
// lock), so that every package of the product, however low, can use it.
package atomicfile
