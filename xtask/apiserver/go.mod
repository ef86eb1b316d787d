module vergate/xtask/apiserver

// The real module files are per Kubernetes minor: minors/v1.XX/go.mod,
// used with `go build -modfile=...` by build.sh. This file only marks the
// module root, which -modfile requires.
go 1.26
