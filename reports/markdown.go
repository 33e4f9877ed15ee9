package reports

import (
	"errors"
	"io"
	"strings"
	"unicode"
)

// WriteMarkdown writes the Summary as report.md: a review-style document a
// reviewer can paste into an article. Charts are linked as
// charts/<name>.svg, relative to the report; Render writes them beside it.
// Bandwidth is in the report's unit (Summary.Units) throughout.
func WriteMarkdown(w io.Writer, s *Summary) error {
	if s == nil {
		return errors.New("write Markdown report: no summary to write")
	}
	var b strings.Builder
	for _, blk := range review(s).blocks {
		mdBlock(&b, blk)
	}
	_, err := io.WriteString(w, strings.TrimRight(b.String(), "\n")+"\n")
	return err
}

func mdBlock(b *strings.Builder, blk block) {
	switch blk.kind {
	case headingBlock:
		b.WriteString(strings.Repeat("#", blk.level) + " " + mdLine(blk.text) + "\n\n")
	case paragraphBlock:
		b.WriteString(mdLine(blk.text) + "\n\n")
	case listBlock:
		for _, item := range blk.items {
			b.WriteString("- " + mdLine(item) + "\n")
		}
		b.WriteString("\n")
	case tableBlock:
		mdTable(b, blk.cols, blk.rows)
	case detailsBlock:
		b.WriteString(mdLine(blk.text) + "\n\n")
		mdTable(b, blk.cols, blk.rows)
	case figureBlock:
		b.WriteString("![" + mdAlt(blk.chart.Title) + "](" + blk.chart.File + ")\n\n")
	case codeBlock:
		mdCode(b, blk.lines)
	}
}

// mdCode writes lines as a fenced code block, its fence longer than any
// run of backticks in them.
func mdCode(b *strings.Builder, lines []string) {
	text := strings.Join(lines, "\n")
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	b.WriteString(fence + "text\n")
	for _, l := range lines {
		b.WriteString(strings.ReplaceAll(l, "\r", "") + "\n")
	}
	b.WriteString(fence + "\n\n")
}

// mdLine writes styled text on one line.
func mdLine(text []span) string {
	return strings.TrimSpace(mdSpans(text, inline))
}

// mdSpans writes styled text; escape makes plain text safe where it goes.
func mdSpans(text []span, escape func(string) string) string {
	var b strings.Builder
	for _, s := range text {
		switch s.style {
		case strongSpan:
			b.WriteString("**" + escape(s.text) + "**")
		case codeSpan:
			b.WriteString(code(escape(s.text)))
		case verdictSpan:
			b.WriteString(escape(verdictText(s.text)))
		default:
			b.WriteString(escape(s.text))
		}
	}
	return b.String()
}

// mdTable writes a Markdown table.
func mdTable(b *strings.Builder, cols []column, rows [][][]span) {
	b.WriteString("|")
	for _, c := range cols {
		b.WriteString(" " + cell(c.title) + " |")
	}
	b.WriteString("\n|")
	for _, c := range cols {
		if c.numeric {
			b.WriteString("--:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	for _, row := range rows {
		b.WriteString("|")
		for _, text := range row {
			b.WriteString(" " + mdSpans(text, cell) + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

// cell makes text safe inside a table cell: pipes escaped, line breaks
// kept as <br>.
func cell(text string) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "|", `\|`)
	return strings.ReplaceAll(text, "\n", "<br>")
}

// inline makes text safe on one line of prose or in a heading: every run
// of white space becomes one space.
func inline(text string) string {
	var b strings.Builder
	space := false
	for _, r := range text {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	if space {
		b.WriteByte(' ')
	}
	return b.String()
}

// mdAlt makes text safe as an image's alternative text.
func mdAlt(text string) string {
	return strings.NewReplacer("[", `\[`, "]", `\]`).Replace(strings.TrimSpace(inline(text)))
}

// code writes text as a code span, with a fence longer than any run of
// backticks inside it.
func code(text string) string {
	fence := "`"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	if strings.HasPrefix(text, "`") || strings.HasSuffix(text, "`") {
		text = " " + text + " "
	}
	return fence + text + fence
}
