package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// step is one element of a path: a mapping key (string) or a list index
// (int).
type step = any

// mutation is one change of a document: its category, the name's suffix
// and the change itself (applied to a deep copy).
type mutation struct {
	category string
	label    string
	apply    func(doc map[string]any)
}

// pathString writes a path as the API server names fields:
// spec.containers[0].image, metadata.labels[app] for a key with dots.
func pathString(path []step) string {
	var b strings.Builder
	for _, s := range path {
		switch s := s.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", s)
		case string:
			if strings.ContainsAny(s, "./ ") || s == "" {
				fmt.Fprintf(&b, "[%s]", s)
			} else {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(s)
			}
		}
	}
	return b.String()
}

func clone(v map[string]any) map[string]any {
	j, _ := json.Marshal(v)
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	var out map[string]any
	dec.Decode(&out)
	return out
}

// render writes a document as block YAML (sorted keys, as
// sigs.k8s.io/yaml writes it).
func render(v any) string {
	out, err := yaml.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(out)
}

// at returns the container holding the path's last step.
func at(doc map[string]any, path []step) any {
	var cur any = doc
	for _, s := range path[:len(path)-1] {
		switch s := s.(type) {
		case string:
			cur = cur.(map[string]any)[s]
		case int:
			cur = cur.([]any)[s]
		}
	}
	return cur
}

// set replaces the value at path; remove deletes it (a list item is
// dropped).
func set(doc map[string]any, path []step, v any) {
	switch p := at(doc, path).(type) {
	case map[string]any:
		p[path[len(path)-1].(string)] = v
	case []any:
		p[path[len(path)-1].(int)] = v
	}
}

func remove(doc map[string]any, path []step) {
	if p, ok := at(doc, path).(map[string]any); ok {
		delete(p, path[len(path)-1].(string))
	}
}

func get(doc map[string]any, path []step) any {
	switch p := at(doc, path).(type) {
	case map[string]any:
		return p[path[len(path)-1].(string)]
	case []any:
		return p[path[len(path)-1].(int)]
	}
	return nil
}

var (
	enumLike     = regexp.MustCompile(`^[A-Z][a-z]+([A-Z][a-z]*)*$`)
	quantityLike = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?(m|k|Ki|Mi|Gi|Ti|M|G|T)?$`)
)

// freeForm are mappings whose keys are data, not fields: an unknown or
// misspelled key there is a value.
var freeForm = map[string]bool{"labels": true, "annotations": true, "data": true, "stringData": true, "matchLabels": true, "selector": false, "nodeSelector": true, "binaryData": true, "parameters": true}

// mutations lists every generic mutation of a document: per mapping, an
// unknown field; per key, a misspelling, a removal, null, a misnesting;
// per value, wrong types and edge values of its type. With vary (the
// held-out set's -vary), more values of the same kinds besides: see
// variedNumbers, variedStrings and the list-item removal.
func mutations(doc map[string]any, vary bool) []mutation {
	var out []mutation
	var walk func(v any, path []step)
	walk = func(v any, path []step) {
		p := pathString(path)
		cp := append([]step(nil), path...)
		switch v := v.(type) {
		case map[string]any:
			parentKey := ""
			if len(path) > 0 {
				parentKey, _ = path[len(path)-1].(string)
			}
			if !freeForm[parentKey] {
				out = append(out, mutation{"unknown-field", p + "+vergateUnknown", func(d map[string]any) {
					target := d
					if len(cp) > 0 {
						target = get(d, cp).(map[string]any)
					}
					target["vergateUnknown"] = "x"
				}})
			}
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				kp := append(append([]step(nil), path...), k)
				ks := pathString(kp)
				if len(path) == 0 && (k == "apiVersion" || k == "kind") {
					continue
				}
				if !freeForm[parentKey] {
					misspelled := strings.ToUpper(k[:1]) + k[1:]
					if misspelled == k {
						misspelled = strings.ToLower(k[:1]) + k[1:]
					}
					out = append(out, mutation{"misspelled-field", ks + "~" + misspelled, func(d map[string]any) {
						m := at(d, kp).(map[string]any)
						m[misspelled] = m[k]
						delete(m, k)
					}})
					if len(kp) >= 3 {
						if _, ok := kp[len(kp)-2].(string); ok {
							// The key one level up (spec.template.spec.replicas ->
							// spec.template.replicas).
							out = append(out, mutation{"misnested-field", ks + "^", func(d map[string]any) {
								m := at(d, kp).(map[string]any)
								val := m[k]
								delete(m, k)
								if up, ok := at(d, kp[:len(kp)-1]).(map[string]any); ok {
									if _, taken := up[k]; !taken {
										up[k] = val
									}
								}
							}})
						}
					}
				}
				out = append(out, mutation{"removed-field", ks + "-", func(d map[string]any) { remove(d, kp) }})
				out = append(out, mutation{"null-value", ks + "=null", func(d map[string]any) { set(d, kp, nil) }})
				walk(v[k], kp)
			}
			if len(path) > 0 {
				out = append(out, mutation{"wrong-type", p + "=[]", func(d map[string]any) { set(d, cp, []any{}) }})
				out = append(out, mutation{"wrong-type", p + "=\"x\"", func(d map[string]any) { set(d, cp, "x") }})
			}
		case []any:
			out = append(out, mutation{"wrong-type", p + "={}", func(d map[string]any) { set(d, cp, map[string]any{}) }})
			out = append(out, mutation{"empty-list", p + "=[]", func(d map[string]any) { set(d, cp, []any{}) }})
			if vary && len(v) > 0 {
				out = append(out, mutation{"removed-field", p + "[0]-", func(d map[string]any) {
					set(d, cp, get(d, cp).([]any)[1:])
				}})
			}
			if len(v) > 0 {
				out = append(out, mutation{"duplicate-item", p + "[0]x2", func(d map[string]any) {
					l := get(d, cp).([]any)
					first := clone(map[string]any{"v": l[0]})["v"]
					set(d, cp, append(l, first))
				}})
			}
			for i, item := range v {
				walk(item, append(append([]step(nil), path...), i))
			}
		case json.Number:
			values := []string{"-1", "0", "65536", "2147483648", "1.5"}
			if vary {
				values = append(values, variedNumbers...)
			}
			for _, nv := range values {
				if nv == string(v) {
					continue
				}
				cat := "int-range"
				if nv == "1.5" {
					cat = "wrong-type"
				}
				n := json.Number(nv)
				out = append(out, mutation{cat, p + "=" + nv, func(d map[string]any) { set(d, cp, n) }})
			}
			s := string(v)
			out = append(out, mutation{"wrong-type", p + "=\"" + s + "\"", func(d map[string]any) { set(d, cp, s) }})
			out = append(out, mutation{"wrong-type", p + "=true", func(d map[string]any) { set(d, cp, true) }})
		case bool:
			if vary {
				out = append(out, mutation{"wrong-type", p + "=yes", func(d map[string]any) { set(d, cp, "yes") }})
			}
			out = append(out, mutation{"wrong-type", p + "=\"true\"", func(d map[string]any) { set(d, cp, "true") }})
			out = append(out, mutation{"wrong-type", p + "=1", func(d map[string]any) { set(d, cp, json.Number("1")) }})
		case string:
			long := strings.Repeat("a", 254)
			edits := []struct{ cat, label, value string }{
				{"string-empty", "\"\"", ""},
				{"string-chars", "Bad_Value", "Bad_Value"},
				{"string-length", "254xa", long},
				{"string-length", "64xa", strings.Repeat("a", 64)},
			}
			if enumLike.MatchString(v) {
				edits = append(edits,
					struct{ cat, label, value string }{"enum-case", strings.ToLower(v), strings.ToLower(v)},
					struct{ cat, label, value string }{"enum-case", strings.ToUpper(v), strings.ToUpper(v)},
					struct{ cat, label, value string }{"enum-value", v + "x", v + "x"})
			}
			if vary {
				edits = append(edits, variedStrings(v)...)
			}
			if quantityLike.MatchString(v) {
				edits = append(edits,
					struct{ cat, label, value string }{"quantity", v + "B", v + "B"},
					struct{ cat, label, value string }{"quantity", "-" + v, "-" + v},
					struct{ cat, label, value string }{"quantity", "1.2.3", "1.2.3"})
			}
			for _, e := range edits {
				if e.value == v {
					continue
				}
				val := e.value
				label := e.label
				if len(label) > 40 {
					label = label[:40]
				}
				out = append(out, mutation{e.cat, p + "=" + label, func(d map[string]any) { set(d, cp, val) }})
			}
			out = append(out, mutation{"wrong-type", p + "=7", func(d map[string]any) { set(d, cp, json.Number("7")) }})
			out = append(out, mutation{"wrong-type", p + "={}", func(d map[string]any) { set(d, cp, map[string]any{"a": "b"}) }})
		}
	}
	walk(doc, nil)
	return out
}

// pick chooses up to n mutations: round robin over the categories (each
// shuffled), so that a large document does not give only one kind.
func (g *generator) pick(all []mutation, n int) []mutation {
	by := map[string][]mutation{}
	var cats []string
	for _, m := range all {
		if _, ok := by[m.category]; !ok {
			cats = append(cats, m.category)
		}
		by[m.category] = append(by[m.category], m)
	}
	sort.Strings(cats)
	for _, c := range cats {
		l := by[c]
		g.rng.Shuffle(len(l), func(i, j int) { l[i], l[j] = l[j], l[i] })
	}
	var out []mutation
	for len(out) < n {
		progressed := false
		for _, c := range cats {
			if len(by[c]) > 0 && len(out) < n {
				out = append(out, by[c][0])
				by[c] = by[c][1:]
				progressed = true
			}
		}
		if !progressed {
			break
		}
	}
	return out
}

// budget is the bytes of mutated documents one source may give: a small
// document gives many cases, a large one fewer, so the file stays small.
const budget = 8000

func (g *generator) fromSource(s source) {
	g.add(Case{Name: s.name + "/original", Category: "original", CrdFiles: s.crdFiles, Document: s.text})
	if s.value == nil {
		return
	}
	size := len(render(s.value))
	n := budget / size
	if n < 8 {
		n = 8
	}
	if n > 30 {
		n = 30
	}
	if g.vary {
		// The held-out set takes half as many again per source: its larger
		// pool of values would otherwise be sampled as thinly.
		n += n / 2
	}
	if str(s.value, "kind") == "CustomResourceDefinition" {
		// A CRD among check's inputs is used as one: the test checks each
		// alone, so few.
		n = 6
	}
	for _, m := range g.pick(mutations(s.value, g.vary), n) {
		doc := clone(s.value)
		m.apply(doc)
		g.add(Case{Name: s.name + "/" + m.label, Category: m.category, CrdFiles: s.crdFiles, Document: render(doc)})
	}
}

// variedNumbers are the held-out set's other numbers: each side of the
// usual rule edges (1, 65535 the last port, 2^31-1 the last int32, a
// negative large value, a typical bound such as 100 or 1000).
var variedNumbers = []string{"1", "-2", "100", "1000", "65535", "2147483647", "-2147483649"}

// variedStrings are the held-out set's other values of a string: other
// invalid names (a leading dash, a trailing dot, upper case, a space, two
// dots), the other side of the length edges (63 and 253 characters, the
// last valid label and subdomain), other enum typos (truncated, a trailing
// space, lower-cased first letter) and quantities (a wrong-case suffix, an
// exponent, a bare zero).
func variedStrings(v string) []struct{ cat, label, value string } {
	type edit = struct{ cat, label, value string }
	out := []edit{
		{"string-chars", "-leading", "-leading"},
		{"string-chars", "trailing.", "trailing."},
		{"string-chars", "UPPER", "UPPER"},
		{"string-chars", "a b", "a b"},
		{"string-chars", "a..b", "a..b"},
		{"string-length", "63xa", strings.Repeat("a", 63)},
		{"string-length", "253xa", strings.Repeat("a", 253)},
	}
	if enumLike.MatchString(v) {
		out = append(out,
			edit{"enum-value", v[:len(v)-1], v[:len(v)-1]},
			edit{"enum-value", v + " ", v + " "},
			edit{"enum-case", strings.ToLower(v[:1]) + v[1:], strings.ToLower(v[:1]) + v[1:]})
	}
	if quantityLike.MatchString(v) {
		out = append(out,
			edit{"quantity", "1ki", "1ki"},
			edit{"quantity", "1e3", "1e3"},
			edit{"quantity", "0", "0"})
	}
	return out
}
