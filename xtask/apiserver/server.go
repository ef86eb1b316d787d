package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"k8s.io/client-go/util/cert"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

// mode says how the server is configured.
type mode int

const (
	// defaultMode is a fresh cluster's server: default gates, default
	// runtime-config, kubeadm's authorization and admission.
	defaultMode mode = iota
	// openapiMode is the server as hack/update-openapi-spec.sh of the
	// release starts it: every API enabled, its --feature-gates.
	openapiMode
)

const (
	// readyTimeout bounds the server's start (etcd ready to /readyz ok).
	readyTimeout = 180 * time.Second
	// requestTimeout bounds every request this program sends.
	requestTimeout = 60 * time.Second
	// maxResponse bounds a response body read (the OpenAPI v2 document of
	// 1.36 is about 4 MiB).
	maxResponse = 256 << 20
)

// server is a running API server and a client for it.
type server struct {
	base   string
	token  string
	client *http.Client
}

// withServer runs fn against an API server of this binary's minor,
// started in-process on loopback with an embedded etcd in a temporary
// directory. The directory is removed when withServer returns (or on
// SIGINT/SIGTERM); the server itself ends with the process.
func withServer(m mode, logPath string, fn func(*server) error) error {
	dir, err := os.MkdirTemp("", "vergate-apiserver-")
	if err != nil {
		return fmt.Errorf("cannot make a temporary directory: %w", err)
	}
	defer removeDir(dir)
	var etcdRunning atomic.Pointer[embed.Etcd]
	stopSignals := onSignal(func() {
		if e := etcdRunning.Load(); e != nil {
			stopEtcd(e)
		}
		removeDir(dir)
	})
	defer stopSignals()

	if logPath == "" {
		logPath = filepath.Join(dir, "server.log")
	}
	if err := redirectStderr(logPath); err != nil {
		return err
	}

	e, etcdURL, err := startEtcd(dir)
	if err != nil {
		return withLogTail(err, logPath)
	}
	etcdRunning.Store(e)
	defer stopEtcd(e)

	s, err := startAPIServer(m, dir, etcdURL)
	if err != nil {
		return withLogTail(err, logPath)
	}
	if err := fn(s); err != nil {
		return withLogTail(err, logPath)
	}
	return nil
}

// onSignal runs cleanup and exits on SIGINT or SIGTERM (the API server's
// own handler only cancels the server's context).
func onSignal(cleanup func()) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			cleanup()
			fmt.Fprintf(console, "vergate-apiserver: stopped by %v\n", sig)
			os.Exit(130)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

// removeDir removes the run's directory, trying again a few times: etcd,
// even stopped, may still be finishing a file in it.
func removeDir(dir string) {
	for i := 0; i < 20; i++ {
		if os.RemoveAll(dir) == nil {
			if _, err := os.Stat(dir); os.IsNotExist(err) {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	fmt.Fprintf(console, "vergate-apiserver: could not remove %s; remove it by hand\n", dir)
}

// redirectStderr points file descriptor 2, where the API server and etcd
// log, at logPath, and keeps this program's own messages on the original
// stderr through console.
func redirectStderr(logPath string) error {
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("cannot open the log file %s: %w", logPath, err)
	}
	defer f.Close()
	orig, err := syscall.Dup(2)
	if err != nil {
		return fmt.Errorf("cannot keep stderr: %w", err)
	}
	if err := syscall.Dup3(int(f.Fd()), 2, 0); err != nil {
		syscall.Close(orig)
		return fmt.Errorf("cannot send the server log to %s: %w", logPath, err)
	}
	console = os.NewFile(uintptr(orig), "stderr")
	return nil
}

// withLogTail adds the last lines of the server log to err.
func withLogTail(err error, logPath string) error {
	data, rerr := os.ReadFile(logPath)
	if rerr != nil || len(data) == 0 {
		return err
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > 25 {
		lines = lines[len(lines)-25:]
	}
	return fmt.Errorf("%w\nlast lines of the server log (%s):\n  %s", err, logPath, strings.Join(lines, "\n  "))
}

// openapiGates are the --feature-gates of hack/update-openapi-spec.sh, per
// minor of the release.
var openapiGates = map[string]string{
	"1.28": "AllAlpha=true,OpenAPIEnums=false",
	"1.29": "AllAlpha=true,OpenAPIEnums=false",
	"1.30": "AllAlpha=true,OpenAPIEnums=false,ConsistentListFromCache=false",
	"1.31": "AllAlpha=true,OpenAPIEnums=false,ConsistentListFromCache=false",
	"1.32": "AllAlpha=true,AllBeta=true,OpenAPIEnums=false,ConsistentListFromCache=false",
	"1.33": "AllAlpha=true,AllBeta=true,OpenAPIEnums=false",
	"1.34": "AllAlpha=true,AllBeta=true,OpenAPIEnums=false",
	"1.35": "AllAlpha=true,AllBeta=true,OpenAPIEnums=false",
	"1.36": "AllAlpha=true,AllBeta=true,OpenAPIEnums=false",
	"1.37": "AllAlpha=true,AllBeta=true,OpenAPIEnums=false",
}

// strictRemovedAPIs are the minors whose hack/update-openapi-spec.sh sets
// KUBE_APISERVER_STRICT_REMOVED_API_HANDLING_IN_ALPHA=true, so that APIs
// removed at that minor are not served.
var strictRemovedAPIs = map[string]bool{"1.33": true, "1.34": true, "1.35": true, "1.36": true, "1.37": true}

// startAPIServer runs the kube-apiserver command of this minor in a
// goroutine with the flags of mode m, and waits until /readyz answers ok.
func startAPIServer(m mode, dir, etcdURL string) (*server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	token, err := randomToken()
	if err != nil {
		return nil, err
	}
	tokenFile := filepath.Join(dir, "tokens.csv")
	// The recorder is in system:masters: allowed everything, as a cluster admin.
	if err := os.WriteFile(tokenFile, []byte(token+",vergate-recorder,vergate-recorder,\"system:masters\"\n"), 0o600); err != nil {
		return nil, err
	}
	keyFile := filepath.Join(dir, "sa.key")
	if err := writeServiceAccountKey(keyFile); err != nil {
		return nil, err
	}

	// A serving certificate made here rather than by the server (--cert-dir):
	// then nothing but etcd writes in dir, and cleanup cannot race the server.
	certFile, certKeyFile := filepath.Join(dir, "serving.crt"), filepath.Join(dir, "serving.key")
	if err := writeServingCert(certFile, certKeyFile); err != nil {
		return nil, err
	}

	args := []string{
		"--bind-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
		"--advertise-address=127.0.0.1",
		// Loopback is not a valid endpoint of the kubernetes Service; no
		// other component reads that endpoint here.
		"--endpoint-reconciler-type=none",
		"--etcd-servers=" + etcdURL,
		"--tls-cert-file=" + certFile,
		"--tls-private-key-file=" + certKeyFile,
		"--token-auth-file=" + tokenFile,
		"--service-account-key-file=" + keyFile,
		"--service-account-signing-key-file=" + keyFile,
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-cluster-ip-range=10.0.0.0/24",
		"--v=0",
	}
	switch m {
	case openapiMode:
		gates, ok := openapiGates[kubeMinor()]
		if !ok {
			return nil, fmt.Errorf("no hack/update-openapi-spec.sh gates known for minor %s: add them to openapiGates in server.go", kubeMinor())
		}
		// --enable-logs-handler: the script sets it from 1.31 on (the default
		// was true before); the /logs/ paths are in the published document.
		args = append(args, "--feature-gates="+gates, "--runtime-config=api/all=true", "--authorization-mode=RBAC", "--enable-logs-handler=true")
		if strictRemovedAPIs[kubeMinor()] {
			os.Setenv("KUBE_APISERVER_STRICT_REMOVED_API_HANDLING_IN_ALPHA", "true")
		}
	case defaultMode:
		// kubeadm's choices; they do not change what validation says.
		args = append(args, "--authorization-mode=Node,RBAC", "--enable-admission-plugins=NodeRestriction")
	}

	cmd := app.NewAPIServerCommand()
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Execute() }()

	s := &server{
		base:  "https://127.0.0.1:" + strconv.Itoa(port),
		token: token,
		client: &http.Client{
			Timeout: requestTimeout,
			Transport: &http.Transport{
				// The server's certificate is self-signed for this run; the
				// connection is to loopback, to this process.
				TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec
				Proxy:           nil,
			},
		},
	}
	deadline := time.Now().Add(readyTimeout)
	var last string
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			return nil, fmt.Errorf("kube-apiserver exited: %v", err)
		case <-time.After(250 * time.Millisecond):
		}
		code, _, body, err := s.do(context.Background(), http.MethodGet, "/readyz", nil)
		if err == nil && code == http.StatusOK {
			return s, nil
		}
		if err != nil {
			last = err.Error()
		} else {
			last = fmt.Sprintf("%d %s", code, firstLines(body, 40))
		}
	}
	return nil, fmt.Errorf("kube-apiserver not ready after %s; last /readyz: %s", readyTimeout, last)
}

// do sends one request with the recorder's token and reads at most
// maxResponse bytes of the answer.
func (s *server) do(ctx context.Context, method, path string, body []byte) (int, http.Header, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.base+path, rd)
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return 0, nil, nil, fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	if len(data) > maxResponse {
		return 0, nil, nil, fmt.Errorf("%s %s: answer larger than %d bytes", method, path, maxResponse)
	}
	return resp.StatusCode, resp.Header, data, nil
}

// get is do for a GET that must answer 200.
func (s *server) get(path string) ([]byte, error) {
	code, _, body, err := s.do(context.Background(), http.MethodGet, path, nil)
	if err != nil {
		return nil, err
	}
	if code != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %d %s", path, code, firstLines(body, 5))
	}
	return body, nil
}

func firstLines(b []byte, n int) string {
	lines := strings.SplitN(string(b), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " | ")
}

func randomToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", errors.New("no randomness for the access token")
	}
	return hex.EncodeToString(b), nil
}

// writeServiceAccountKey writes a fresh RSA key, which the server uses
// both to sign and to verify service-account tokens.
func writeServiceAccountKey(path string) error {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	block := &pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}
	return os.WriteFile(path, pem.EncodeToMemory(block), 0o600)
}

// writeServingCert writes a self-signed serving certificate for 127.0.0.1.
func writeServingCert(certFile, keyFile string) error {
	certPEM, keyPEM, err := cert.GenerateSelfSignedCertKey("127.0.0.1", nil, nil)
	if err != nil {
		return fmt.Errorf("cannot make a serving certificate: %w", err)
	}
	if err := os.WriteFile(certFile, certPEM, 0o600); err != nil {
		return err
	}
	return os.WriteFile(keyFile, keyPEM, 0o600)
}
