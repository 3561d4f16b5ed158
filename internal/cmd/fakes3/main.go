// Copyright 2026 The pebblerf Authors. All rights reserved.

// Command fakes3 serves an in-memory S3 bucket on the loopback address
// (github.com/johannesboyne/gofakes3, the server objstore's tests speak to),
// so that pebblebench can run against S3 through the real client
// (objstore's s3://, minio-go) without a service:
//
//	go run ./internal/cmd/fakes3 -addr=127.0.0.1:9000 &
//	AWS_ACCESS_KEY_ID=fake AWS_SECRET_ACCESS_KEY=fake pebblebench -scenario=remote-range-filters \
//	    '-remote=s3://tables/run1?endpoint=127.0.0.1:9000&secure=false&lookup=path&region=us-east-1'
//
// It prints that URL once it listens, and serves until interrupted. The
// server accepts any credentials. It is a test fixture, not a store: what it
// holds is gone when it exits, and its latency is the loopback's.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on (a loopback address)")
	bucket := flag.String("bucket", "tables", "the bucket to create")
	flag.Parse()
	backend := s3mem.New()
	if err := backend.CreateBucket(*bucket); err != nil {
		fmt.Fprintf(os.Stderr, "fakes3: %v\n", err)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakes3: %v\n", err)
		os.Exit(2)
	}
	fmt.Printf("s3://%s/?endpoint=%s&secure=false&lookup=path&region=us-east-1\n", *bucket, ln.Addr())
	srv := &http.Server{Handler: gofakes3.New(backend).Server()}
	go func() {
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, os.Interrupt)
		<-sigs
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		fmt.Fprintf(os.Stderr, "fakes3: %v\n", err)
		os.Exit(1)
	}
}
