package reporttruth

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// kind is a kind of sentence: its pattern, whose named groups are the
// figures it states, and the rule that recomputes each of them.
type kind struct {
	name string
	// in is the section (its level-2 heading) the sentence is written
	// in: "" for the header, anywhere for any.
	in      string
	pattern *regexp.Regexp
	// check returns what the sentence says that is not so, given the
	// text of each named group.
	check func(sc *scope, g groups) []string
}

// anywhere lets a kind be written in any section.
const anywhere = "*"

// groups are the texts of a match's named groups.
type groups map[string]string

// pattern compiles a sentence's pattern, anchored at both ends, with the
// placeholders for figures as reports write them:
//
//	{count}  a count with grouped digits: 1,973,400
//	{num}    a plain number: 51.9, -5.5
//	{bw}     a bandwidth with its unit: 8,083.0 MB/s
//	{lat}    a latency with its unit: 129.7 µs, 1.33 ms
//	{flags}  the flags of a row, optional: " (⚠ host-bound)"
//
// each of which takes the name given after a colon, {count:iops}.
func pattern(text string) *regexp.Regexp {
	placeholder := regexp.MustCompile(`\{([a-z]+)(?::(\w+))?\}`)
	forms := map[string]string{
		"count": `[\d,]+`,
		"num":   `-?[\d,]+(?:\.\d+)?`,
		"bw":    `[\d,]+\.\d (?:MB/s|MiB/s)`,
		"lat":   `[\d,]+(?:\.\d+)? (?:ns|µs|ms|s)`,
		"flags": `(?: \(⚠ [^)]*\))?`,
	}
	expr := placeholder.ReplaceAllStringFunc(text, func(p string) string {
		m := placeholder.FindStringSubmatch(p)
		form, ok := forms[m[1]]
		if !ok {
			panic("reporttruth: unknown placeholder " + p)
		}
		name := m[2]
		if name == "" {
			name = m[1]
		}
		return "(?P<" + name + ">" + form + ")"
	})
	return regexp.MustCompile("^" + expr + "$")
}

// problems gathers what a sentence says that is not so.
type problems []string

// eq notes a figure whose text is not the one the rule gives.
func (p *problems) eq(figure, says, want, whose string) {
	if says != want {
		*p = append(*p, fmt.Sprintf("%s: says %s, %s has %s", figure, says, whose, want))
	}
}

// add notes a problem.
func (p *problems) add(format string, args ...any) {
	*p = append(*p, fmt.Sprintf(format, args...))
}

// atoi reads a count of the sentence ("1,443").
func atoi(s string) int {
	n, _ := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	return n
}

// unitKinds know a whole paragraph or list item.
var unitKinds []kind

// sentenceKinds know one sentence of a paragraph.
var sentenceKinds []kind

func init() {
	unitKinds = append(unitKinds, warningKinds...)
	unitKinds = append(unitKinds, thermalKinds...)
	unitKinds = append(unitKinds, problemKinds...)
	sentenceKinds = append(sentenceKinds, headerKinds...)
	sentenceKinds = append(sentenceKinds, highlightKinds...)
	sentenceKinds = append(sentenceKinds, noteKinds...)
	sentenceKinds = append(sentenceKinds, steadyKinds...)
	sentenceKinds = append(sentenceKinds, acceptanceKinds...)
	sentenceKinds = append(sentenceKinds, sheetKinds...)
	sentenceKinds = append(sentenceKinds, echoKinds...)
	sentenceKinds = append(sentenceKinds, healthKinds...)
	sentenceKinds = append(sentenceKinds, dataloaderKinds...)
	sentenceKinds = append(sentenceKinds, replayKinds...)
	sentenceKinds = append(sentenceKinds, checkpointKinds...)
}
