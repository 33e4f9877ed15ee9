package reports

import (
	"encoding/xml"
	"fmt"
	"strings"
	"time"

	"github.com/drivebench/drivebench/results"
)

// JUnit XML is the format CI systems read to show, gate on and keep the
// history of test results. It is rendered from the Summary like the other
// reports, so `drivebench report DIR -junit FILE` writes the same file as
// the run did. CI keys a test's history on its classname and name, so
// those never hold a measured value: the check, the drive and what was
// judged (the point and expression) name a case, and the measured value
// goes into its message.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Errors    int         `xml:"errors,attr"`
	Skipped   int         `xml:"skipped,attr"`
	Time      string      `xml:"time,attr"`
	Timestamp string      `xml:"timestamp,attr,omitempty"`
	Cases     []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
	duration  time.Duration
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// JUnit renders the verdicts, failed steps and skipped steps of a run:
// one test case per verdict, per step that failed or was interrupted, and
// per group of skipped steps.
func JUnit(s *Summary) ([]byte, error) {
	suite := junitSuite{Name: s.Plan.Name}
	if !s.GeneratedAt.IsZero() {
		suite.Timestamp = s.GeneratedAt.UTC().Format("2006-01-02T15:04:05")
	}
	names := map[string]int{}
	judged := map[string]bool{}
	for _, v := range s.Checks {
		c := junitCase{ClassName: s.Plan.Name + "." + v.Check, Name: caseName(v), duration: time.Duration(v.DurationNs)}
		switch v.Status {
		case results.VerdictFail:
			c.Failure = &junitMessage{Message: v.Message, Type: "check failed", Text: junitVerdictText(v)}
		case results.VerdictError:
			c.Error = &junitMessage{Message: v.Message, Type: "check error", Text: junitVerdictText(v)}
			judged[v.StepID] = true
		case results.VerdictWarn:
			c.SystemOut = "warning: " + junitVerdictText(v)
		default:
			c.SystemOut = junitVerdictText(v)
		}
		suite.add(c, names)
	}
	for _, p := range s.Problems {
		if judged[p.StepID] {
			continue // its error verdict is the case
		}
		c := junitCase{ClassName: s.Plan.Name + ".steps", Name: p.Name, duration: time.Duration(p.DurationNs),
			Error: &junitMessage{Message: firstLine(p.Error), Type: "step " + p.Status, Text: problemText(p)}}
		suite.add(c, names)
	}
	for _, g := range s.Skipped {
		c := junitCase{ClassName: s.Plan.Name + ".steps", Name: joinNonEmpty(" / ", g.Drive, g.Profile) + " (skipped)",
			Skipped: &junitMessage{Message: fmt.Sprintf("%d step(s) skipped: %s", g.Steps, g.Reason)}}
		suite.add(c, names)
	}
	return marshalJUnit(suite)
}

// JUnitPlanError renders a plan that did not load: one test case, "plan
// loads", in error with the diagnostics, so CI shows why nothing ran.
func JUnitPlanError(planName, summary, diagnostics string) ([]byte, error) {
	suite := junitSuite{Name: planName}
	suite.add(junitCase{ClassName: planName + ".plan", Name: "plan loads",
		Error: &junitMessage{Message: summary, Type: "plan error", Text: diagnostics}}, map[string]int{})
	return marshalJUnit(suite)
}

// caseName names a verdict's case: the drive and what was judged.
func caseName(v CheckVerdict) string {
	return joinNonEmpty(" / ", v.Drive, v.Subject)
}

// add appends a case, counting it; a name seen before in the same class
// (a hook that returns several verdicts) gets " #2", " #3" in order.
func (s *junitSuite) add(c junitCase, names map[string]int) {
	key := c.ClassName + "\x00" + c.Name
	names[key]++
	if n := names[key]; n > 1 {
		c.Name = fmt.Sprintf("%s #%d", c.Name, n)
	}
	c.Time = seconds(c.duration)
	s.Cases = append(s.Cases, c)
	s.Tests++
	switch {
	case c.Failure != nil:
		s.Failures++
	case c.Error != nil:
		s.Errors++
	case c.Skipped != nil:
		s.Skipped++
	}
}

func marshalJUnit(suite junitSuite) ([]byte, error) {
	var total time.Duration
	for _, c := range suite.Cases {
		total += c.duration
	}
	suite.Time = seconds(total)
	root := junitSuites{Name: suite.Name, Tests: suite.Tests, Failures: suite.Failures, Errors: suite.Errors,
		Skipped: suite.Skipped, Time: suite.Time, Suites: []junitSuite{suite}}
	out, err := xml.MarshalIndent(root, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(out, '\n')...), nil
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

func junitVerdictText(v CheckVerdict) string {
	if v.Where != "" {
		return v.Where + ": " + v.Message
	}
	return v.Message
}

func problemText(p Problem) string {
	var b strings.Builder
	b.WriteString(p.Error)
	for _, o := range p.Output {
		fmt.Fprintf(&b, "\n\n%s:\n%s", o.Stream, strings.Join(o.Lines, "\n"))
	}
	return b.String()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func joinNonEmpty(sep string, parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, sep)
}
