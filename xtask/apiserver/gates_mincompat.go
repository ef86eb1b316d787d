//go:build !k8s_1_28 && !k8s_1_29 && !k8s_1_30 && !k8s_1_31 && !k8s_1_32 && !k8s_1_33 && !k8s_1_34 && !k8s_1_35

package main

import "k8s.io/component-base/featuregate"

// minCompatibility is the spec's MinCompatibilityVersion (a field from 1.36 on).
func minCompatibility(spec featuregate.FeatureSpec) *string {
	if spec.MinCompatibilityVersion == nil {
		return nil
	}
	return majorMinor(spec.MinCompatibilityVersion)
}
