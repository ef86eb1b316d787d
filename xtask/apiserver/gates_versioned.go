//go:build !k8s_1_28 && !k8s_1_29 && !k8s_1_30

package main

import (
	"fmt"
	"sort"

	"k8s.io/apimachinery/pkg/util/version"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
)

// registeredGates lists the versioned specs (1.31 on): each gate's full
// history (oldest first; fromVersion null for a spec registered without a
// version), and lockToDefault of the newest spec not after this minor.
func registeredGates() []gate {
	binary := version.MustParse(kubeMinor())
	var out []gate
	for name, specs := range utilfeature.DefaultMutableFeatureGate.GetAllVersioned() {
		if pseudoGates[name] {
			continue
		}
		sort.Stable(specs)
		g := gate{Name: string(name), Stages: []gateStage{}}
		for _, spec := range specs {
			st := gateStage{Stage: stageName(string(spec.PreRelease)), DefaultValue: spec.Default}
			// Gates added without a version (featuregate.Add, 1.31 and 1.32)
			// get 0.0: they hold for every version.
			unversioned := spec.Version == nil || (spec.Version.Major() == 0 && spec.Version.Minor() == 0)
			if !unversioned {
				st.FromVersion = majorMinor(spec.Version)
			}
			if unversioned || !spec.Version.GreaterThan(binary) {
				g.LockToDefault = spec.LockToDefault
			}
			st.MinCompatibilityVersion = minCompatibility(spec)
			g.Stages = append(g.Stages, st)
		}
		out = append(out, g)
	}
	return out
}

func majorMinor(v *version.Version) *string {
	s := fmt.Sprintf("%d.%d", v.Major(), v.Minor())
	return &s
}
