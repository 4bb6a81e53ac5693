//go:build unix

package screentest

import (
	"syscall"
	"testing"
	"time"
)

// CPUTime is the CPU time this process has used. Benchmarks report it per
// operation beside the wall time: on a machine shared with other work the
// wall time mostly measures waiting for a core.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ReportCPU reports the CPU time per operation since start.
func ReportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(CPUTime()-start)/float64(b.N), "cpu-ns/op")
}
