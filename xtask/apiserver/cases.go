package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

const (
	// maxCaseLine bounds one line of the cases file; the API server itself
	// refuses request bodies over 3 MiB, so a case never needs more.
	maxCaseLine = 16 << 20
	// maxCases bounds how many cases one run records.
	maxCases = 100_000
)

// caseInput is one line of the cases file.
type caseInput struct {
	Name     string   `json:"name"`
	CRDs     []string `json:"crds"`
	Document *string  `json:"document"`
}

// readCases reads a JSON-lines cases file; blank lines are skipped, and an
// error names the file, the line and what to fix.
func readCases(path string) ([]caseInput, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the cases file: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), maxCaseLine)
	var out []caseInput
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var c caseInput
		if err := json.Unmarshal(line, &c); err != nil {
			return nil, fmt.Errorf("%s:%d: not a JSON object {\"name\", \"crds\", \"document\"}: %v", path, n, err)
		}
		if c.Name == "" {
			return nil, fmt.Errorf("%s:%d: \"name\" is missing or empty: give every case a name", path, n)
		}
		if c.Document == nil {
			return nil, fmt.Errorf("%s:%d: case %q has no \"document\": add the manifest text as a string", path, n, c.Name)
		}
		if len(out) == maxCases {
			return nil, fmt.Errorf("%s:%d: more than %d cases: split the file", path, n, maxCases)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s: a line is longer than %d bytes: the API server would refuse such a body anyway", path, maxCaseLine)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}
