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
	"net/http"
	_ "net/http/pprof" // serves /debug/pprof on -pprof-listen only
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on")
	sqliteDir := flag.String("sqlite-dir", "", "directory for the SQLite databases (created if missing); required")
	logLevel := flag.String("log-level", "info", "log level: debug, info, warn or error")
	// WAL with synchronous=NORMAL fsyncs at checkpoints only, not at every commit: a crash of
	// FerretDB loses nothing, a power cut may lose the last commits. FerretDB commits each
	// update of a bulk write on its own, so with FULL a write waited for an fsync per document.
	sqliteSynchronous := flag.String("sqlite-synchronous", "normal", "SQLite's synchronous pragma (off, normal, full or extra)")
	// Reads through a memory map instead of a pread per page: a page walking an index touches
	// thousands of pages, each a system call otherwise (SQLite's own page cache is 2 MB a connection).
	sqliteMmapSize := flag.Int64("sqlite-mmap-size", 1<<30, "SQLite's mmap_size pragma in bytes (0 turns memory-mapped reads off)")
	pprofListen := flag.String("pprof-listen", "", "if set (e.g. 127.0.0.1:6060), serve Go's /debug/pprof there: where the store spends its CPU during a benchmark")
	// herald-infra recognises its own process by this word on the command line.
	flag.String("tag", "", "free-form label, unused (shown in the process's command line)")
	flag.Parse()

	if *pprofListen != "" {
		go func() {
			fmt.Fprintf(os.Stderr, "herald-ferretdb: pprof: %v\n", http.ListenAndServe(*pprofListen, nil))
		}()
	}

	if err := run(*listen, *sqliteDir, *sqliteSynchronous, *sqliteMmapSize, *logLevel); err != nil {
		fmt.Fprintf(os.Stderr, "herald-ferretdb: %v\n", err)
		os.Exit(1)
	}
}

func run(listen, sqliteDir, sqliteSynchronous string, sqliteMmapSize int64, logLevel string) error {
	if sqliteDir == "" {
		return fmt.Errorf("-sqlite-dir is required")
	}

	if !slices.Contains([]string{"off", "normal", "full", "extra"}, sqliteSynchronous) {
		return fmt.Errorf("-sqlite-synchronous: want off, normal, full or extra, got %q", sqliteSynchronous)
	}

	if sqliteMmapSize < 0 {
		return fmt.Errorf("-sqlite-mmap-size: want 0 or more bytes, got %d", sqliteMmapSize)
	}

	var level slog.Level
	if err := level.UnmarshalText([]byte(logLevel)); err != nil {
		return fmt.Errorf("-log-level: %w", err)
	}

	logger := slog.New(deferAttrs{inner: slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})})
	config := &ferretdb.Config{Listener: ferretdb.ListenerConfig{TCP: listen}, Logger: logger}

	dir, err := filepath.Abs(sqliteDir)
	if err != nil {
		return err
	}
	if err = os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// FerretDB wants a "file:" URI whose path ends with "/".
	config.Handler = "sqlite"
	// FerretDB adds its own pragmas (busy_timeout, journal_mode=wal, auto_vacuum) after these.
	query := url.Values{"_pragma": {"synchronous(" + sqliteSynchronous + ")", fmt.Sprintf("mmap_size(%d)", sqliteMmapSize)}}
	config.SQLiteURL = (&url.URL{Scheme: "file", Path: dir + "/", RawQuery: query.Encode()}).String()

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

// deferAttrs holds the attributes a Logger.With adds until a record is
// written. FerretDB's SQL layer (internal/util/fsql) calls Logger.With with
// every statement's arguments twice per statement, debug level or not, and
// slog's text handler formats attributes as soon as With is called: whole
// documents, quoted, for a line that is then never written (a fifth of the
// CPU samples in a profile of FerretDB inserting devices). Here they are
// formatted only for an enabled record.
type deferAttrs struct {
	inner slog.Handler
	attrs []slog.Attr
}

func (h deferAttrs) Enabled(ctx context.Context, level slog.Level) bool {
	return h.inner.Enabled(ctx, level)
}

func (h deferAttrs) Handle(ctx context.Context, record slog.Record) error {
	return h.resolved().Handle(ctx, record)
}

func (h deferAttrs) WithAttrs(attrs []slog.Attr) slog.Handler {
	// Clip: loggers derived from one parent must not share appended attributes.
	return deferAttrs{inner: h.inner, attrs: append(slices.Clip(h.attrs), attrs...)}
}

func (h deferAttrs) WithGroup(name string) slog.Handler {
	return deferAttrs{inner: h.resolved().WithGroup(name)}
}

func (h deferAttrs) resolved() slog.Handler {
	if len(h.attrs) == 0 {
		return h.inner
	}
	return h.inner.WithAttrs(h.attrs)
}
