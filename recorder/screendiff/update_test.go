package screendiff

import "flag"

// update rewrites the golden diffs under testdata/diffs instead of comparing
// with them: go test ./recorder/screendiff -update. The screens they are
// computed from are captured by go test ./e2e/screendiff -update.
var update = flag.Bool("update", false, "rewrite the golden diffs under testdata/diffs instead of comparing with them")
