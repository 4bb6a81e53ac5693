package browser

import (
	"sync/atomic"

	"github.com/trailpin/trailpin/recorder/screen"
)

// CaptureStats are what this process's full captures of a page cost: how
// many looks, and how many nodes and bytes of text (the wire form, gzipped
// when large) they moved out of the browser. Benchmarks read them (e2e/bench/replay); nothing decides on
// them.
type CaptureStats struct {
	Looks     int64 `json:"looks"`
	Nodes     int64 `json:"nodes"`
	WireBytes int64 `json:"wireBytes"`
}

var captureStats struct {
	on                  atomic.Bool
	looks, nodes, bytes atomic.Int64
}

// CountCaptures starts counting captures for ReadCaptureStats; counting
// walks each screen once more, so it is off unless asked for.
func CountCaptures() { captureStats.on.Store(true) }

// ReadCaptureStats returns the counts since CountCaptures.
func ReadCaptureStats() CaptureStats {
	return CaptureStats{Looks: captureStats.looks.Load(), Nodes: captureStats.nodes.Load(), WireBytes: captureStats.bytes.Load()}
}

// countLook counts one capture of a document whose wire text was wireBytes
// long, before its cross-origin frames are merged in (each counts on its
// own).
func countLook(s *screen.Screen, wireBytes int) {
	if !captureStats.on.Load() {
		return
	}
	captureStats.looks.Add(1)
	captureStats.bytes.Add(int64(wireBytes))
	captureStats.nodes.Add(int64(countNodes(s.Root)))
}

func countNodes(n *screen.Node) int {
	if n == nil {
		return 0
	}
	count := 1
	for _, c := range n.Children {
		count += countNodes(c)
	}
	return count
}
