package plan

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"hash"
)

// hash identifies a plan's content: the bytes of the plan file and of the
// files it includes and its modules, in the order read, the check
// scripts' bytes in plan order and the variables' values in name order.
// Each part is length-prefixed, so that no two different inputs hash
// alike by moving bytes from one part to the next.
func (l *loader) hash(p *Plan) string {
	h := sha256.New()
	for _, f := range l.files {
		writePart(h, f)
	}
	for _, s := range l.scripts {
		writePart(h, s)
	}
	for _, name := range sortedKeys(p.Variables) {
		value, _ := json.Marshal(p.Variables[name])
		writePart(h, []byte(name))
		writePart(h, value)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// writePart writes b to h after its length.
func writePart(h hash.Hash, b []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(b)))
	h.Write(n[:])
	h.Write(b)
}
