package trail

import "flag"

// update rewrites the golden files under testdata/ instead of comparing with
// them: go test ./recorder/trail -update. The one definition for the package.
var update = flag.Bool("update", false, "rewrite golden files under testdata/ instead of comparing with them")
