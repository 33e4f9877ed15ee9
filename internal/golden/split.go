package golden

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/results"
)

// split is how a part of report.json is held: whole, as a file per member
// of an object, or as a file per element of an array.
type split int

const (
	whole split = iota
	byMember
	byElement
)

// reportSplits are the parts of report.json held as a directory of files
// rather than as one file, by their place in the document ("[]" stands
// for any element of an array): the review case's report.json is 373 KB,
// its results 188 KB and its comparables 143 KB. An object is held as a
// file per member (<name>.json.d/<key>.json), an array as a file per
// element named by its index and what it holds
// (results.json.d/002-cm9-4k-write-saturation.json). An empty one stays
// one file (<name>.json), so that every part of the document is in some
// file.
var reportSplits = map[string]split{
	"":                      byMember,  // report.json: a file per section
	"results":               byElement, // a file per profile
	"comparables":           byElement, // a directory per comparable run,
	"comparables[]":         byMember,  // a file per section of its report,
	"comparables[].results": byElement, // a file per profile of it
}

// SplitJSON holds a report.json document as the files name.json.d/...
// of its parts (see reportSplits), each indented as a document of its own.
func SplitJSON(name string, data []byte) ([]File, error) {
	return splitJSON(name, "", data)
}

func splitJSON(name, place string, data []byte) ([]File, error) {
	parts, err := jsonParts(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmp.Or(place, name), err)
	}
	if reportSplits[place] == whole || len(parts) == 0 {
		var buf bytes.Buffer
		if err := json.Indent(&buf, data, "", "  "); err != nil {
			return nil, err
		}
		buf.WriteByte('\n')
		return []File{{Name: name + ".json", Data: buf.Bytes()}}, nil
	}
	var out []File
	for _, p := range parts {
		files, err := splitJSON(name+".json.d/"+p.name, p.place(place), p.data)
		if err != nil {
			return nil, err
		}
		out = append(out, files...)
	}
	return out, nil
}

// jsonPart is a member of a JSON object or an element of an array.
type jsonPart struct {
	name    string // the member's key, or the element's file name
	element bool
	data    json.RawMessage
}

// place is where the part is in report.json, a key of reportSplits.
func (p jsonPart) place(parent string) string {
	switch {
	case p.element:
		return parent + "[]"
	case parent == "":
		return p.name
	}
	return parent + "." + p.name
}

// jsonParts are the members of a JSON object or the elements of an array,
// in order; none for any other value.
func jsonParts(data []byte) ([]jsonPart, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') && tok != json.Delim('[') {
		return nil, nil
	}
	var parts []jsonPart
	for dec.More() {
		p := jsonPart{element: tok == json.Delim('[')}
		if !p.element {
			key, err := dec.Token()
			if err != nil {
				return nil, err
			}
			p.name = key.(string)
		}
		if err := dec.Decode(&p.data); err != nil {
			return nil, err
		}
		if p.element {
			p.name = fmt.Sprintf("%03d-%s", len(parts), results.Slug(elementLabel(p.data)))
		}
		parts = append(parts, p)
	}
	return parts, nil
}

// elementLabel is what an element of a split array holds: a comparable
// run's name, a result's drive and profile.
func elementLabel(data []byte) string {
	var e struct{ Name, Drive, Profile string }
	_ = json.Unmarshal(data, &e) // an element without them is labelled "x"
	return cmp.Or(e.Name, e.Drive+" "+e.Profile)
}

// JoinJSON reads back the document SplitJSON held as name.json or the
// files under name.json.d/ in dir: the same values, an object's members
// in the order of their file names.
func JoinJSON(dir, name string) ([]byte, error) {
	return joinJSON(filepath.Join(dir, name), "")
}

func joinJSON(path, place string) ([]byte, error) {
	data, err := os.ReadFile(path + ".json")
	if err == nil || reportSplits[place] == whole {
		return data, err
	}
	entries, err := os.ReadDir(path + ".json.d")
	if err != nil {
		return nil, fmt.Errorf("neither %s.json nor %s.json.d/: %w", path, path, err)
	}
	var names []string
	for _, e := range entries {
		n := strings.TrimSuffix(strings.TrimSuffix(e.Name(), ".d"), ".json")
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	if reportSplits[place] == byElement {
		elems := make([]json.RawMessage, len(names))
		for i, n := range names {
			if elems[i], err = joinJSON(filepath.Join(path+".json.d", n), place+"[]"); err != nil {
				return nil, err
			}
		}
		return json.Marshal(elems)
	}
	members := map[string]json.RawMessage{}
	for _, n := range names {
		if members[n], err = joinJSON(filepath.Join(path+".json.d", n), jsonPart{name: n}.place(place)); err != nil {
			return nil, err
		}
	}
	return json.Marshal(members)
}
