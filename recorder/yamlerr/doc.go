// Package yamlerr is the error of a strict YAML reader: each problem with
// its file, line, key, what is wrong and the fix (Error), every problem of a
// file at once (List), and the did-you-mean that turns a typo into its fix
// (DidYouMean). Trail files and host configuration report problems with it,
// so a mistake in either reads the same way.
//
// It imports no other Trailpin package, so that anything reading YAML can
// use it.
package yamlerr
