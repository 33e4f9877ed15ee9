package reports

import (
	"errors"
	"html"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/drivebench/drivebench/results"
)

// WriteHTML writes the Summary as report.html: the review of report.md as
// one self-contained page, its charts inline as SVG and its style sheet
// inline, with no script and nothing loaded from elsewhere, so it can be
// mailed, archived or opened offline. Every heading carries a stable id
// made from its text (#checks, #4k-random-read-on-nvme0), which a table of
// contents under the title links to, so a reviewer can point at a section.
// Secondary tables, such as the rounds behind averaged rows, are folded
// away until opened. It reads well from a phone's width up (wide tables
// scroll within their box and charts shrink to fit), in a dark theme when
// the reader's system asks for one, and on paper: printed, tables wrap
// instead of being cut at the margin, each main section starts a page and
// folded tables are printed open.
func WriteHTML(w io.Writer, s *Summary) error {
	if s == nil {
		return errors.New("write HTML report: no summary to write")
	}
	svgs := map[string][]byte{}
	for _, pc := range planCharts(s) {
		svgs[pc.ref.File] = pc.draw().SVG()
	}
	blocks := review(s).blocks
	ids := headingIDs(blocks)
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	b.WriteString("<meta name=\"color-scheme\" content=\"light dark\">\n")
	b.WriteString("<title>" + html.EscapeString(orDash(s.Plan.Name)+" — drivebench report") + "</title>\n")
	b.WriteString("<link rel=\"icon\" href=\"data:,\">\n<style>\n" + pageStyle + "</style>\n</head>\n<body>\n<main>\n")
	for i, blk := range blocks {
		htmlBlock(&b, blk, ids[i], svgs)
		if blk.kind == headingBlock && blk.level == 1 {
			htmlContents(&b, blocks, ids)
		}
	}
	b.WriteString("</main>\n</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// headingIDs gives every heading block an id: a section's (level 2) is
// the slug of its title ("checks"), a subsection's is its section's and
// its own ("results-4k-random-read-on-nvme0"), so that the same title in
// two sections gets two ids and a section's id does not change when
// another section comes or goes. A repeat within a section is numbered
// ("-2"). The title (level 1) is "top". Blocks other than headings get "".
func headingIDs(blocks []block) []string {
	ids := make([]string, len(blocks))
	seen := map[string]int{}
	section := ""
	for i, blk := range blocks {
		if blk.kind != headingBlock {
			continue
		}
		id := slug(spanText(blk.text))
		switch {
		case blk.level <= 1:
			id = "top"
		case blk.level == 2:
			section = id
		case section != "":
			id = section + "-" + id
		}
		seen[id]++
		if n := seen[id]; n > 1 {
			id += "-" + strconv.Itoa(n)
		}
		ids[i] = id
	}
	return ids
}

// slug is a heading's text as an anchor: lower-case letters and digits,
// every other run of characters one hyphen ("Drive health" ->
// "drive-health", "4k-read on nvme0" -> "4k-read-on-nvme0").
func slug(text string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(text) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return "section"
	}
	return b.String()
}

// spanText is the text of styled spans without their styles.
func spanText(text []span) string {
	var b strings.Builder
	for _, s := range text {
		b.WriteString(s.text)
	}
	return b.String()
}

// htmlContents writes the table of contents: a link to every section
// (level 2) and, nested under it, to its subsections (level 3).
func htmlContents(b *strings.Builder, blocks []block, ids []string) {
	var sections int
	for _, blk := range blocks {
		if blk.kind == headingBlock && blk.level == 2 {
			sections++
		}
	}
	if sections < 2 {
		return
	}
	b.WriteString("<nav class=\"toc\" aria-label=\"Contents\">\n<p class=\"toc-title\">Contents</p>\n<ol>\n")
	open := false // a section's list of subsections is open
	started := false
	for i, blk := range blocks {
		if blk.kind != headingBlock || blk.level < 2 || blk.level > 3 {
			continue
		}
		link := "<a href=\"#" + ids[i] + "\">" + html.EscapeString(spanText(blk.text)) + "</a>"
		switch {
		case blk.level == 2:
			if open {
				b.WriteString("</ol>")
				open = false
			}
			if started {
				b.WriteString("</li>\n")
			}
			b.WriteString("<li>" + link)
			started = true
		case !started:
			continue
		default:
			if !open {
				b.WriteString("\n<ol>\n")
				open = true
			}
			b.WriteString("<li>" + link + "</li>\n")
		}
	}
	if open {
		b.WriteString("</ol>")
	}
	b.WriteString("</li>\n</ol>\n</nav>\n")
}

// pageStyle is the page's whole style sheet: colours as variables, which
// a dark theme sets again (charts keep their own white ground, so their
// colours read the same in both); and the rules of print, where nothing
// scrolls, so tables wrap and shrink to the page's width instead, a
// table of many columns in a smaller type, words kept whole.
const pageStyle = `:root { color-scheme: light dark; --fg: #1a1a1a; --muted: #444; --bg: #fff; --rule: #ddd; --cell-rule: #e5e5e5; --head: #f6f6f6; --code: #f3f3f3; --link: #0b57d0; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6e6e6; --muted: #b0b0b0; --bg: #121212; --rule: #3a3a3a; --cell-rule: #2e2e2e; --head: #1f1f1f; --code: #262626; --link: #8ab4f8; }
  figure svg { border-radius: 4px; }
}
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
a { color: var(--link); }
h1 { font-size: 1.6rem; line-height: 1.25; margin: .5rem 0 1rem; }
h2 { font-size: 1.3rem; margin: 2rem 0 .75rem; padding-bottom: .2rem; border-bottom: 1px solid var(--rule); }
h3 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
h4 { font-size: 1rem; margin: 1.25rem 0 .5rem; }
h2, h3, h4 { scroll-margin-top: .5rem; }
.anchor { margin-left: .3em; font-weight: 400; color: var(--muted); text-decoration: none; visibility: hidden; }
h2:hover .anchor, h3:hover .anchor, h4:hover .anchor, .anchor:focus { visibility: visible; }
.toc { width: fit-content; margin: 1rem 0 1.5rem; padding: .5rem 1.5rem .5rem 1rem; border: 1px solid var(--rule); border-radius: 4px; font-size: .9rem; }
.toc-title { margin: 0 0 .25rem; font-weight: 600; }
.toc ol { margin: 0; padding-left: 1.25rem; }
.toc a { text-decoration: none; }
p, li { overflow-wrap: anywhere; }
.table { overflow-x: auto; margin: 1rem 0; }
table { border-collapse: collapse; font-size: .875rem; }
th, td { padding: .35rem .6rem; border-bottom: 1px solid var(--cell-rule); text-align: left; vertical-align: top; }
th { background: var(--head); }
.num { text-align: right; font-variant-numeric: tabular-nums; }
code { font: .85em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--code); padding: .1em .3em; border-radius: 3px; overflow-wrap: anywhere; }
pre { margin: .5rem 0 1rem; padding: .5rem .75rem; background: var(--code); border-radius: 3px; overflow-x: auto; }
pre code { padding: 0; background: none; overflow-wrap: normal; }
details { margin: 1rem 0; }
summary { cursor: pointer; font-size: .875rem; color: var(--muted); }
figure { margin: 1rem 0; }
.badge { display: inline-block; padding: 0 .45em; border-radius: 3px; font-size: .8em; font-weight: 700; letter-spacing: .03em; color: #fff; background: #666; white-space: nowrap; }
.badge.pass { background: #1a7f37; }
.badge.fail, .badge.error { background: #c62828; }
.badge.warn { background: #9a6700; }
.badge.skip { background: #57606a; }
figure svg { display: block; width: 100%; max-width: 720px; height: auto; }
.files { font-size: .8rem; color: var(--muted); }
@media (max-width: 480px) { body { font-size: 15px; } main { padding: .75rem; } }
@media print {
  :root { color-scheme: light; --fg: #000; --muted: #333; --bg: #fff; --rule: #999; --cell-rule: #bbb; --head: #eee; --code: #f3f3f3; --link: #000; }
  @page { margin: 15mm 12mm; }
  body { font-size: 10.5pt; }
  main { max-width: none; padding: 0; }
  h2 { break-before: page; }
  .toc + h2, h1 + h2 { break-before: auto; }
  h2, h3, h4, summary { break-after: avoid; }
  .anchor, .files { display: none; }
  .toc a { color: inherit; }
  .table, pre { overflow: visible; }
  table { width: 100%; font-size: 8pt; }
  .wide table { font-size: 6.5pt; }
  th, td { padding: .15rem .3rem; overflow-wrap: break-word; }
  .wide th, .wide td { padding: .1rem .2rem; }
  tr, figure { break-inside: avoid; }
  figure svg { max-width: 100%; max-height: 120mm; }
  details::details-content { content-visibility: visible; display: contents; }
  summary { list-style: none; font-weight: 600; color: var(--fg); }
  pre code { white-space: pre-wrap; overflow-wrap: anywhere; }
}
`

func htmlBlock(b *strings.Builder, blk block, id string, svgs map[string][]byte) {
	switch blk.kind {
	case headingBlock:
		tag := "h" + string(rune('0'+min(max(blk.level, 1), 6)))
		anchor := ""
		if blk.level > 1 {
			anchor = " <a class=\"anchor\" href=\"#" + id + "\" aria-label=\"link to this section\">#</a>"
		}
		b.WriteString("<" + tag + " id=\"" + id + "\">" + htmlSpans(blk.text) + anchor + "</" + tag + ">\n")
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
			b.WriteString("<figure>\n" + string(svg) + "<figcaption class=\"files\"><a href=\"" + html.EscapeString(pngFile(blk.chart.File)) +
				"\">PNG</a> · <a href=\"" + html.EscapeString(blk.chart.File) + "\">SVG</a></figcaption>\n</figure>\n")
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

// wideTable is the number of columns from which a table is printed in a
// smaller type, so that it fits the page's width without breaking words.
const wideTable = 11

func htmlTable(b *strings.Builder, cols []column, rows [][][]span) {
	class := "table"
	if len(cols) >= wideTable {
		class += " wide"
	}
	b.WriteString("<div class=\"" + class + "\"><table>\n<thead><tr>")
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
			if c.numeric {
				text = keepFigures(text)
			}
			b.WriteString("<td" + numClass(c) + ">" + htmlSpans(text) + "</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table></div>\n")
}

// keepFigures keeps each figure of a numeric cell on one line, its
// number with its unit (a no-break space in "74.8 µs"), and lets the cell
// wrap only after the slash between two ("74.8 µs / 42.5 µs"), so a wide
// table of read and write figures narrows without splitting a figure.
func keepFigures(text []span) []span {
	out := make([]span, len(text))
	for i, s := range text {
		if s.style != verdictSpan {
			s.text = strings.ReplaceAll(strings.ReplaceAll(s.text, " ", "\u00a0"), "\u00a0/\u00a0", "\u00a0/ ")
		}
		out[i] = s
	}
	return out
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
