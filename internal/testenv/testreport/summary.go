package main

import (
	"fmt"
	"strings"
)

// counts sums up the suite.
type counts struct {
	packages, failedPackages, unended int
	passed, failed, unfinished        int
	skipped, notAllowed               int
}

// finish reports the packages whose events stopped before their end,
// lists the skipped tests and sums up; it reports whether the suite
// failed.
func (s *suite) finish(allow *allowlist) bool {
	var c counts
	for _, name := range s.order {
		p := s.packages[name]
		if p.result == "" {
			p.result = "fail"
			c.unended++
			s.report(p)
			fmt.Fprintf(s.out, "FAIL\t%s\t(its events ended before it did)\n", name)
		}
		c.packages++
		if p.result == "fail" {
			c.failedPackages++
		}
		for _, t := range p.tests {
			switch t.result {
			case "pass":
				c.passed++
			case "fail":
				c.failed++
			case "":
				c.unfinished++
			}
		}
	}
	c.skipped = len(s.skips)
	c.notAllowed = s.listSkips(allow)
	fmt.Fprintln(s.out, c.line(s.buildFailed))
	if c.packages == 0 {
		fmt.Fprintln(s.out, "testreport: no test events read: was it given the output of go test -json?")
		return true
	}
	return c.failedPackages > 0 || c.failed > 0 || c.unfinished > 0 || s.buildFailed > 0 || c.notAllowed > 0
}

// listSkips prints every skipped test with what it said and whether the
// allowlist lets it skip; it returns how many it does not. Without an
// allowlist every skip is listed and none counted.
func (s *suite) listSkips(allow *allowlist) (notAllowed int) {
	if len(s.skips) == 0 {
		fmt.Fprintln(s.out, "== no test skipped")
		return 0
	}
	fmt.Fprintf(s.out, "== %d skipped tests\n", len(s.skips))
	for _, sk := range s.skips {
		fmt.Fprintf(s.out, "%s %s\n", sk.pkg, sk.test)
		for _, line := range sk.said {
			fmt.Fprintf(s.out, "    %s\n", line)
		}
		switch e, ok := allow.find(sk.pkg, sk.test); {
		case ok:
			fmt.Fprintf(s.out, "    allowed (%s:%d): %s\n", allow.file, e.line, e.reason)
		case allow != nil:
			notAllowed++
			fmt.Fprintf(s.out, "    NOT ALLOWED: make it run here, or add it to %s with the reason it cannot\n", allow.file)
		}
	}
	return notAllowed
}

// line is the summary's last line.
func (c counts) line(buildFailed int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "== %d packages", c.packages)
	if c.failedPackages > 0 {
		fmt.Fprintf(&b, " (%d failed", c.failedPackages)
		if buildFailed > 0 {
			fmt.Fprintf(&b, ", %d of them not built", buildFailed)
		}
		if c.unended > 0 {
			fmt.Fprintf(&b, ", %d ended early", c.unended)
		}
		b.WriteString(")")
	}
	fmt.Fprintf(&b, "; tests: %d passed, %d failed", c.passed, c.failed)
	if c.unfinished > 0 {
		fmt.Fprintf(&b, ", %d did not finish", c.unfinished)
	}
	fmt.Fprintf(&b, ", %d skipped", c.skipped)
	if c.notAllowed > 0 {
		fmt.Fprintf(&b, " (%d not allowed)", c.notAllowed)
	}
	if c.failedPackages > 0 || c.failed > 0 || c.unfinished > 0 || buildFailed > 0 || c.notAllowed > 0 {
		return b.String() + ": FAIL"
	}
	return b.String() + ": ok"
}
