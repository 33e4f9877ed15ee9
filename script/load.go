package script

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.starlark.net/starlark"
)

// root is the plan folder, both as written (made absolute) and with its
// symbolic links resolved.
type root struct {
	abs, real string
}

// hookPath is a resolved hook file.
type hookPath struct {
	// name is the path relative to the plan folder, with forward slashes:
	// what positions and messages show.
	name string
	// real is the absolute path with symbolic links resolved: the file that
	// is read, and the key of the module cache.
	real string
}

func resolveRoot(dir string) (root, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return root{}, fmt.Errorf("plan folder %s: %v", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return root{}, fmt.Errorf("plan folder %s cannot be read: %v", dir, unwrapPathError(err))
	}
	return root{abs: abs, real: real}, nil
}

// resolve finds file, relative to the folder dir when not absolute, and
// refuses it unless it lies inside the plan folder, also after following
// symbolic links.
func (r root) resolve(file, dir string) (hookPath, error) {
	if file == "" {
		return hookPath{}, errors.New("empty file name")
	}
	path := filepath.Clean(file)
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	name, inside := within(r.abs, path)
	if !inside {
		name, inside = within(r.real, path)
	}
	if !inside {
		return hookPath{}, fmt.Errorf("outside the plan folder %s; hooks may only use files inside it", r.abs)
	}
	real, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		return hookPath{}, fmt.Errorf("no such file (looked for %s)", path)
	}
	if err != nil {
		return hookPath{}, fmt.Errorf("cannot read %s: %v", path, unwrapPathError(err))
	}
	if _, inside := within(r.real, real); !inside {
		return hookPath{}, fmt.Errorf("a symbolic link to %s, outside the plan folder %s; hooks may only use files inside it",
			real, r.abs)
	}
	return hookPath{name: name, real: real}, nil
}

// within reports whether path lies inside dir, and its slash-separated path
// relative to dir.
func within(dir, path string) (string, bool) {
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// unwrapPathError drops the operation and path of an *fs.PathError, which
// the caller's message already names.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// loadFrom is the thread's load(): module is relative to the file that
// loads it.
func (s *session) loadFrom(_ *starlark.Thread, module string) (starlark.StringDict, error) {
	from := s.loading[len(s.loading)-1]
	path, err := s.root.resolve(module, filepath.Dir(filepath.Join(s.root.abs, filepath.FromSlash(from.name))))
	if err != nil {
		return nil, err
	}
	return s.load(path)
}

// load returns the frozen globals of the file at path, running its
// top-level code on the session's thread unless a call already did.
func (s *session) load(path hookPath) (starlark.StringDict, error) {
	if globals := s.rt.cached(path.real); globals != nil {
		return globals, nil
	}
	if err := s.checkCycle(path); err != nil {
		return nil, err
	}
	src, err := os.ReadFile(path.real)
	if err != nil {
		return nil, &Error{File: path.name, Msg: "cannot read: " + unwrapPathError(err).Error(), Err: err}
	}
	env := predeclared
	if path.real == s.main.real {
		env = s.env
	}
	f, err := fileOptions.Parse(path.name, src, 0)
	if err != nil {
		return nil, s.wrap(err)
	}
	if problems := formatProblems(f); len(problems) > 0 {
		return nil, s.wrap(problems[0])
	}
	prog, err := starlark.FileProgram(f, env.Has)
	if err != nil {
		return nil, s.wrap(err)
	}
	s.loading = append(s.loading, path)
	globals, err := prog.Init(s.thread, env)
	s.loading = s.loading[:len(s.loading)-1]
	if err != nil {
		return nil, s.wrap(err)
	}
	globals.Freeze()
	return s.rt.store(path.real, globals), nil
}

// checkCycle refuses to load path while it is being loaded.
func (s *session) checkCycle(path hookPath) error {
	for i, p := range s.loading {
		if p.real != path.real {
			continue
		}
		chain := make([]string, 0, len(s.loading)-i+1)
		for _, q := range s.loading[i:] {
			chain = append(chain, q.name)
		}
		chain = append(chain, path.name)
		return fmt.Errorf("load cycle: %s; move what the files share into a third file that both load",
			strings.Join(chain, " -> "))
	}
	return nil
}

// cached returns the globals of the file at real, or nil.
func (r *Runtime) cached(real string) starlark.StringDict {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.modules[real]
}

// store caches globals for the file at real and returns the cached globals,
// which are those of another goroutine if it loaded the file first.
func (r *Runtime) store(real string, globals starlark.StringDict) starlark.StringDict {
	r.mu.Lock()
	defer r.mu.Unlock()
	if first, ok := r.modules[real]; ok {
		return first
	}
	if r.modules == nil {
		r.modules = make(map[string]starlark.StringDict)
	}
	r.modules[real] = globals
	return globals
}
