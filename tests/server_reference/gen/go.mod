module vergate/tests/server_reference/gen

go 1.22

require sigs.k8s.io/yaml v1.4.0
