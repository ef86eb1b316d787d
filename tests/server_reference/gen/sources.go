package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// source is one document of a repository file: its text as written, and
// its value as kubectl reads it (nil when it does not read as a mapping).
type source struct {
	name     string
	text     string
	value    map[string]any
	crdFiles []string
}

// sharedCrds is how cases.jsonl names ../shared/crds.
const sharedCrds = "../shared/crds/"

// crdDirs are where the CRDs come from: committed test data, and the real
// third-party CRDs beside the repository.
var crdGlobs = []string{
	"tests/custom-resources/*-crd.yaml",
	"tests/cel/features/crd.yaml",
	"tests/cel/gateway-api/v1.3.0/*.yaml",
	sharedCrds + "prometheus-operator/*.yaml",
	sharedCrds + "argo-cd/application-crd.yaml",
	sharedCrds + "argo-cd/appproject-crd.yaml",
}

// sourceGlobs are the documents taken as they are, then mutated.
var sourceGlobs = []string{
	"tests/manifests/kubernetes/*.yaml",
	"tests/cli/kubernetes/*.yaml",
	"tests/custom-resources/good.yaml",
	"tests/custom-resources/bad.yaml",
	"tests/custom-resources/widgets.yaml",
	"tests/custom-resources/formats.yaml",
	"tests/custom-resources/gateway-addresses.yaml",
	"tests/cel/features/probes.yaml",
	"tests/cel/gateway-api/cases/*.yaml",
}

// crdIndex maps "group/Kind" to the file of its CRD.
var crdIndex = map[string]string{}

// resolve is where a case's path is on this machine.
func resolve(root, path string) string {
	if rest, ok := strings.CutPrefix(path, sharedCrds); ok {
		if dir := os.Getenv("VERGATE_CRDS"); dir != "" {
			return filepath.Join(dir, rest)
		}
	}
	return filepath.Join(root, path)
}

func glob(root, pattern string) ([]string, error) {
	full, err := filepath.Glob(resolve(root, pattern))
	if err != nil {
		return nil, err
	}
	if len(full) == 0 {
		return nil, fmt.Errorf("%s: no file (is ../shared/crds there, or $VERGATE_CRDS set?)", pattern)
	}
	dir := filepath.Dir(pattern)
	var out []string
	for _, f := range full {
		out = append(out, dir+"/"+filepath.Base(f))
	}
	sort.Strings(out)
	return out, nil
}

// splitDocuments splits a YAML stream on its `---` lines, as kubectl's
// YAML reader does; documents holding only comments are dropped.
func splitDocuments(text string) []string {
	var docs []string
	var cur []string
	flush := func() {
		doc := strings.Join(cur, "\n")
		cur = nil
		for _, line := range strings.Split(doc, "\n") {
			t := strings.TrimSpace(line)
			if t != "" && !strings.HasPrefix(t, "#") {
				docs = append(docs, strings.TrimRight(doc, "\n")+"\n")
				return
			}
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.TrimRight(line, " \t") == "---" || strings.HasPrefix(line, "--- ") {
			flush()
			continue
		}
		cur = append(cur, line)
	}
	flush()
	return docs
}

// parse reads a document as kubectl does (sigs.k8s.io/yaml), keeping
// numbers as written.
func parse(text string) map[string]any {
	j, err := yaml.YAMLToJSON([]byte(text))
	if err != nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil {
		return nil
	}
	return m
}

func loadCrdIndex(root string) error {
	for _, pattern := range crdGlobs {
		files, err := glob(root, pattern)
		if err != nil {
			return err
		}
		for _, f := range files {
			text, err := os.ReadFile(resolve(root, f))
			if err != nil {
				return err
			}
			for _, doc := range splitDocuments(string(text)) {
				m := parse(doc)
				if str(m, "kind") != "CustomResourceDefinition" {
					continue
				}
				spec, _ := m["spec"].(map[string]any)
				names, _ := spec["names"].(map[string]any)
				crdIndex[str(spec, "group")+"/"+str(names, "kind")] = f
			}
		}
	}
	return nil
}

func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

// crdsFor names the CRD a custom resource needs (none for a built-in).
func crdsFor(m map[string]any) []string {
	group, _, found := strings.Cut(str(m, "apiVersion"), "/")
	if !found {
		return nil
	}
	if f, ok := crdIndex[group+"/"+str(m, "kind")]; ok {
		return []string{f}
	}
	return nil
}

func repoSources(root string) ([]source, error) {
	if err := loadCrdIndex(root); err != nil {
		return nil, err
	}
	var out []source
	for _, pattern := range sourceGlobs {
		files, err := glob(root, pattern)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			text, err := os.ReadFile(resolve(root, f))
			if err != nil {
				return nil, err
			}
			docs := splitDocuments(string(text))
			prefix := strings.TrimPrefix(filepath.Dir(f), "tests/")
			prefix = strings.TrimPrefix(prefix, "cel/gateway-api/")
			prefix = strings.TrimSuffix(prefix, "/kubernetes")
			for i, doc := range docs {
				name := prefix + "/" + stem(f)
				if len(docs) > 1 {
					name = fmt.Sprintf("%s#%d", name, i)
				}
				m := parse(doc)
				if str(m, "kind") == "List" {
					// kubectl sends a List's items, never the List.
					continue
				}
				out = append(out, source{name: name, text: doc, value: m, crdFiles: crdsFor(m)})
			}
		}
	}
	return out, nil
}
