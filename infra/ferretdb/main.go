// Command herald-ferretdb runs an embedded FerretDB 1.x (MongoDB wire protocol
// over SQLite, pure Go, or over PostgreSQL) for Herald's local development and tests.
//
// It exists because `go install github.com/FerretDB/FerretDB/cmd/ferretdb`
// panics at start-up (build/version/version.txt is not in the module zip,
// upstream issue #2982); the embeddable package skips that check when the
// main module is not FerretDB itself.
//
//	CGO_ENABLED=0 go build -trimpath -o herald-ferretdb .
//	herald-ferretdb -listen 127.0.0.1:27017 -sqlite-dir /abs/data/dir
//	herald-ferretdb -listen 127.0.0.1:27017 -postgresql-url postgres://user@127.0.0.1:5432/ferretdb
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	_ "net/http/pprof" // serves /debug/pprof on -pprof-listen only
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on")
	sqliteDir := flag.String("sqlite-dir", "", "directory for the SQLite databases (created if missing); SQLite backend")
	postgresqlURL := flag.String("postgresql-url", "", "PostgreSQL connection URL; PostgreSQL backend (instead of -sqlite-dir)")
	logLevel := flag.String("log-level", "info", "log level: debug, info, warn or error")
	pprofListen := flag.String("pprof-listen", "", "if set (e.g. 127.0.0.1:6060), serve Go's /debug/pprof there: where the store spends its CPU during a benchmark")
	// herald-infra recognises its own process by this word on the command line.
	flag.String("tag", "", "free-form label, unused (shown in the process's command line)")
	flag.Parse()

	if *pprofListen != "" {
		go func() {
			fmt.Fprintf(os.Stderr, "herald-ferretdb: pprof: %v\n", http.ListenAndServe(*pprofListen, nil))
		}()
	}

	if err := run(*listen, *sqliteDir, *postgresqlURL, *logLevel); err != nil {
		fmt.Fprintf(os.Stderr, "herald-ferretdb: %v\n", err)
		os.Exit(1)
	}
}

func run(listen, sqliteDir, postgresqlURL, logLevel string) error {
	if (sqliteDir == "") == (postgresqlURL == "") {
		return fmt.Errorf("exactly one of -sqlite-dir and -postgresql-url is required")
	}

	var level slog.Level
	if err := level.UnmarshalText([]byte(logLevel)); err != nil {
		return fmt.Errorf("-log-level: %w", err)
	}

	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	config := &ferretdb.Config{Listener: ferretdb.ListenerConfig{TCP: listen}, Logger: logger}

	if postgresqlURL != "" {
		config.Handler = "postgresql"
		config.PostgreSQLURL = postgresqlURL
	} else {
		dir, err := filepath.Abs(sqliteDir)
		if err != nil {
			return err
		}
		if err = os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		// FerretDB wants a "file:" URI whose path ends with "/".
		config.Handler = "sqlite"
		config.SQLiteURL = (&url.URL{Scheme: "file", Path: dir + "/"}).String()
	}

	f, err := ferretdb.New(config)
	if err != nil {
		return err
	}

	// Stop cleanly (closing SQLite) on SIGTERM / SIGINT.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()

	logger.Info("herald-ferretdb starting", "listen", listen, "handler", config.Handler)

	return f.Run(ctx)
}
