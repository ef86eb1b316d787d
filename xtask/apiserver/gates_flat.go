//go:build k8s_1_28 || k8s_1_29 || k8s_1_30

package main

import utilfeature "k8s.io/apiserver/pkg/util/feature"

// registeredGates lists the registry before versioned specs (up to 1.30):
// one current stage per gate, with no version.
func registeredGates() []gate {
	var out []gate
	for name, spec := range utilfeature.DefaultMutableFeatureGate.GetAll() {
		if pseudoGates[name] {
			continue
		}
		out = append(out, gate{
			Name:          string(name),
			LockToDefault: spec.LockToDefault,
			Stages:        []gateStage{{Stage: stageName(string(spec.PreRelease)), DefaultValue: spec.Default}},
		})
	}
	return out
}
