//go:build linux

package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// leakedProcesses returns the processes whose command line mentions dir,
// after giving them grace to exit.
func leakedProcesses(dir string, grace time.Duration) []string {
	deadline := time.Now().Add(grace)
	for {
		leaks := processesMentioning(dir)
		if len(leaks) == 0 || time.Now().After(deadline) {
			return leaks
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func processesMentioning(dir string) []string {
	self := strconv.Itoa(os.Getpid())
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var out []string
	for _, p := range procs {
		pid := filepath.Base(filepath.Dir(p))
		if pid == self {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil || !bytes.Contains(b, []byte(dir)) {
			continue
		}
		cmd := strings.ReplaceAll(string(bytes.TrimRight(b, "\x00")), "\x00", " ")
		if len(cmd) > 160 {
			cmd = cmd[:160] + "…"
		}
		out = append(out, pid+": "+cmd)
	}
	return out
}
