package catalog

import (
	"fmt"
	"strings"
)

// A query is checked here before the database sees it, as a second guard
// beside the read-only connection (SQLite: the file opened read-only,
// query_only and an authorizer; PostgreSQL: a READ ONLY transaction):
// exactly one statement, of a kind that only reads. SQLite runs ATTACH
// (which creates the file it names) and VACUUM INTO (which writes a copy)
// on a read-only connection, so the kind of statement matters, not only
// whether it writes to the catalog.

// queryKinds are the first words of the statements a query may be.
var queryKinds = map[string]bool{"SELECT": true, "WITH": true, "VALUES": true, "TABLE": true, "EXPLAIN": true, "PRAGMA": true, "SHOW": true}

// readPragmas are the SQLite pragmas a query may read: the schema, the
// file's figures and its settings. Those in pragmaOfTable take the table
// or index they describe as their argument; the others take none, since a
// pragma given a value sets it.
var readPragmas = map[string]bool{
	"table_info": true, "table_xinfo": true, "table_list": true, "index_list": true, "index_info": true, "index_xinfo": true,
	"foreign_key_list": true, "foreign_key_check": true, "integrity_check": true, "quick_check": true,
	"database_list": true, "collation_list": true, "function_list": true, "module_list": true, "pragma_list": true,
	"compile_options": true, "user_version": true, "schema_version": true, "application_id": true, "data_version": true,
	"page_count": true, "page_size": true, "freelist_count": true, "encoding": true, "journal_mode": true,
	"foreign_keys": true, "query_only": true, "busy_timeout": true,
}

var pragmaOfTable = map[string]bool{
	"table_info": true, "table_xinfo": true, "table_list": true, "index_list": true, "index_info": true, "index_xinfo": true,
	"foreign_key_list": true, "foreign_key_check": true, "integrity_check": true, "quick_check": true,
}

// readPragma says whether PRAGMA name, with arg ("" for none), only reads.
func readPragma(name, arg string) bool {
	name = strings.ToLower(name)
	return readPragmas[name] && (arg == "" || pragmaOfTable[name])
}

// sqlToken is a word, a punctuation character or a quoted literal of a
// statement outside comments, with where it starts.
type sqlToken struct {
	text      string
	line, col int
	// depth is the parenthesis depth it lies at.
	depth int
}

// checkStatement refuses a query that is not one statement of a kind that
// reads. postgres chooses the dialect's quoting and comments.
func checkStatement(query string, postgres bool) error {
	stmt, rest := splitStatement(query, postgres)
	if len(rest) > 0 {
		return fmt.Errorf("give one statement: a second one starts at line %d, column %d (%q); run each on its own",
			rest[0].line, rest[0].col, rest[0].text)
	}
	if len(stmt) == 0 {
		return fmt.Errorf("the query is empty: give one SELECT statement")
	}
	kind := strings.ToUpper(stmt[0].text)
	if !queryKinds[kind] {
		return notAQuery(kind)
	}
	switch kind {
	case "WITH", "EXPLAIN":
		return checkInner(stmt, kind)
	case "PRAGMA":
		return checkPragma(stmt)
	}
	return nil
}

func notAQuery(kind string) error {
	return fmt.Errorf("%s is not a query: catalog queries run SELECT, WITH ... SELECT, VALUES, EXPLAIN and PRAGMA reads, "+
		"never a statement that writes the catalog or creates a file", kind)
}

// checkInner checks the statement a WITH or an EXPLAIN leads to: the
// first word at the top level that starts a statement.
func checkInner(stmt []sqlToken, kind string) error {
	for _, t := range stmt[1:] {
		if t.depth > 0 {
			continue
		}
		switch w := strings.ToUpper(t.text); w {
		case "SELECT", "VALUES", "TABLE":
			return nil
		case "INSERT", "UPDATE", "DELETE", "REPLACE", "MERGE", "CREATE", "DROP", "ALTER", "ATTACH", "DETACH", "VACUUM",
			"PRAGMA", "COPY", "REINDEX", "ANALYZE", "EXECUTE", "DECLARE":
			return notAQuery(kind + " ... " + w)
		}
	}
	return nil
}

// checkPragma allows PRAGMA [schema.]name, and PRAGMA name(table) for
// the pragmas that describe a table, and refuses the rest: a pragma given
// a value sets it.
func checkPragma(stmt []sqlToken) error {
	words := stmt[1:]
	if len(words) >= 3 && words[1].text == "." {
		words = words[2:]
	}
	if len(words) == 0 {
		return fmt.Errorf("PRAGMA needs a name, such as PRAGMA table_info(runs)")
	}
	name, arg := words[0].text, ""
	if len(words) > 1 {
		var b strings.Builder
		for _, t := range words[1:] {
			b.WriteString(t.text)
		}
		arg = strings.Trim(b.String(), "=()")
	}
	if !readPragma(name, arg) {
		return fmt.Errorf("PRAGMA %s is not a read: a catalog query may read the schema and settings "+
			"(PRAGMA table_info(runs), PRAGMA page_count; docs/catalog.md lists them), never set one", words[0].text)
	}
	return nil
}

// splitStatement returns the tokens of the first statement of query and
// those after its semicolon. Comments and the terminating semicolon are
// not tokens; a string or comment left open runs to the end.
func splitStatement(query string, postgres bool) (stmt, rest []sqlToken) {
	l := lexer{src: query, line: 1, col: 1, postgres: postgres}
	ended := false
	for {
		t, ok := l.next()
		if !ok {
			return stmt, rest
		}
		switch {
		case t.text == ";":
			ended = true
		case ended:
			rest = append(rest, t)
		default:
			stmt = append(stmt, t)
		}
	}
}

// lexer cuts SQL into tokens, knowing the quotes and comments of SQLite
// and PostgreSQL: 'strings', "names", and for SQLite `names` and [names],
// for PostgreSQL E'escaped strings', $tag$dollar-quoted strings$tag$ and
// nested /* comments */.
type lexer struct {
	src       string
	pos       int
	line, col int
	depth     int
	postgres  bool
}

func (l *lexer) advance(n int) {
	for _, r := range l.src[l.pos : l.pos+n] {
		if r == '\n' {
			l.line, l.col = l.line+1, 1
		} else {
			l.col++
		}
	}
	l.pos += n
}

// next returns the next token; ok is false at the end.
func (l *lexer) next() (sqlToken, bool) {
	l.skipSpaceAndComments()
	if l.pos >= len(l.src) {
		return sqlToken{}, false
	}
	t := sqlToken{line: l.line, col: l.col, depth: l.depth}
	start := l.pos
	c := l.src[l.pos]
	switch {
	case c == '\'':
		l.advance(l.quoted(l.pos, '\'', false))
	case (c == 'E' || c == 'e') && l.postgres && strings.HasPrefix(l.src[l.pos+1:], "'"):
		l.advance(1 + l.quoted(l.pos+1, '\'', true))
	case c == '"':
		l.advance(l.quoted(l.pos, '"', false))
	case c == '`' && !l.postgres:
		l.advance(l.quoted(l.pos, '`', false))
	case c == '[' && !l.postgres:
		l.advance(l.until(l.pos+1, "]"))
	case c == '$' && l.postgres && l.dollarTag() != "":
		tag := l.dollarTag()
		l.advance(l.until(l.pos+len(tag), tag))
	case isWordByte(c):
		n := 1
		for l.pos+n < len(l.src) && isWordByte(l.src[l.pos+n]) {
			n++
		}
		l.advance(n)
	default:
		if c == '(' {
			l.depth++
		} else if c == ')' && l.depth > 0 {
			l.depth--
		}
		l.advance(1)
	}
	t.text = l.src[start:l.pos]
	return t, true
}

// quoted is the length of the literal at from that q quotes, a doubled q
// standing for itself and, with backslash, \ escaping the next byte.
func (l *lexer) quoted(from int, q byte, backslash bool) int {
	i := from + 1
	for i < len(l.src) {
		switch {
		case backslash && l.src[i] == '\\':
			i += 2
			continue
		case l.src[i] == q && i+1 < len(l.src) && l.src[i+1] == q:
			i += 2
			continue
		case l.src[i] == q:
			return i + 1 - from
		}
		i++
	}
	return len(l.src) - from
}

// until is the length from from to the end of the first end after it, or
// to the end of the source.
func (l *lexer) until(from int, end string) int {
	if i := strings.Index(l.src[from:], end); i >= 0 {
		return i + len(end) + from - l.pos
	}
	return len(l.src) - l.pos
}

// dollarTag is the $tag$ that opens a PostgreSQL dollar-quoted string at
// the lexer's position, or "" ($1 is a parameter).
func (l *lexer) dollarTag() string {
	i := l.pos + 1
	for i < len(l.src) && isWordByte(l.src[i]) && l.src[i] != '$' {
		i++
	}
	if i >= len(l.src) || l.src[i] != '$' || (i > l.pos+1 && l.src[l.pos+1] >= '0' && l.src[l.pos+1] <= '9') {
		return ""
	}
	return l.src[l.pos : i+1]
}

func (l *lexer) skipSpaceAndComments() {
	for l.pos < len(l.src) {
		switch {
		case strings.ContainsRune(" \t\r\n\f\v", rune(l.src[l.pos])):
			l.advance(1)
		case strings.HasPrefix(l.src[l.pos:], "--"):
			l.advance(l.until(l.pos, "\n"))
		case strings.HasPrefix(l.src[l.pos:], "/*"):
			l.advance(l.blockComment())
		default:
			return
		}
	}
}

// blockComment is the length of the comment at the lexer's position:
// SQLite's ends at the first */, PostgreSQL's nest.
func (l *lexer) blockComment() int {
	if !l.postgres {
		return l.until(l.pos+2, "*/")
	}
	depth, i := 0, l.pos
	for i < len(l.src) {
		switch {
		case strings.HasPrefix(l.src[i:], "/*"):
			depth++
			i += 2
		case strings.HasPrefix(l.src[i:], "*/"):
			depth--
			i += 2
			if depth == 0 {
				return i - l.pos
			}
		default:
			i++
		}
	}
	return len(l.src) - l.pos
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
