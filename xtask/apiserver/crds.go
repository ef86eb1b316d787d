package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const (
	// establishTimeout bounds the wait for a CRD to be Established and its
	// kinds to appear in discovery.
	establishTimeout = 30 * time.Second
	// maxCRDs bounds how many distinct CRD texts one run installs.
	maxCRDs = 5_000
	crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
)

// crdHead is what installCRD reads of a CRD.
type crdHead struct {
	Metadata struct {
		Name            string `json:"name"`
		ResourceVersion string `json:"resourceVersion,omitempty"`
	} `json:"metadata"`
	Spec struct {
		Group string `json:"group"`
		Names struct {
			Kind string `json:"kind"`
		} `json:"names"`
		Versions []struct {
			Name   string `json:"name"`
			Served bool   `json:"served"`
		} `json:"versions"`
	} `json:"spec"`
	Status struct {
		Conditions []struct {
			Type    string `json:"type"`
			Status  string `json:"status"`
			Reason  string `json:"reason"`
			Message string `json:"message"`
		} `json:"conditions"`
	} `json:"status"`
}

// installCRD creates (or, when one of that name exists from another text,
// replaces) a CRD, as kubectl apply would (fieldValidation=Strict), and
// waits until it is Established and served. It returns the server's
// refusal as a verdict of stage "crd", once per distinct text.
func (r *recorder) installCRD(text string) (*verdict, error) {
	if v, done := r.crds[text]; done {
		return v, nil
	}
	if len(r.crds) >= maxCRDs {
		return nil, fmt.Errorf("more than %d distinct CRD texts in one run: split the cases", maxCRDs)
	}
	v, err := r.installCRDOnce(text)
	if err != nil {
		return nil, err
	}
	if v != nil {
		v.Stage = "crd"
	}
	r.crds[text] = v
	// Kinds served (or no longer served) have changed.
	r.discovery = map[string]*metav1.APIResourceList{}
	return v, nil
}

func (r *recorder) installCRDOnce(text string) (*verdict, error) {
	t, early, err := r.target(text)
	if err != nil || early != nil {
		return early, err
	}
	var head crdHead
	if err := json.Unmarshal(t.body, &head); err != nil {
		return nil, err
	}
	created, err := r.post(t, "", "Strict")
	if err != nil {
		return nil, err
	}
	if created.Verdict != "accept" {
		if created.Code != http.StatusConflict || head.Metadata.Name == "" {
			return &created, nil
		}
		replaced, err := r.replaceCRD(head.Metadata.Name, t.body)
		if err != nil || replaced.Verdict != "accept" {
			return &replaced, err
		}
	}
	return r.waitServed(head)
}

// replaceCRD puts a CRD's new text over the one of that name installed by
// an earlier case.
func (r *recorder) replaceCRD(name string, body []byte) (verdict, error) {
	path := crdPath + "/" + url.PathEscape(name)
	current, err := r.s.get(path)
	if err != nil {
		return verdict{}, err
	}
	var old crdHead
	if err := json.Unmarshal(current, &old); err != nil {
		return verdict{}, fmt.Errorf("GET %s: %w", path, err)
	}
	var obj map[string]any
	if err := json.Unmarshal(body, &obj); err != nil {
		return verdict{}, err
	}
	meta, _ := obj["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		obj["metadata"] = meta
	}
	meta["resourceVersion"] = old.Metadata.ResourceVersion
	newBody, err := json.Marshal(obj)
	if err != nil {
		return verdict{}, err
	}
	code, header, answerBody, err := r.s.do(context.Background(), http.MethodPut, path+"?fieldValidation=Strict", newBody)
	if err != nil {
		return verdict{}, err
	}
	return answer(code, header, answerBody), nil
}

// waitServed waits until the CRD is Established and each served version
// lists its kind in discovery; a CRD that never gets there is refused with
// its conditions as the message.
func (r *recorder) waitServed(head crdHead) (*verdict, error) {
	deadline := time.Now().Add(establishTimeout)
	path := crdPath + "/" + url.PathEscape(head.Metadata.Name)
	var conditions string
	for time.Now().Before(deadline) {
		body, err := r.s.get(path)
		if err != nil {
			return nil, err
		}
		var cur crdHead
		if err := json.Unmarshal(body, &cur); err != nil {
			return nil, fmt.Errorf("GET %s: %w", path, err)
		}
		var parts []string
		established := false
		for _, c := range cur.Status.Conditions {
			parts = append(parts, fmt.Sprintf("%s=%s (%s: %s)", c.Type, c.Status, c.Reason, c.Message))
			if c.Type == "Established" && c.Status == "True" {
				established = true
			}
		}
		conditions = strings.Join(parts, "; ")
		if established && r.discoveryLists(cur) {
			return nil, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	msg := fmt.Sprintf("CustomResourceDefinition %q was accepted but not served within %s: %s", head.Metadata.Name, establishTimeout, conditions)
	return refusal("crd", 0, "NotEstablished", msg), nil
}

// discoveryLists says whether every served version of the CRD lists its kind.
func (r *recorder) discoveryLists(crd crdHead) bool {
	for _, v := range crd.Spec.Versions {
		if !v.Served {
			continue
		}
		code, _, body, err := r.s.do(context.Background(), http.MethodGet, groupVersionPath(crd.Spec.Group+"/"+v.Name), nil)
		if err != nil || code != http.StatusOK {
			return false
		}
		var list metav1.APIResourceList
		if json.Unmarshal(body, &list) != nil {
			return false
		}
		found := false
		for _, res := range list.APIResources {
			found = found || res.Kind == crd.Spec.Names.Kind
		}
		if !found {
			return false
		}
	}
	return true
}
