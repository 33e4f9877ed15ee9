package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/workload"
)

// flagSet is a command's flags with its usage text. Help that was asked
// for goes to stdout (so `drivebench run -h | less` works); usage shown
// because of a mistake goes to stderr.
type flagSet struct {
	*flag.FlagSet
	argsUsage, summary string
	io                 stdio
	// choices are the values of the flags that take one of a few, by
	// flag name, which completion scripts offer.
	choices map[string]flagChoices
}

// flagChoices are the values a flag takes; list says it takes several,
// comma-separated (report -format markdown,html).
type flagChoices struct {
	values []string
	list   bool
}

// choose declares the values flag name takes, for completion.
func (fs *flagSet) choose(name string, list bool, values ...string) {
	if fs.choices == nil {
		fs.choices = map[string]flagChoices{}
	}
	fs.choices[name] = flagChoices{values: values, list: list}
}

// takesValue reports whether flag f takes a value (is not a bool flag).
func takesValue(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

// takesPlan reports whether the command's arguments are plan files, which
// completion offers *.hcl files and folders for.
func (fs *flagSet) takesPlan() bool {
	words := strings.FieldsFunc(fs.argsUsage, func(r rune) bool { return strings.ContainsRune(" |[]", r) })
	return slices.Contains(words, "PLAN")
}

func newFlagSet(name, argsUsage, summary string, io stdio) *flagSet {
	fs := &flagSet{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), argsUsage: argsUsage, summary: summary, io: io}
	fs.SetOutput(io.err)
	// The flag package calls Usage itself on -h and on bad flags; the
	// text is printed by parseFlags instead, to the right stream.
	fs.FlagSet.Usage = func() {}
	return fs
}

// help writes the command's usage, summary and flags to w.
func (fs *flagSet) help(w io.Writer) {
	fmt.Fprintf(w, "Usage: drivebench %s [flags] %s\n\n%s\n", fs.Name(), fs.argsUsage, fs.summary)
	if hasFlags(fs.FlagSet) {
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(fs.io.err)
	}
}

// printUsage shows the usage after a mistake, on stderr.
func (fs *flagSet) printUsage() { fs.help(fs.io.err) }

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// parseFlags parses args; done is true when the command must stop at once
// with code (help was asked for, or the flags were wrong).
func parseFlags(fs *flagSet, args []string) (code int, done bool) {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		if fs.io.describe != nil {
			fs.io.describe(fs)
		}
		fs.help(fs.io.out)
		return exitOK, true
	case err != nil:
		fmt.Fprintln(fs.io.err)
		fs.printUsage()
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
func onePositional(fs *flagSet, what string) (string, bool) {
	if fs.NArg() != 1 {
		fmt.Fprintf(fs.Output(), "drivebench %s: expected one %s, got %d arguments\n\n", fs.Name(), what, fs.NArg())
		fs.printUsage()
		return "", false
	}
	return fs.Arg(0), true
}

// parseInterspersed parses flags wherever they stand among the positional
// arguments, so "compare BASE NEW -threshold 5%" works as well as
// "compare -threshold 5% BASE NEW". A "--" ends the flags.
func parseInterspersed(fs *flagSet, args []string) (positional []string, code int, done bool) {
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

// wantPositionals checks the number of positional arguments, printing
// usage when it is wrong.
func wantPositionals(fs *flagSet, got []string, what ...string) bool {
	if len(got) == len(what) {
		return true
	}
	fmt.Fprintf(fs.Output(), "drivebench %s: expected %s, got %d arguments\n\n", fs.Name(), strings.Join(what, " and "), len(got))
	fs.printUsage()
	return false
}

// parsePositionals parses flags wherever they stand (parseInterspersed)
// and checks that the positional arguments are what names; ok is false,
// with the exit code, when the command must stop.
func parsePositionals(fs *flagSet, args []string, what ...string) (positional []string, code int, ok bool) {
	positional, code, done := parseInterspersed(fs, args)
	if done {
		return nil, code, false
	}
	if !wantPositionals(fs, positional, what...) {
		return nil, exitUsage, false
	}
	return positional, exitOK, true
}

// flagT is one flag, as completion and the man page list it.
type flagT = flag.Flag

// sizeFlag is a flag holding a size such as "1GiB"; 0 when not given.
type sizeFlag int64

func (s *sizeFlag) String() string { return strconv.FormatInt(int64(*s), 10) }

func (s *sizeFlag) Set(v string) error {
	n, err := workload.ParseSize(v)
	if err != nil {
		return err
	}
	if n <= 0 {
		return errors.New("must be more than 0")
	}
	*s = sizeFlag(n)
	return nil
}
