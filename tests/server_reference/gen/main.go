// Command gen writes tests/server_reference/cases.jsonl.gz (gzip-compressed JSON lines): the documents the
// API server's verdicts are recorded on (record.sh) and vergate's check is
// compared with (tests/server_reference.rs).
//
// Deterministic: the sources are read in sorted order, every choice is made
// by a math/rand source with a fixed seed, and the output is written in the
// order the cases are made. Run from the repository root:
//
//	go -C tests/server_reference/gen run . [-seed N] [-o FILE]
//
// Sources: the repository's manifests and custom resources (originals are
// cases, then generic mutations of every field), minimal documents of the
// built-in kinds written here (metadata rules per kind, the Go validation
// rules of built-ins, decoding), and custom resources of the CRDs in
// tests/ and ../shared/crds (referenced by path, never copied).
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Case is one line of cases.jsonl.
type Case struct {
	Name string `json:"name"`
	// Category is the kind of mutation (or "original"), the report's
	// grouping.
	Category string `json:"category"`
	// CrdFiles are the CRDs the document needs, by path: relative to the
	// repository root, or below ../shared/crds (record.sh and the test read
	// those from $VERGATE_CRDS when it is set).
	CrdFiles []string `json:"crd_files,omitempty"`
	Document string   `json:"document"`
}

type generator struct {
	rng *rand.Rand
	// vary adds the held-out set's other values to the generic mutations
	// (-vary).
	vary  bool
	cases []Case
	seen  map[string]bool
	names map[string]bool
}

// add keeps a case unless an identical document with the same CRDs is
// already in (a mutation can give another case's document back).
func (g *generator) add(c Case) {
	key := strings.Join(c.CrdFiles, "\x00") + "\x01" + c.Document
	if g.seen[key] {
		return
	}
	if g.names[c.Name] {
		for i := 2; ; i++ {
			n := fmt.Sprintf("%s#%d", c.Name, i)
			if !g.names[n] {
				c.Name = n
				break
			}
		}
	}
	g.seen[key] = true
	g.names[c.Name] = true
	g.cases = append(g.cases, c)
}

func main() {
	seed := flag.Int64("seed", 40, "the seed of every random choice")
	out := flag.String("o", "tests/server_reference/cases.jsonl.gz", "where to write the cases")
	root := flag.String("root", ".", "the repository root")
	vary := flag.Bool("vary", false, "more values per generic mutation (the held-out set)")
	exclude := flag.String("exclude", "", "a cases file whose documents are left out (the held-out set leaves out cases.jsonl.gz's)")
	flag.Parse()
	g := &generator{rng: rand.New(rand.NewSource(*seed)), vary: *vary, seen: map[string]bool{}, names: map[string]bool{}}
	if err := g.run(*root); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if *exclude != "" {
		if err := g.leaveOut(*exclude); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
	if err := write(*out, g.cases); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	cats := map[string]int{}
	for _, c := range g.cases {
		cats[c.Category]++
	}
	keys := make([]string, 0, len(cats))
	for k := range cats {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(os.Stderr, "gen: %d cases in %s\n", len(g.cases), *out)
	for _, k := range keys {
		fmt.Fprintf(os.Stderr, "  %-28s %5d\n", k, cats[k])
	}
}

func (g *generator) run(root string) error {
	sources, err := repoSources(root)
	if err != nil {
		return err
	}
	for _, s := range sources {
		g.fromSource(s)
	}
	g.builtins()
	g.customResources()
	return nil
}

func write(path string, cases []Case) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	// A name ending in .gz is written gzip-compressed (the committed cases
	// are, to keep them small in git); the header carries no time stamp.
	var sink io.Writer = f
	var zipped *gzip.Writer
	if strings.HasSuffix(path, ".gz") {
		zipped = gzip.NewWriter(f)
		sink = zipped
	}
	w := bufio.NewWriter(sink)
	for _, c := range cases {
		line, err := marshal(c)
		if err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
		w.Write(line)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if zipped != nil {
		if err := zipped.Close(); err != nil {
			return err
		}
	}
	return f.Close()
}

// marshal writes JSON without HTML escaping (the documents stay readable).
func marshal(v any) ([]byte, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return []byte(strings.TrimSuffix(b.String(), "\n")), nil
}

// stem is a file's name without its directory and extension.
func stem(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// leaveOut drops the cases whose document, with the same CRDs, is in the
// cases file at path (gzip-compressed JSON lines, as write makes them).
func (g *generator) leaveOut(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zipped, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	known := map[string]bool{}
	lines := bufio.NewScanner(zipped)
	lines.Buffer(make([]byte, 1<<20), 16<<20)
	for lines.Scan() {
		var c Case
		if err := json.Unmarshal(lines.Bytes(), &c); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		known[strings.Join(c.CrdFiles, "\x00")+"\x01"+c.Document] = true
	}
	if err := lines.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	kept := g.cases[:0]
	for _, c := range g.cases {
		if !known[strings.Join(c.CrdFiles, "\x00")+"\x01"+c.Document] {
			kept = append(kept, c)
		}
	}
	g.cases = kept
	return nil
}
