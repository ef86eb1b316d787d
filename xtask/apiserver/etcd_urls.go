package main

import (
	"net/url"

	"go.etcd.io/etcd/server/v3/embed"
)

// setEtcdURLs sets the listen and advertise URLs (field names of etcd 3.5.5 on).
func setEtcdURLs(cfg *embed.Config, client, peer url.URL) {
	cfg.ListenClientUrls = []url.URL{client}
	cfg.AdvertiseClientUrls = []url.URL{client}
	cfg.ListenPeerUrls = []url.URL{peer}
	cfg.AdvertisePeerUrls = []url.URL{peer}
}
