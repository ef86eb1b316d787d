// The reference that tests/yaml_reference/corpus.jsonl is recorded with:
// how kubectl reads a file's text, as the JSON values it would send.
//
// Built only from Debian's packages (see README.md): Go 1.19
// (golang-go), sigs.k8s.io/yaml 1.3.0 (golang-k8s-sigs-yaml-dev) and
// gopkg.in/yaml.v2 2.4.0 (golang-gopkg-yaml.v2-dev), with GO111MODULE=off
// against /usr/share/gocode, offline.
//
// Input on standard input, one JSON object a line: {"name": …, "input": …}.
// Output on standard output, one JSON object a line: the same name and
// input, then "verdict" ("accept" or "refuse"), then for "accept" the
// "values" (the documents kubectl would send, in order, as JSON), for
// "refuse" the "error" the libraries give (for people; the test compares
// verdicts and values only).
//
// What is mirrored, and why:
//
//  1. kubectl reads a file with apimachinery's
//     k8s.io/apimachinery/pkg/util/yaml.YAMLOrJSONDecoder (cli-runtime's
//     StreamVisitor), decoding each document into a runtime.RawExtension,
//     trimming it and skipping documents that are empty or `null`.
//     apimachinery is not packaged in Debian, so its decoder is mirrored
//     here with the standard library, as follows.
//  2. JSON or YAML: GuessJSONStream calls the stream JSON when its first
//     byte after white space (unicode.IsSpace) is `{`. A JSON stream is read
//     by encoding/json's Decoder, value after value, so `{…}{…}` and `{…}
//     {…}` are two documents (Decoder.Decode into a RawExtension keeps the
//     raw bytes; the value sent is those bytes decoded by encoding/json, so
//     `\ud83d\ude00` is the one character U+1F600 and a lone surrogate
//     U+FFFD). Since apimachinery 0.33 a stream whose first JSON value fails
//     to decode is read again from its start as YAML (so `{a: 1}` and
//     `{"a": yes}` read as YAML). A failure after at least one JSON value has
//     been decoded is reported here as a refusal; the corpus holds no such
//     case, since whether 0.33 retries it depends on details of its stream
//     buffer this reference does not reproduce.
//  3. YAML: YAMLToJSONDecoder cuts the stream with YAMLReader at lines that
//     start with `---` (this reference cuts only where the rest of the line
//     is blank or a comment; the corpus has no other `---` lines) and gives
//     each part to sigs.k8s.io/yaml's Unmarshal into a RawExtension, which
//     is yaml.YAMLToJSON (a RawExtension is a json.Unmarshaler, so no type
//     hint is applied): go-yaml v2 reads the first document of the part,
//     and the value is converted to JSON (keys by convertToJSONableObject,
//     values by encoding/json's Marshal).
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"

	"sigs.k8s.io/yaml"
)

type caseIn struct {
	Name  string `json:"name"`
	Input string `json:"input"`
}

type caseOut struct {
	Name    string            `json:"name"`
	Input   string            `json:"input"`
	Verdict string            `json:"verdict"`
	Values  []json.RawMessage `json:"values,omitempty"`
	Error   string            `json:"error,omitempty"`
}

// looksJSON is apimachinery's hasJSONPrefix: the first byte after white
// space is `{`.
func looksJSON(text []byte) bool {
	trimmed := bytes.TrimLeftFunc(text, unicode.IsSpace)
	return len(trimmed) > 0 && trimmed[0] == '{'
}

// canonical decodes one JSON document as encoding/json does and writes it
// back, numbers as written (json.Number), keys sorted.
func canonical(raw []byte) (json.RawMessage, bool, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return nil, false, nil
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	var value interface{}
	if err := dec.Decode(&value); err != nil {
		return nil, false, err
	}
	out, err := json.Marshal(value)
	if err != nil {
		return nil, false, err
	}
	return out, true, nil
}

// readJSON reads a JSON stream; ok is false when its first value fails
// (then the caller reads the text as YAML).
func readJSON(text []byte) (values []json.RawMessage, err error, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(text))
	count := 0
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			return values, nil, true
		}
		if err != nil {
			if count == 0 {
				return nil, err, false
			}
			return nil, err, true
		}
		count++
		value, keep, err := canonical(raw)
		if err != nil {
			return nil, err, true
		}
		if keep {
			values = append(values, value)
		}
	}
}

// splitYAML cuts at `---` lines as YAMLReader does (see 3. above).
func splitYAML(text []byte) [][]byte {
	var parts [][]byte
	var current bytes.Buffer
	reader := bufio.NewReader(bytes.NewReader(text))
	for {
		line, err := reader.ReadBytes('\n')
		if bytes.HasPrefix(line, []byte("---")) {
			rest := strings.TrimSpace(string(line[3:]))
			if rest == "" || strings.HasPrefix(rest, "#") {
				if current.Len() != 0 {
					parts = append(parts, append([]byte(nil), current.Bytes()...))
					current.Reset()
				}
				line = nil
			}
		}
		current.Write(line)
		if err != nil {
			break
		}
	}
	if current.Len() != 0 {
		parts = append(parts, current.Bytes())
	}
	return parts
}

func readYAML(text []byte) ([]json.RawMessage, error) {
	var values []json.RawMessage
	for _, part := range splitYAML(text) {
		converted, err := yaml.YAMLToJSON(part)
		if err != nil {
			return nil, err
		}
		value, keep, err := canonical(converted)
		if err != nil {
			return nil, err
		}
		if keep {
			values = append(values, value)
		}
	}
	return values, nil
}

func read(text []byte) ([]json.RawMessage, error) {
	if looksJSON(text) {
		values, err, ok := readJSON(text)
		if ok {
			return values, err
		}
	}
	return readYAML(text)
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		var c caseIn
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			fmt.Fprintln(os.Stderr, "bad input line:", err)
			os.Exit(2)
		}
		result := caseOut{Name: c.Name, Input: c.Input}
		values, err := read([]byte(c.Input))
		if err != nil {
			result.Verdict = "refuse"
			result.Error = err.Error()
		} else {
			result.Verdict = "accept"
			result.Values = values
			if result.Values == nil {
				result.Values = []json.RawMessage{}
			}
		}
		line, err := json.Marshal(result)
		if err != nil {
			fmt.Fprintln(os.Stderr, "cannot write:", err)
			os.Exit(2)
		}
		out.Write(line)
		out.WriteByte('\n')
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
