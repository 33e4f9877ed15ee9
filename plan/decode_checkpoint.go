package plan

import (
	"fmt"

	"github.com/drivebench/drivebench/workload"
	"github.com/hashicorp/hcl/v2"
)

// checkpointBlockSchema is the body of a checkpoint block.
var checkpointBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "preset"},
		{Name: "scale"},
		{Name: "ranks"},
		{Name: "size"},
		{Name: "file_per_rank"},
		{Name: "fsync"},
		{Name: "drop_cache"},
		{Name: "read_back"},
		{Name: "passes"},
		{Name: "bs"},
		{Name: "direct"},
		{Name: "drives"},
		{Name: "expect"},
	},
}

// CheckpointPreset is one of MLPerf Storage's checkpoint shapes: the
// model's checkpoint size and the ranks (MPI processes) that write it,
// from Table 2 of the MLPerf Storage v2.0 rules
// (github.com/mlcommons/storage, Submission_guidelines.md, 2.2.1). The
// sizes are decimal, as the table gives them.
type CheckpointPreset struct {
	Name  string
	Ranks int
	Bytes int64
}

// CheckpointPresets are the checkpoint shapes a checkpoint block can
// start from, named as mlpstorage's --model names them.
var CheckpointPresets = []CheckpointPreset{
	{Name: "llama3-8b", Ranks: 8, Bytes: 105e9},
	{Name: "llama3-70b", Ranks: 64, Bytes: 912e9},
	{Name: "llama3-405b", Ranks: 512, Bytes: 5.29e12},
	{Name: "llama3-1t", Ranks: 1024, Bytes: 18e12},
}

// Defaults of a checkpoint block.
const (
	// DefaultCheckpointPasses: StorageReview publishes three; MLPerf
	// Storage's rules ask for five runs.
	DefaultCheckpointPasses = 3
	// DefaultCheckpointBS is the transfer size a rank writes and reads
	// its file in.
	DefaultCheckpointBS = 4 << 20
	// MaxCheckpointPasses bounds passes.
	MaxCheckpointPasses = 1000
)

// decodeCheckpoint decodes one checkpoint step: a profile whose workload
// is its write pass, on a file set of a file per rank (or one shared
// file), which expands into its passes (addCheckpoint).
func (l *loader) decodeCheckpoint(block *hcl.Block, name string, body hcl.Body) *Profile {
	content, diags := l.content(body, checkpointBlockSchema)
	l.diags = append(l.diags, diags...)
	attrs := content.Attributes
	c := &Checkpoint{FilePerRank: true, Fsync: true, DropCache: true, ReadBack: true, Passes: DefaultCheckpointPasses, Scale: 1}
	p := &Profile{Name: name, Checkpoint: c, Range: block.DefRange}
	if l.defineStep(block, name) {
		l.profiles[name] = p
	}
	if preset := presetAttr(l, attrs["preset"], CheckpointPresets, "Checkpoint", "MLPerf Storage's checkpoint models"); preset != nil {
		c.Preset, c.Ranks, c.Bytes = preset.Name, preset.Ranks, preset.Bytes
	}
	l.countAttr(attrs["ranks"], &c.Ranks, workload.MaxNumJobs)
	l.positiveSizeAttr(attrs["size"], &c.Bytes)
	l.floatAttr(attrs["scale"], &c.Scale, isShare, "scale is the share of the checkpoint's size a run writes: more than 0 and at most 1, such as 0.001 for a thousandth.")
	for name, dst := range map[string]*bool{"file_per_rank": &c.FilePerRank, "fsync": &c.Fsync, "drop_cache": &c.DropCache, "read_back": &c.ReadBack} {
		l.boolAttr(attrs[name], dst)
	}
	l.countAttr(attrs["passes"], &c.Passes, MaxCheckpointPasses)
	bs := int64(DefaultCheckpointBS)
	l.positiveSizeAttr(attrs["bs"], &bs)
	var direct bool
	l.boolAttr(attrs["direct"], &direct)
	if c.Ranks == 0 || c.Bytes == 0 {
		l.blockError(block, "Missing Checkpoint Shape", fmt.Sprintf(
			"Checkpoint %q must say how large a checkpoint is and how many ranks write it: ranks = 8 and size = \"105GB\", or one of MLPerf Storage's models with preset = %s.", name, quotedList(presetNames(CheckpointPresets))))
	} else {
		p.Workload = c.writeWorkload(bs, direct)
		if p.Workload.FileSize < bs {
			l.errorAt(site{subject: block.DefRange, context: block.DefRange}, "Checkpoint Too Small", fmt.Sprintf(
				"Checkpoint %q gives each of its %d ranks %s, less than one transfer of bs = %s: raise size or scale, or lower bs.",
				name, c.Ranks, workload.FormatSize(c.scaledBytes()/int64(c.Ranks)), workload.FormatSize(bs)))
		}
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

// scaledBytes is the checkpoint's size as run: its size times scale.
func (c *Checkpoint) scaledBytes() int64 {
	return int64(float64(c.Bytes) * c.Scale)
}

// writeWorkload is the checkpoint's write pass: each rank a job writing
// its file (or its slice of one shared file) once, in transfers of bs,
// creating it afresh and flushing it before it closes it. Each rank's
// share is a whole number of transfers.
func (c *Checkpoint) writeWorkload(bs int64, direct bool) workload.Workload {
	perRank := c.scaledBytes() / int64(c.Ranks) / bs * bs
	w := workload.Workload{RW: "write", BS: bs, IODepth: 1, NumJobs: c.Ranks, Loops: 1, Direct: direct,
		Files: c.Ranks, FileSize: perRank, CreateOnOpen: true, FsyncOnClose: c.Fsync, Engine: workload.DefaultEngine}
	if !c.FilePerRank {
		w.Files, w.FileSize = 1, perRank*int64(c.Ranks)
	}
	return w
}

// readWorkload is the checkpoint's read-back: each rank reading what it
// wrote, after the page cache is emptied (DropCache).
func (c *Checkpoint) readWorkload(write workload.Workload) workload.Workload {
	w := write.Clone()
	w.RW, w.CreateOnOpen, w.FsyncOnClose, w.DropCache = "read", false, false, c.DropCache
	return w
}
