package reports

import (
	"errors"
	"html"
	"io"
	"strings"

	"github.com/drivebench/drivebench/results"
)

// WriteHTML writes the Summary as report.html: the review of report.md as
// one self-contained page, its charts inline as SVG and its style sheet
// inline, with no script and nothing loaded from elsewhere, so it can be
// mailed, archived or opened offline. Secondary tables, such as the rounds
// behind averaged rows, are folded away until opened. It reads well from a phone's width
// up: wide tables scroll within their box and charts shrink to fit.
func WriteHTML(w io.Writer, s *Summary) error {
	if s == nil {
		return errors.New("write HTML report: no summary to write")
	}
	svgs := map[string][]byte{}
	for _, pc := range planCharts(s) {
		svgs[pc.ref.File] = pc.draw().SVG()
	}
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	b.WriteString("<title>" + html.EscapeString(orDash(s.Plan.Name)+" — drivebench report") + "</title>\n")
	b.WriteString("<link rel=\"icon\" href=\"data:,\">\n<style>\n" + pageStyle + "</style>\n</head>\n<body>\n<main>\n")
	for _, blk := range review(s).blocks {
		htmlBlock(&b, blk, svgs)
	}
	b.WriteString("</main>\n</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// pageStyle is the page's whole style sheet.
const pageStyle = `:root { color-scheme: light; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #1a1a1a; background: #fff; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: .5rem 0 1rem; }
h2 { font-size: 1.3rem; margin: 2rem 0 .75rem; padding-bottom: .2rem; border-bottom: 1px solid #ddd; }
h3 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
h4 { font-size: 1rem; margin: 1.25rem 0 .5rem; }
p, li { overflow-wrap: anywhere; }
.table { overflow-x: auto; margin: 1rem 0; }
table { border-collapse: collapse; font-size: .875rem; }
th, td { padding: .35rem .6rem; border-bottom: 1px solid #e5e5e5; text-align: left; vertical-align: top; }
th { background: #f6f6f6; white-space: nowrap; }
.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
code { font: .85em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f3f3f3; padding: .1em .3em; border-radius: 3px; overflow-wrap: anywhere; }
pre { margin: .5rem 0 1rem; padding: .5rem .75rem; background: #f3f3f3; border-radius: 3px; overflow-x: auto; }
pre code { padding: 0; background: none; overflow-wrap: normal; }
details { margin: 1rem 0; }
summary { cursor: pointer; font-size: .875rem; color: #444; }
figure { margin: 1rem 0; }
.badge { display: inline-block; padding: 0 .45em; border-radius: 3px; font-size: .8em; font-weight: 700; letter-spacing: .03em; color: #fff; background: #666; white-space: nowrap; }
.badge.pass { background: #1a7f37; }
.badge.fail, .badge.error { background: #c62828; }
.badge.warn { background: #9a6700; }
.badge.skip { background: #57606a; }
figure svg { display: block; width: 100%; max-width: 720px; height: auto; }
@media (max-width: 480px) { body { font-size: 15px; } main { padding: .75rem; } }
`

func htmlBlock(b *strings.Builder, blk block, svgs map[string][]byte) {
	switch blk.kind {
	case headingBlock:
		tag := "h" + string(rune('0'+min(max(blk.level, 1), 6)))
		b.WriteString("<" + tag + ">" + htmlSpans(blk.text) + "</" + tag + ">\n")
	case paragraphBlock:
		b.WriteString("<p>" + htmlSpans(blk.text) + "</p>\n")
	case listBlock:
		b.WriteString("<ul>\n")
		for _, item := range blk.items {
			b.WriteString("<li>" + htmlSpans(item) + "</li>\n")
		}
		b.WriteString("</ul>\n")
	case tableBlock:
		htmlTable(b, blk.cols, blk.rows)
	case detailsBlock:
		b.WriteString("<details>\n<summary>" + htmlSpans(blk.text) + "</summary>\n")
		htmlTable(b, blk.cols, blk.rows)
		b.WriteString("</details>\n")
	case figureBlock:
		if svg, ok := svgs[blk.chart.File]; ok {
			b.WriteString("<figure>\n" + string(svg) + "</figure>\n")
		}
	case codeBlock:
		b.WriteString("<pre><code>" + html.EscapeString(strings.Join(blk.lines, "\n")) + "</code></pre>\n")
	}
}

// htmlSpans writes styled text; line breaks become <br>.
func htmlSpans(text []span) string {
	var b strings.Builder
	for _, s := range text {
		escaped := strings.ReplaceAll(html.EscapeString(s.text), "\n", "<br>")
		switch s.style {
		case strongSpan:
			b.WriteString("<strong>" + escaped + "</strong>")
		case codeSpan:
			b.WriteString("<code>" + escaped + "</code>")
		case verdictSpan:
			b.WriteString(verdictBadge(s.text))
		default:
			b.WriteString(escaped)
		}
	}
	return b.String()
}

func htmlTable(b *strings.Builder, cols []column, rows [][][]span) {
	b.WriteString("<div class=\"table\"><table>\n<thead><tr>")
	for _, c := range cols {
		b.WriteString("<th" + numClass(c) + ">" + html.EscapeString(c.title) + "</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, row := range rows {
		b.WriteString("<tr>")
		for i, text := range row {
			var c column
			if i < len(cols) {
				c = cols[i]
			}
			b.WriteString("<td" + numClass(c) + ">" + htmlSpans(text) + "</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table></div>\n")
}

func numClass(c column) string {
	if c.numeric {
		return ` class="num"`
	}
	return ""
}

// verdictBadge writes a verdict as a coloured text badge, "PASS" on green:
// words, not emoji, so that it reads the same in every browser and font,
// and in print.
func verdictBadge(status string) string {
	class := "unknown"
	switch status {
	case results.VerdictPass, results.VerdictFail, results.VerdictWarn, results.VerdictError, results.VerdictSkip:
		class = status
	}
	word := strings.ToUpper(strings.ReplaceAll(orDash(status), "_", " "))
	return `<span class="badge ` + class + `">` + html.EscapeString(word) + "</span>"
}
