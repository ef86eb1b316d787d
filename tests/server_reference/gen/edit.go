package main

import (
	"fmt"
	"strconv"
	"strings"
)

// parsePath reads `spec.containers[0].image` and `metadata.labels[a.b/c]`
// into steps.
func parsePath(p string) []step {
	var out []step
	for p != "" {
		switch {
		case p[0] == '.':
			p = p[1:]
		case p[0] == '[':
			end := strings.IndexByte(p, ']')
			inner := p[1:end]
			if n, err := strconv.Atoi(inner); err == nil {
				out = append(out, n)
			} else {
				out = append(out, inner)
			}
			p = p[end+1:]
		default:
			end := strings.IndexAny(p, ".[")
			if end < 0 {
				end = len(p)
			}
			out = append(out, p[:end])
			p = p[end:]
		}
	}
	return out
}

// ensure walks to the path's container, making mappings that are missing.
func ensure(doc map[string]any, path []step) any {
	var cur any = doc
	for i, s := range path[:len(path)-1] {
		switch s := s.(type) {
		case string:
			m := cur.(map[string]any)
			next, ok := m[s]
			if !ok || next == nil {
				if _, isIndex := path[i+1].(int); isIndex {
					next = []any{}
				} else {
					next = map[string]any{}
				}
				m[s] = next
			}
			cur = next
		case int:
			l := cur.([]any)
			if s >= len(l) {
				panic(fmt.Sprintf("index %d past the list", s))
			}
			cur = l[s]
		}
	}
	return cur
}

// applyOps applies `path=<YAML value>` (set; a list index one past the end
// appends) and `path-` (delete) to a copy of doc.
func applyOps(doc map[string]any, ops []string) map[string]any {
	d := clone(doc)
	for _, op := range ops {
		if path, ok := strings.CutSuffix(op, "-"); ok && !strings.Contains(op, "=") {
			steps := parsePath(path)
			if m, ok := ensure(d, steps).(map[string]any); ok {
				delete(m, steps[len(steps)-1].(string))
			}
			continue
		}
		path, raw, _ := strings.Cut(op, "=")
		steps := parsePath(path)
		v := parse("v: " + raw)
		if v == nil {
			panic("bad value in op " + op)
		}
		val := v["v"]
		switch c := ensure(d, steps).(type) {
		case map[string]any:
			c[steps[len(steps)-1].(string)] = val
		case []any:
			i := steps[len(steps)-1].(int)
			if i == len(c) {
				set(d, steps[:len(steps)-1], append(c, val))
			} else {
				c[i] = val
			}
		}
	}
	return d
}
