package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/plan"
)

// TestEveryNodeKindIsRegistered: the engine runs every kind of node the
// plan package makes; the report node is the caller's.
func TestEveryNodeKindIsRegistered(t *testing.T) {
	for _, k := range plan.NodeKinds() {
		if _, ok := stepKinds[k]; !ok && k != plan.KindReport {
			t.Errorf("node kind %q has no step kind in stepKinds", k)
		}
	}
	for k := range stepKinds {
		if !slices.Contains(plan.NodeKinds(), k) {
			t.Errorf("step kind %q is not one of plan.NodeKinds", k)
		}
	}
}

// TestUnknownStepKindStopsTheRun: a graph with a node of a kind the
// engine has no step kind for is refused before anything is written,
// naming the step and where kinds are registered.
func TestUnknownStepKindStopsTheRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "results")
	g := &plan.Graph{Nodes: []*plan.Node{{ID: "x1", Kind: "teleport", Name: "scratch / teleport", Drive: "scratch"}}}
	_, err := Run(context.Background(), &plan.Plan{Name: "p"}, g, Options{Dir: dir})
	if err == nil {
		t.Fatal("the run started")
	}
	for _, want := range []string{`step scratch / teleport is of kind "teleport"`, "stepKinds (engine/stepkind.go)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if _, statErr := os.Stat(dir); !os.IsNotExist(statErr) {
		t.Errorf("the results folder was made: %v", statErr)
	}
}

// TestStepKindsSayWhatIsReused: on resume, a measurement's record stands
// and a judgement or an exec step runs again.
func TestStepKindsSayWhatIsReused(t *testing.T) {
	want := map[plan.NodeKind]bool{
		plan.KindPrecondition: true, plan.KindProfile: true, plan.KindAggregate: true, plan.KindAdaptive: true,
		plan.KindCheck: false, plan.KindAcceptance: false, plan.KindExec: false,
	}
	for k, reused := range want {
		if got := reusable(&plan.Node{Kind: k}); got != reused {
			t.Errorf("%s: reusable %v, want %v", k, got, reused)
		}
	}
}
