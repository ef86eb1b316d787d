package main

// bases are minimal valid documents of built-in kinds, written here: small,
// so that metadata and generic mutations of every kind stay cheap. Each is
// accepted by every minor 1.28-1.37 (the originals are cases: a refusal
// shows in the corpus).
var bases = []struct{ name, text string }{
	{"deployment", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, labels: {app: web}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports: [{name: http, containerPort: 8080, protocol: TCP}]
        resources: {requests: {cpu: 100m, memory: 128Mi}, limits: {memory: 256Mi}}
`},
	{"statefulset", `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: default}
spec:
  serviceName: db
  replicas: 1
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres:16}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`},
	{"daemonset", `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: default}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent, image: busybox:1.36}]
`},
	{"replicaset", `apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: rs}}
  template:
    metadata: {labels: {app: rs}}
    spec:
      containers: [{name: c, image: busybox:1.36}]
`},
	{"job", `apiVersion: batch/v1
kind: Job
metadata: {name: migrate, namespace: default}
spec:
  backoffLimit: 3
  template:
    spec:
      restartPolicy: Never
      containers: [{name: migrate, image: busybox:1.36, command: [sh, -c, "true"]}]
`},
	{"cronjob", `apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: default}
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: backup, image: busybox:1.36}]
`},
	{"pod", `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers:
  - name: app
    image: busybox:1.36
    ports: [{containerPort: 80}]
    env: [{name: MODE, value: fast}]
    volumeMounts: [{name: cache, mountPath: /cache}]
  volumes: [{name: cache, emptyDir: {}}]
`},
	{"service", `apiVersion: v1
kind: Service
metadata: {name: web, namespace: default}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: 8080, protocol: TCP}]
`},
	{"configmap", `apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: default}
data: {mode: fast}
`},
	{"secret", `apiVersion: v1
kind: Secret
metadata: {name: creds, namespace: default}
type: Opaque
data: {password: aHVudGVyMg==}
`},
	{"serviceaccount", `apiVersion: v1
kind: ServiceAccount
metadata: {name: web, namespace: default}
`},
	{"namespace", `apiVersion: v1
kind: Namespace
metadata: {name: shop}
`},
	{"pvc", `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`},
	{"pv", `apiVersion: v1
kind: PersistentVolume
metadata: {name: pv1}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  hostPath: {path: /data}
`},
	{"limitrange", `apiVersion: v1
kind: LimitRange
metadata: {name: limits, namespace: default}
spec:
  limits: [{type: Container, default: {cpu: 500m}, defaultRequest: {cpu: 100m}}]
`},
	{"resourcequota", `apiVersion: v1
kind: ResourceQuota
metadata: {name: quota, namespace: default}
spec:
  hard: {pods: "10", requests.cpu: "4"}
`},
	{"role", `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader, namespace: default}
rules: [{apiGroups: [""], resources: [pods], verbs: [get, list]}]
`},
	{"clusterrole", `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: reader}
rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]
`},
	{"rolebinding", `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: read, namespace: default}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
subjects: [{kind: ServiceAccount, name: web, namespace: default}]
`},
	{"clusterrolebinding", `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: read}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: reader}
subjects: [{kind: User, name: alice, apiGroup: rbac.authorization.k8s.io}]
`},
	{"ingress", `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web, namespace: default}
spec:
  rules:
  - host: shop.example.com
    http:
      paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]
`},
	{"ingressclass", `apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: nginx}
spec: {controller: example.com/ingress-controller}
`},
	{"networkpolicy", `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny, namespace: default}
spec:
  podSelector: {matchLabels: {app: web}}
  policyTypes: [Ingress]
  ingress: [{ports: [{port: 80, protocol: TCP}]}]
`},
	{"pdb", `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: default}
spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}
`},
	{"hpa", `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 5
  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}}]
`},
	{"priorityclass", `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
`},
	{"storageclass", `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast}
provisioner: example.com/fast
reclaimPolicy: Delete
volumeBindingMode: WaitForFirstConsumer
`},
	{"lease", `apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: leader, namespace: default}
spec: {holderIdentity: a, leaseDurationSeconds: 15}
`},
	{"endpointslice", `apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: web-1, namespace: default, labels: {kubernetes.io/service-name: web}}
addressType: IPv4
endpoints: [{addresses: [10.0.0.1]}]
ports: [{name: http, port: 8080, protocol: TCP}]
`},
	{"event", `apiVersion: v1
kind: Event
metadata: {name: ev1, namespace: default}
involvedObject: {kind: Pod, name: p, namespace: default}
reason: Started
message: started
type: Normal
`},
	{"validatingwebhook", `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: hook}
webhooks:
- name: check.example.com
  clientConfig: {url: "https://hook.example.com/validate"}
  rules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
  sideEffects: None
  admissionReviewVersions: [v1]
`},
}
