package reports

// document is the review laid out as a list of blocks, before it is
// written as Markdown or HTML. Laying out once and writing twice keeps the
// two formats saying the same thing.
type document struct {
	blocks []block
}

type blockKind int

const (
	headingBlock blockKind = iota
	paragraphBlock
	listBlock
	tableBlock
	figureBlock
	// detailsBlock is a secondary table under a title, which a page may
	// fold away: the rounds behind a table's rows.
	detailsBlock
	// codeBlock is text shown line by line as written, in a fixed-width
	// font: the last lines of a command's output.
	codeBlock
)

// block is one heading, paragraph, list, table, figure, details or code.
// Only the fields of its kind are set.
type block struct {
	kind  blockKind
	level int    // heading level, 1 for the title
	text  []span // heading, paragraph or the title of details
	items [][]span
	cols  []column
	rows  [][][]span
	chart ChartRef
	lines []string // code
}

// column is a table column: its title and whether it holds numbers, which
// are right-aligned.
type column struct {
	title   string
	numeric bool
}

type spanStyle int

const (
	plainSpan spanStyle = iota
	strongSpan
	codeSpan
	// verdictSpan holds a verdict status: Markdown writes its mark and
	// name, HTML a coloured text badge that needs no emoji font.
	verdictSpan
)

// span is a run of text in one style.
type span struct {
	text  string
	style spanStyle
}

// Span constructors.
func plain(text string) span  { return span{text, plainSpan} }
func strong(text string) span { return span{text, strongSpan} }
func mono(text string) span   { return span{text, codeSpan} }

// verdict is a verdict status as the reader sees it.
func verdict(status string) span { return span{status, verdictSpan} }

// spans makes a run of text from a plain string, the usual case.
func spans(text string) []span { return []span{plain(text)} }

func (d *document) heading(level int, text ...span) {
	d.blocks = append(d.blocks, block{kind: headingBlock, level: level, text: text})
}

func (d *document) para(text ...span) {
	d.blocks = append(d.blocks, block{kind: paragraphBlock, text: text})
}

func (d *document) list(items [][]span) {
	d.blocks = append(d.blocks, block{kind: listBlock, items: items})
}

// table adds a table whose cells are plain strings.
func (d *document) table(cols []column, rows [][]string) {
	cells := make([][][]span, len(rows))
	for i, row := range rows {
		cells[i] = make([][]span, len(row))
		for j, text := range row {
			cells[i][j] = spans(text)
		}
	}
	d.richTable(cols, cells)
}

// richTable adds a table whose cells carry styles.
func (d *document) richTable(cols []column, rows [][][]span) {
	d.blocks = append(d.blocks, block{kind: tableBlock, cols: cols, rows: rows})
}

// details adds a secondary table under a title.
func (d *document) details(title []span, cols []column, rows [][][]span) {
	d.blocks = append(d.blocks, block{kind: detailsBlock, text: title, cols: cols, rows: rows})
}

func (d *document) figure(ref ChartRef) {
	d.blocks = append(d.blocks, block{kind: figureBlock, chart: ref})
}

// code adds lines of text shown as written.
func (d *document) code(lines []string) {
	d.blocks = append(d.blocks, block{kind: codeBlock, lines: lines})
}
