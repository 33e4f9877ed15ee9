package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// allowlist names the tests that may skip: one a line, the package's
// import path, the test's name and why it may skip; # starts a comment.
// A name covers the test's subtests.
type allowlist struct {
	file    string
	entries []allowed
}

type allowed struct {
	pkg, test, reason string
	line              int
}

func readAllowlist(path string) (*allowlist, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	a := &allowlist{file: path}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(text)
		switch {
		case len(fields) == 0:
			continue
		case len(fields) < 3:
			return nil, fmt.Errorf("%s:%d: want PACKAGE TEST REASON, the reason saying why the test may skip", path, n)
		}
		a.entries = append(a.entries, allowed{pkg: fields[0], test: fields[1], reason: strings.Join(fields[2:], " "), line: n})
	}
	return a, sc.Err()
}

// find returns the entry that lets test of pkg skip, if any.
func (a *allowlist) find(pkg, test string) (allowed, bool) {
	if a == nil {
		return allowed{}, false
	}
	for _, e := range a.entries {
		if e.pkg == pkg && (test == e.test || strings.HasPrefix(test, e.test+"/")) {
			return e, true
		}
	}
	return allowed{}, false
}
