package browser

import "testing"

// TestCaptureStatsCountLooks checks that, once asked for, every capture
// counts as a look with its nodes and the bytes it moved. Other tests
// capture at the same time, so the counts grow by at least this capture's.
func TestCaptureStatsCountLooks(t *testing.T) {
	CountCaptures()
	ctx := newTab(t, site.URL+"/refs.html")
	before := ReadCaptureStats()
	s, err := Capture(ctx, CaptureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	after := ReadCaptureStats()
	if nodes := int64(countNodes(s.Root)); after.Looks < before.Looks+1 || after.Nodes < before.Nodes+nodes || after.WireBytes < before.WireBytes+int64(nodes) {
		t.Errorf("counts went from %+v to %+v over a capture of %d nodes", before, after, nodes)
	}
}
