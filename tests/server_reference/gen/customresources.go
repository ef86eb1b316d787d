package main

import (
	"fmt"
	"strings"
)

// crBases are small custom resources of the CRDs in tests/ and
// ../shared/crds, with the targeted cases of their schemas: pattern and
// length on array items and map values, list-map and list-set duplicate
// keys, enums, ranges, formats, metadata.
var crBases = []struct {
	name, text string
	rules      []rule
}{
	{"httproute", `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: default}
spec:
  parentRefs: [{name: gw}]
  hostnames: [shop.example.com]
  rules:
  - matches: [{path: {type: PathPrefix, value: /}}]
    backendRefs: [{name: web, port: 80}]
`, []rule{
		r("item-length", "hostnames[0]=254", "spec.hostnames[0]="+strings.Repeat("h", 60)+"."+strings.Repeat("h", 60)+"."+strings.Repeat("h", 60)+"."+strings.Repeat("h", 60)+".com"),
		r("item-length", "hostnames[0]=253", "spec.hostnames[0]="+strings.Repeat("h", 60)+"."+strings.Repeat("h", 60)+"."+strings.Repeat("h", 60)+"."+strings.Repeat("h", 59)+".com"),
		r("item-pattern", "hostnames[0]=Bad_Host", "spec.hostnames[0]=Bad_Host"),
		r("item-pattern", "hostnames[0]=wildcard", "spec.hostnames[0]='*.example.com'"),
		r("item-pattern", "hostnames[0]=ip", "spec.hostnames[0]=10.0.0.1"),
		r("max-items", "hostnames=17", "spec.hostnames=[a.com, b.com, c.com, d.com, e.com, f.com, g.com, h.com, i.com, j.com, k.com, l.com, m.com, n.com, o.com, p.com, q.com]"),
		r("list-duplicate", "hostnames-duplicate", "spec.hostnames=[a.com, a.com]"),
		r("item-pattern", "parentRefs[0].name=254", "spec.parentRefs[0].name="+strings.Repeat("p", 254)),
		r("item-pattern", "parentRefs[0].sectionName=Bad_Name", "spec.parentRefs[0].sectionName=Bad_Name"),
		r("item-pattern", "parentRefs[0].port=0", "spec.parentRefs[0].port=0"),
		r("port-range", "backendRefs[0].port=65536", "spec.rules[0].backendRefs[0].port=65536"),
		r("port-range", "backendRefs[0].port=0", "spec.rules[0].backendRefs[0].port=0"),
		r("item-pattern", "path.value=relative", "spec.rules[0].matches[0].path.value=shop"),
		r("enum-case", "path.type=prefix", "spec.rules[0].matches[0].path.type=pathprefix"),
		r("item-pattern", "header-name=bad header", "spec.rules[0].matches[0].headers=[{name: 'bad header', value: x}]"),
		r("list-map-duplicate", "header-name-duplicate", "spec.rules[0].matches[0].headers=[{name: a, value: x}, {name: a, value: y}]"),
		r("item-length", "backendRefs[0].name=254", "spec.rules[0].backendRefs[0].name="+strings.Repeat("b", 254)),
		r("int-range", "backendRefs[0].weight=-1", "spec.rules[0].backendRefs[0].weight=-1"),
		r("int-range", "backendRefs[0].weight=1000001", "spec.rules[0].backendRefs[0].weight=1000001"),
		r("cel-rule", "timeouts-backend>request", "spec.rules[0].timeouts={request: 1s, backendRequest: 2s}"),
		r("item-pattern", "timeouts=bad", "spec.rules[0].timeouts={request: 1 second}"),
		r("unknown-field", "rules[0]+unknown", "spec.rules[0].vergateUnknown=x"),
		r("misspelled-field", "rules[0]~BackendRefs", "spec.rules[0].BackendRefs=[{name: web, port: 80}]"),
		r("metadata-name", "name=Bad_Name", "metadata.name=Bad_Name"),
		r("metadata-name", "name=254", "metadata.name="+strings.Repeat("a", 254)),
		r("metadata-labels", "labels[bad key]", "metadata.labels[bad key]=x"),
		r("metadata-decoding", "creationTimestamp=yesterday", "metadata.creationTimestamp=yesterday"),
		r("wrong-type", "hostnames=string", "spec.hostnames=shop.example.com"),
		r("wrong-type", "spec.rules[0].backendRefs[0].port=\"80\"", "spec.rules[0].backendRefs[0].port='80'"),
	}},
	{"gateway", `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: default}
spec:
  gatewayClassName: example
  listeners:
  - {name: http, protocol: HTTP, port: 80}
`, []rule{
		r("list-map-duplicate", "listeners-duplicate-name", "spec.listeners[1]={name: http, protocol: HTTP, port: 8080}"),
		r("cel-rule", "listeners-same-port-host", "spec.listeners[1]={name: http2, protocol: HTTP, port: 80}"),
		r("item-pattern", "listeners[0].name=Bad_Name", "spec.listeners[0].name=Bad_Name"),
		r("item-length", "listeners[0].hostname=254", "spec.listeners[0].hostname="+strings.Repeat("h", 60)+"."+strings.Repeat("h", 60)+"."+strings.Repeat("h", 60)+"."+strings.Repeat("h", 60)+".com"),
		r("item-pattern", "listeners[0].hostname=Bad_Host", "spec.listeners[0].hostname=Bad_Host"),
		r("port-range", "listeners[0].port=0", "spec.listeners[0].port=0"),
		r("port-range", "listeners[0].port=65536", "spec.listeners[0].port=65536"),
		r("item-pattern", "listeners[0].protocol=bad proto", "spec.listeners[0].protocol='bad proto'"),
		r("cel-rule", "tls-with-HTTP", "spec.listeners[0].tls={}"),
		r("max-items", "listeners=65", "spec.listeners="+manyListeners(65)),
		r("item-pattern", "addresses-ip=bad", "spec.addresses=[{type: IPAddress, value: not-an-ip}]"),
		r("item-length", "gatewayClassName=254", "spec.gatewayClassName="+strings.Repeat("g", 254)),
		r("removed-field", "gatewayClassName-", "spec.gatewayClassName-"),
		r("removed-field", "listeners-", "spec.listeners-"),
		r("metadata-name", "name=Bad_Name", "metadata.name=Bad_Name"),
	}},
	{"servicemonitor", `apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: shop, namespace: default}
spec:
  selector: {matchLabels: {app: shop}}
  endpoints: [{port: web, interval: 30s}]
`, []rule{
		r("item-pattern", "endpoints[0].interval=30 seconds", "spec.endpoints[0].interval=30 seconds"),
		r("enum-case", "endpoints[0].scheme=ftp", "spec.endpoints[0].scheme=ftp"),
		r("enum-case", "endpoints[0].scheme=HTTP", "spec.endpoints[0].scheme=HTTP"),
		r("wrong-type", "endpoints[0].targetPort=list", "spec.endpoints[0].targetPort=[1]"),
		r("int-range", "sampleLimit=-1", "spec.sampleLimit=-1"),
		r("removed-field", "selector-", "spec.selector-"),
		r("map-value", "selector.matchLabels.v=64", "spec.selector.matchLabels.app="+strings.Repeat("v", 64)),
		r("unknown-field", "endpoints[0]+unknown", "spec.endpoints[0].vergateUnknown=x"),
		r("metadata-name", "name=Bad_Name", "metadata.name=Bad_Name"),
		r("metadata-labels", "labels.v=7", "metadata.labels={team: 7}"),
	}},
	{"application", `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: shop, namespace: default}
spec:
  project: default
  source: {repoURL: 'https://example.com/shop.git', path: deploy, targetRevision: HEAD}
  destination: {server: 'https://kubernetes.default.svc', namespace: shop}
`, []rule{
		r("removed-field", "destination-", "spec.destination-"),
		r("misspelled-field", "destination~destinaton", "spec.destinaton={namespace: shop}", "spec.destination-"),
		r("wrong-type", "source.path=7", "spec.source.path=7"),
		r("unknown-field", "spec+unknown", "spec.vergateUnknown=x"),
		r("metadata-name", "name=Bad_Name", "metadata.name=Bad_Name"),
		r("metadata-name", "name=254", "metadata.name="+strings.Repeat("a", 254)),
	}},
	{"widget", `apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: default}
spec: {name: web-1, replicas: 3, tier: small, tags: [a, b]}
`, []rule{
		r("list-set-duplicate", "tags-duplicate", "spec.tags=[a, a]"),
		r("max-items", "tags=4", "spec.tags=[a, b, c, d]"),
		r("item-pattern", "name=Bad", "spec.name=Bad"),
		r("int-range", "replicas=101", "spec.replicas=101"),
		r("enum-case", "tier=Small", "spec.tier=Small"),
	}},
	{"endpoint", `apiVersion: formats.example.com/v1
kind: Endpoint
metadata: {name: e, namespace: default}
spec: {}
`, nil},
}

func (g *generator) customResources() {
	for _, b := range crBases {
		m := parse(b.text)
		if m == nil {
			panic("base " + b.name + " does not parse")
		}
		crds := crdsFor(m)
		if crds == nil {
			panic("no CRD for base " + b.name)
		}
		name := "cr/" + b.name
		g.fromSource(source{name: name, text: b.text, value: m, crdFiles: crds})
		for _, rl := range b.rules {
			doc := applyOps(m, rl.ops)
			g.add(Case{Name: name + "/" + rl.label, Category: rl.category, CrdFiles: crds, Document: render(doc)})
		}
	}
}

// manyListeners is a flow list of n listeners with distinct names and ports.
func manyListeners(n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf("{name: l%d, protocol: HTTP, port: %d}", i, 1000+i)
	}
	return "[" + strings.Join(items, ", ") + "]"
}
