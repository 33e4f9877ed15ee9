package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"
)

func newFlagSet(name, argsUsage, summary string, io stdio) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.err)
	fs.Usage = func() {
		fmt.Fprintf(io.err, "Usage: drivebench %s [flags] %s\n\n%s\n", name, argsUsage, summary)
		if hasFlags(fs) {
			fmt.Fprintln(io.err, "\nFlags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// parseFlags parses args; done is true when the command must stop at once
// with code (help was asked for, or the flags were wrong).
func parseFlags(fs *flag.FlagSet, args []string) (code int, done bool) {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK, true
	case err != nil:
		return exitUsage, true
	}
	return exitOK, false
}

// varFlags collects repeated -var name=value flags.
type varFlags map[string]string

func (v varFlags) String() string { return "" }

func (v varFlags) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("want name=value, got %q", s)
	}
	v[strings.TrimSpace(name)] = value
	return nil
}

// onePositional returns the single positional argument, or prints usage.
func onePositional(fs *flag.FlagSet, what string) (string, bool) {
	if fs.NArg() != 1 {
		fmt.Fprintf(fs.Output(), "drivebench %s: expected one %s, got %d arguments\n\n", fs.Name(), what, fs.NArg())
		fs.Usage()
		return "", false
	}
	return fs.Arg(0), true
}

// parseInterspersed parses flags wherever they stand among the positional
// arguments, so "compare BASE NEW -threshold 5%" works as well as
// "compare -threshold 5% BASE NEW". A "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) (positional []string, code int, done bool) {
	for {
		if code, done := parseFlags(fs, args); done {
			return nil, code, true
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, exitOK, false
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(positional, rest...), exitOK, false
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}
