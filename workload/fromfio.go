package workload

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The FromFio readers of the rows of Options: each reads one fio option's
// value as fio's JSON output echoes a job's options, and refuses, with
// what it is, a value the parameter cannot hold (a bs per direction, a
// distribution drivebench does not draw), so the importer can list it.

// rwFromFio reads fio's rw option: its pattern, without the ":N" of a
// sequential stride; readwrite is fio's other name for rw.
func rwFromFio(w *Workload, v string) error {
	pattern, _, _ := strings.Cut(v, ":")
	if pattern == "readwrite" {
		pattern = "rw"
	}
	for _, m := range RWModes {
		if m == pattern {
			w.RW = m
			return nil
		}
	}
	return fmt.Errorf("%q is not a pattern drivebench runs (%s)", v, strings.Join(RWModes, ", "))
}

// intFromFio reads a whole number of 0 or more from fio.
func intFromFio(set func(*Workload, int)) func(*Workload, string) error {
	return func(w *Workload, v string) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			return fmt.Errorf("%q is not a whole number", v)
		}
		set(w, n)
		return nil
	}
}

// sizeFromFio reads one size from fio: "4k", "4096" (fio's bare K, M, G
// are powers of 1024, as in a plan).
func sizeFromFio(set func(*Workload, int64)) func(*Workload, string) error {
	return func(w *Workload, v string) error {
		n, err := ParseSize(v)
		if err != nil || n <= 0 {
			return fmt.Errorf("%q is not one size", v)
		}
		set(w, n)
		return nil
	}
}

// offsetFromFio reads the start of the region: a number of bytes (fio's
// percentage of the file has no parameter to go to).
func offsetFromFio(w *Workload, v string) error {
	n, err := ParseSize(v)
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a number of bytes", v)
	}
	w.Offset = n
	return nil
}

// regionFromFio reads the region's length: a size, or a percentage of
// the file or device ("25%").
func regionFromFio(w *Workload, v string) error {
	if strings.HasSuffix(strings.TrimSpace(v), "%") {
		p, err := ParsePercent(v)
		if err != nil || !(p > 0 && p <= 100) {
			return fmt.Errorf("%q is not a share of the drive above 0%% and at most 100%%", v)
		}
		w.Size, w.SizePct = 0, p
		return nil
	}
	n, err := ParseSize(v)
	if err != nil || n <= 0 {
		return fmt.Errorf("%q is not a size", v)
	}
	w.Size, w.SizePct = n, 0
	return nil
}

// durationFromFio reads a time: a bare number is seconds, as fio's
// runtime and ramp_time take it, or "500ms", "2m".
func durationFromFio(set func(*Workload, time.Duration)) func(*Workload, string) error {
	return func(w *Workload, v string) error {
		d, err := ParseDuration(v)
		if err != nil {
			return fmt.Errorf("%q is not a duration", v)
		}
		set(w, d)
		return nil
	}
}

// boolFromFio reads a flag: fio writes 1 or 0.
func boolFromFio(field func(*Workload) *bool) func(*Workload, string) error {
	return func(w *Workload, v string) error {
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("%q is not 1 or 0", v)
		}
		*field(w) = b
		return nil
	}
}

// splitFromFio reads fio's bssplit, SIZE/PERCENT pairs joined by colons:
// "4k/10:64k/90". A split per direction (joined by a comma) and a pair
// without its percentage, which fio fills in, are refused.
func splitFromFio(w *Workload, v string) error {
	if strings.Contains(v, ",") {
		return fmt.Errorf("%q gives reads and writes splits of their own; the workload has one", v)
	}
	var split []SizeWeight
	for _, part := range strings.Split(v, ":") {
		size, pct, _ := strings.Cut(part, "/")
		n, err := ParseSize(size)
		p, perr := strconv.ParseFloat(strings.TrimSpace(pct), 64)
		if err != nil || n <= 0 || perr != nil || !(p >= 0 && p <= 100) {
			return fmt.Errorf("%q is not a list of SIZE/PERCENT, such as 4k/10:64k/90", v)
		}
		split = append(split, SizeWeight{Size: n, Weight: p})
	}
	w.BSSplit = split
	return nil
}

// zeroBuffersFromFio reads fio's zero_buffers, the zero data pattern
// (the others are read from their shares).
func zeroBuffersFromFio(w *Workload, v string) error {
	b, err := strconv.ParseBool(strings.TrimSpace(v))
	if err != nil {
		return fmt.Errorf("%q is not 1 or 0", v)
	}
	if b {
		w.Data = "zero"
	}
	return nil
}

// rateFromFio reads a job's cap from fio's rate or rate_iops: one value
// for every direction, or READ,WRITE (a third, trim's, is refused). The
// job's cap is the sum over the directions its pattern has (a pattern
// read by its row before), so a mix capped at 500 does 1000 I/Os per
// second; sizes take fio's units ("10m" is 10 MiB per second). A
// direction left free (0, or nothing) beside one capped is refused.
func rateFromFio(set func(*Workload, float64)) func(*Workload, string) error {
	return func(w *Workload, v string) error {
		parts := strings.Split(v, ",")
		if len(parts) > 2 {
			return fmt.Errorf("%q caps trims too, which drivebench does not issue", v)
		}
		caps := make([]int64, len(parts))
		for i, p := range parts {
			n, err := ParseSize(p)
			if strings.TrimSpace(p) == "" {
				n, err = 0, nil
			}
			if err != nil || n < 0 {
				return fmt.Errorf("%q is not a rate, or READ,WRITE rates", v)
			}
			caps[i] = n
		}
		var mine []int64 // the caps of the pattern's directions
		if w.RW != "write" && w.RW != "randwrite" {
			mine = append(mine, caps[0])
		}
		if w.RW != "read" && w.RW != "randread" {
			mine = append(mine, caps[len(caps)-1])
		}
		total := 0.0
		for _, c := range mine {
			if c == 0 && slices.Max(mine) > 0 {
				return fmt.Errorf("%q caps one direction of %s and leaves the other free; the workload's cap is the whole step's", v, w.RW)
			}
			total += float64(c)
		}
		set(w, total)
		return nil
	}
}

// randomPctFromFio reads fio's percentage_random: the share of random
// offsets, where the workload keeps the sequential rest.
func randomPctFromFio(w *Workload, v string) error {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 || n > 100 {
		return fmt.Errorf("%q is not one whole percentage", v)
	}
	w.SeqPct = 100 - n
	return nil
}

// zonesFromFio reads fio's random_distribution: random (uniform), or
// zoned:ACCESS/REGION:... in percent.
func zonesFromFio(w *Workload, v string) error {
	kind, zones, _ := strings.Cut(strings.TrimSpace(v), ":")
	switch {
	case kind == "random" && zones == "":
		w.Zones = nil
		return nil
	case kind != "zoned" || zones == "" || strings.Contains(zones, ","):
		return fmt.Errorf("%q is not a distribution drivebench draws (random, or zoned:ACCESS/REGION:... for reads and writes alike)", v)
	}
	var out []Zone
	for _, z := range strings.Split(zones, ":") {
		a, r, _ := strings.Cut(z, "/")
		access, aerr := strconv.ParseFloat(a, 64)
		region, rerr := strconv.ParseFloat(r, 64)
		if aerr != nil || rerr != nil || !(access >= 0 && access <= 100) || !(region > 0 && region <= 100) {
			return fmt.Errorf("%q: zone %q is not ACCESS/REGION in percent", v, z)
		}
		out = append(out, Zone{AccessPct: access, RegionPct: region})
	}
	w.Zones = out
	return nil
}

// arrivalFromFio reads fio's rate_process: linear is the workload's
// uniform.
func arrivalFromFio(w *Workload, v string) error {
	switch strings.TrimSpace(v) {
	case "linear":
		w.Arrival = "uniform"
	case "poisson":
		w.Arrival = "poisson"
	default:
		return fmt.Errorf("%q is not an arrival process (linear or poisson)", v)
	}
	return nil
}

// verifyFromFio reads fio's verify: any checksum or pattern verifies the
// written data; 0, none and null do not.
func verifyFromFio(w *Workload, v string) error {
	switch strings.TrimSpace(v) {
	case "":
		return fmt.Errorf("%q names no verification", v)
	case "0", "none", "null":
		w.Verify = false
	default:
		w.Verify = true
	}
	return nil
}

// fileServiceFromFio reads fio's file_service_type, the selections a file
// set takes.
func fileServiceFromFio(w *Workload, v string) error {
	if _, err := ParseFileService(v); err != nil {
		return err
	}
	w.FileService = strings.TrimSpace(v)
	return nil
}

// seedFromFio reads fio's randseed.
func seedFromFio(w *Workload, v string) error {
	n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return fmt.Errorf("%q is not a whole number", v)
	}
	w.Seed = n
	return nil
}
