package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// event is one line of go test -json (cmd/test2json): a test's or a
// package's start, output or end, or a package's build output.
type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string // build-output, build-fail
}

// suite is what the events said so far.
type suite struct {
	out      io.Writer
	packages map[string]*pkg
	order    []string // packages in the order they started
	// buildFailed counts the packages that did not compile.
	buildFailed int
	skips       []skip
}

// pkg is one package's tests and output.
type pkg struct {
	name string
	// output is every line the package's tests and test binary wrote, in
	// order; a line of no test is the summary line, or a crash outside a
	// test.
	output []line
	tests  map[string]*test
	order  []string // tests in the order they ran
	result string   // pass, fail or skip (no test files); "" while running
}

// line is a line of output and the test that wrote it, "" for none.
type line struct{ test, text string }

type test struct {
	result string // pass, fail or skip; "" while running
}

// skip is a test that skipped, with what it said.
type skip struct {
	pkg, test string
	said      []string
}

func newSuite(out io.Writer) *suite {
	return &suite{out: out, packages: map[string]*pkg{}}
}

// read takes in every event; a line that is not one is printed as it is.
func (s *suite) read(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			fmt.Fprintln(s.out, sc.Text())
			continue
		}
		s.take(e)
	}
	return sc.Err()
}

func (s *suite) take(e event) {
	switch e.Action {
	case "build-output":
		fmt.Fprint(s.out, e.Output)
		return
	case "build-fail":
		s.buildFailed++
		return
	}
	p := s.pkg(e.Package)
	switch {
	case e.Action == "output":
		p.output = append(p.output, line{e.Test, e.Output})
	case e.Test == "" && isEnd(e.Action):
		p.result = e.Action
		s.report(p)
	case e.Test != "":
		t := p.test(e.Test)
		if isEnd(e.Action) {
			t.result = e.Action
		}
	}
}

// isEnd reports whether an action ends a test or a package.
func isEnd(action string) bool {
	return action == "pass" || action == "fail" || action == "skip"
}

func (s *suite) pkg(name string) *pkg {
	p, ok := s.packages[name]
	if !ok {
		p = &pkg{name: name, tests: map[string]*test{}}
		s.packages[name] = p
		s.order = append(s.order, name)
	}
	return p
}

func (p *pkg) test(name string) *test {
	t, ok := p.tests[name]
	if !ok {
		t = &test{}
		p.tests[name] = t
		p.order = append(p.order, name)
	}
	return t
}

// report prints a package that ended as go test does: its summary line,
// and when it failed the output of its failed and unfinished tests, in
// the order they wrote it (as go test -v prints it, the === lines saying
// whose it is), and its own; it notes the skipped tests.
func (s *suite) report(p *pkg) {
	for _, name := range p.order {
		if p.tests[name].result == "skip" {
			s.skips = append(s.skips, skip{pkg: p.name, test: name, said: p.said(name)})
		}
	}
	if p.result != "fail" {
		for _, l := range p.output {
			if l.test == "" && (strings.HasPrefix(l.text, "ok ") || strings.HasPrefix(l.text, "? ")) {
				fmt.Fprint(s.out, l.text)
			}
		}
		return
	}
	var own []string
	for _, l := range p.output {
		switch {
		case l.test == "":
			own = append(own, l.text)
		case p.tests[l.test].result == "fail" || p.tests[l.test].result == "":
			fmt.Fprint(s.out, l.text)
		}
	}
	for _, name := range p.order {
		if p.tests[name].result == "" {
			fmt.Fprintf(s.out, "--- DID NOT FINISH: %s (the test binary ended during it)\n", name)
		}
	}
	fmt.Fprint(s.out, strings.Join(own, ""))
}

// said is what test wrote before it skipped: its log lines and the skip
// message.
func (p *pkg) said(test string) []string {
	var out []string
	for _, l := range p.output {
		text := strings.TrimSpace(l.text)
		if l.test == test && text != "" && !strings.HasPrefix(text, "=== ") && !strings.HasPrefix(text, "--- SKIP: ") {
			out = append(out, text)
		}
	}
	return out
}
