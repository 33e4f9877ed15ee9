// Package catalog keeps every run in one database so that results can be
// asked about across drives and runs: which serials failed which spec
// line, the distribution of p99 across a fleet of one model, how a figure
// moved over firmware versions.
//
// The database is an SQLite file by default, opened with a pure-Go
// driver so the binary stays static, or a PostgreSQL server named by a
// postgres:// DSN when many hosts write to one catalog. Both get the same
// schema and the same SQL (positional $N parameters, standard types
// only), so a query tested on one runs on the other. The schema is
// versioned: an older catalog is migrated when opened, a newer one is
// refused, since this drivebench cannot know what its tables mean.
//
// Runs are read from results folders through the results package and
// added in one transaction each: a run is wholly in the catalog or not at
// all. A run is identified by its plan hash, creation time and testbed,
// so adding it again keeps one copy (and replaces it when the folder has
// grown since, as after a resumed run).
//
// Queries of the catalog's own SQL ([Catalog.Stream]) only read, and are
// bounded: one statement of a kind that reads, checked before the
// database sees it and enforced again by the database (SQLite: a
// read-only connection with an authorizer, since a read-only connection
// still runs ATTACH and VACUUM INTO, which create files; PostgreSQL: a
// READ ONLY transaction with statement_timeout); rows handed on as they
// come, never collected, up to a limit; a time limit; and a canceled
// context interrupts the statement in the database.
//
// Latency histograms are stored whole (the metrics package's binary form)
// beside the percentiles, so that percentiles across drives are read from
// merged histograms, never averaged from per-drive percentiles.
package catalog
