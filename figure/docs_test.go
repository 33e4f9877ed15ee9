package figure

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

// figuresDoc is the page whose registry section is made from Figures.
const figuresDoc = "../docs/figures.md"

// The lines around the section made from the table.
const (
	tableStart = "<!-- The tables below are made from figure.Figures: go test ./figure -run TestDocsTable -update -->"
	tableEnd   = "<!-- End of the tables made from figure.Figures. -->"
)

var update = flag.Bool("update", false, "rewrite the registry tables of docs/figures.md from figure.Figures")

// registryTables writes the registry as docs/figures.md shows it: what
// each figure is, then its name in each place and its old names.
func registryTables() string {
	var b strings.Builder
	b.WriteString("| figure | unit | better | latency | merged by | description |\n|---|---|---|---|---|---|\n")
	for _, f := range Figures {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", f.Name, f.Unit, f.Better, dashed(pct(f)), mergeText(f.Merge), f.Doc)
	}
	b.WriteString("\n| figure |")
	for _, p := range places {
		b.WriteString(" " + p.name + " |")
	}
	b.WriteString(" old names (deprecated) |\n|---|" + strings.Repeat("---|", len(places)+1) + "\n")
	for _, f := range Figures {
		fmt.Fprintf(&b, "| `%s` |", f.Name)
		for _, p := range places {
			key := ""
			if f.In&p.place != 0 {
				key = "`" + f.Key(p.place) + "`"
			}
			b.WriteString(" " + dashed(key) + " |")
		}
		b.WriteString(" " + dashed(oldText(&f)) + " |\n")
	}
	return b.String()
}

func pct(f Figure) string {
	if f.Percentile == 0 {
		return string(f.Latency)
	}
	return fmt.Sprintf("%s, p%g", f.Latency, f.Percentile)
}

func mergeText(m Merge) string {
	switch m {
	case Add:
		return "adding (rounds: mean)"
	case Totals:
		return "from the merged totals"
	}
	return "merged histograms"
}

func dashed(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// oldText lists a figure's old names with their places.
func oldText(f *Figure) string {
	var parts []string
	for _, p := range places {
		for _, o := range f.Old[p.place] {
			parts = append(parts, fmt.Sprintf("%s `%s`", p.name, strings.ReplaceAll(o, "|", `\|`)))
		}
	}
	return strings.Join(parts, ", ")
}

// TestDocsTable fails when the registry tables of docs/figures.md are not
// those the registry makes; -update rewrites them.
func TestDocsTable(t *testing.T) {
	raw, err := os.ReadFile(figuresDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	head, rest, ok1 := strings.Cut(doc, tableStart+"\n")
	got, tail, ok2 := strings.Cut(rest, tableEnd)
	if !ok1 || !ok2 {
		t.Fatalf("%s has no section between %q and %q", figuresDoc, tableStart, tableEnd)
	}
	want := "\n" + registryTables() + "\n"
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(figuresDoc, []byte(head+tableStart+"\n"+want+tableEnd+tail), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the registry tables differ from figure.Figures; run go test ./figure -run TestDocsTable -update. They should read:\n%s", figuresDoc, want)
}
