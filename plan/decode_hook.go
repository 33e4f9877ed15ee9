package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// hookKeys are the keys of a hook written as an object:
// { script = "steady.star", function = "flat", args = { ... } }.
var hookKeys = []string{"script", "function", "args"}

// hookAttr decodes a hook written as an object; example shows one in
// diagnostics.
func (l *loader) hookAttr(attr *hcl.Attribute, example string) *Hook {
	v, ok := l.objectValue(attr, example)
	if !ok {
		return nil
	}
	sites := objectItemSites(attr)
	h := &Hook{Range: attr.Range}
	valid := true
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		if !l.hookItem(h, k.AsString(), ev, sites(k.AsString()), example) {
			valid = false
		}
	}
	if valid && (h.ScriptName == "" || h.Function == "") {
		l.errorAt(attrSite(attr), "Incomplete Hook", fmt.Sprintf(
			"%s needs both script (the .star file) and function (the name of the function in it), as in %s.", attr.Name, example))
		valid = false
	}
	if !valid || h.Script == "" {
		return nil
	}
	return h
}

// hookItem decodes one key of a hook object.
func (l *loader) hookItem(h *Hook, key string, v cty.Value, s itemSites, example string) bool {
	switch key {
	case "script":
		name, ok := l.stringValue(v, s.value)
		if ok {
			h.ScriptName = name
			h.Script, h.ScriptHash, ok = l.readScript(name, s.value)
		}
		return ok
	case "function":
		name, ok := l.stringValue(v, s.value)
		if ok {
			h.Function = name
			ok = l.functionName(name, s.value)
		}
		return ok
	case "args":
		args, ok := l.argsValue(v, s.value)
		h.Args = args
		return ok
	}
	l.errorAt(s.key, "Unknown Hook Key", fmt.Sprintf("A hook has the keys %s, as in %s; %q is not one of them.%s",
		quotedList(hookKeys), example, key, didYouMean(key, hookKeys)))
	return false
}

// hookBlock decodes a hook written as attributes of a block (the
// adaptive block's script, function and args).
func (l *loader) hookBlock(block *hcl.Block, attrs hcl.Attributes) *Hook {
	h := &Hook{Range: block.DefRange}
	ok := l.stringAttr(attrs["script"], &h.ScriptName)
	if ok {
		h.Script, h.ScriptHash, ok = l.readScript(h.ScriptName, attrSite(attrs["script"]))
	}
	if l.stringAttr(attrs["function"], &h.Function) {
		ok = l.functionName(h.Function, attrSite(attrs["function"])) && ok
	} else {
		ok = false
	}
	if attr := attrs["args"]; attr != nil {
		if v, set := l.value(attr); set {
			var valid bool
			h.Args, valid = l.argsValue(v, attrSite(attr))
			ok = ok && valid
		}
	}
	if !ok {
		return nil
	}
	return h
}

// functionName checks that a function name is a Starlark identifier.
func (l *loader) functionName(name string, s site) bool {
	if starlarkIdentifier.MatchString(name) {
		return true
	}
	l.errorAt(s, "Invalid Function Name",
		fmt.Sprintf("%q is not a Starlark function name: use the name from the script's def line, such as \"p99_under\".", name))
	return false
}

// argsValue converts a hook's arguments to plain Go data.
func (l *loader) argsValue(v cty.Value, s site) (map[string]any, bool) {
	if v.Type().IsObjectType() || v.Type().IsMapType() {
		if g, err := goValue(v); err == nil {
			if args, ok := g.(map[string]any); ok {
				return args, true
			}
		}
	}
	l.errorAt(s, "Invalid Hook Arguments", "args must be an object of plain values (strings, numbers, bools, lists and objects), such as { limit_us = 1000 }.")
	return nil, false
}

// readScript reads a hook script, relative to the folder of the file
// being decoded, and returns its absolute path and content hash. Its
// content goes into the plan's hash.
func (l *loader) readScript(name string, s site) (abs, hash string, ok bool) {
	return l.readScriptFor(name, s, "Hook Script Not Found")
}

// readScriptFor is readScript with the summary of its diagnostic.
func (l *loader) readScriptFor(name string, s site, summary string) (abs, hash string, ok bool) {
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(l.sc.dir, path)
	}
	if a, err := filepath.Abs(path); err == nil {
		path = a
	}
	if dir := l.hookFolder(); outsideFolder(path, dir) != "" {
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		l.errorAt(s, "Hook Script Outside The Plan Folder", fmt.Sprintf(
			"The script %q %s %q. Hooks run sandboxed and may only use files inside the plan's folder (a module's own folder for a module kept elsewhere): move the script into it.",
			name, outsideFolder(path, dir), dir))
		return "", "", false
	}
	src, err := os.ReadFile(path)
	if err != nil {
		l.errorAt(s, summary, fmt.Sprintf(
			"Cannot read the script %q: %s. The path is relative to the folder of the file that names it, %q.", name, err, l.sc.dir))
		return "", "", false
	}
	sum := sha256.Sum256(src)
	l.scripts = append(l.scripts, src)
	return path, hex.EncodeToString(sum[:]), true
}

// hookFolder is the folder the hooks named in the current scope are
// confined to: the plan's folder, or the module's own folder for a module
// kept outside it (as the engine's sandbox root for load() is).
func (l *loader) hookFolder() string {
	planDir := l.rootDir
	if file, err := filepath.Abs(l.sc.file); err == nil && inside(planDir, file) {
		return planDir
	}
	return l.sc.dir
}

// outsideFolder says how path, an absolute path, lies outside dir, once
// symbolic links are resolved in both, or returns "" when it lies inside
// (or does not exist, which reading it reports).
func outsideFolder(path, dir string) string {
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return ""
	}
	if absDir, err := filepath.Abs(realDir); err == nil {
		realDir = absDir
	}
	if !inside(realDir, path) && !inside(dir, path) {
		return "lies outside the folder"
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ""
	}
	if !inside(realDir, real) {
		return fmt.Sprintf("is a symbolic link to %s, outside the folder", real)
	}
	return ""
}

// inside reports whether path lies inside dir.
func inside(dir, path string) bool {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
