package trace

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCSVFixtures(t *testing.T) {
	tests := []struct {
		file   string
		format Format
		want   []IO
	}{
		{"usr_0.csv", MSR, []IO{
			{At: 0, Op: Read, Offset: 7014609920, Size: 24576, Device: "usr_0", Latency: 4128600 * time.Nanosecond},
			{At: 1332052600 * time.Nanosecond, Op: Write, Offset: 1317441536, Size: 8192, Device: "usr_0", Latency: 196300 * time.Nanosecond},
			{At: 2332061600 * time.Nanosecond, Op: Write, Offset: 2436440064, Size: 4096, Device: "usr_1", Latency: 183500 * time.Nanosecond},
		}},
		{"alibaba.csv", Alibaba, []IO{
			{At: 0, Op: Write, Offset: 8792666112, Size: 4096, Device: "419"},
			{At: 300 * time.Microsecond, Op: Read, Offset: 8792670208, Size: 16384, Device: "419"},
			{At: 1000 * time.Microsecond, Op: Write, Offset: 0, Size: 65536, Device: "27"},
		}},
		{"tencent.csv", Tencent, []IO{
			{At: 0, Op: Write, Offset: 1099176 * 512, Size: 8 * 512, Device: "1063"},
			{At: 0, Op: Read, Offset: 29028280 * 512, Size: 16 * 512, Device: "1063"},
			{At: 2 * time.Second, Op: Write, Offset: 1099184 * 512, Size: 128 * 512, Device: "2141"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := Open(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if f.Format() != tt.format {
				t.Errorf("format %s, want %s", f.Format(), tt.format)
			}
			got := readAll(t, f)
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("I/Os\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func TestCSVErrors(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"msr type", "128166372003061629,usr,0,Trim,0,4096,10\n", "t:1: Type \"Trim\" is neither Read (read) nor Write (write)"},
		{"msr columns", "128166372003061629,usr,0,Read,0,4096,10\n128166372003061629,usr,0,Read,0\n", "t:2: 5 columns where a msr-cambridge line has 7 (Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime)"},
		{"alibaba opcode", "device_id,opcode,offset,length,timestamp\n1,X,0,4096,5\n", "t:2: opcode \"X\" is neither R (read) nor W (write)"},
		{"alibaba length", "1,R,0,-4096,5\n", "t:1: length (bytes) \"-4096\" is not a whole number"},
		{"tencent type", "1538323199,0,8,1,1\n1538323199,0,8,2,1\n", "t:2: IOType \"2\" is neither 0 (read) nor 1 (write)"},
		{"tencent time range", "99999999999999999,0,8,1,1\n", "t:1: Timestamp (seconds) \"99999999999999999\" is not a whole number from 0 to 9223372036"},
		{"tencent order", "1538323199,0,8,1,1\n1538323198,0,8,1,1\n", "t:2: this I/O comes at -1s, before the one above it (0s)"},
		{"header", "Time,Where,What\n", "t: not a trace format drivebench reads: its first line is \"Time,Where,What\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := readErr(strings.NewReader(tt.text))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error %v, want it to start %q", err, tt.want)
			}
		})
	}
}

func FuzzCSV(f *testing.F) {
	addFixtures(f, "*.csv")
	f.Add([]byte("Timestamp,Offset,Size,IOType,VolumeID\n1,2,3,0,4\n"))
	f.Fuzz(fuzzTrace)
}
