//go:build !unix

package agentapi

import "os"

// processAlive reports whether a process with this id exists, as far as
// os.FindProcess can tell on this system.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
