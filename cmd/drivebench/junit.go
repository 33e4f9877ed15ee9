package main

import (
	"encoding/xml"
	"fmt"
	"time"

	"github.com/drivebench/drivebench/engine"
	"github.com/drivebench/drivebench/results"
)

// JUnit XML, the format CI systems read to show and gate on test results:
// one test suite per plan, one test case per verdict and per failed step.
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// junitReport renders the verdicts and failed steps of a run.
func junitReport(planName string, o *engine.Outcome, elapsed time.Duration) ([]byte, error) {
	s := junitSuite{Name: planName, Time: fmt.Sprintf("%.3f", elapsed.Seconds())}
	for _, v := range o.Verdicts {
		c := junitCase{Name: v.Message, ClassName: planName + "." + v.Check + "." + v.Drive}
		switch v.Status {
		case results.VerdictFail:
			c.Failure = &junitMessage{Message: v.Message, Text: v.Message}
			s.Failures++
		case results.VerdictError:
			c.Error = &junitMessage{Message: v.Message, Text: v.Where + ": " + v.Message}
			s.Errors++
		case results.VerdictWarn:
			c.SystemOut = "warning: " + v.Message
		}
		s.Cases = append(s.Cases, c)
	}
	for _, r := range o.Records {
		if r.Kind == "check" || r.Status == results.StatusOK {
			continue
		}
		c := junitCase{Name: r.Name, ClassName: planName + ".steps"}
		if r.Status == results.StatusSkipped {
			c.Skipped = &junitMessage{Message: r.Error}
			s.Skipped++
		} else {
			c.Error = &junitMessage{Message: r.Status, Text: r.Error}
			s.Errors++
		}
		s.Cases = append(s.Cases, c)
	}
	s.Tests = len(s.Cases)
	out, err := xml.MarshalIndent(junitSuites{Suites: []junitSuite{s}}, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(out, '\n')...), nil
}
