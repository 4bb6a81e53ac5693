package installer

import "errors"

// ErrNoKey is returned by Registry.Default for a key that does not exist.
var ErrNoKey = errors.New("registry key does not exist")

// A Registry is the part of the Windows registry the installer uses: the
// default value of one key. The real one is in registry_windows.go; tests use
// a map.
type Registry interface {
	// SetDefault creates root\key when needed and sets its default value.
	SetDefault(root, key, value string) error
	// Default returns the default value of root\key, or ErrNoKey.
	Default(root, key string) (string, error)
	// DeleteKey removes root\key, which has no subkeys. A missing key is
	// not an error.
	DeleteKey(root, key string) error
}

// ErrNoRegistry is returned by the registry of a system that has none.
var ErrNoRegistry = errors.New("the registry exists only on Windows")

// noRegistry stands in for the registry outside Windows.
type noRegistry struct{}

func (noRegistry) SetDefault(root, key, value string) error { return ErrNoRegistry }
func (noRegistry) Default(root, key string) (string, error) { return "", ErrNoRegistry }
func (noRegistry) DeleteKey(root, key string) error         { return ErrNoRegistry }
