package plan

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Mistakes that swallow the rest of a file, found on its tokens so that
// they are reported where they start rather than where the parser gives
// up: an unterminated /* comment (which the parser reports as a missing
// argument) and an unterminated heredoc (which it reports at the end of the
// file).
func unterminated(tokens hclsyntax.Tokens) hcl.Diagnostics {
	var heredocs []hclsyntax.Token
	for i, t := range tokens {
		switch t.Type {
		case hclsyntax.TokenSlash:
			if i+1 < len(tokens) && tokens[i+1].Type == hclsyntax.TokenStar && tokens[i+1].Range.Start.Byte == t.Range.End.Byte {
				rng := hcl.RangeBetween(t.Range, tokens[i+1].Range)
				return hcl.Diagnostics{{
					Severity: hcl.DiagError,
					Summary:  "Unterminated Comment",
					Detail:   "This /* comment is never closed, so it swallows the rest of the file. End it with */.",
					Subject:  &rng,
				}}
			}
		case hclsyntax.TokenOHeredoc:
			heredocs = append(heredocs, t)
		case hclsyntax.TokenCHeredoc:
			if len(heredocs) > 0 {
				heredocs = heredocs[:len(heredocs)-1]
			}
		}
	}
	if len(heredocs) == 0 {
		return nil
	}
	t := heredocs[0]
	marker := strings.TrimLeft(strings.TrimSpace(string(t.Bytes)), "<-")
	rng := t.Range
	rng.End = hcl.Pos{Line: rng.Start.Line, Column: rng.Start.Column + len(strings.TrimSpace(string(t.Bytes))),
		Byte: rng.Start.Byte + len(strings.TrimSpace(string(t.Bytes)))}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Unterminated Heredoc",
		Detail: fmt.Sprintf("This heredoc is never closed, so it swallows the rest of the file. End it with a line "+
			"holding only %s (spaces before it are allowed).", marker),
		Subject: &rng,
	}}
}
