package reports

import (
	"regexp"
	"strings"
	"testing"
)

func TestSlug(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"Drive health", "drive-health"},
		{"4k-read-curve on nvme0", "4k-read-curve-on-nvme0"},
		{"  Spec acceptance: KIOXIA (S/N X4E0) ", "spec-acceptance-kioxia-s-n-x4e0"},
		{"Débit", "débit"},
		{"—", "section"},
	} {
		if got := slug(tt.text); got != tt.want {
			t.Errorf("slug(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestHeadingIDsAndContents: every heading has a unique id, a
// subsection's under its section's, and the table of contents links
// every section and subsection by it.
func TestHeadingIDsAndContents(t *testing.T) {
	d := &document{}
	d.heading(1, plain("plan — drivebench report"))
	d.heading(2, plain("Methodology"))
	d.heading(3, plain("Checks"))
	d.para(plain("text"))
	d.heading(2, plain("Results"))
	d.heading(3, plain("4k on "), mono("nvme0"))
	d.heading(3, plain("4k on nvme0"))
	d.heading(2, plain("Checks"))
	d.heading(4, plain("deep"))
	ids := headingIDs(d.blocks)
	want := []string{"top", "methodology", "methodology-checks", "", "results", "results-4k-on-nvme0", "results-4k-on-nvme0-2", "checks", "checks-deep"}
	if strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Errorf("ids = %q, want %q", ids, want)
	}
	var b strings.Builder
	htmlContents(&b, d.blocks, ids)
	wantTOC := `<nav class="toc" aria-label="Contents">
<p class="toc-title">Contents</p>
<ol>
<li><a href="#methodology">Methodology</a>
<ol>
<li><a href="#methodology-checks">Checks</a></li>
</ol></li>
<li><a href="#results">Results</a>
<ol>
<li><a href="#results-4k-on-nvme0">4k on nvme0</a></li>
<li><a href="#results-4k-on-nvme0-2">4k on nvme0</a></li>
</ol></li>
<li><a href="#checks">Checks</a></li>
</ol>
</nav>
`
	if b.String() != wantTOC {
		t.Errorf("contents:\n%s\nwant:\n%s", b.String(), wantTOC)
	}
}

// TestHTMLAnchorsResolve: in every golden report each id is unique and
// each link within the page leads to one of them.
func TestHTMLAnchorsResolve(t *testing.T) {
	idAttr := regexp.MustCompile(` id="([^"]+)"`)
	local := regexp.MustCompile(` href="#([^"]*)"`)
	for _, gc := range goldenCases {
		t.Run(gc.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteHTML(&b, gc.summary(t)); err != nil {
				t.Fatal(err)
			}
			page := b.String()
			ids := map[string]bool{}
			for _, m := range idAttr.FindAllStringSubmatch(page, -1) {
				if ids[m[1]] {
					t.Errorf("id %q appears twice", m[1])
				}
				ids[m[1]] = true
			}
			links := local.FindAllStringSubmatch(page, -1)
			if len(links) < 4 {
				t.Errorf("%d links within the page; the contents should link every section", len(links))
			}
			for _, m := range links {
				if !ids[m[1]] {
					t.Errorf("link #%s leads nowhere", m[1])
				}
			}
		})
	}
}
