// Command vergate-apiserver runs the Kubernetes API server of one minor
// in-process, on loopback only, and records what that server says: its
// OpenAPI document, its feature-gate table, the lifecycle of its kinds, and
// its verdicts on manifests. See README.md.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

const usage = `usage: vergate-apiserver COMMAND [flags]

commands:
  openapi        [-o FILE]                  the server's /openapi/v2, as hack/update-openapi-spec.sh writes it
  feature-gates  [-o FILE]                  the feature gates this binary registers, with their stages
  lifecycle      [-o FILE]                  introduced/deprecated/removed per served kind
  verdicts       --cases FILE [-o FILE]     dry-run verdicts of a default server on each case
  version                                   the Kubernetes version this binary was built from

flags:
  -o FILE        write the JSON there instead of stdout
  --cases FILE   JSON lines: {"name": "...", "crds": ["<CRD YAML>", ...], "document": "<YAML or JSON>"}
  --log FILE     keep the server's and etcd's log there (default: a temporary file,
                 whose last lines are shown on failure)
`

func main() {
	os.Exit(run(os.Args[1:]))
}

// run is main without os.Exit, so that deferred cleanups run before the exit.
func run(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, usage)
		return 2
	}
	cmd, rest := args[0], args[1:]
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("o", "", "output file")
	cases := fs.String("cases", "", "cases file (verdicts)")
	logFile := fs.String("log", "", "server log file")
	if err := fs.Parse(rest); err != nil || fs.NArg() > 0 {
		if err == nil {
			err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
		}
		fmt.Fprintf(os.Stderr, "vergate-apiserver %s: %v\n\n%s", cmd, err, usage)
		return 2
	}

	var err error
	switch cmd {
	case "openapi":
		err = withServer(openapiMode, *logFile, func(s *server) error { return writeOpenAPI(s, *out) })
	case "feature-gates":
		err = writeJSON(*out, featureGates())
	case "lifecycle":
		err = writeJSON(*out, lifecycle())
	case "verdicts":
		if *cases == "" {
			err = errors.New("--cases FILE is required")
			break
		}
		var in []caseInput
		if in, err = readCases(*cases); err != nil {
			break
		}
		err = withServer(defaultMode, *logFile, func(s *server) error { return writeVerdicts(s, in, *out) })
	case "version":
		fmt.Println(kubeVersion())
	case "help", "-h", "--help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "vergate-apiserver: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "vergate-apiserver %s (Kubernetes %s): %v\n", cmd, kubeVersion(), err)
		return 1
	}
	return 0
}
