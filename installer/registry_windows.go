//go:build windows

package installer

import (
	"errors"
	"fmt"

	"golang.org/x/sys/windows/registry"
)

// SystemRegistry returns the Windows registry.
func SystemRegistry() Registry { return winRegistry{} }

type winRegistry struct{}

func rootKey(root string) (registry.Key, error) {
	switch root {
	case HKCU:
		return registry.CURRENT_USER, nil
	case HKLM:
		return registry.LOCAL_MACHINE, nil
	}
	return 0, fmt.Errorf("unknown registry root %q", root)
}

func (winRegistry) SetDefault(root, key, value string) error {
	r, err := rootKey(root)
	if err != nil {
		return err
	}
	k, _, err := registry.CreateKey(r, key, registry.SET_VALUE)
	if err != nil {
		return fmt.Errorf("creating %s\\%s: %w", root, key, err)
	}
	defer k.Close()
	if err := k.SetStringValue("", value); err != nil {
		return fmt.Errorf("setting %s\\%s: %w", root, key, err)
	}
	return nil
}

func (winRegistry) Default(root, key string) (string, error) {
	r, err := rootKey(root)
	if err != nil {
		return "", err
	}
	k, err := registry.OpenKey(r, key, registry.QUERY_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return "", ErrNoKey
	}
	if err != nil {
		return "", fmt.Errorf("opening %s\\%s: %w", root, key, err)
	}
	defer k.Close()
	v, _, err := k.GetStringValue("")
	if errors.Is(err, registry.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading %s\\%s: %w", root, key, err)
	}
	return v, nil
}

func (winRegistry) DeleteKey(root, key string) error {
	r, err := rootKey(root)
	if err != nil {
		return err
	}
	if err := registry.DeleteKey(r, key); err != nil && !errors.Is(err, registry.ErrNotExist) {
		return fmt.Errorf("deleting %s\\%s: %w", root, key, err)
	}
	return nil
}
