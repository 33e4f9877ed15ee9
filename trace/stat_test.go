package trace

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// synthetic is a workload of n reads and writes whose counts the test
// knows: every third I/O a write, sizes 4, 8 and 64 KiB in turn, and
// three I/Os in four continuing where the one before ended.
type synthetic struct {
	ios                              []IO
	reads, writes, bytes, sequential int64
	sizes                            map[int64]int64
}

func makeSynthetic(n int) synthetic {
	s := synthetic{sizes: map[int64]int64{}}
	var end int64 = -1
	for i := range n {
		x := IO{Op: Read, Size: []int64{4096, 8192, 65536}[(i/3)%3], Offset: int64(i*7919%100000) * 4096}
		if i%3 == 0 {
			x.Op, s.writes = Write, s.writes+1
		} else {
			s.reads++
		}
		if i%4 != 0 && end >= 0 {
			x.Offset = end
		}
		if x.Offset == end {
			s.sequential++
		}
		end = x.End()
		s.bytes += x.Size
		s.sizes[x.Size]++
		s.ios = append(s.ios, x)
	}
	return s
}

// csvWriters write an I/O, the i-th, as a line of each CSV layout, the
// i-th I/O at i ms (MSR, Alibaba) or i s (Tencent).
var csvWriters = map[Format]func(i int, x IO, dev string) string{
	MSR: func(i int, x IO, dev string) string {
		op := map[Op]string{Read: "Read", Write: "Write"}[x.Op]
		return fmt.Sprintf("%d,%s,0,%s,%d,%d,%d\n", 128166372003061629+int64(i)*10000, dev, op, x.Offset, x.Size, 5000)
	},
	Alibaba: func(i int, x IO, dev string) string {
		op := map[Op]string{Read: "R", Write: "W"}[x.Op]
		return fmt.Sprintf("%s,%s,%d,%d,%d\n", dev, op, x.Offset, x.Size, 1577808000000000+int64(i)*1000)
	},
	Tencent: func(i int, x IO, dev string) string {
		return fmt.Sprintf("%d,%d,%d,%d,%s\n", 1538323200+i, x.Offset/512, x.Size/512, x.Op-1, dev)
	},
}

// TestStatCSVLayouts writes one workload in each CSV layout and checks
// that Characterize counts exactly what was written.
func TestStatCSVLayouts(t *testing.T) {
	w := makeSynthetic(3000)
	// MSR's duration runs to the last completion, 500 µs after its issue.
	durations := map[Format]int64{MSR: 2999e6 + 500e3, Alibaba: 2999e6, Tencent: 2999e9}
	for format, line := range csvWriters {
		t.Run(string(format), func(t *testing.T) {
			var b strings.Builder
			for i, x := range w.ios {
				b.WriteString(line(i, x, "7"))
			}
			f, err := NewReader("t.csv", strings.NewReader(b.String()))
			if err != nil {
				t.Fatal(err)
			}
			s, err := Characterize(f, "")
			if err != nil {
				t.Fatal(err)
			}
			if s.Format != format || s.IOs != 3000 || s.Reads != w.reads || s.Writes != w.writes || s.Bytes != w.bytes || s.DurationNS != durations[format] {
				t.Errorf("%s: %d I/Os, %d reads, %d writes, %d bytes over %d ns; want %s: 3000, %d, %d, %d over %d",
					s.Format, s.IOs, s.Reads, s.Writes, s.Bytes, s.DurationNS, format, w.reads, w.writes, w.bytes, durations[format])
			}
			if want := pct(w.sequential, 3000); s.SequentialPct != want {
				t.Errorf("sequential %.3f %%, want %.3f %%", s.SequentialPct, want)
			}
			for _, sc := range s.Sizes {
				if w.sizes[sc.Size] != sc.Count {
					t.Errorf("%d I/Os of %d bytes, want %d", sc.Count, sc.Size, w.sizes[sc.Size])
				}
			}
		})
	}
}

func TestStatDevice(t *testing.T) {
	text := "1,R,0,4096,10\n2,W,0,8192,20\n1,R,4096,4096,30\n2,W,8192,8192,45\n"
	f, err := NewReader("t", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Characterize(f, "2")
	if err != nil {
		t.Fatal(err)
	}
	if s.Devices != 2 || s.IOs != 2 || s.Writes != 2 || s.Bytes != 16384 || s.SequentialPct != 50 || s.DurationNS != 25000 {
		t.Errorf("%+v", s)
	}
	if s.Regions == nil || s.Regions.Start != 0 || s.Regions.End != 16384 {
		t.Errorf("regions %+v", s.Regions)
	}
}

// TestStatQueueDepth reads an MSR trace whose I/Os overlap by design:
// three issued 1 µs apart taking 10 µs each, then one after they are done.
func TestStatQueueDepth(t *testing.T) {
	text := "100,h,0,Read,0,4096,100\n110,h,0,Read,4096,4096,100\n120,h,0,Write,0,4096,100\n400,h,0,Read,0,4096,100\n"
	f, err := NewReader("t", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Characterize(f, "")
	if err != nil {
		t.Fatal(err)
	}
	if s.QueueDepth == nil || s.QueueDepth.Max != 3 || s.QueueDepth.P50 != 1 || s.QueueDepth.Mean != 7.0/4 {
		t.Errorf("queue depth %+v, want max 3, p50 1, mean 1.75", s.QueueDepth)
	}
	if s.DurationNS != 40000 {
		t.Errorf("duration %d ns, want 40000 (the last completion)", s.DurationNS)
	}
	f, _ = Open(filepath.Join("testdata", "v3.iolog"))
	s, _ = Characterize(f, "")
	if s.QueueDepth != nil || !strings.Contains(s.QueueDepthNote, "no completions (fio-iolog-v3)") {
		t.Errorf("iolog queue depth %+v, note %q", s.QueueDepth, s.QueueDepthNote)
	}
}

// TestStatRegions checks the hot regions of a trace that puts 80 % of
// its I/Os on the first 10 % of its span.
func TestStatRegions(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		slot := int64(i%100) * 10 // 0..990: uniform over 1000 slots
		if i%10 < 8 {
			slot = int64(i % 100) // the first 100 of 1000 slots
		}
		fmt.Fprintf(&b, "1,R,%d,4096,%d\n", slot*4096, i)
	}
	fmt.Fprintf(&b, "1,R,%d,4096,%d\n", 999*4096, 1000)
	f, _ := NewReader("t", strings.NewReader(b.String()))
	s, err := Characterize(f, "")
	if err != nil {
		t.Fatal(err)
	}
	r := s.Regions
	if r == nil || r.End != 1000*4096 || r.SliceSize != 40960 {
		t.Fatalf("regions %+v", r)
	}
	if r.Hottest10Pct < 80 || r.Hottest[0].Offset >= 100*4096 {
		t.Errorf("hottest 10 %% has %.1f %% of I/Os, hottest slice at %d", r.Hottest10Pct, r.Hottest[0].Offset)
	}
}

// iologStream generates an fio iolog v3 of n random 4 KiB reads and
// writes as it is read, never holding it.
type iologStream struct {
	n, i int
	buf  bytes.Buffer
	peak uint64 // the largest heap seen while reading
}

func (g *iologStream) Read(p []byte) (int, error) {
	for g.buf.Len() < len(p) && g.i < g.n {
		if g.i == 0 {
			g.buf.WriteString("fio version 3 iolog\n0 /dev/sdz add\n")
		}
		op := []string{"read", "write"}[g.i%2]
		fmt.Fprintf(&g.buf, "%d /dev/sdz %s %d 4096\n", g.i*10, op, int64(g.i*2654435761%(1<<30))*4096)
		if g.i%50000 == 0 {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			g.peak = max(g.peak, m.HeapAlloc)
		}
		g.i++
	}
	if g.buf.Len() == 0 {
		return 0, io.EOF
	}
	return g.buf.Read(p)
}

// TestStatBoundedMemory characterizes a 3,000,000-I/O trace (about 110
// MB of text) generated as it is read: the heap stays under 48 MiB.
func TestStatBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a 110 MB generated trace")
	}
	const n = 3_000_000
	g := &iologStream{n: n}
	runtime.GC()
	f, err := NewReader("big", g)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Characterize(f, "")
	if err != nil {
		t.Fatal(err)
	}
	if s.IOs != n || s.Reads != n/2 || s.Bytes != n*4096 {
		t.Errorf("%d I/Os, %d reads, %d bytes", s.IOs, s.Reads, s.Bytes)
	}
	if g.peak > 48<<20 {
		t.Errorf("the heap reached %d MiB reading the trace", g.peak>>20)
	}
	t.Logf("heap peak %.1f MiB over %d I/Os", float64(g.peak)/(1<<20), n)
}

// TestStatManySizes: past 1,024 distinct sizes the distribution is
// rounded up to powers of two, and says so, with no I/O lost.
func TestStatManySizes(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "1,R,0,%d,%d\n", 512+i, i)
	}
	f, _ := NewReader("t", strings.NewReader(b.String()))
	s, err := Characterize(f, "")
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, sc := range s.Sizes {
		n += sc.Count
		if sc.Size&(sc.Size-1) != 0 {
			t.Errorf("size %d is not a power of two", sc.Size)
		}
	}
	want := []int64{512, 1, 1024, 512, 2048, 1024, 4096, 1463} // 512, 513..1024, 1025..2048, 2049..3511
	var got []int64
	for _, sc := range s.Sizes {
		got = append(got, sc.Size, sc.Count)
	}
	if !s.SizesRounded || n != 3000 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rounded %v, %d I/Os as size, count %v; want rounded, 3000 as %v", s.SizesRounded, n, got, want)
	}
}
