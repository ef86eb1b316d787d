package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// console is where this program's own messages go; withServer points it at
// the real stderr while the server's log takes over file descriptor 2.
var console = os.Stderr

// kubeVersion is the k8s.io/kubernetes module version this binary was built
// from ("v1.36.0"), read from the build information.
func kubeVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path == "k8s.io/kubernetes" {
				return m.Version
			}
		}
	}
	return "unknown"
}

// kubeMinor is the minor of kubeVersion without the "v" and patch: "1.36".
func kubeMinor() string {
	v := strings.TrimPrefix(kubeVersion(), "v")
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}

// marshalIndented encodes v as jq does: two-space indent, no HTML escaping,
// a trailing newline. Maps come out with sorted keys (encoding/json sorts
// them), which is what `jq -S` does.
func marshalIndented(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// marshalLine encodes v on one line, no HTML escaping, with a newline.
func marshalLine(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeJSON writes v indented to path, or to stdout when path is empty.
func writeJSON(path string, v any) error {
	data, err := marshalIndented(v)
	if err != nil {
		return err
	}
	return writeOutput(path, data)
}

// writeOutput writes data to path through a temporary file renamed into
// place, so that a failed run never leaves a half-written output; an empty
// path means stdout.
func writeOutput(path string, data []byte) error {
	if path == "" || path == "-" {
		_, err := os.Stdout.Write(data)
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".vergate-apiserver-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w (does its directory exist?)", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return nil
}
