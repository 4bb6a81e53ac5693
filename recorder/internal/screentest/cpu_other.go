//go:build !unix

package screentest

import (
	"testing"
	"time"
)

// CPUTime is zero where the process's CPU time is not read: the benchmarks
// then report only their wall time.
func CPUTime() time.Duration { return 0 }

// ReportCPU reports nothing where CPUTime is not read.
func ReportCPU(b *testing.B, start time.Duration) {}
