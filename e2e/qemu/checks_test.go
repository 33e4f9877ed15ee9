package qemu

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/internal/nvmecli"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/nvme"
)

// step returns the named step, failing the test when the guest did not
// report it.
func step(t *testing.T, steps map[string]*guestStep, name string) *guestStep {
	t.Helper()
	s, ok := steps[name]
	if !ok {
		t.Fatalf("the guest reported no step %q", name)
	}
	return s
}

// stepJSON parses a step's stdout as one JSON object, numbers as written.
func stepJSON(t *testing.T, s *guestStep) map[string]any {
	t.Helper()
	if s.rc != 0 {
		t.Fatalf("%s exited %d:\n%s%s", s.name, s.rc, s.stdout, s.stderr)
	}
	m, err := nvmecli.Decode([]byte(s.stdout))
	if err != nil {
		t.Fatalf("%s: %v in:\n%s", s.name, err, s.stdout)
	}
	return m
}

// compareWithNvmeCli compares every value of nvme-cli's object with
// drivebench's, recursively; strings compare as printed, padding
// included, and a value drivebench lacks is an error.
func compareWithNvmeCli(t *testing.T, what string, cli map[string]any, ours any) {
	t.Helper()
	diffs, n := nvmecli.Diff(what, cli, ours)
	for _, d := range diffs {
		t.Error(d)
	}
	t.Logf("%s: %d values of nvme-cli compared field for field with drivebench's", what, n)
}

// checkIdentity compares nvme-cli's id-ctrl and id-ns with drivebench
// nvme info on the same controller, before anything was written.
func checkIdentity(t *testing.T, steps map[string]*guestStep) {
	info := stepJSON(t, step(t, steps, "info-before"))
	idCtrl := stepJSON(t, step(t, steps, "nvme-id-ctrl"))
	compareWithNvmeCli(t, "id_ctrl", idCtrl, info["id_ctrl"])
	if sn := strings.TrimSpace(fmt.Sprint(idCtrl["sn"])); sn != guestSerial {
		t.Errorf("nvme-cli reads serial %q, QEMU was given %q", sn, guestSerial)
	}
	compareWithNvmeCli(t, "id_ns", stepJSON(t, step(t, steps, "nvme-id-ns")), info["id_ns"])
	t.Logf("drivebench nvme info:\n%s", step(t, steps, "info-text").stdout)
}

// checkDriveState: the run records the namespace by the identity a
// resume compares, the controller's serial as nvme-cli reads it, the
// namespace's capacity and the kernel's count of sectors written, with the
// precondition the drive has been through.
func checkDriveState(t *testing.T, steps map[string]*guestStep) {
	st := stepJSON(t, step(t, steps, "drive-state"))
	id, _ := st["identity"].(map[string]any)
	idNs := stepJSON(t, step(t, steps, "nvme-id-ns"))
	flbas, _ := idNs["flbas"].(json.Number).Int64()
	lbaf := idNs["lbafs"].([]any)[flbas&0xf].(map[string]any)
	nsze, _ := idNs["nsze"].(json.Number).Int64()
	ds, _ := lbaf["ds"].(json.Number).Int64()
	size, _ := id["size"].(json.Number).Int64()
	written, _ := id["sectors_written"].(json.Number).Int64()
	if id["kind"] != "block" || id["serial"] != guestSerial || size != nsze<<ds || written <= 0 {
		t.Errorf("drive state identity %v; want a block device with serial %q, %d bytes and sectors written", id, guestSerial, nsze<<ds)
	}
	if pre, _ := st["preconditions"].([]any); len(pre) == 0 {
		t.Errorf("drive state %v lists no precondition the drive went through", st)
	}
}

// checkSmart compares every SMART field nvme-cli prints with drivebench's,
// read right after it, before and after the run.
func checkSmart(t *testing.T, steps map[string]*guestStep) {
	for _, when := range []string{"before", "after"} {
		cli := stepJSON(t, step(t, steps, "nvme-smart-"+when))
		info := stepJSON(t, step(t, steps, "info-"+when))
		compareWithNvmeCli(t, "smart_log "+when, cli, info["smart_log"])
	}
}

// checkPurge: a method the controller lacks is refused with what it
// supports instead; a format purge succeeds.
func checkPurge(t *testing.T, steps map[string]*guestStep) {
	refused := step(t, steps, "purge-unsupported")
	for _, want := range []string{"does not support sanitize (block erase)", "SANICAP: none", "it supports format"} {
		if refused.rc != 2 || !strings.Contains(refused.stderr, want) {
			t.Errorf("purge --method sanitize-block: exit %d, %q; want exit 2 and %q", refused.rc, refused.stderr, want)
		}
	}
	purge := step(t, steps, "purge")
	if purge.rc != 0 || !strings.Contains(purge.stdout, "purged /dev/nvme0n1 with format") {
		t.Errorf("purge --method format: exit %d:\n%s%s", purge.rc, purge.stdout, purge.stderr)
	}
	t.Logf("purge: %s%s", purge.stderr, purge.stdout)
}

// record is what the tier reads of a step record.
type record struct {
	Kind    string                  `json:"kind"`
	Name    string                  `json:"name"`
	Status  string                  `json:"status"`
	Error   string                  `json:"error"`
	Log     []string                `json:"log"`
	Thermal *metrics.ThermalSummary `json:"thermal"`
	Result  *struct {
		Write *struct {
			Bytes uint64 `json:"bytes"`
		} `json:"write"`
		Thermal []metrics.ThermalSample `json:"thermal"`
	} `json:"result"`
}

// checkPlanRun: the plan ran, every step has a record, and the drive's
// SMART counters saw at least the bytes the engine wrote.
func checkPlanRun(t *testing.T, steps map[string]*guestStep) {
	plan := strings.TrimSpace(step(t, steps, "plan").stdout)
	if plan != "/plans/purge.hcl" {
		t.Logf("drivebench validate refuses the purge precondition, so the plan ran without it:\n%s",
			step(t, steps, "validate").stderr)
	}
	runStep := step(t, steps, "run")
	t.Logf("drivebench run %s exited %d:\n%s%s", plan, runStep.rc, runStep.stdout, runStep.stderr)
	if runStep.rc != 0 && runStep.rc != 1 {
		t.Errorf("drivebench run exited %d, want 0 or 1", runStep.rc)
	}
	records := readRecords(t, step(t, steps, "records"))
	// A journal line is a finished step's, or a run's start or end.
	journal := strings.Count(step(t, steps, "journal").stdout, `{"step":`)
	if len(records) < 2 || len(records) != journal {
		t.Errorf("%d step records and %d steps in the journal; want one record per step, at least 2", len(records), journal)
	}
	var engineWrote uint64
	for _, r := range records {
		t.Logf("record %s %s: %s %s", r.Kind, r.Name, r.Status, r.Error)
		if r.Result != nil && r.Result.Write != nil {
			engineWrote += r.Result.Write.Bytes
		}
	}
	checkWritten(t, steps, engineWrote)
	t.Logf("report.md:\n%s", step(t, steps, "report").stdout)
}

// readRecords decodes the concatenated step records.
func readRecords(t *testing.T, s *guestStep) []record {
	t.Helper()
	var records []record
	dec := json.NewDecoder(strings.NewReader(s.stdout))
	for {
		var r record
		err := dec.Decode(&r)
		if err == io.EOF {
			return records
		}
		if err != nil {
			t.Fatalf("step records: %v", err)
		}
		records = append(records, r)
	}
}

// checkWritten: data_units_written grew across the run, by at least what
// the engine wrote less one data unit (the controller rounds up).
func checkWritten(t *testing.T, steps map[string]*guestStep, engineWrote uint64) {
	before, after := snapshot(t, steps, "info-before"), snapshot(t, steps, "info-after")
	change, err := nvme.DiffSmart(before.SmartLog, after.SmartLog)
	if err != nil {
		t.Fatal(err)
	}
	written := change.BytesWritten()
	t.Logf("SMART: %v data units (%s bytes) written during the run, %v host write commands; the engine wrote %d bytes",
		change.DataUnitsWritten, written, change.HostWriteCommands, engineWrote)
	if change.DataUnitsWritten.IsZero() {
		t.Error("data_units_written did not grow across the run")
	}
	least := new(big.Int).SetUint64(engineWrote)
	least.Sub(least, big.NewInt(nvme.DataUnitBytes))
	if written.Cmp(least) < 0 {
		t.Errorf("SMART counted %s bytes written, the engine %d", written, engineWrote)
	}
	if !change.MediaErrors.IsZero() || change.NewWarnings != 0 {
		t.Errorf("media errors +%v, new critical warnings %v", change.MediaErrors, change.NewWarnings)
	}
}

// snapshot decodes drivebench nvme info --json.
func snapshot(t *testing.T, steps map[string]*guestStep, name string) *nvme.HealthSnapshot {
	t.Helper()
	var s nvme.HealthSnapshot
	if err := json.NewDecoder(bytes.NewReader([]byte(step(t, steps, name).stdout))).Decode(&s); err != nil || s.SmartLog == nil {
		t.Fatalf("%s: %v", name, err)
	}
	return &s
}

// cacheValue reads the current value nvme-cli's get-feature printed:
// "get-feature:0x06 (Volatile Write Cache), Current value:00000001", in
// hexadecimal, with or without 0x.
func cacheValue(t *testing.T, s *guestStep) string {
	t.Helper()
	m := regexp.MustCompile(`(?i)current value:\s*(?:0x)?([0-9a-f]+)`).FindStringSubmatch(s.stdout)
	if s.rc != 0 || m == nil {
		t.Fatalf("%s exited %d with no current value:\n%s%s", s.name, s.rc, s.stdout, s.stderr)
	}
	v, err := strconv.ParseUint(m[1], 16, 32)
	if err != nil {
		t.Fatal(err)
	}
	return map[bool]string{true: "on", false: "off"}[v&1 == 1]
}

// checkWriteCache: the emulated controller's write cache is on before the
// run, nvme-cli sees it off while the run holds it off, and it is on
// again after the run, which says so in its health document.
func checkWriteCache(t *testing.T, steps map[string]*guestStep) {
	run := step(t, steps, "cache-run")
	t.Logf("drivebench run cache.hcl exited %d:\n%s%s", run.rc, run.stdout, run.stderr)
	before, during, after := cacheValue(t, step(t, steps, "cache-before")), cacheValue(t, step(t, steps, "cache-during")), cacheValue(t, step(t, steps, "cache-after"))
	t.Logf("volatile write cache: %s before the run, %s during it (nvme-cli, from an exec step of the run), %s after it", before, during, after)
	if before != "on" || during != "off" || after != "on" {
		t.Errorf("volatile write cache %s / %s / %s before / during / after the run; want on / off / on", before, during, after)
	}
	health := stepJSON(t, step(t, steps, "cache-health"))
	wc, _ := health["volatile_write_cache"].(map[string]any)
	if wc["found_enabled"] != true || wc["set_enabled"] != false || wc["restored"] != true {
		t.Errorf("health document: volatile_write_cache = %v, want found on, set off, restored", wc)
	}
}

// checkThermal: the 12-second write has the drive's temperature read at
// its start, every 5 s and at its end, and names no throttling (QEMU's
// controller reports a constant 50 degrees C and no throttle counts).
func checkThermal(t *testing.T, steps map[string]*guestStep) {
	for _, r := range readRecords(t, step(t, steps, "cache-records")) {
		if r.Kind != "profile" {
			continue
		}
		if r.Result == nil || len(r.Result.Thermal) < 3 {
			t.Fatalf("%s: %+v; want at least 3 temperature readings over 12 s", r.Name, r.Result)
		}
		th := r.Result.Thermal
		t.Logf("%s: %d readings from t=%.1fs to t=%.1fs, first %+v; log %q", r.Name, len(th), th[0].T, th[len(th)-1].T, th[0], r.Log)
		if th[0].TempC != 50 {
			t.Errorf("composite temperature %d °C, want QEMU's 50 °C", th[0].TempC)
		}
		if want := (metrics.ThermalSummary{Readings: len(th), MinC: 50, MaxC: 50}); r.Thermal == nil || *r.Thermal != want {
			t.Errorf("the record's thermal summary is %+v, want %+v", r.Thermal, want)
		}
		return
	}
	t.Error("the write-cache run has no profile record")
}
