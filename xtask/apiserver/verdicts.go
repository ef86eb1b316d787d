package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"sigs.k8s.io/yaml"
)

// caseOutput is one line of the verdicts output.
type caseOutput struct {
	Name   string  `json:"name"`
	Minor  string  `json:"minor"`
	Strict verdict `json:"strict"`
	Warn   verdict `json:"warn"`
}

// verdict is the server's answer to one dry-run create. Stage is empty when
// the document itself was sent; "crd" when a CRD of the case was refused
// (the answer is that CRD's), "discovery" when the server serves no such
// kind, "client" when the document cannot be sent at all.
type verdict struct {
	Verdict  string   `json:"verdict"`
	Stage    string   `json:"stage,omitempty"`
	Code     int      `json:"code"`
	Reason   string   `json:"reason"`
	Message  string   `json:"message"`
	Causes   []cause  `json:"causes"`
	Warnings []string `json:"warnings"`
}

type cause struct {
	Field   string `json:"field"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// writeVerdicts records every case, in input order, one JSON line each.
func writeVerdicts(s *server, cases []caseInput, out string) error {
	r := newRecorder(s)
	if err := r.ensureNamespace("default"); err != nil {
		return err
	}
	var buf bytes.Buffer
	for _, c := range cases {
		o, err := r.record(c)
		if err != nil {
			return fmt.Errorf("case %q: %w", c.Name, err)
		}
		line, err := marshalLine(o)
		if err != nil {
			return err
		}
		buf.Write(line)
	}
	return writeOutput(out, buf.Bytes())
}

// recorder keeps what a run has set up: CRDs by text, namespaces, and
// discovery answers (dropped when a CRD is installed).
type recorder struct {
	s          *server
	crds       map[string]*verdict // CRD text -> nil when installed, else its refusal
	namespaces map[string]bool
	discovery  map[string]*metav1.APIResourceList // group/version -> nil when not served
}

func newRecorder(s *server) *recorder {
	return &recorder{s: s, crds: map[string]*verdict{}, namespaces: map[string]bool{}, discovery: map[string]*metav1.APIResourceList{}}
}

// record installs the case's CRDs and sends its document twice.
func (r *recorder) record(c caseInput) (caseOutput, error) {
	o := caseOutput{Name: c.Name, Minor: kubeMinor()}
	for _, text := range c.CRDs {
		refused, err := r.installCRD(text)
		if err != nil {
			return o, err
		}
		if refused != nil {
			o.Strict, o.Warn = *refused, *refused
			return o, nil
		}
	}
	target, early, err := r.target(*c.Document)
	if err != nil {
		return o, err
	}
	if early != nil {
		o.Strict, o.Warn = *early, *early
		return o, nil
	}
	if o.Strict, err = r.post(target, "All", "Strict"); err != nil {
		return o, err
	}
	if o.Warn, err = r.post(target, "All", "Warn"); err != nil {
		return o, err
	}
	return o, nil
}

// sendTarget is a document ready to send: its JSON body and its
// collection's path.
type sendTarget struct {
	body []byte
	path string
}

// target converts a document as kubectl does (YAML to JSON with
// sigs.k8s.io/yaml) and finds its collection by discovery. A document that
// cannot be sent gets its verdict here instead.
func (r *recorder) target(doc string) (sendTarget, *verdict, error) {
	body, err := yaml.YAMLToJSON([]byte(doc))
	if err != nil {
		return sendTarget{}, refusal("client", http.StatusBadRequest, metav1.StatusReasonBadRequest, err.Error()), nil
	}
	var head struct {
		APIVersion any `json:"apiVersion"`
		Kind       any `json:"kind"`
		Metadata   struct {
			Namespace any `json:"namespace"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(body, &head); err != nil {
		return sendTarget{}, refusal("client", http.StatusBadRequest, metav1.StatusReasonBadRequest, "the document is not an object: "+err.Error()), nil
	}
	apiVersion, _ := head.APIVersion.(string)
	kind, _ := head.Kind.(string)
	var missing []string
	if apiVersion == "" {
		missing = append(missing, "apiVersion not set")
	}
	if kind == "" {
		missing = append(missing, "kind not set")
	}
	if len(missing) > 0 {
		return sendTarget{}, refusal("client", http.StatusBadRequest, metav1.StatusReasonBadRequest, "error validating data: ["+strings.Join(missing, ", ")+"]"), nil
	}
	res, err := r.resource(apiVersion, kind)
	if err != nil {
		return sendTarget{}, nil, err
	}
	if res == nil {
		msg := fmt.Sprintf("no matches for kind %q in version %q", kind, apiVersion)
		return sendTarget{}, refusal("discovery", http.StatusNotFound, metav1.StatusReasonNotFound, msg), nil
	}
	path := groupVersionPath(apiVersion)
	if res.Namespaced {
		ns, _ := head.Metadata.Namespace.(string)
		if ns == "" {
			ns = "default"
		}
		if err := r.ensureNamespace(ns); err != nil {
			return sendTarget{}, nil, err
		}
		path += "/namespaces/" + url.PathEscape(ns)
	}
	return sendTarget{body: body, path: path + "/" + res.Name}, nil, nil
}

// post creates the target with the given dryRun and fieldValidation.
func (r *recorder) post(t sendTarget, dryRun, fieldValidation string) (verdict, error) {
	q := url.Values{}
	if dryRun != "" {
		q.Set("dryRun", dryRun)
	}
	q.Set("fieldValidation", fieldValidation)
	code, header, body, err := r.s.do(context.Background(), http.MethodPost, t.path+"?"+q.Encode(), t.body)
	if err != nil {
		return verdict{}, err
	}
	return answer(code, header, body), nil
}

// answer turns the server's response into a verdict.
func answer(code int, header http.Header, body []byte) verdict {
	v := verdict{Verdict: "accept", Code: code, Causes: []cause{}, Warnings: []string{}}
	warnings, _ := utilnet.ParseWarningHeaders(header.Values("Warning"))
	for _, w := range warnings {
		v.Warnings = append(v.Warnings, w.Text)
	}
	if code >= 200 && code < 300 {
		return v
	}
	v.Verdict = "refuse"
	var st metav1.Status
	if err := json.Unmarshal(body, &st); err != nil || st.Kind != "Status" {
		v.Reason = http.StatusText(code)
		v.Message = truncate(strings.TrimSpace(string(body)), 4096)
		return v
	}
	v.Reason = string(st.Reason)
	v.Message = st.Message
	if st.Details != nil {
		for _, c := range st.Details.Causes {
			v.Causes = append(v.Causes, cause{Field: c.Field, Reason: string(c.Type), Message: c.Message})
		}
	}
	return v
}

// refusal is a verdict made before the document reached the server.
func refusal(stage string, code int, reason metav1.StatusReason, message string) *verdict {
	return &verdict{Verdict: "refuse", Stage: stage, Code: code, Reason: string(reason), Message: message, Causes: []cause{}, Warnings: []string{}}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// groupVersionPath is the path of a group/version: /api/v1 or /apis/G/V.
func groupVersionPath(apiVersion string) string {
	if !strings.Contains(apiVersion, "/") {
		return "/api/" + url.PathEscape(apiVersion)
	}
	g, v, _ := strings.Cut(apiVersion, "/")
	return "/apis/" + url.PathEscape(g) + "/" + url.PathEscape(v)
}

// resource finds the top-level resource serving kind in apiVersion; nil
// when the server does not serve it.
func (r *recorder) resource(apiVersion, kind string) (*metav1.APIResource, error) {
	if strings.Count(apiVersion, "/") > 1 {
		return nil, nil
	}
	list, ok := r.discovery[apiVersion]
	if !ok {
		code, _, body, err := r.s.do(context.Background(), http.MethodGet, groupVersionPath(apiVersion), nil)
		if err != nil {
			return nil, err
		}
		switch code {
		case http.StatusOK:
			list = &metav1.APIResourceList{}
			if err := json.Unmarshal(body, list); err != nil {
				return nil, fmt.Errorf("discovery of %s: %w", apiVersion, err)
			}
		case http.StatusNotFound:
			list = nil
		default:
			return nil, fmt.Errorf("discovery of %s: %d %s", apiVersion, code, firstLines(body, 3))
		}
		r.discovery[apiVersion] = list
	}
	if list == nil {
		return nil, nil
	}
	for i := range list.APIResources {
		res := &list.APIResources[i]
		if res.Kind == kind && !strings.Contains(res.Name, "/") {
			return res, nil
		}
	}
	return nil, nil
}

// ensureNamespace creates a namespace and its default ServiceAccount (which
// a cluster's controller-manager would create, and the ServiceAccount
// admission plugin looks up for pods) once per run. A namespace the server
// refuses is left alone: the document's own request then gets the answer.
func (r *recorder) ensureNamespace(ns string) error {
	if r.namespaces[ns] {
		return nil
	}
	r.namespaces[ns] = true
	nsBody := fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q}}`, ns)
	code, _, body, err := r.s.do(context.Background(), http.MethodPost, "/api/v1/namespaces", []byte(nsBody))
	if err != nil {
		return err
	}
	switch code {
	case http.StatusCreated, http.StatusConflict:
	case http.StatusUnprocessableEntity:
		return nil
	default:
		return fmt.Errorf("creating namespace %q: %d %s", ns, code, firstLines(body, 3))
	}
	saBody := `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"default"}}`
	code, _, body, err = r.s.do(context.Background(), http.MethodPost, "/api/v1/namespaces/"+url.PathEscape(ns)+"/serviceaccounts", []byte(saBody))
	if err != nil {
		return err
	}
	if code != http.StatusCreated && code != http.StatusConflict {
		return fmt.Errorf("creating the default ServiceAccount of %q: %d %s", ns, code, firstLines(body, 3))
	}
	return nil
}
