package reporttruth

import (
	"fmt"
	"testing"
)

func TestTmpUnchecked(t *testing.T) {
	for _, d := range []string{"vdi", "checkpoint-tmp", "checkpoint-shm", "dataloader-tmp", "dataloader-shm", "quick"} {
		r, err := Load("/tmp/audit-runs/"+d, "/tmp/audit-runs/"+d)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, u := range proseUnits(r.Markdown) {
			sc := newScope(r, u)
			if _, ok := matchKinds(sc, u, unitKinds, u.text); ok {
				continue
			}
			for _, s := range sentences(u.text) {
				if _, ok := matchKinds(sc, u, sentenceKinds, s); ok || hasNumber(sc, s) || seen[s] {
					continue
				}
				seen[s] = true
				fmt.Printf("%s | %s | %.200s\n", d, u.where(), s)
			}
		}
	}
}

func TestTmpSpeed0(t *testing.T) {
	m, recs := replayRun()
	recs[0].Workload.Replay.Speed, recs[0].Result.Replay.Speed = 0, 0
	fmt.Println(report(t, m, recs).Markdown)
}
