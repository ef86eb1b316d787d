package main

import (
	"sort"

	"k8s.io/component-base/featuregate"
)

// gateTable is the feature-gates output.
type gateTable struct {
	Minor string `json:"minor"`
	Gates []gate `json:"gates"`
}

// gate is one feature gate with its stages, oldest first.
type gate struct {
	Name          string      `json:"name"`
	LockToDefault bool        `json:"lockToDefault"`
	Stages        []gateStage `json:"stages"`
}

// gateStage is one spec of a gate: from FromVersion on (null where the
// registry of this minor is not versioned), the gate is at Stage with
// DefaultValue. MinCompatibilityVersion, where the registry sets it, is the
// --min-compatibility-version from which this default applies.
type gateStage struct {
	Stage                   string  `json:"stage"`
	DefaultValue            bool    `json:"defaultValue"`
	FromVersion             *string `json:"fromVersion"`
	MinCompatibilityVersion *string `json:"minCompatibilityVersion,omitempty"`
}

// pseudoGates are the switches every registry has that set other gates
// (--feature-gates=AllAlpha=true); they are not features and are left out.
var pseudoGates = map[featuregate.Feature]bool{"AllAlpha": true, "AllBeta": true}

// stageName maps the registry's prerelease value to the output's stage.
func stageName(p string) string {
	switch p {
	case "ALPHA":
		return "alpha"
	case "BETA":
		return "beta"
	case "":
		return "stable"
	case "DEPRECATED":
		return "deprecated"
	case "PRE-ALPHA":
		return "prealpha"
	default:
		return p
	}
}

// featureGates reads the process-wide gate registry, into which the
// kube-apiserver's packages (k8s.io/kubernetes/pkg/features, the generic
// apiserver's and component-base's gates) register at init.
func featureGates() gateTable {
	gates := registeredGates()
	sort.Slice(gates, func(i, j int) bool { return gates[i].Name < gates[j].Name })
	return gateTable{Minor: kubeMinor(), Gates: gates}
}
