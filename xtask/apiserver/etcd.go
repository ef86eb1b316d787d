package main

import (
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strconv"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
)

// etcdStartTimeout bounds how long an embedded etcd may take to be ready.
const etcdStartTimeout = 60 * time.Second

// startEtcd runs a single-member etcd in dir/etcd, listening for clients
// and peers on loopback ports only; it returns the client URL.
func startEtcd(dir string) (*embed.Etcd, string, error) {
	clientPort, err := freePort()
	if err != nil {
		return nil, "", err
	}
	peerPort, err := freePort()
	if err != nil {
		return nil, "", err
	}
	clientURL := url.URL{Scheme: "http", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(clientPort))}
	peerURL := url.URL{Scheme: "http", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(peerPort))}

	cfg := embed.NewConfig()
	cfg.Name = "vergate"
	cfg.Dir = filepath.Join(dir, "etcd")
	setEtcdURLs(cfg, clientURL, peerURL)
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.Logger = "zap"
	cfg.LogLevel = "error"
	cfg.LogOutputs = []string{"stderr"} // file descriptor 2: the run's log file
	// The data dies with the run: no need to pay for fsync.
	cfg.UnsafeNoFsync = true

	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return nil, "", fmt.Errorf("embedded etcd did not start: %w", err)
	}
	select {
	case <-e.Server.ReadyNotify():
		return e, clientURL.String(), nil
	case err := <-e.Err():
		e.Close()
		return nil, "", fmt.Errorf("embedded etcd failed: %w", err)
	case <-time.After(etcdStartTimeout):
		e.Server.Stop()
		return nil, "", fmt.Errorf("embedded etcd not ready after %s", etcdStartTimeout)
	}
}

// stopEtcd closes etcd, waiting at most a few seconds: a graceful close can
// wait for the API server's watch streams, and the process exits anyway.
func stopEtcd(e *embed.Etcd) {
	done := make(chan struct{})
	go func() {
		e.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
}

// freePort asks the kernel for a free loopback TCP port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("no free loopback port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// setEtcdURLs sets the listen and advertise URLs (the same fields in etcd 3.5.9 to 3.7).
func setEtcdURLs(cfg *embed.Config, client, peer url.URL) {
	cfg.ListenClientUrls = []url.URL{client}
	cfg.AdvertiseClientUrls = []url.URL{client}
	cfg.ListenPeerUrls = []url.URL{peer}
	cfg.AdvertisePeerUrls = []url.URL{peer}
}
