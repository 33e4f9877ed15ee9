package reports

import (
	"cmp"
	"fmt"
	"strings"
)

// docSummaryHook shows the sections of the plan's summary hook after the
// report's own: each a heading, its text, its table and its chart. A hook
// that failed is listed with the problems; its sections are missing, or,
// when an earlier call's were kept, shown under a note that says so.
func docSummaryHook(d *document, s *Summary) {
	h := s.SummaryHook
	if h == nil {
		return
	}
	for i, sec := range h.Sections {
		d.heading(2, plain(cmp.Or(sec.Title, "Summary")))
		if i == 0 && h.Kept {
			d.para(strong("Kept from an earlier call of the summary hook:"), plain(" "+keptText(h)))
		}
		hookText(d, sec.Text)
		if t := sec.Table; t != nil {
			cols := make([]column, len(t.Columns))
			for i, c := range t.Columns {
				cols[i] = column{title: c}
			}
			d.table(cols, t.Rows)
		}
		if c := sec.Chart; c != nil && c.File != "" {
			d.figure(ChartRef{Kind: chartSummaryHook, File: c.File, Title: cmp.Or(c.Title, sec.Title)})
		}
	}
}

// hookText lays out the Markdown of a summary hook's section: paragraphs
// (split by blank lines), bulleted lists (lines that start with "- " or
// "* "), headings (shown as strong paragraphs), `code` and **strong**
// text. Anything else is shown as written.
func hookText(d *document, text string) {
	var para []string
	var items [][]span
	flush := func() {
		if len(para) > 0 {
			d.para(inlineMarkdown(strings.Join(para, " "))...)
			para = nil
		}
		if len(items) > 0 {
			d.list(items)
			items = nil
		}
	}
	for _, raw := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		line := strings.TrimSpace(raw)
		switch item, isItem := listItem(line); {
		case line == "":
			flush()
		case isItem:
			if len(para) > 0 {
				flush()
			}
			items = append(items, inlineMarkdown(item))
		case strings.HasPrefix(line, "#"):
			flush()
			d.para(strong(strings.TrimSpace(strings.TrimLeft(line, "#"))))
		case len(items) > 0:
			last := &items[len(items)-1]
			*last = append(*last, inlineMarkdown(" "+line)...)
		default:
			para = append(para, line)
		}
	}
	flush()
}

// listItem is the text of a bulleted list's line.
func listItem(line string) (string, bool) {
	for _, bullet := range []string{"- ", "* ", "+ "} {
		if item, ok := strings.CutPrefix(line, bullet); ok {
			return strings.TrimSpace(item), true
		}
	}
	return "", false
}

// inlineMarkdown splits text into plain, `code` and **strong** spans; a
// marker without its closing twin is plain text.
func inlineMarkdown(text string) []span {
	var out []span
	var plainText strings.Builder
	emit := func(s span) {
		if plainText.Len() > 0 {
			out = append(out, plain(plainText.String()))
			plainText.Reset()
		}
		out = append(out, s)
	}
	for len(text) > 0 {
		if inner, rest, ok := delimited(text, "`"); ok {
			emit(mono(inner))
			text = rest
			continue
		}
		if inner, rest, ok := delimited(text, "**"); ok {
			emit(strong(inner))
			text = rest
			continue
		}
		plainText.WriteByte(text[0])
		text = text[1:]
	}
	if plainText.Len() > 0 {
		out = append(out, plain(plainText.String()))
	}
	return out
}

// delimited finds text that starts with marker, returning what lies
// before the next marker and what follows it; ok is false when text does
// not start with marker, the marker is not closed or encloses nothing.
func delimited(text, marker string) (inner, rest string, ok bool) {
	after, found := strings.CutPrefix(text, marker)
	if !found {
		return "", "", false
	}
	end := strings.Index(after, marker)
	if end <= 0 {
		return "", "", false
	}
	return after[:end], after[end+len(marker):], true
}

// keptText says that a summary hook failed and its earlier sections stand.
func keptText(h *HookReport) string {
	where := ""
	if h.Where != "" {
		where = " at " + h.Where
	}
	return fmt.Sprintf("%s failed%s when the report was made again (%s); the sections below are those it returned before, kept rather than lost.", h.Hook, where, h.Error)
}
