// Command herald-ferretdb runs an embedded FerretDB 1.x (MongoDB wire protocol
// over SQLite, pure Go) for Herald's local development and tests.
//
// It exists because `go install github.com/FerretDB/FerretDB/cmd/ferretdb`
// panics at start-up (build/version/version.txt is not in the module zip,
// upstream issue #2982); the embeddable package skips that check when the
// main module is not FerretDB itself.
//
//	CGO_ENABLED=0 go build -trimpath -o herald-ferretdb .
//	herald-ferretdb -listen 127.0.0.1:27017 -sqlite-dir /abs/data/dir
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on")
	sqliteDir := flag.String("sqlite-dir", "", "directory for the SQLite databases (created if missing; required)")
	logLevel := flag.String("log-level", "info", "log level: debug, info, warn or error")
	flag.Parse()

	if err := run(*listen, *sqliteDir, *logLevel); err != nil {
		fmt.Fprintf(os.Stderr, "herald-ferretdb: %v\n", err)
		os.Exit(1)
	}
}

func run(listen, sqliteDir, logLevel string) error {
	if sqliteDir == "" {
		return fmt.Errorf("-sqlite-dir is required")
	}

	var level slog.Level
	if err := level.UnmarshalText([]byte(logLevel)); err != nil {
		return fmt.Errorf("-log-level: %w", err)
	}

	dir, err := filepath.Abs(sqliteDir)
	if err != nil {
		return err
	}
	if err = os.MkdirAll(dir, 0o755); err != nil {
		return err
	}

	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	// FerretDB wants a "file:" URI whose path ends with "/".
	sqliteURL := (&url.URL{Scheme: "file", Path: dir + "/"}).String()

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: listen},
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: sqliteURL,
	})
	if err != nil {
		return err
	}

	// Stop cleanly (closing SQLite) on SIGTERM / SIGINT.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()

	logger.Info("herald-ferretdb starting", "listen", listen, "sqlite", sqliteURL)

	return f.Run(ctx)
}
