// Package screentest builds screens for tests with a small vocabulary, the
// way the page model would capture them:
//
//	screentest.El("button", screentest.Ref("del2"), screentest.Name("Delete"), screentest.Kids(screentest.Txt("Delete")))
//
// and measures the CPU time of benchmarks. Only tests import it; it imports
// only recorder/screen.
package screentest
