//go:build !windows

package installer

// SystemRegistry returns the registry of this system: none outside Windows.
func SystemRegistry() Registry { return noRegistry{} }
