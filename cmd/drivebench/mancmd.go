package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
)

// cmdMan prints drivebench(1) in roff, built from the same help text
// that -h prints, so the two cannot disagree.
func cmdMan(_ context.Context, args []string, io stdio) int {
	fs := newFlagSet("man", "", "Print the manual page in roff: drivebench man > /usr/local/share/man/man1/drivebench.1, or drivebench man | man -l -", io)
	if code, done := parseFlags(fs, args); done {
		return code
	}
	writeManPage(io.out)
	return exitOK
}

// helpText is what "drivebench ARGS... -h" prints on stdout.
func helpText(args ...string) string {
	var out bytes.Buffer
	dispatch(context.Background(), append(args, "-h"), stdio{out: &out, err: io.Discard, getenv: func(string) string { return "" }})
	return out.String()
}

func writeManPage(w io.Writer) {
	fmt.Fprintf(w, ".TH DRIVEBENCH 1 \"\" \"drivebench %s\" \"User Commands\"\n", roffEscape(buildVersion()))
	fmt.Fprint(w, ".SH NAME\ndrivebench \\- run storage test plans and write review reports\n")
	fmt.Fprint(w, ".SH SYNOPSIS\n.B drivebench\n.I COMMAND\n[flags] [args]\n")
	fmt.Fprint(w, ".SH DESCRIPTION\n")
	fmt.Fprint(w, "drivebench runs storage test plans written in HCL: it expands a plan into steps, runs them with its own I/O engine or with fio, judges the results against the plan's checks and writes Markdown, JSON and HTML reports.\n")
	fmt.Fprint(w, ".SH COMMANDS\n")
	for _, c := range commands {
		if c.name == "help" {
			continue
		}
		fmt.Fprintf(w, ".SS %s\n", roffEscape(c.name))
		manText(w, helpText(c.name))
		if c.name == "nvme" {
			for _, s := range c.sub {
				fmt.Fprintf(w, ".SS %s %s\n", c.name, roffEscape(s.name))
				manText(w, helpText(c.name, s.name))
			}
		}
	}
	fmt.Fprint(w, ".SH EXIT STATUS\n")
	manText(w, exitCodesLine+"\n")
	fmt.Fprint(w, ".SH ENVIRONMENT\n.TP\n.B DRIVEBENCH_VAR_\\fIname\\fP\nsets the plan variable \\fIname\\fP, as -var name=VALUE does, below -var-file and -var in precedence.\n")
	fmt.Fprint(w, ".SH SEE ALSO\n.BR fio (1),\n.BR nvme (1)\n")
}

// manText writes help text as roff: its lines kept as they are (.nf), so
// the flag lists keep their layout.
func manText(w io.Writer, text string) {
	fmt.Fprint(w, ".nf\n")
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		fmt.Fprintln(w, roffEscape(line))
	}
	fmt.Fprint(w, ".fi\n")
}

// roffEscape keeps text literal in roff: backslashes escaped, and a line
// starting with a dot or quote not taken for a request.
func roffEscape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
