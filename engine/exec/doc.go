// Package exec runs the external commands of a plan's exec steps: an
// application benchmark (sysbench, pgbench), a database server started
// and stopped around it, any tool whose output a parse hook turns into
// metrics.
//
// A command is measured like any other step, so it must not outlive its
// step or hang the run: it runs in a process group of its own, and when
// its timeout passes or the run is cancelled the whole group is sent
// SIGTERM and, a few seconds later, SIGKILL. A daemon a command starts
// on purpose (pg_ctl start) survives the command's normal exit; the plan
// stops it with another step. A command can run as another account
// (PostgreSQL refuses to run as root), and its output goes to files
// beside the step's record, so a failed command leaves everything it said
// for the report.
package exec
