package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	// The two database drivers, pure Go both.
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite"
)

// EnvVar names the environment variable that chooses the catalog when no
// -catalog flag is given.
const EnvVar = "DRIVEBENCH_CATALOG"

// busyTimeout is how long an SQLite writer waits for another one before
// giving up; several local runs may add at once.
const busyTimeout = 30 * time.Second

// Catalog is an open catalog database.
type Catalog struct {
	db *sql.DB
	// Where names the catalog for messages: the file, or the DSN without
	// its password.
	Where    string
	postgres bool
	// ro is a second, read-only handle on an SQLite file, for queries.
	ro     *sql.DB
	roErr  error
	roOnce sync.Once
}

// DefaultPath is where the catalog lives when neither -catalog nor
// DRIVEBENCH_CATALOG names one: $XDG_DATA_HOME/drivebench/catalog.db,
// else ~/.local/share/drivebench/catalog.db.
func DefaultPath(getenv func(string) string) string {
	if d := getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "drivebench", "catalog.db")
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, ".local", "share", "drivebench", "catalog.db")
}

// Resolve picks the catalog: the flag's value, else the environment
// variable, else the default file.
func Resolve(flag string, getenv func(string) string) string {
	if flag != "" {
		return flag
	}
	if v := getenv(EnvVar); v != "" {
		return v
	}
	return DefaultPath(getenv)
}

// IsPostgres says whether target is a PostgreSQL DSN rather than a file.
func IsPostgres(target string) bool {
	return strings.HasPrefix(target, "postgres://") || strings.HasPrefix(target, "postgresql://")
}

// Open opens the catalog at target (a file path or a postgres:// DSN),
// creating its tables or migrating them to this version's schema. A file
// that does not exist yet is created with its folder.
func Open(ctx context.Context, target string) (*Catalog, error) {
	c, err := connect(target)
	if err != nil {
		return nil, err
	}
	if err := c.migrate(ctx); err != nil {
		c.db.Close()
		return nil, err
	}
	return c, nil
}

func connect(target string) (*Catalog, error) {
	if IsPostgres(target) {
		cfg, err := pgx.ParseConfig(target)
		if err != nil {
			return nil, fmt.Errorf("catalog %s: %w", redact(target), err)
		}
		// A canceled context (Ctrl-C, a query's time limit) sends the
		// server a cancel request, so that it stops the statement, instead
		// of only closing the connection while the server goes on.
		cfg.BuildContextWatcherHandler = func(conn *pgconn.PgConn) ctxwatch.Handler {
			return &pgconn.CancelRequestContextWatcherHandler{Conn: conn, DeadlineDelay: 5 * time.Second}
		}
		db := stdlib.OpenDB(*cfg)
		db.SetMaxOpenConns(8)
		return &Catalog{db: db, Where: redact(target), postgres: true}, nil
	}
	if target == "" {
		return nil, errors.New("no catalog named: give -catalog PATH or set " + EnvVar)
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return nil, fmt.Errorf("catalog %s: %w", target, err)
	}
	// WAL lets readers run while a run is being added; the busy timeout
	// makes concurrent writers wait for each other instead of failing;
	// foreign keys make a delete of a run take its rows with it.
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+target+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("catalog %s: %w", target, err)
	}
	return &Catalog{db: db, Where: target}, nil
}

// redact removes the password from a DSN shown in messages.
func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.User == nil {
		return dsn
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// Close closes the database.
func (c *Catalog) Close() error {
	if c.ro != nil {
		c.ro.Close()
	}
	return c.db.Close()
}

// Kind is "sqlite" or "postgresql".
func (c *Catalog) Kind() string {
	if c.postgres {
		return "postgresql"
	}
	return "sqlite"
}
