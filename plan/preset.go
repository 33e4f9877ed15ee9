package plan

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
)

// namedPreset is a shape a block starts from by naming it in its preset
// attribute: a checkpoint's model, a dataloader's training workload.
type namedPreset interface{ presetName() string }

func (p CheckpointPreset) presetName() string { return p.Name }

func (p DataloaderPreset) presetName() string { return p.Name }

// presetAttr decodes preset, one of presets by name; an unknown name is
// an "Unknown <kind> Preset" error listing what (the presets' names).
func presetAttr[P namedPreset](l *loader, attr *hcl.Attribute, presets []P, kind, what string) *P {
	var name string
	if !l.stringAttr(attr, &name) {
		return nil
	}
	names := presetNames(presets)
	if i := slices.Index(names, name); i >= 0 {
		return &presets[i]
	}
	l.errorAt(attrSite(attr), "Unknown "+kind+" Preset", fmt.Sprintf("preset = %q is not one of %s drivebench knows: %s.%s",
		name, what, quotedList(names), didYouMean(name, names)))
	return nil
}

// presetNames lists the presets' names in their order.
func presetNames[P namedPreset](presets []P) []string {
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.presetName()
	}
	return names
}
