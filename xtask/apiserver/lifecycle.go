package main

import (
	"fmt"
	"reflect"
	"sort"

	apiextensionsapiserver "k8s.io/apiextensions-apiserver/pkg/apiserver"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	aggregatorscheme "k8s.io/kube-aggregator/pkg/apiserver/scheme"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
)

// kindLifecycle is one lifecycle output entry. A null version means the Go
// type has no such generated method (or it reports nothing).
type kindLifecycle struct {
	Group       string     `json:"group"`
	Version     string     `json:"version"`
	Kind        string     `json:"kind"`
	Introduced  *string    `json:"introduced"`
	Deprecated  *string    `json:"deprecated"`
	Removed     *string    `json:"removed"`
	Replacement *gvkOutput `json:"replacement"`
}

type gvkOutput struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

// The methods k8s.io/code-generator's prerelease-lifecycle-gen writes for
// types tagged +k8s:prerelease-lifecycle-gen.
type (
	introducedIn  interface{ APILifecycleIntroduced() (int, int) }
	deprecatedIn  interface{ APILifecycleDeprecated() (int, int) }
	removedIn     interface{ APILifecycleRemoved() (int, int) }
	replacementOf interface {
		APILifecycleReplacement() schema.GroupVersionKind
	}
)

// lifecycle lists every external kind of the server's schemes whose Go type
// has the generated APILifecycleIntroduced method, sorted by group, version,
// kind.
func lifecycle() []kindLifecycle {
	seen := map[schema.GroupVersionKind]bool{}
	out := []kindLifecycle{}
	for _, scheme := range []*runtime.Scheme{legacyscheme.Scheme, apiextensionsapiserver.Scheme, aggregatorscheme.Scheme} {
		for gvk, t := range scheme.AllKnownTypes() {
			if gvk.Version == runtime.APIVersionInternal || seen[gvk] {
				continue
			}
			obj := reflect.New(t).Interface()
			intro, ok := obj.(introducedIn)
			if !ok {
				continue
			}
			seen[gvk] = true
			e := kindLifecycle{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind}
			e.Introduced = minorString(intro.APILifecycleIntroduced())
			if d, ok := obj.(deprecatedIn); ok {
				e.Deprecated = minorString(d.APILifecycleDeprecated())
			}
			if r, ok := obj.(removedIn); ok {
				e.Removed = minorString(r.APILifecycleRemoved())
			}
			if r, ok := obj.(replacementOf); ok {
				if g := r.APILifecycleReplacement(); !g.Empty() {
					e.Replacement = &gvkOutput{Group: g.Group, Version: g.Version, Kind: g.Kind}
				}
			}
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		return a.Kind < b.Kind
	})
	return out
}

// minorString renders a generated (major, minor) pair; (0, 0) means unset.
func minorString(major, minor int) *string {
	if major == 0 && minor == 0 {
		return nil
	}
	s := fmt.Sprintf("%d.%d", major, minor)
	return &s
}
