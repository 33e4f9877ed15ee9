package script

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/drivebench/drivebench/results"
	"go.starlark.net/starlark"
)

// Verdict is one judgement of a check hook.
type Verdict struct {
	// Status is results.VerdictPass, results.VerdictFail or results.VerdictWarn.
	Status string
	// Message says what was judged and why, e.g.
	// "iodepth=16: p99 812.3 µs < 5000 µs".
	Message string
}

// verdictHelp tells a hook author what a check must return.
const verdictHelp = `a check must return verdict(status, message), a dict {"status": ..., "message": ...}, ` +
	`or a list of them, with status "pass", "fail" or "warn"`

// Check calls a check hook with input as its one argument and returns its
// verdicts, in the order the hook gave them, with what it print()ed. A hook
// returns one verdict or a list of them (possibly empty); each is a value
// made by the predeclared verdict(status, message) or a dict with the keys
// "status" and "message". Any other return value is an [*Error] positioned at
// the function's definition.
func (r *Runtime) Check(ctx context.Context, file, function string, input any) ([]Verdict, []string, error) {
	if !r.inWorker {
		res, err := r.remote(ctx, &callRequest{Op: opCheck, File: file, Function: function}, nil, input)
		if res == nil {
			return nil, nil, err
		}
		if err == nil && res.Verdicts == nil {
			res.Verdicts = []Verdict{} // a hook that judged nothing, as in-process
		}
		return res.Verdicts, res.Prints, err
	}
	s, err := r.newSession(ctx, file)
	if err != nil {
		return nil, nil, err
	}
	defer s.stop()
	v, fn, err := s.call(function, []any{input}, nil)
	if err != nil {
		return nil, s.prints, err
	}
	verdicts, problem := verdictsOf(v)
	if problem != "" {
		return nil, s.prints, errorAt(functionPos(fn, s.main.name),
			fmt.Sprintf("check %s returned %s; %s", function, problem, verdictHelp), nil)
	}
	return verdicts, s.prints, nil
}

// verdictsOf reads a check's return value; problem describes the value when
// it is not one verdict or a list of them.
func verdictsOf(v starlark.Value) (verdicts []Verdict, problem string) {
	var items starlark.Indexable
	switch x := v.(type) {
	case *starlark.List:
		items = x
	case starlark.Tuple:
		items = x
	default:
		one, problem := verdictOf(v)
		if problem != "" {
			return nil, problem
		}
		return capVerdicts([]Verdict{one}), ""
	}
	verdicts = make([]Verdict, 0, items.Len())
	for i := range items.Len() {
		one, problem := verdictOf(items.Index(i))
		if problem != "" {
			return nil, fmt.Sprintf("a %s whose item at index %d is %s", v.Type(), i, problem)
		}
		verdicts = append(verdicts, one)
	}
	return capVerdicts(verdicts), ""
}

// verdictOf reads one verdict value or verdict dict.
func verdictOf(v starlark.Value) (Verdict, string) {
	switch x := v.(type) {
	case *verdictValue:
		return Verdict(*x), ""
	case *starlark.Dict:
		return dictVerdict(x)
	}
	return Verdict{}, describe(v)
}

// dictVerdict reads a verdict written as {"status": ..., "message": ...}.
func dictVerdict(d *starlark.Dict) (Verdict, string) {
	fields := map[string]string{}
	for _, item := range d.Items() {
		key, ok := starlark.AsString(item[0])
		if !ok || (key != "status" && key != "message") {
			return Verdict{}, fmt.Sprintf(`a dict with the key %s (only "status" and "message" are allowed)`, item[0])
		}
		value, ok := starlark.AsString(item[1])
		if !ok {
			return Verdict{}, fmt.Sprintf("a dict whose %s is %s, not a string", key, describe(item[1]))
		}
		fields[key] = value
	}
	for _, key := range []string{"status", "message"} {
		if _, ok := fields[key]; !ok {
			return Verdict{}, fmt.Sprintf("a dict without %q", key)
		}
	}
	if err := checkStatus(fields["status"]); err != nil {
		return Verdict{}, "a dict whose " + err.Error()
	}
	return Verdict{Status: fields["status"], Message: fields["message"]}, ""
}

// describe names a value for a message: its type and, briefly, itself.
func describe(v starlark.Value) string {
	if v == starlark.None {
		return "None (a function without a return statement returns None)"
	}
	text := v.String()
	if len(text) > 60 {
		text = text[:57] + "..."
	}
	return fmt.Sprintf("a value of type %s, %s", v.Type(), text)
}

// checkStatus accepts only the three verdict statuses.
func checkStatus(status string) error {
	switch status {
	case results.VerdictPass, results.VerdictFail, results.VerdictWarn:
		return nil
	}
	return fmt.Errorf(`status %q is not "pass", "fail" or "warn"`, status)
}

// makeVerdict implements the predeclared verdict(status, message).
func makeVerdict(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var status, message string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "status", &status, "message", &message); err != nil {
		return nil, err
	}
	if err := checkStatus(status); err != nil {
		return nil, fmt.Errorf("%s: %v", b.Name(), err)
	}
	return &verdictValue{Status: status, Message: message}, nil
}

// verdictValue is the Starlark value of a verdict. Hooks read its status and
// message as attributes.
type verdictValue Verdict

var _ starlark.HasAttrs = (*verdictValue)(nil)

func (v *verdictValue) String() string {
	return fmt.Sprintf("verdict(%s, %s)", starlark.String(v.Status), starlark.String(v.Message))
}

func (v *verdictValue) Type() string         { return "verdict" }
func (v *verdictValue) Freeze()              {}
func (v *verdictValue) Truth() starlark.Bool { return true }
func (v *verdictValue) AttrNames() []string  { return []string{"message", "status"} }
func (v *verdictValue) Hash() (uint32, error) {
	return starlark.String(v.Status + "\x00" + v.Message).Hash()
}

func (v *verdictValue) Attr(name string) (starlark.Value, error) {
	switch name {
	case "status":
		return starlark.String(v.Status), nil
	case "message":
		return starlark.String(v.Message), nil
	}
	return nil, nil // the interpreter reports "verdict has no .name field or method"
}

// Bounds on what a hook hands back, so that a hook cannot fill the
// terminal, the records and the reports: a longer message or print line is
// cut, and verdicts past MaxVerdicts are folded into one that says how
// many were cut and carries the worst status among them.
const (
	MaxVerdicts     = 1000
	MaxMessageBytes = 4096
	MaxPrints       = 1000
)

// capVerdicts applies MaxVerdicts and MaxMessageBytes.
func capVerdicts(verdicts []Verdict) []Verdict {
	for i := range verdicts {
		verdicts[i].Message = capText(verdicts[i].Message, "a verdict message")
	}
	if len(verdicts) <= MaxVerdicts {
		return verdicts
	}
	cut := verdicts[MaxVerdicts:]
	count := map[string]int{}
	for _, v := range cut {
		count[v.Status]++
	}
	status := results.VerdictWarn
	if count[results.VerdictFail] > 0 {
		status = results.VerdictFail
	}
	return append(verdicts[:MaxVerdicts:MaxVerdicts], Verdict{Status: status, Message: fmt.Sprintf(
		"%d more verdicts cut (%d fail, %d warn, %d pass): a check may return at most %d; judge in fewer, wider verdicts",
		len(cut), count[results.VerdictFail], count[results.VerdictWarn], count[results.VerdictPass], MaxVerdicts)})
}

// capText cuts s to MaxMessageBytes, on a character boundary, saying so.
func capText(s, what string) string {
	if len(s) <= MaxMessageBytes {
		return s
	}
	end := MaxMessageBytes
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return fmt.Sprintf("%s… [cut: %d bytes; %s may be at most %d]", s[:end], len(s), what, MaxMessageBytes)
}
