package main

import (
	"fmt"
	"strings"
)

// rule is one targeted change: its category, its label (the case name's
// suffix) and its edits (see applyOps).
type rule struct {
	category, label string
	ops             []string
}

func r(category, label string, ops ...string) rule { return rule{category, label, ops} }

// names are metadata.name values that tell the name rules apart: DNS-1123
// subdomain (most kinds), label (Namespace, Service), path segment (RBAC).
var names = []struct{ label, value string }{
	{"Bad_Name", "Bad_Name"}, {"dotted", "a.b"}, {"UPPER", "UPPER"}, {"colon", "'a:b'"},
	{"slash", "a/b"}, {"percent", "'a%b'"}, {"leading-dash", "-a"}, {"trailing-dash", "a-"},
	{"double-dot", "a..b"}, {"dot", "'.'"}, {"dotdot", "'..'"}, {"space", "'a b'"},
	{"63", strings.Repeat("a", 63)}, {"64", strings.Repeat("a", 64)},
	{"253", strings.Repeat("a", 253)}, {"254", strings.Repeat("a", 254)},
	{"empty", "''"}, {"number", "7"}, {"tilde", "'a~b'"},
}

// metadataRules are the ObjectMeta cases every kind gets.
func metadataRules() []rule {
	var out []rule
	for _, n := range names {
		out = append(out, r("metadata-name", "metadata.name="+n.label, "metadata.name="+n.value))
	}
	out = append(out,
		r("metadata-name", "metadata.name-", "metadata.name-"),
		r("metadata-generatename", "generateName=web-", "metadata.name-", "metadata.generateName=web-"),
		r("metadata-generatename", "generateName=Bad_", "metadata.name-", "metadata.generateName=Bad_"),
		r("metadata-generatename", "generateName=254", "metadata.name-", "metadata.generateName="+strings.Repeat("a", 254)),
		r("metadata-generatename", "generateName+name", "metadata.generateName=web-"),
		r("metadata-labels", "labels[bad key]", "metadata.labels[bad key]=x"),
		r("metadata-labels", "labels[a/b/c]", "metadata.labels[a/b/c]=x"),
		r("metadata-labels", "labels[-x]", "metadata.labels[-x]=x"),
		r("metadata-labels", "labels[example.com/]", "metadata.labels[example.com/]=x"),
		r("metadata-labels", "labels[Example.com/x]", "metadata.labels[Example.com/x]=x"),
		r("metadata-labels", "labels[64-char-name]", "metadata.labels["+strings.Repeat("k", 64)+"]=x"),
		r("metadata-labels", "labels[254-char-prefix]", "metadata.labels["+strings.Repeat("p", 254)+"/x]=x"),
		r("metadata-labels", "labels.v=63", "metadata.labels[v]="+strings.Repeat("v", 63)),
		r("metadata-labels", "labels.v=64", "metadata.labels[v]="+strings.Repeat("v", 64)),
		r("metadata-labels", "labels.v=space", "metadata.labels[v]='a b'"),
		r("metadata-labels", "labels.v=-x", "metadata.labels[v]=-x"),
		r("metadata-labels", "labels.v=empty", "metadata.labels[v]=''"),
		r("metadata-labels", "labels.v=7", "metadata.labels[v]=7"),
		r("metadata-labels", "labels.v=true", "metadata.labels[v]=true"),
		r("metadata-labels", "labels.v=null", "metadata.labels[v]=null"),
		r("metadata-labels", "labels=list", "metadata.labels=[a]"),
		r("metadata-annotations", "annotations[bad key]", "metadata.annotations[bad key]=x"),
		r("metadata-annotations", "annotations[a/b/c]", "metadata.annotations[a/b/c]=x"),
		r("metadata-annotations", "annotations[Example.com/x]", "metadata.annotations[Example.com/x]=x"),
		r("metadata-annotations", "annotations.v=7", "metadata.annotations[v]=7"),
		r("metadata-annotations", "annotations.v=long", "metadata.annotations[v]="+strings.Repeat("v", 300)),
		r("metadata-namespace", "namespace=Bad_NS", "metadata.namespace=Bad_NS"),
		r("metadata-namespace", "namespace=64", "metadata.namespace="+strings.Repeat("n", 64)),
		r("metadata-decoding", "creationTimestamp=yesterday", "metadata.creationTimestamp=yesterday"),
		r("metadata-decoding", "creationTimestamp=rfc3339", "metadata.creationTimestamp='2024-05-01T10:00:00Z'"),
		r("metadata-decoding", "creationTimestamp=7", "metadata.creationTimestamp=7"),
		r("metadata-decoding", "uid=7", "metadata.uid=7"),
		r("metadata-decoding", "generation=x", "metadata.generation=x"),
		r("metadata-decoding", "resourceVersion=12", "metadata.resourceVersion='12'"),
		r("metadata-decoding", "deletionTimestamp=yesterday", "metadata.deletionTimestamp=yesterday"),
		r("metadata-finalizers", "finalizers=bad", "metadata.finalizers=['bad finalizer']"),
		r("metadata-finalizers", "finalizers=ok", "metadata.finalizers=[example.com/cleanup]"),
		r("metadata-finalizers", "finalizers=unqualified", "metadata.finalizers=[cleanup]"),
		r("metadata-ownerreferences", "ownerReferences-uid", "metadata.ownerReferences=[{apiVersion: v1, kind: ConfigMap, name: owner}]"),
		r("metadata-ownerreferences", "ownerReferences=ok", "metadata.ownerReferences=[{apiVersion: v1, kind: ConfigMap, name: owner, uid: 6b1c2a4e-0d3c-4f8e-9a51-2f0c7d1e9b10}]"),
		r("metadata-ownerreferences", "ownerReferences=2-controllers", "metadata.ownerReferences=[{apiVersion: v1, kind: ConfigMap, name: a, uid: u1, controller: true}, {apiVersion: v1, kind: ConfigMap, name: b, uid: u2, controller: true}]"),
		r("type-meta", "apiVersion-", "apiVersion-"),
		r("type-meta", "kind-", "kind-"),
		r("type-meta", "kind=lowercase", "kind=deployment"),
		r("type-meta", "apiVersion=v9", "apiVersion=example.invalid/v9"),
		r("unknown-field", "top+status", "status={phase: Bogus}"),
		r("unknown-field", "metadata+unknown", "metadata.vergateUnknown=x"),
		r("misspelled-field", "metadata~Name", "metadata.Name=web"),
		r("misnested-field", "name-at-top", "name=web"),
	)
	return out
}

// podRules are the Go validation rules of a pod spec (prefix P).
var podRules = []rule{
	r("pod-container", "missing-image", "P.containers[0].image-"),
	r("pod-container", "image=spaces", "P.containers[0].image='ngi nx'"),
	r("pod-container", "image=trailing-space", "P.containers[0].image='nginx '"),
	r("pod-container", "containers=[]", "P.containers=[]"),
	r("pod-container", "container-name=Bad_Name", "P.containers[0].name=Bad_Name"),
	r("pod-container", "container-name-", "P.containers[0].name-"),
	r("duplicate-name", "duplicate-container-name", "P.containers[1]={name: c0, image: busybox}", "P.containers[2]={name: c0, image: busybox}"),
	r("duplicate-name", "duplicate-volume-name", "P.volumes=[{name: v, emptyDir: {}}, {name: v, emptyDir: {}}]"),
	r("duplicate-name", "duplicate-port-name", "P.containers[0].ports=[{name: p, containerPort: 80}, {name: p, containerPort: 81}]"),
	r("list-map-duplicate", "duplicate-containerPort", "P.containers[0].ports=[{containerPort: 80}, {containerPort: 80}]"),
	r("list-map-duplicate", "duplicate-containerPort-protocols", "P.containers[0].ports=[{containerPort: 80, protocol: TCP}, {containerPort: 80, protocol: UDP}]"),
	r("list-map-duplicate", "duplicate-env", "P.containers[0].env=[{name: A, value: x}, {name: A, value: y}]"),
	r("port-range", "containerPort=0", "P.containers[0].ports=[{containerPort: 0}]"),
	r("port-range", "containerPort=65536", "P.containers[0].ports=[{containerPort: 65536}]"),
	r("port-range", "containerPort=-1", "P.containers[0].ports=[{containerPort: -1}]"),
	r("port-range", "hostPort=70000", "P.containers[0].ports=[{containerPort: 80, hostPort: 70000}]"),
	r("int32-overflow", "containerPort=2147483648", "P.containers[0].ports=[{containerPort: 2147483648}]"),
	r("enum-case", "protocol=tcp", "P.containers[0].ports=[{containerPort: 80, protocol: tcp}]"),
	r("enum-case", "imagePullPolicy=always", "P.containers[0].imagePullPolicy=always"),
	r("enum-case", "restartPolicy=always", "P.restartPolicy=always"),
	r("enum-case", "dnsPolicy=default", "P.dnsPolicy=default"),
	r("pod-rule", "restartPolicy=Never", "P.restartPolicy=Never"),
	r("pod-rule", "dnsPolicy=None-without-dnsConfig", "P.dnsPolicy=None"),
	r("pod-rule", "terminationGracePeriodSeconds=-1", "P.terminationGracePeriodSeconds=-1"),
	r("pod-rule", "activeDeadlineSeconds=0", "P.activeDeadlineSeconds=0"),
	r("pod-rule", "volumeMount-unknown-volume", "P.containers[0].volumeMounts=[{name: nope, mountPath: /x}]"),
	r("pod-rule", "volumeMount-relative-path", "P.volumes=[{name: v, emptyDir: {}}]", "P.containers[0].volumeMounts=[{name: v, mountPath: x}]"),
	r("pod-rule", "volume-without-source", "P.volumes=[{name: v}]"),
	r("pod-rule", "volume-two-sources", "P.volumes=[{name: v, emptyDir: {}, hostPath: {path: /x}}]"),
	r("pod-rule", "env-name=1BAD", "P.containers[0].env=[{name: 1BAD, value: x}]"),
	r("pod-rule", "env-name=with=equals", "P.containers[0].env=[{name: 'A=B', value: x}]"),
	r("pod-rule", "env-value-and-valueFrom", "P.containers[0].env=[{name: A, value: x, valueFrom: {fieldRef: {fieldPath: metadata.name}}}]"),
	r("pod-rule", "env-fieldPath-unknown", "P.containers[0].env=[{name: A, valueFrom: {fieldRef: {fieldPath: metadata.nope}}}]"),
	r("pod-rule", "requests-over-limits", "P.containers[0].resources={requests: {cpu: '2'}, limits: {cpu: '1'}}"),
	r("pod-rule", "resource-name-unknown", "P.containers[0].resources={limits: {gpu: '1'}}"),
	r("quantity", "cpu=abc", "P.containers[0].resources={requests: {cpu: abc}}"),
	r("quantity", "memory=1.5.3", "P.containers[0].resources={requests: {memory: 1.5.3}}"),
	r("quantity", "memory=-1Gi", "P.containers[0].resources={requests: {memory: -1Gi}}"),
	r("quantity", "memory=256MB", "P.containers[0].resources={requests: {memory: 256MB}}"),
	r("quantity", "memory=256mi", "P.containers[0].resources={requests: {memory: 256mi}}"),
	r("quantity", "memory=1e3", "P.containers[0].resources={requests: {memory: 1e3}}"),
	r("quantity", "memory=number", "P.containers[0].resources={requests: {memory: 1024}}"),
	r("quantity", "memory=float", "P.containers[0].resources={requests: {memory: 0.5}}"),
	r("pod-rule", "seccomp-Localhost-without-path", "P.securityContext={seccompProfile: {type: Localhost}}"),
	r("pod-rule", "seccomp-RuntimeDefault-with-path", "P.securityContext={seccompProfile: {type: RuntimeDefault, localhostProfile: x.json}}"),
	r("pod-rule", "runAsUser=-1", "P.securityContext={runAsUser: -1}"),
	r("pod-rule", "capabilities-add=lowercase", "P.containers[0].securityContext={capabilities: {add: [net_admin]}}"),
	r("pod-rule", "privileged+allowPrivilegeEscalation=false", "P.containers[0].securityContext={privileged: true, allowPrivilegeEscalation: false}"),
	r("pod-rule", "probe-two-handlers", "P.containers[0].readinessProbe={httpGet: {port: 80}, tcpSocket: {port: 80}}"),
	r("pod-rule", "probe-no-handler", "P.containers[0].readinessProbe={periodSeconds: 5}"),
	r("pod-rule", "probe-periodSeconds=0", "P.containers[0].readinessProbe={tcpSocket: {port: 80}, periodSeconds: -1}"),
	r("pod-rule", "probe-port=Bad_Name", "P.containers[0].readinessProbe={tcpSocket: {port: Bad_Name}}"),
	r("pod-rule", "probe-port=0", "P.containers[0].readinessProbe={tcpSocket: {port: 0}}"),
	r("pod-rule", "liveness-successThreshold=2", "P.containers[0].livenessProbe={tcpSocket: {port: 80}, successThreshold: 2}"),
	r("pod-rule", "toleration-Exists-with-value", "P.tolerations=[{key: k, operator: Exists, value: v}]"),
	r("enum-case", "toleration-effect=noschedule", "P.tolerations=[{key: k, operator: Equal, value: v, effect: noschedule}]"),
	r("pod-rule", "toleration-key=Bad Key", "P.tolerations=[{key: 'Bad Key', operator: Exists}]"),
	r("pod-rule", "nodeSelector-key=bad key", "P.nodeSelector={'bad key': x}"),
	r("pod-rule", "affinity-In-without-values", "P.affinity={nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: k, operator: In}]}]}}}"),
	r("pod-rule", "topologySpread-maxSkew=0", "P.topologySpreadConstraints=[{maxSkew: 0, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]"),
	r("pod-rule", "hostNetwork-hostPort-mismatch", "P.hostNetwork=true", "P.containers[0].ports=[{containerPort: 80, hostPort: 81}]"),
	r("pod-rule", "sidecar-restartPolicy=Always", "P.initContainers=[{name: side, image: busybox, restartPolicy: Always}]"),
	r("pod-rule", "init-restartPolicy=OnFailure", "P.initContainers=[{name: side, image: busybox, restartPolicy: OnFailure}]"),
	r("pod-rule", "priority-without-class", "P.priority=10"),
	r("pod-rule", "hostname=Bad_Name", "P.hostname=Bad_Name"),
	r("pod-rule", "serviceAccountName=Bad_Name", "P.serviceAccountName=Bad_Name"),
	r("pod-rule", "emptyDir-sizeLimit=-1", "P.volumes=[{name: v, emptyDir: {sizeLimit: -1Gi}}]"),
	r("pod-rule", "configMap-defaultMode=0999", "P.volumes=[{name: v, configMap: {name: c, defaultMode: 999}}]"),
	r("pod-rule", "hostPath-relative", "P.volumes=[{name: v, hostPath: {path: data}}]"),
	r("pod-rule", "hostPath-type=bad", "P.volumes=[{name: v, hostPath: {path: /data, type: Folder}}]"),
	r("pod-rule", "volume-name=Bad_Name", "P.volumes=[{name: Bad_Name, emptyDir: {}}]"),
	r("pod-rule", "workingDir-relative", "P.containers[0].workingDir=rel"),
	r("pod-rule", "terminationMessagePolicy=bad", "P.containers[0].terminationMessagePolicy=Bad"),
	r("pod-rule", "hostAliases-ip=bad", "P.hostAliases=[{ip: not-an-ip, hostnames: [a]}]"),
	r("pod-rule", "dnsConfig-nameservers=4", "P.dnsConfig={nameservers: [1.1.1.1, 1.1.1.2, 1.1.1.3, 1.1.1.4]}"),
	r("pod-rule", "imagePullSecrets-name-", "P.imagePullSecrets=[{}]"),
	r("pod-rule", "overhead-set", "P.overhead={cpu: 100m}"),
	r("pod-rule", "lifecycle-preStop-empty", "P.containers[0].lifecycle={preStop: {}}"),
	r("pod-rule", "lifecycle-sleep=-1", "P.containers[0].lifecycle={preStop: {sleep: {seconds: -1}}}"),
	r("wrong-type", "ports=string", "P.containers[0].ports=port80"),
	r("wrong-type", "containerPort=string", "P.containers[0].ports=[{containerPort: '80'}]"),
	r("wrong-type", "containers=map", "P.containers={web: {image: nginx}}"),
	r("unknown-field", "container+imagePolicy", "P.containers[0].imagePolicy=Always"),
	r("misspelled-field", "container~Image", "P.containers[0].Image=nginx"),
	r("misspelled-field", "container~imagepullpolicy", "P.containers[0].imagepullpolicy=Always"),
	r("misnested-field", "container-fields-in-spec", "P.image=nginx"),
	r("misnested-field", "ports-under-resources", "P.containers[0].resources={ports: [{containerPort: 80}]}"),
}

// kindRules are the Go validation rules of each kind.
var kindRules = map[string][]rule{
	"deployment": {
		r("workload-rule", "selector-mismatch", "spec.selector.matchLabels.app=other"),
		r("workload-rule", "selector-empty", "spec.selector={}"),
		r("workload-rule", "selector-", "spec.selector-"),
		r("workload-rule", "template-labels-", "spec.template.metadata.labels-"),
		r("workload-rule", "Recreate-with-rollingUpdate", "spec.strategy.type=Recreate"),
		r("workload-rule", "Recreate", "spec.strategy={type: Recreate}"),
		r("workload-rule", "maxSurge=0+maxUnavailable=0", "spec.strategy.rollingUpdate={maxSurge: 0, maxUnavailable: 0}"),
		r("workload-rule", "maxUnavailable=110%", "spec.strategy.rollingUpdate={maxUnavailable: 110%}"),
		r("workload-rule", "maxSurge=abc", "spec.strategy.rollingUpdate={maxSurge: abc}"),
		r("enum-case", "strategy=rollingupdate", "spec.strategy={type: rollingupdate}"),
		r("int-range", "replicas=-1", "spec.replicas=-1"),
		r("int32-overflow", "replicas=2147483648", "spec.replicas=2147483648"),
		r("int-range", "revisionHistoryLimit=-1", "spec.revisionHistoryLimit=-1"),
		r("int-range", "minReadySeconds=-1", "spec.minReadySeconds=-1"),
		r("workload-rule", "progressDeadline<=minReady", "spec.minReadySeconds=10", "spec.progressDeadlineSeconds=5"),
		r("wrong-type", "replicas=\"2\"", "spec.replicas='2'"),
		r("wrong-type", "replicas=2.0", "spec.replicas=2.0"),
		r("misnested-field", "replicas-in-template", "spec.template.replicas=2"),
		r("misnested-field", "containers-in-template", "spec.template.containers=[{name: x, image: y}]"),
		r("unknown-field", "spec+paused2", "spec.pausedd=true"),
	},
	"statefulset": {
		r("workload-rule", "selector-mismatch", "spec.selector.matchLabels.app=other"),
		r("workload-rule", "podManagementPolicy=bad", "spec.podManagementPolicy=Sequential"),
		r("workload-rule", "updateStrategy=OnDelete+rollingUpdate", "spec.updateStrategy={type: OnDelete, rollingUpdate: {partition: 1}}"),
		r("workload-rule", "vct-accessModes-", "spec.volumeClaimTemplates[0].spec.accessModes-"),
		r("workload-rule", "vct-storage=-1Gi", "spec.volumeClaimTemplates[0].spec.resources.requests.storage=-1Gi"),
		r("workload-rule", "serviceName-", "spec.serviceName-"),
		r("workload-rule", "ordinals-start=-1", "spec.ordinals={start: -1}"),
		r("workload-rule", "pvcRetention=bad", "spec.persistentVolumeClaimRetentionPolicy={whenDeleted: Keep}"),
	},
	"daemonset": {
		r("workload-rule", "selector-mismatch", "spec.selector.matchLabels.app=other"),
		r("workload-rule", "restartPolicy=OnFailure", "spec.template.spec.restartPolicy=OnFailure"),
		r("workload-rule", "maxUnavailable=0+maxSurge=0", "spec.updateStrategy={type: RollingUpdate, rollingUpdate: {maxUnavailable: 0, maxSurge: 0}}"),
	},
	"replicaset": {
		r("workload-rule", "selector-mismatch", "spec.selector.matchLabels.app=other"),
		r("int-range", "replicas=-1", "spec.replicas=-1"),
	},
	"job": {
		r("workload-rule", "restartPolicy=Always", "spec.template.spec.restartPolicy=Always"),
		r("workload-rule", "restartPolicy-", "spec.template.spec.restartPolicy-"),
		r("int-range", "completions=-1", "spec.completions=-1"),
		r("int-range", "parallelism=-1", "spec.parallelism=-1"),
		r("int-range", "backoffLimit=-1", "spec.backoffLimit=-1"),
		r("int-range", "ttlSecondsAfterFinished=-1", "spec.ttlSecondsAfterFinished=-1"),
		r("int-range", "activeDeadlineSeconds=0", "spec.activeDeadlineSeconds=0"),
		r("enum-case", "completionMode=indexed", "spec.completionMode=indexed"),
		r("workload-rule", "Indexed-without-completions", "spec.completionMode=Indexed"),
		r("workload-rule", "manualSelector-without-selector", "spec.manualSelector=true"),
		r("workload-rule", "selector-without-manualSelector", "spec.selector={matchLabels: {a: b}}"),
		r("workload-rule", "podFailurePolicy-bad-action", "spec.podFailurePolicy={rules: [{action: Retry, onExitCodes: {operator: In, values: [1]}}]}"),
		r("workload-rule", "podFailurePolicy-exitCode-0-In", "spec.podFailurePolicy={rules: [{action: FailJob, onExitCodes: {operator: In, values: [0]}}]}"),
		r("workload-rule", "backoffLimitPerIndex-without-Indexed", "spec.backoffLimitPerIndex=1"),
	},
	"cronjob": {
		r("workload-rule", "schedule=bad", "spec.schedule=bad"),
		r("workload-rule", "schedule=61-minutes", "spec.schedule='61 * * * *'"),
		r("workload-rule", "schedule=@hourly", "spec.schedule='@hourly'"),
		r("workload-rule", "schedule=TZ-prefix", "spec.schedule='TZ=UTC 0 3 * * *'"),
		r("workload-rule", "timeZone=Mars", "spec.timeZone=Mars/Base"),
		r("workload-rule", "timeZone=UTC", "spec.timeZone=Etc/UTC"),
		r("enum-case", "concurrencyPolicy=forbid", "spec.concurrencyPolicy=forbid"),
		r("metadata-name", "name=52", "metadata.name="+strings.Repeat("c", 52)),
		r("metadata-name", "name=53", "metadata.name="+strings.Repeat("c", 53)),
		r("int-range", "successfulJobsHistoryLimit=-1", "spec.successfulJobsHistoryLimit=-1"),
		r("int-range", "startingDeadlineSeconds=-1", "spec.startingDeadlineSeconds=-1"),
		r("workload-rule", "jobTemplate-restartPolicy=Always", "spec.jobTemplate.spec.template.spec.restartPolicy=Always"),
	},
	"service": {
		r("duplicate-name", "duplicate-port-name", "spec.ports[1]={name: http, port: 81}"),
		r("list-map-duplicate", "duplicate-port", "spec.ports[1]={name: other, port: 80}"),
		r("list-map-duplicate", "same-port-other-protocol", "spec.ports[1]={name: udp, port: 80, protocol: UDP}"),
		r("port-range", "port=0", "spec.ports[0].port=0"),
		r("port-range", "port=65536", "spec.ports[0].port=65536"),
		r("port-range", "targetPort=0", "spec.ports[0].targetPort=0"),
		r("port-range", "targetPort=65536", "spec.ports[0].targetPort=65536"),
		r("service-rule", "targetPort=Bad_Name", "spec.ports[0].targetPort=Bad_Name"),
		r("service-rule", "targetPort=16-chars", "spec.ports[0].targetPort=abcdefghijklmnop"),
		r("service-rule", "nodePort-in-ClusterIP", "spec.ports[0].nodePort=30080"),
		r("service-rule", "NodePort-nodePort=20", "spec.type=NodePort", "spec.ports[0].nodePort=20"),
		r("service-rule", "NodePort-nodePort=30080", "spec.type=NodePort", "spec.ports[0].nodePort=30080"),
		r("service-rule", "None-clusterIP-LoadBalancer", "spec.type=LoadBalancer", "spec.clusterIP=None"),
		r("service-rule", "clusterIP=bad", "spec.clusterIP=10.0.0.300"),
		r("enum-case", "type=nodeport", "spec.type=nodeport"),
		r("enum-case", "sessionAffinity=none", "spec.sessionAffinity=none"),
		r("enum-case", "protocol=tcp", "spec.ports[0].protocol=tcp"),
		r("service-rule", "ports-", "spec.ports-"),
		r("service-rule", "ExternalName-without-name", "spec.type=ExternalName", "spec.ports-", "spec.selector-"),
		r("service-rule", "ExternalName=Bad_Name", "spec.type=ExternalName", "spec.externalName=Bad_Name", "spec.selector-"),
		r("service-rule", "ipFamilyPolicy=single", "spec.ipFamilyPolicy=single"),
		r("service-rule", "ipFamilies=3", "spec.ipFamilies=[IPv4, IPv6, IPv4]"),
		r("service-rule", "externalTrafficPolicy-on-ClusterIP", "spec.externalTrafficPolicy=Local"),
		r("service-rule", "loadBalancerSourceRanges=bad", "spec.type=LoadBalancer", "spec.loadBalancerSourceRanges=[not-a-cidr]"),
		r("service-rule", "sessionAffinityConfig-timeout=0", "spec.sessionAffinity=ClientIP", "spec.sessionAffinityConfig={clientIP: {timeoutSeconds: 0}}"),
		r("service-rule", "appProtocol=bad", "spec.ports[0].appProtocol='bad proto'"),
		r("service-rule", "multi-port-without-names", "spec.ports=[{port: 80}, {port: 81}]"),
		r("service-rule", "selector-key=bad key", "spec.selector={'bad key': x}"),
		r("service-rule", "selector-value=64", "spec.selector={app: "+strings.Repeat("s", 64)+"}"),
	},
	"configmap": {
		r("configmap-data", "data-key=bad key", "data[bad key]=x"),
		r("configmap-data", "data-key=..", "data[..]=x"),
		r("configmap-data", "data-key=a/b", "data[a/b]=x"),
		r("configmap-data", "data-key=dotted", "data[app.yaml]=x"),
		r("configmap-data", "data-value=7", "data[mode]=7"),
		r("configmap-data", "data-value=true", "data[mode]=true"),
		r("configmap-data", "data-value=map", "data[mode]={a: b}"),
		r("configmap-data", "binaryData=not-base64", "binaryData={b: 'not base64!'}"),
		r("configmap-data", "binaryData=base64", "binaryData={b: aGk=}"),
		r("configmap-data", "same-key-in-data-and-binaryData", "binaryData={mode: aGk=}"),
		r("configmap-data", "immutable=yes", "immutable=yes"),
	},
	"secret": {
		r("secret-data", "data=not-base64", "data[password]='not base64!'"),
		r("secret-data", "data=unpadded", "data[password]=aGk"),
		r("secret-data", "data=url-safe", "data[password]=a-_b"),
		r("secret-data", "data=empty", "data[password]=''"),
		r("secret-data", "data-key=bad key", "data[bad key]=aGk="),
		r("secret-data", "stringData=7", "stringData={a: 7}"),
		r("secret-data", "stringData=ok", "stringData={a: plain}"),
		r("secret-data", "tls-without-keys", "type=kubernetes.io/tls"),
		r("secret-data", "dockerconfigjson-without-key", "type=kubernetes.io/dockerconfigjson"),
		r("secret-data", "basic-auth-empty", "type=kubernetes.io/basic-auth", "data={}"),
		r("secret-data", "service-account-token-without-annotation", "type=kubernetes.io/service-account-token"),
		r("secret-data", "type=custom", "type=example.com/custom"),
		r("secret-data", "type=Bad Type", "type=Bad Type"),
	},
	"serviceaccount": {
		r("wrong-type", "automountServiceAccountToken=yes", "automountServiceAccountToken=yes"),
		r("pod-rule", "imagePullSecrets=[{}]", "imagePullSecrets=[{}]"),
	},
	"namespace": {
		r("metadata-name", "name=kube-x", "metadata.name=kube-x"),
		r("wrong-type", "spec.finalizers=string", "spec={finalizers: kubernetes}"),
		r("namespace-rule", "spec.finalizers=bad", "spec={finalizers: ['bad finalizer']}"),
	},
	"pvc": {
		r("pvc-rule", "accessModes=[]", "spec.accessModes=[]"),
		r("pvc-rule", "accessModes=RWO", "spec.accessModes=[RWO]"),
		r("enum-case", "accessModes=readwriteonce", "spec.accessModes=[readwriteonce]"),
		r("quantity", "storage=-1Gi", "spec.resources.requests.storage=-1Gi"),
		r("quantity", "storage=0", "spec.resources.requests.storage='0'"),
		r("pvc-rule", "storage-", "spec.resources.requests-"),
		r("pvc-rule", "volumeMode=bad", "spec.volumeMode=Raw"),
		r("pvc-rule", "dataSource-kind-", "spec.dataSource={name: snap}"),
		r("pvc-rule", "storageClassName=Bad_Name", "spec.storageClassName=Bad_Name"),
		r("pvc-rule", "ReadWriteOncePod+other", "spec.accessModes=[ReadWriteOncePod, ReadWriteOnce]"),
	},
	"pv": {
		r("pv-rule", "no-source", "spec.hostPath-"),
		r("pv-rule", "two-sources", "spec.nfs={server: nfs.example.com, path: /x}"),
		r("pv-rule", "capacity-", "spec.capacity-"),
		r("pv-rule", "hostPath-relative", "spec.hostPath.path=data"),
		r("pv-rule", "reclaimPolicy=Keep", "spec.persistentVolumeReclaimPolicy=Keep"),
		r("pv-rule", "capacity-extra", "spec.capacity.cpu='1'"),
		r("pv-rule", "nfs-path-relative", "spec.hostPath-", "spec.nfs={server: nfs.example.com, path: x}"),
	},
	"limitrange": {
		r("limitrange-rule", "default<defaultRequest", "spec.limits[0]={type: Container, default: {cpu: 100m}, defaultRequest: {cpu: 500m}}"),
		r("limitrange-rule", "min>max", "spec.limits[0]={type: Container, min: {cpu: '2'}, max: {cpu: '1'}}"),
		r("limitrange-rule", "type=Bad", "spec.limits[0].type=Bad"),
		r("limitrange-rule", "pod-default", "spec.limits[0]={type: Pod, default: {cpu: 100m}}"),
	},
	"resourcequota": {
		r("quantity", "hard=-1", "spec.hard[pods]='-1'"),
		r("quota-rule", "hard-name=bad name", "spec.hard[bad name]='1'"),
		r("quota-rule", "scopes=bad", "spec.scopes=[Bad]"),
		r("quota-rule", "scopes=Terminating", "spec.scopes=[Terminating]"),
	},
	"role": {
		r("rbac-rule", "verbs=[]", "rules[0].verbs=[]"),
		r("rbac-rule", "verbs-", "rules[0].verbs-"),
		r("rbac-rule", "apiGroups-", "rules[0].apiGroups-"),
		r("rbac-rule", "nonResourceURLs-in-Role", "rules[0]={nonResourceURLs: [/healthz], verbs: [get]}"),
		r("rbac-rule", "rules=null", "rules=null"),
		r("rbac-rule", "rules=[]", "rules=[]"),
		r("metadata-name", "name=system:reader", "metadata.name='system:reader'"),
	},
	"clusterrole": {
		r("rbac-rule", "nonResourceURLs-with-resources", "rules[0]={nonResourceURLs: [/healthz], resources: [pods], verbs: [get]}"),
		r("rbac-rule", "nonResourceURLs", "rules[0]={nonResourceURLs: ['/healthz', '/metrics/*'], verbs: [get]}"),
		r("rbac-rule", "aggregationRule", "aggregationRule={clusterRoleSelectors: [{matchLabels: {a: b}}]}"),
		r("rbac-rule", "aggregationRule-bad-selector", "aggregationRule={clusterRoleSelectors: [{matchLabels: {'bad key': b}}]}"),
	},
	"rolebinding": {
		r("rbac-rule", "roleRef.kind=Roles", "roleRef.kind=Roles"),
		r("rbac-rule", "roleRef.apiGroup-", "roleRef.apiGroup-"),
		r("rbac-rule", "roleRef.name-", "roleRef.name-"),
		r("rbac-rule", "roleRef.name=a/b", "roleRef.name=a/b"),
		r("rbac-rule", "subject.kind=serviceaccount", "subjects[0].kind=serviceaccount"),
		r("rbac-rule", "subject-SA-without-namespace", "subjects[0].namespace-"),
		r("rbac-rule", "subject-SA-name=Bad_Name", "subjects[0].name=Bad_Name"),
		r("rbac-rule", "subject-User-with-apiGroup-", "subjects[0]={kind: User, name: alice}"),
		r("rbac-rule", "subject-Group", "subjects[0]={kind: Group, name: 'system:authenticated', apiGroup: rbac.authorization.k8s.io}"),
		r("rbac-rule", "subjects=[]", "subjects=[]"),
		r("metadata-name", "name=system:read", "metadata.name='system:read'"),
	},
	"clusterrolebinding": {
		r("rbac-rule", "roleRef.kind=Role", "roleRef.kind=Role"),
		r("rbac-rule", "subject-User-name-", "subjects[0].name-"),
		r("rbac-rule", "subject.kind=Robot", "subjects[0].kind=Robot"),
	},
	"ingress": {
		r("enum-case", "pathType=prefix", "spec.rules[0].http.paths[0].pathType=prefix"),
		r("ingress-rule", "pathType-", "spec.rules[0].http.paths[0].pathType-"),
		r("ingress-rule", "path=relative", "spec.rules[0].http.paths[0].path=shop"),
		r("ingress-rule", "ImplementationSpecific-relative", "spec.rules[0].http.paths[0].pathType=ImplementationSpecific", "spec.rules[0].http.paths[0].path=shop"),
		r("ingress-rule", "host=wildcard", "spec.rules[0].host='*.example.com'"),
		r("ingress-rule", "host=UPPER", "spec.rules[0].host=Shop.Example.com"),
		r("ingress-rule", "host=ip", "spec.rules[0].host=10.0.0.1"),
		r("ingress-rule", "host=254", "spec.rules[0].host="+strings.Repeat("h", 60)+"."+strings.Repeat("h", 60)+"."+strings.Repeat("h", 60)+"."+strings.Repeat("h", 60)+".com"),
		r("port-range", "backend-port=0", "spec.rules[0].http.paths[0].backend.service.port={number: 0}"),
		r("ingress-rule", "backend-port-name+number", "spec.rules[0].http.paths[0].backend.service.port={name: http, number: 80}"),
		r("ingress-rule", "backend-", "spec.rules[0].http.paths[0].backend={}"),
		r("ingress-rule", "tls-host=bad", "spec.tls=[{hosts: ['bad host'], secretName: tls}]"),
		r("ingress-rule", "ingressClassName=Bad_Name", "spec.ingressClassName=Bad_Name"),
		r("ingress-rule", "path-with-regex", "spec.rules[0].http.paths[0].path=/api/(.*)"),
	},
	"ingressclass": {
		r("ingress-rule", "controller=unqualified", "spec.controller=nginx"),
		r("ingress-rule", "controller-", "spec.controller-"),
		r("ingress-rule", "parameters-kind-", "spec.parameters={name: p}"),
	},
	"networkpolicy": {
		r("port-range", "port=0", "spec.ingress[0].ports[0].port=0"),
		r("enum-case", "protocol=tcp", "spec.ingress[0].ports[0].protocol=tcp"),
		r("enum-case", "policyTypes=ingress", "spec.policyTypes=[ingress]"),
		r("netpol-rule", "cidr=/33", "spec.ingress[0].from=[{ipBlock: {cidr: 10.0.0.0/33}}]"),
		r("netpol-rule", "except-outside-cidr", "spec.ingress[0].from=[{ipBlock: {cidr: 10.0.0.0/24, except: [10.1.0.0/24]}}]"),
		r("netpol-rule", "endPort<port", "spec.ingress[0].ports[0]={port: 80, endPort: 70}"),
		r("netpol-rule", "endPort-with-named-port", "spec.ingress[0].ports[0]={port: http, endPort: 90}"),
		r("netpol-rule", "podSelector-", "spec.podSelector-"),
		r("netpol-rule", "matchExpressions-bad-operator", "spec.podSelector={matchExpressions: [{key: a, operator: Equals, values: [b]}]}"),
	},
	"pdb": {
		r("pdb-rule", "minAvailable+maxUnavailable", "spec.maxUnavailable=1"),
		r("pdb-rule", "minAvailable=150%", "spec.minAvailable=150%"),
		r("pdb-rule", "minAvailable=-1", "spec.minAvailable=-1"),
		r("pdb-rule", "unhealthyPodEvictionPolicy=bad", "spec.unhealthyPodEvictionPolicy=Always"),
	},
	"hpa": {
		r("hpa-rule", "minReplicas=0", "spec.minReplicas=0"),
		r("hpa-rule", "max<min", "spec.maxReplicas=0"),
		r("hpa-rule", "averageUtilization=0", "spec.metrics[0].resource.target.averageUtilization=0"),
		r("hpa-rule", "target-type-mismatch", "spec.metrics[0].resource.target={type: AverageValue, averageUtilization: 50}"),
		r("hpa-rule", "scaleTargetRef.kind-", "spec.scaleTargetRef.kind-"),
		r("hpa-rule", "metric-type=bad", "spec.metrics[0].type=Bogus"),
		r("hpa-rule", "behavior-policy-periodSeconds=0", "spec.behavior={scaleDown: {policies: [{type: Pods, value: 1, periodSeconds: 0}]}}"),
		r("hpa-rule", "behavior-stabilization=-1", "spec.behavior={scaleUp: {stabilizationWindowSeconds: -1}}"),
	},
	"priorityclass": {
		r("priority-rule", "value=2000000000", "value=2000000000"),
		r("priority-rule", "name=system-x", "metadata.name=system-x"),
		r("priority-rule", "preemptionPolicy=bad", "preemptionPolicy=Always"),
		r("priority-rule", "value-", "value-"),
	},
	"storageclass": {
		r("storage-rule", "reclaimPolicy=Recycle", "reclaimPolicy=Recycle"),
		r("storage-rule", "volumeBindingMode=Now", "volumeBindingMode=Now"),
		r("storage-rule", "provisioner=bad", "provisioner='Bad Provisioner'"),
		r("storage-rule", "provisioner-", "provisioner-"),
		r("storage-rule", "allowedTopologies-empty", "allowedTopologies=[{matchLabelExpressions: [{key: zone, values: []}]}]"),
		r("storage-rule", "parameters=int", "parameters={size: 7}"),
	},
	"lease": {
		r("int-range", "leaseDurationSeconds=0", "spec.leaseDurationSeconds=0"),
		r("int-range", "leaseDurationSeconds=-1", "spec.leaseDurationSeconds=-1"),
		r("lease-rule", "leaseTransitions=-1", "spec.leaseTransitions=-1"),
		r("metadata-decoding", "renewTime=yesterday", "spec.renewTime=yesterday"),
		r("metadata-decoding", "renewTime=micro", "spec.renewTime='2024-05-01T10:00:00.000000Z'"),
	},
	"endpointslice": {
		r("endpointslice-rule", "addressType=IPv5", "addressType=IPv5"),
		r("endpointslice-rule", "address=not-ip", "endpoints[0].addresses=[not-an-ip]"),
		r("endpointslice-rule", "addresses=[]", "endpoints[0].addresses=[]"),
		r("endpointslice-rule", "duplicate-port-name", "ports[1]={name: http, port: 8081}"),
		r("port-range", "port=70000", "ports[0].port=70000"),
		r("endpointslice-rule", "FQDN", "addressType=FQDN", "endpoints[0].addresses=[web.example.com]"),
	},
	"event": {
		r("event-rule", "involvedObject.namespace-mismatch", "involvedObject.namespace=other"),
		r("event-rule", "type=Bad", "type=Bad"),
	},
	"validatingwebhook": {
		r("webhook-rule", "name=unqualified", "webhooks[0].name=check"),
		r("webhook-rule", "url=http", "webhooks[0].clientConfig.url='http://hook.example.com/'"),
		r("webhook-rule", "sideEffects=Some", "webhooks[0].sideEffects=Some"),
		r("webhook-rule", "admissionReviewVersions=v9", "webhooks[0].admissionReviewVersions=[v9]"),
		r("webhook-rule", "duplicate-webhook-name", "webhooks[1]={name: check.example.com, clientConfig: {url: 'https://a.example.com/'}, sideEffects: None, admissionReviewVersions: [v1]}"),
		r("webhook-rule", "timeoutSeconds=31", "webhooks[0].timeoutSeconds=31"),
		r("webhook-rule", "operations=create", "webhooks[0].rules[0].operations=[create]"),
	},
}

// withPodSpec are the bases with a pod spec, and where it is.
var withPodSpec = map[string]string{
	"deployment": "spec.template.spec", "statefulset": "spec.template.spec", "daemonset": "spec.template.spec",
	"replicaset": "spec.template.spec", "job": "spec.template.spec", "cronjob": "spec.jobTemplate.spec.template.spec",
	"pod": "spec",
}

// podRulesFor says which bases take every pod rule (the others take a
// few: the rules are the same code for all of them).
var podRulesFor = map[string]bool{"deployment": true, "pod": true}

func (g *generator) builtins() {
	for _, b := range bases {
		m := parse(b.text)
		if m == nil {
			panic("base " + b.name + " does not parse")
		}
		name := "base/" + b.name
		g.fromSource(source{name: name, text: b.text, value: m})
		rules := append(metadataRules(), kindRules[b.name]...)
		if prefix, ok := withPodSpec[b.name]; ok {
			for i, pr := range podRules {
				if !podRulesFor[b.name] && i%6 != 0 {
					continue
				}
				ops := make([]string, len(pr.ops))
				for j, op := range pr.ops {
					ops[j] = strings.Replace(op, "P.", prefix+".", 1)
				}
				rules = append(rules, rule{pr.category, pr.label, ops})
			}
		}
		for _, rl := range rules {
			doc := applyOps(m, rl.ops)
			g.add(Case{Name: name + "/" + rl.label, Category: rl.category, Document: render(doc)})
		}
	}
	g.annotationSize()
	g.decoding()
}

// annotationSize: the total size of annotations (keys and values) is at
// most 256 KiB; one case at the limit, one a byte over.
func (g *generator) annotationSize() {
	for _, total := range []int{262144, 262145} {
		value := strings.Repeat("v", total-len("big"))
		doc := fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\n  namespace: default\n  annotations:\n    big: %s\n", value)
		g.add(Case{Name: fmt.Sprintf("base/configmap/annotations-total=%d", total), Category: "metadata-annotations", Document: doc})
	}
}

// decoding: documents whose bytes are at fault, as written by hand.
func (g *generator) decoding() {
	docs := []struct{ label, text string }{
		{"not-yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x\n"},
		{"not-a-mapping", "- apiVersion: v1\n  kind: ConfigMap\n"},
		{"scalar", "just a string\n"},
		{"duplicate-key", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: dup, namespace: default}\ndata: {a: x, a: y}\n"},
		{"duplicate-field", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: dup, namespace: default}\ndata: {a: x}\ndata: {b: y}\n"},
		{"json", `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "j", "namespace": "default"}, "data": {"a": "b"}}` + "\n"},
		{"json-duplicate-key", `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "j", "namespace": "default"}, "metadata": {"name": "k"}}` + "\n"},
		{"yaml-1.1-bool-value", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b, namespace: default}\ndata: {a: yes}\n"},
		{"yaml-1.1-bool-key", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b, namespace: default}\ndata: {on: x}\n"},
		{"octal-like", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: o, namespace: default}\ndata: {a: 0777}\n"},
		{"anchors", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: &n anchors, namespace: default}\ndata: {a: *n}\n"},
		{"merge-key", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m, namespace: default}\ndata:\n  <<: {a: x}\n  b: y\n"},
		{"tab-indent", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: t\n"},
		{"null-metadata", "apiVersion: v1\nkind: ConfigMap\nmetadata:\ndata: {a: b}\n"},
		{"empty-apiVersion", "apiVersion: ''\nkind: ConfigMap\nmetadata: {name: e}\n"},
		{"kind-not-served", "apiVersion: v1\nkind: Widget\nmetadata: {name: w, namespace: default}\n"},
		{"group-not-served", "apiVersion: nothing.example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: default}\n"},
		{"removed-apiVersion", "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: i, namespace: default}\nspec: {backend: {serviceName: s, servicePort: 80}}\n"},
		{"removed-policy-v1beta1", "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: p, namespace: default}\nspec: {minAvailable: 1, selector: {matchLabels: {a: b}}}\n"},
		{"cluster-scoped-with-namespace", "apiVersion: v1\nkind: Namespace\nmetadata: {name: scoped, namespace: default}\n"},
		{"int-as-float-exponent", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: f, namespace: default}\nspec:\n  replicas: 1e0\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: i}]}\n"},
		{"int-as-float-point", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: f, namespace: default}\nspec:\n  replicas: 2.0\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: i}]}\n"},
		{"int-quoted", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: f, namespace: default}\nspec:\n  replicas: \"2\"\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: i}]}\n"},
		{"bom", "\ufeffapiVersion: v1\nkind: ConfigMap\nmetadata: {name: bom, namespace: default}\n"},
	}
	for _, d := range docs {
		g.add(Case{Name: "decoding/" + d.label, Category: "decoding", Document: d.text})
	}
}
