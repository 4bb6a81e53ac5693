package recorder

import (
	"syscall"
	"testing"
	"time"
)

// selCPUTime is the CPU time this process has used. Benchmarks report it per
// operation beside the wall time: on a machine shared with other work the
// wall time mostly measures waiting for a core.
func selCPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// selReportCPU reports the CPU time per operation since start.
func selReportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(selCPUTime()-start)/float64(b.N), "cpu-ns/op")
}
