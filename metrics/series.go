package metrics

// Sampler turns the running totals of many recorders into a time series:
// each call to Sample records the I/Os completed since the previous call.
type Sampler struct {
	Reads, Writes []*Recorder
	prev          [2]totals
	written       uint64
	Series        []Sample
}

type totals struct{ ios, bytes, latSum uint64 }

func sum(recs []*Recorder) totals {
	var t totals
	for _, r := range recs {
		ios, bytes, lat := r.Totals()
		t.ios += ios
		t.bytes += bytes
		t.latSum += lat
	}
	return t
}

// Sample closes the interval ending t seconds into the run, dt seconds long,
// appends it to Series and returns it.
func (s *Sampler) Sample(t, dt float64) Sample {
	rd, wr := sum(s.Reads), sum(s.Writes)
	drd := totals{rd.ios - s.prev[0].ios, rd.bytes - s.prev[0].bytes, rd.latSum - s.prev[0].latSum}
	dwr := totals{wr.ios - s.prev[1].ios, wr.bytes - s.prev[1].bytes, wr.latSum - s.prev[1].latSum}
	s.prev = [2]totals{rd, wr}
	s.written += dwr.bytes
	smp := Sample{T: t, BytesWritten: s.written}
	if dt > 0 {
		smp.ReadIOPS = float64(drd.ios) / dt
		smp.WriteIOPS = float64(dwr.ios) / dt
		smp.BW = float64(drd.bytes+dwr.bytes) / dt
	}
	if n := drd.ios + dwr.ios; n > 0 {
		smp.MeanLatNs = float64(drd.latSum+dwr.latSum) / float64(n)
	}
	s.Series = append(s.Series, smp)
	return smp
}

// Rebase makes the current totals the zero point, so samples taken during a
// ramp are not counted in the measured phase.
func (s *Sampler) Rebase() {
	s.prev = [2]totals{sum(s.Reads), sum(s.Writes)}
	s.written = 0
	s.Series = nil
}
