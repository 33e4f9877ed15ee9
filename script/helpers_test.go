package script

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// marked returns "file:line:" for the line of testdata/file that ends with
// the comment "# @name": where a test expects an error.
func marked(t *testing.T, file, name string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(file)))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(src), "\n") {
		if strings.HasSuffix(line, "# @"+name) {
			return fmt.Sprintf("%s:%d:", file, i+1)
		}
	}
	t.Fatalf("testdata/%s has no line marked # @%s", file, name)
	return ""
}

// wantError checks that err is an *Error whose Error() starts with prefix
// and whose message matches the regular expression msg.
func wantError(t *testing.T, err error, prefix, msg string) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got error %v (%T), want a *script.Error", err, err)
	}
	if !strings.HasPrefix(e.Error(), prefix) {
		t.Errorf("error %q does not start with %q", e.Error(), prefix)
	}
	if !regexp.MustCompile(msg).MatchString(e.Msg) {
		t.Errorf("message %q does not match %q", e.Msg, msg)
	}
	return e
}
