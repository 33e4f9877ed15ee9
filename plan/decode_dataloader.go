package plan

import (
	"fmt"
	"math"
	"time"

	"github.com/drivebench/drivebench/workload"
	"github.com/hashicorp/hcl/v2"
)

// dataloaderBlockSchema is the body of a dataloader block: the
// parameters only a dataloader takes (workload.Options whose Block is
// "dataloader"), the few of a profile's that apply to it, and its preset,
// scale and target.
var dataloaderBlockSchema = &hcl.BodySchema{
	Attributes: append(paramAttributes(workload.DataloaderBlock), []hcl.AttributeSchema{
		{Name: "bs"},
		{Name: "direct"},
		{Name: "seed"},
		{Name: "preset"},
		{Name: "scale"},
		{Name: "au_target"},
		{Name: "drives"},
		{Name: "expect"},
	}...),
}

// DataloaderPreset is one of MLPerf Storage's training workloads, as its
// DLIO configurations for an H100 accelerator give it
// (github.com/mlcommons/storage, configs/dlio/workload/<name>_h100.yaml).
type DataloaderPreset struct {
	Name           string
	Files          int
	SamplesPerFile int
	RecordSize     int64
	BatchSize      int
	ReaderThreads  int
	ComputeTime    time.Duration
	Epochs         int
	// AUTarget is the accelerator utilisation MLPerf Storage requires.
	AUTarget float64
}

// DataloaderPresets are the training workloads a dataloader block can
// start from.
var DataloaderPresets = []DataloaderPreset{
	{Name: "unet3d", Files: 168, SamplesPerFile: 1, RecordSize: 146600628, BatchSize: 7, ReaderThreads: 4,
		ComputeTime: 323 * time.Millisecond, Epochs: 5, AUTarget: 0.9},
	{Name: "resnet50", Files: 1024, SamplesPerFile: 1251, RecordSize: 114660, BatchSize: 400, ReaderThreads: 8,
		ComputeTime: 224 * time.Millisecond, Epochs: 5, AUTarget: 0.9},
	{Name: "cosmoflow", Files: 524288, SamplesPerFile: 1, RecordSize: 2828486, BatchSize: 1, ReaderThreads: 4,
		ComputeTime: 3500 * time.Microsecond, Epochs: 5, AUTarget: 0.7},
}

// Defaults of a dataloader that its preset does not set.
const (
	// DefaultLoaderBS is the largest transfer a sample is read in.
	DefaultLoaderBS = 1 << 20
	// DefaultAUTarget is MLPerf Storage's accelerator utilisation for
	// most workloads.
	DefaultAUTarget = 0.9
)

// decodeDataloader decodes one dataloader step. A dataloader is a
// profile whose workload is a dataloader's, so it runs in plan order
// among the profiles and checks and accept blocks can name it.
func (l *loader) decodeDataloader(block *hcl.Block, name string, body hcl.Body) *Profile {
	content, diags := l.content(body, dataloaderBlockSchema)
	l.diags = append(l.diags, diags...)
	attrs := content.Attributes
	d := &Dataloader{AUTarget: DefaultAUTarget, Scale: 1}
	p := &Profile{Name: name, Dataloader: d, Range: block.DefRange,
		Workload: workload.Workload{RW: "randread", BS: DefaultLoaderBS, IODepth: 1, NumJobs: 1}}
	if l.defineStep(block, name) {
		l.profiles[name] = p
	}
	w := &p.Workload
	if preset := presetAttr(l, attrs["preset"], DataloaderPresets, "Dataloader", "MLPerf Storage's training workloads"); preset != nil {
		d.Preset = preset.Name
		w.Files, w.SamplesPerFile, w.RecordSize = preset.Files, preset.SamplesPerFile, preset.RecordSize
		w.BatchSize, w.ReaderThreads, w.ComputeTime, w.Epochs = preset.BatchSize, preset.ReaderThreads, preset.ComputeTime, preset.Epochs
		d.AUTarget = preset.AUTarget
	}
	if l.floatAttr(attrs["scale"], &d.Scale, isPositive, "scale multiplies the preset's number of files; it must be more than 0, such as 0.01 for a hundredth of the data set.") && w.Files > 0 {
		w.Files = scaledFiles(w, d.Scale)
	}
	l.decodeParams(dataloaderBlockSchema, attrs, w)
	l.paramAttr(workload.Lookup("bs"), attrs["bs"], w)
	l.floatAttr(attrs["au_target"], &d.AUTarget, isShare, "au_target is a share of the run's time, more than 0 and at most 1, such as 0.9 for MLPerf Storage's 90 %.")
	if attrs["preset"] == nil || d.Preset != "" {
		l.checkDataloaderSet(block, p, attrs)
	}
	drives, ok := l.driveRefs(attrs["drives"])
	p.Drives = drives
	if ok {
		l.checkFileSetDrives(p, l.drivesOf(drives))
	}
	if attr := attrs["expect"]; attr != nil && ok {
		p.Expect = l.decodeExpect(p, attr, l.drivesOf(drives))
	}
	return p
}

// scaledFiles is the preset's files times scale, rounded up, and never
// fewer than one batch needs: the smallest data set is one batch.
func scaledFiles(w *workload.Workload, scale float64) int {
	perBatch := (w.BatchSize + w.SamplesPerFile - 1) / w.SamplesPerFile
	return max(perBatch, int(math.Ceil(float64(w.Files)*scale)))
}

// checkDataloaderSet reports the parameters neither the block nor its
// preset set.
func (l *loader) checkDataloaderSet(block *hcl.Block, p *Profile, attrs hcl.Attributes) {
	w := &p.Workload
	var missing []string
	for _, o := range workload.Options {
		if o.Block == workload.DataloaderBlock && o.Name != "compute_time" && o.Get(w) == o.Get(&workload.Workload{}) {
			missing = append(missing, o.Name)
		}
	}
	if attrs["compute_time"] == nil && p.Dataloader.Preset == "" {
		missing = append(missing, "compute_time")
	}
	if len(missing) == 0 {
		return
	}
	l.errorAt(site{subject: block.DefRange, context: block.DefRange}, "Missing Dataloader Parameter", fmt.Sprintf(
		"Dataloader %q sets no %s. Set them, or start from one of MLPerf Storage's workloads with preset = %s.", p.Name, quotedList(missing), quotedList(presetNames(DataloaderPresets))))
}
