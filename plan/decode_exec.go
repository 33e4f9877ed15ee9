package plan

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// execBlockSchema is the body of an exec block.
var execBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "command", Required: true},
		{Name: "env"},
		{Name: "user"},
		{Name: "timeout"},
		{Name: "parse"},
		{Name: "drives"},
		{Name: "expect"},
	},
}

// defaultExecTimeout bounds an exec step that sets no timeout.
const defaultExecTimeout = 10 * time.Minute

// parseExample shows a parse hook in diagnostics.
const parseExample = `{ script = "parse/sysbench.star", function = "oltp" }`

// envName is what an environment variable's name looks like.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// envPrefixReserved starts the names of the environment variables
// drivebench gives exec steps (DRIVEBENCH_DRIVE_DIR, ...); a plan cannot
// set them.
const envPrefixReserved = "DRIVEBENCH_"

// decodeExec decodes one exec step. Exec steps are profiles whose Exec
// is set, so that they run in plan order among the profiles and checks
// can judge them.
func (l *loader) decodeExec(block *hcl.Block, name string, body hcl.Body) *Profile {
	content, diags := l.content(body, execBlockSchema)
	l.diags = append(l.diags, diags...)
	attrs := content.Attributes
	x := &Exec{Timeout: defaultExecTimeout}
	p := &Profile{Name: name, Exec: x, Range: block.DefRange}
	if l.defineStep(block, name) {
		l.profiles[name] = p
	}
	x.Command = l.commandAttr(attrs["command"])
	x.Env = l.envAttr(attrs["env"])
	if l.stringAttr(attrs["user"], &x.User) && strings.TrimSpace(x.User) == "" {
		l.errorAt(attrSite(attrs["user"]), "Value Out Of Range", "user names the account the command runs as, such as \"postgres\"; leave it out to run as drivebench.")
	}
	if l.durationAttr(attrs["timeout"], &x.Timeout) && x.Timeout <= 0 {
		l.errorAt(attrSite(attrs["timeout"]), "Value Out Of Range", "timeout must be more than zero, such as \"10m\".")
	}
	if attr := attrs["parse"]; attr != nil {
		x.Parse = l.hookAttr(attr, parseExample)
	}
	drives, ok := l.driveRefs(attrs["drives"])
	p.Drives = drives
	if ok && attrs["command"] != nil {
		l.checkWritable(fmt.Sprintf("Exec step %q", name), l.drivesOf(drives), attrSite(attrs["command"]))
	}
	if attr := attrs["expect"]; attr != nil && ok {
		p.Expect = l.decodeExpect(p, attr, l.drivesOf(drives))
	}
	return p
}

// defineStep registers the name of a profile or exec block: the two
// share one namespace, since checks and accept blocks name either.
func (l *loader) defineStep(block *hcl.Block, name string) bool {
	if !l.define(block, name) {
		return false
	}
	if first := l.profiles[name]; first != nil {
		l.errorAt(site{subject: block.LabelRanges[0], context: block.DefRange}, "Duplicate Step Name", fmt.Sprintf(
			"A profile or exec step named %q is already defined at %s; checks name them alike, so rename one of them.", name, first.Range))
		return false
	}
	return true
}

// commandAttr decodes command: a non-empty list of strings, the first
// one the program.
func (l *loader) commandAttr(attr *hcl.Attribute) []string {
	vals, sites, ok := l.listValues(attr)
	if !ok {
		return nil
	}
	if len(vals) == 0 {
		l.errorAt(attrSite(attr), "Empty Command", `command = [] runs nothing. Give the program and its arguments, such as ["sysbench", "fileio", "run"].`)
		return nil
	}
	cmd := make([]string, 0, len(vals))
	for i, v := range vals {
		s, ok := l.stringValue(v, sites[i])
		if !ok {
			return nil
		}
		cmd = append(cmd, s)
	}
	if strings.TrimSpace(cmd[0]) == "" {
		l.errorAt(sites[0], "Empty Command", "The first element of command is the program to run; it cannot be empty.")
		return nil
	}
	return cmd
}

// envAttr decodes env = { NAME = "value" }; numbers and bools are kept
// as their text.
func (l *loader) envAttr(attr *hcl.Attribute) map[string]string {
	v, ok := l.objectValue(attr, `{ PGPORT = "54329" }`)
	if !ok {
		return nil
	}
	sites := objectItemSites(attr)
	env := map[string]string{}
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		key := k.AsString()
		s := sites(key)
		switch {
		case !envName.MatchString(key):
			l.errorAt(s.key, "Invalid Environment Variable", fmt.Sprintf("%q is not a variable name: letters, digits and _, not starting with a digit.", key))
			continue
		case strings.HasPrefix(key, envPrefixReserved):
			l.errorAt(s.key, "Reserved Environment Variable", fmt.Sprintf(
				"Variables starting with %s are set by drivebench (such as DRIVEBENCH_DRIVE_DIR); choose another name than %s.", envPrefixReserved, key))
			continue
		}
		sv, err := convert.Convert(ev, cty.String)
		if err != nil || sv.IsNull() {
			l.errorAt(s.value, "Incorrect Value Type", fmt.Sprintf("env.%s must be a string; got %s.", key, ev.Type().FriendlyName()))
			continue
		}
		env[key] = sv.AsString()
	}
	return env
}
