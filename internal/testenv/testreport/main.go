// Command testreport reads the events of go test -json and says what the
// suite ran: each package's result as go test prints it, the output of
// every test that failed or did not finish (a test binary that panicked
// or exited), compiler errors, then every skipped test with its reason.
// ./test.sh runs the suite through it:
//
//	go test -json ./... | go run ./internal/testenv/testreport -allow testdata/skip-allowlist.txt
//
// It exits 1 when a test failed or did not finish, a package failed or
// did not build, or a test skipped that the allowlist does not name: a
// green run is then one where every test ran but those the list lets
// skip, with their reason (see package testenv). Without -allow, skips
// are listed and do not fail the run.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	allowFile := flag.String("allow", "", "the allowlist of tests that may skip (PACKAGE TEST REASON lines); without it, skips are only listed")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: go test -json ./... | testreport [-allow FILE]")
		flag.PrintDefaults()
	}
	flag.Parse()
	os.Exit(run(os.Stdin, os.Stdout, *allowFile))
}

// run reads the events from in, writes the report to out and returns the
// exit status: 0, 1 when the suite failed, 2 when the allowlist is wrong.
func run(in io.Reader, out io.Writer, allowFile string) int {
	var allow *allowlist
	if allowFile != "" {
		var err error
		if allow, err = readAllowlist(allowFile); err != nil {
			fmt.Fprintln(out, "testreport:", err)
			return 2
		}
	}
	s := newSuite(out)
	if err := s.read(in); err != nil {
		fmt.Fprintln(out, "testreport: reading go test -json:", err)
		return 1
	}
	if s.finish(allow) {
		return 1
	}
	return 0
}
