//go:build k8s_1_31 || k8s_1_32 || k8s_1_33 || k8s_1_34 || k8s_1_35

package main

import "k8s.io/component-base/featuregate"

// minCompatibility: FeatureSpec has no MinCompatibilityVersion before 1.36.
func minCompatibility(featuregate.FeatureSpec) *string { return nil }
