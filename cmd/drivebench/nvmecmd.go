package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/nvme"
)

// nvmeCommands are the subcommands of drivebench nvme.
var nvmeCommands = []command{
	{name: "decode", summary: "decode a page saved with nvme-cli's -b: " + strings.Join(pageKindNames(), ", "), run: cmdNVMeDecode},
	{name: "info", summary: "show the identity, namespace and SMART/health log of a live NVMe device", run: cmdNVMeInfo},
	{name: "purge", summary: "erase every block of an NVMe namespace with sanitize or format", run: cmdNVMePurge},
}

// cmdNVMe dispatches drivebench nvme SUBCOMMAND.
func cmdNVMe(ctx context.Context, args []string, io stdio) int {
	return dispatchSub(ctx, "nvme", nvmeCommands, args, io, "JSON output (--json) uses nvme-cli's field names.")
}

// dispatchSub runs the subcommand of a command group (nvme, catalog,
// trace) that args name, or shows the group's usage (subUsage) with
// note, the group's closing paragraph.
func dispatchSub(ctx context.Context, group string, subs []command, args []string, io stdio, note string) int {
	if len(args) == 0 {
		subUsage(io.err, group, subs, note)
		return exitUsage
	}
	if slices.Contains([]string{"-h", "-help", "--help", "help"}, args[0]) {
		if args[0] == "help" && len(args) > 1 {
			return dispatchSub(ctx, group, subs, append(args[1:], "-h"), io, note)
		}
		subUsage(io.out, group, subs, note)
		return exitOK
	}
	for _, c := range subs {
		if c.name == args[0] {
			return c.run(ctx, args[1:], io)
		}
	}
	fmt.Fprintf(io.err, "drivebench %s: unknown subcommand %q\n\n", group, args[0])
	subUsage(io.err, group, subs, note)
	return exitUsage
}

// subUsage lists a command group's subcommands, their summaries in a
// column after the longest name, and ends with note.
func subUsage(w io.Writer, group string, subs []command, note string) {
	fmt.Fprintf(w, "Usage: drivebench %s SUBCOMMAND [flags] [args]\n\nSubcommands:\n", group)
	width := 0
	for _, c := range subs {
		width = max(width, len(c.name))
	}
	for _, c := range subs {
		fmt.Fprintf(w, "  %-*s %s\n", width+1, c.name, c.summary)
	}
	fmt.Fprintf(w, "\n%s\n", note)
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// nvmeErrorCode picks the exit code of a failed device command: a
// controller that refused a command is a failed step, anything else (not
// NVMe, not root, unsupported method) a usage error.
func nvmeErrorCode(err error) int {
	var status *nvme.StatusError
	switch {
	case errors.As(err, &status):
		return exitStepFailed
	case errors.Is(err, context.Canceled):
		return exitInterrupted
	}
	return exitUsage
}

// ---- decode ---------------------------------------------------------------

// pageKind is a page type drivebench nvme decode reads.
type pageKind struct {
	name string
	// size is the length nvme-cli's -b writes; 0 for the error log, a
	// whole number of 64-byte entries.
	size   int
	decode func(b []byte) (decoded, error)
	// check says why a file is not this kind of page; nil when the kind
	// has no fixed marks to check.
	check func(b []byte) error
}

// decoded is a decoded page: a value with nvme-cli's JSON names, and its
// rendering as a table.
type decoded struct {
	value any
	rows  func(t *table)
}

// errorLogJSON is the error log as nvme-cli's error-log -o json shows it.
type errorLogJSON struct {
	Errors []nvme.ErrorLogEntry `json:"errors"`
}

var pageKinds = []pageKind{
	{"id-ctrl", nvme.IDCtrlSize, func(b []byte) (decoded, error) {
		c, err := nvme.DecodeIDCtrl(b)
		return decoded{c, func(t *table) { ctrlRows(t, c) }}, err
	}, nvme.CheckIDCtrl},
	{"id-ns", nvme.IDNsSize, func(b []byte) (decoded, error) {
		ns, err := nvme.DecodeIDNs(b)
		return decoded{ns, func(t *table) { nsRows(t, 0, ns) }}, err
	}, nvme.CheckIDNs},
	{"smart-log", nvme.SmartLogSize, func(b []byte) (decoded, error) {
		s, err := nvme.DecodeSmartLog(b)
		return decoded{s, func(t *table) { smartRows(t, s) }}, err
	}, nvme.CheckSmartLog},
	{"error-log", 0, func(b []byte) (decoded, error) {
		entries, err := nvme.DecodeErrorLog(b)
		return decoded{errorLogJSON{Errors: append([]nvme.ErrorLogEntry{}, entries...)}, func(t *table) { errorLogRows(t, entries) }}, err
	}, nil},
	{"fw-log", nvme.FwSlotLogSize, func(b []byte) (decoded, error) {
		log, err := nvme.DecodeFwSlotLog(b)
		return decoded{log, func(t *table) { fwLogRows(t, log) }}, err
	}, nvme.CheckFwSlotLog},
}

func pageKindNames() []string {
	names := make([]string, len(pageKinds))
	for i, k := range pageKinds {
		names[i] = k.name
	}
	return names
}

func findPageKind(name string) (pageKind, bool) {
	for _, k := range pageKinds {
		if k.name == name {
			return k, true
		}
	}
	return pageKind{}, false
}

func cmdNVMeDecode(_ context.Context, args []string, io stdio) int {
	fs := newFlagSet("nvme decode", strings.Join(pageKindNames(), "|")+" FILE",
		"Decode an NVMe page saved with nvme-cli's -b (binary) output, e.g. nvme smart-log /dev/nvme0 -b > smart.bin.\n"+
			"The page is checked to be of the kind named (an id-ns page is not decoded as id-ctrl). With -json, every field\n"+
			"nvme-cli prints, by nvme-cli's names and with its values (serial, model and firmware keep their padding).", io)
	asJSON := fs.Bool("json", false, "print JSON with nvme-cli's field names instead of a table")
	args, code, ok := parsePositionals(fs, args, "a page kind", "a file")
	if !ok {
		return code
	}
	kind, ok := findPageKind(args[0])
	if !ok {
		fmt.Fprintf(io.err, "drivebench nvme decode: unknown page kind %q; use one of %s\n", args[0], strings.Join(pageKindNames(), ", "))
		return exitUsage
	}
	page, err := readPage(args[1], kind)
	if err == nil && kind.check != nil && len(page) >= kind.size {
		err = kind.check(page)
	}
	if err == nil {
		var d decoded
		if d, err = kind.decode(page); err == nil {
			return printValue(io, "nvme decode", *asJSON, d.value, d.rows)
		}
	}
	fmt.Fprintf(io.err, "drivebench nvme decode: %s: %v\n", args[1], err)
	return exitUsage
}

// readPage reads a saved page and refuses one longer than the kind's
// size, which is another kind of page or not a page at all; a shorter one
// is left to the decoder, whose error names the size it needs.
func readPage(path string, kind pageKind) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if kind.size > 0 && len(b) > kind.size {
		return nil, fmt.Errorf("the file is %d bytes, but a %s page is %d bytes; is it another page, or not saved with -b?",
			len(b), kind.name, kind.size)
	}
	return b, nil
}

// printValue writes v as JSON, or as the table rows lays out, and
// returns the command's exit code; a failed write is reported under the
// command's name.
func printValue(io stdio, name string, asJSON bool, v any, rows func(t *table)) int {
	var err error
	if asJSON {
		err = writeJSON(io.out, v)
	} else {
		err = writeTable(io.out, rows)
	}
	if err != nil {
		fmt.Fprintf(io.err, "drivebench %s: %v\n", name, err)
		return exitUsage
	}
	return exitOK
}

// ---- info -----------------------------------------------------------------

func cmdNVMeInfo(_ context.Context, args []string, io stdio) int {
	fs := newFlagSet("nvme info", "DEVICE",
		"Show the identity, namespace and SMART/health log of an NVMe controller (/dev/nvme0) or namespace (/dev/nvme0n1). Needs root.", io)
	asJSON := fs.Bool("json", false, "print one JSON object with id_ctrl, id_ns and smart_log (nvme-cli's field names)")
	args, code, ok := parsePositionals(fs, args, "one device")
	if !ok {
		return code
	}
	snap, err := nvme.Snapshot(args[0])
	if err != nil {
		fmt.Fprintln(io.err, "drivebench nvme info:", err)
		return nvmeErrorCode(err)
	}
	return printValue(io, "nvme info", *asJSON, snap, func(t *table) { snapshotRows(t, snap) })
}

// ---- purge ----------------------------------------------------------------

func cmdNVMePurge(ctx context.Context, args []string, io stdio) int {
	fs := newFlagSet("nvme purge", "DEVICE",
		"Erase every block of an NVMe namespace and wait until the controller is done. A sanitize erases every namespace of the controller.", io)
	method := fs.String("method", "", "how to erase: "+strings.Join(nvme.PurgeMethods(), ", "))
	fs.choose("method", false, nvme.PurgeMethods()...)
	yes := fs.Bool("yes", false, "confirm that all data on the device may be destroyed")
	args, code, ok := parsePositionals(fs, args, "one device")
	if !ok {
		return code
	}
	if !slices.Contains(nvme.PurgeMethods(), *method) {
		fmt.Fprintf(io.err, "drivebench nvme purge: --method %q unknown; use one of %s\n", *method, strings.Join(nvme.PurgeMethods(), ", "))
		return exitUsage
	}
	if !*yes {
		fmt.Fprintf(io.err, "drivebench nvme purge: this destroys all data on %s; add --yes to go ahead\n", args[0])
		return exitUsage
	}
	start := time.Now()
	err := nvme.Purge(ctx, args[0], *method, percentPrinter(io.err))
	if err != nil {
		fmt.Fprintln(io.err, "drivebench nvme purge:", err)
		return nvmeErrorCode(err)
	}
	fmt.Fprintf(io.out, "purged %s with %s in %s\n", args[0], *method, time.Since(start).Round(time.Millisecond))
	return exitOK
}

// percentPrinter returns a progress callback that prints each new whole
// percentage.
func percentPrinter(w io.Writer) func(float64) {
	last := -1
	return func(fraction float64) {
		if pct := int(fraction * 100); pct != last {
			last = pct
			fmt.Fprintf(w, "purge: %d%%\n", pct)
		}
	}
}

// ---- tables ---------------------------------------------------------------

// table writes sections of label/value rows, aligned per section.
type table struct {
	tw *tabwriter.Writer
}

func writeTable(w io.Writer, rows func(t *table)) error {
	t := &table{tw: tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)}
	rows(t)
	return t.tw.Flush()
}

func (t *table) section(title string) { fmt.Fprintf(t.tw, "%s\n", title) }
func (t *table) end()                 { fmt.Fprintln(t.tw) }

func (t *table) row(label string, format string, args ...any) {
	fmt.Fprintf(t.tw, "  %s\t%s\n", label, fmt.Sprintf(format, args...))
}

// snapshotRows shows a live device: who it is, the namespace, its health.
func snapshotRows(t *table, s *nvme.HealthSnapshot) {
	fmt.Fprintf(t.tw, "%s, read %s\n\n", s.Path, s.Time.UTC().Format(time.RFC3339))
	ctrlRows(t, s.IDCtrl)
	if s.IDNs != nil {
		nsRows(t, s.NSID, s.IDNs)
	}
	smartRows(t, s.SmartLog)
}

func ctrlRows(t *table, c *nvme.IDCtrl) {
	t.section("Controller")
	t.row("Model", "%s", c.MN)
	t.row("Serial", "%s", c.SN)
	t.row("Firmware", "%s", c.FR)
	t.row("PCI vendor", "%#04x (subsystem %#04x)", c.VID, c.SSVID)
	t.row("NVMe version", "%s", orText(c.Version, "not reported"))
	t.row("Total capacity", "%s", capacityText(c.TNVMCAP))
	t.row("Namespaces", "up to %d", c.NN)
	t.row("Admin commands", "%v", c.OACS)
	t.row("NVM commands", "%v", c.ONCS)
	t.row("Sanitize", "%v", c.SANICAP)
	t.row("Format attributes", "%v", c.FNA)
	t.row("Purge methods", "%s", orText(strings.Join(nvme.SupportedPurgeMethods(c), ", "), "none"))
	t.row("Write cache", "%s", presence(c.VolatileWriteCache()))
	t.row("Temperature limits", "warning %v, critical %v", c.WCTEMP, c.CCTEMP)
	t.row("Firmware slots", "%d", c.FirmwareSlots())
	t.row("Error log capacity", "%d entries", int(c.ELPE)+1)
	t.row("Power states", "%s", powerStates(c.PowerStates))
	t.row("Subsystem NQN", "%s", c.SUBNQN)
	t.end()
}

func nsRows(t *table, nsid uint32, ns *nvme.IDNs) {
	if nsid != 0 {
		t.section(fmt.Sprintf("Namespace %d", nsid))
	} else {
		t.section("Namespace")
	}
	block := ns.BlockSize
	t.row("Size", "%s", blocksText(ns.CapacityBytes, ns.NSZE))
	t.row("Capacity", "%s", blocksText(ns.NCAP*block, ns.NCAP))
	t.row("In use", "%s", blocksText(ns.UsedBytes, ns.NUSE))
	t.row("Block size", "%d bytes + %d metadata (LBA format %d)", block, ns.LBAFormats[ns.FormatInUse].MS, ns.FormatInUse)
	t.row("LBA formats", "%s", lbaFormats(ns))
	t.row("Protection", "%s", ns.Protection())
	t.row("Deallocated reads", "%s", ns.DeallocatedRead())
	t.row("NGUID", "%s", ns.NGUID)
	t.row("EUI-64", "%s", ns.EUI64)
	t.end()
}

func smartRows(t *table, s *nvme.SmartLog) {
	t.section("Health (SMART log)")
	t.row("Critical warnings", "%v", s.CriticalWarning)
	t.row("Temperature", "%v%s", s.Temperature, sensorsText(s.TempSensors))
	t.row("Available spare", "%d%% (warning below %d%%)", s.AvailSpare, s.SpareThresh)
	t.row("Life used", "%d%%", s.PercentUsed)
	t.row("Data read", "%v data units (%s)", s.DataUnitsRead, bigBytes(s.BytesRead()))
	t.row("Data written", "%v data units (%s)", s.DataUnitsWritten, bigBytes(s.BytesWritten()))
	t.row("Host read commands", "%v", s.HostReadCommands)
	t.row("Host write commands", "%v", s.HostWriteCommands)
	t.row("Controller busy", "%v min", s.ControllerBusyTime)
	t.row("Power cycles", "%v", s.PowerCycles)
	t.row("Power-on hours", "%v", s.PowerOnHours)
	t.row("Unsafe shutdowns", "%v", s.UnsafeShutdowns)
	t.row("Media errors", "%v", s.MediaErrors)
	t.row("Error log entries", "%v", s.NumErrLogEntries)
	t.row("Above warning temp", "%d min (above critical: %d min)", s.WarningTempTime, s.CriticalCompTime)
	t.row("Thermal throttling", "%d times, %d s (heavy: %d times, %d s)", s.ThermalMgmtTemp1TransCount,
		s.ThermalMgmtTemp1TotalTime, s.ThermalMgmtTemp2TransCount, s.ThermalMgmtTemp2TotalTime)
	t.end()
}

func errorLogRows(t *table, entries []nvme.ErrorLogEntry) {
	if len(entries) == 0 {
		t.section("Error log: no errors logged")
		return
	}
	fmt.Fprintln(t.tw, "Error count\tQueue\tCommand\tStatus\tLBA\tNamespace")
	for _, e := range entries {
		fmt.Fprintf(t.tw, "%d\t%d\t%#04x\t%v\t%d\t%d\n", e.ErrorCount, e.SQID, e.CMDID, e.StatusField, e.LBA, e.NSID)
	}
}

func fwLogRows(t *table, log *nvme.FwSlotLog) {
	t.section("Firmware slots")
	t.row("Active slot", "%d (%s)", log.ActiveSlot, orText(log.ActiveRevision(), "empty"))
	if log.NextResetSlot != 0 {
		t.row("Next reset", "slot %d", log.NextResetSlot)
	}
	for i, rev := range log.Slots {
		if rev != "" {
			t.row(fmt.Sprintf("Slot %d", i+1), "%s", rev)
		}
	}
	t.end()
}

// ---- value formatting -----------------------------------------------------

func orText(s, empty string) string {
	if s == "" {
		return empty
	}
	return s
}

func presence(present bool) string {
	if present {
		return "present"
	}
	return "none"
}

func capacityText(u nvme.Uint128) string {
	if u.IsZero() {
		return "not reported"
	}
	if v, ok := u.Uint64(); ok {
		return fmt.Sprintf("%s (%d bytes)", format.BinaryBytes(v), v)
	}
	return u.String() + " bytes"
}

// blocksText gives a namespace size, e.g. "1 GiB (1073741824 bytes,
// 2097152 blocks)".
func blocksText(bytes, blocks uint64) string {
	return fmt.Sprintf("%s (%d bytes, %d blocks)", format.BinaryBytes(bytes), bytes, blocks)
}

func powerStates(states []nvme.PowerState) string {
	parts := make([]string, len(states))
	for i, ps := range states {
		parts[i] = fmt.Sprintf("%d: %v", i, ps)
	}
	return strings.Join(parts, ", ")
}

// lbaFormats lists the formats as data+metadata bytes, e.g. "0: 512+0
// (in use), 1: 512+8"; formats that are not available are left out.
func lbaFormats(ns *nvme.IDNs) string {
	var parts []string
	for i, f := range ns.LBAFormats {
		if f.DataSize() == 0 {
			continue
		}
		part := fmt.Sprintf("%d: %d+%d", i, f.DataSize(), f.MS)
		if i == ns.FormatInUse {
			part += " (in use)"
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, ", ")
}

func sensorsText(sensors [8]nvme.Kelvin) string {
	var parts []string
	for i, k := range sensors {
		if k != 0 {
			parts = append(parts, fmt.Sprintf("sensor %d %v", i+1, k))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// bigBytes writes a 128-bit SMART byte count in decimal units, as SMART
// counts data in decimal units.
func bigBytes(n *big.Int) string {
	v, _ := new(big.Float).SetInt(n).Float64()
	return format.BytesOf(v)
}
