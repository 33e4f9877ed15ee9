package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/drivebench/drivebench/results"
)

// TestPageCacheShare: a file just written through the page cache is held
// by it; once its clean pages are dropped, it is not.
func TestPageCacheShare(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cached.dat")
	if err := os.WriteFile(path, make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	pct, ok := pageCacheShare(path, 0, 4<<20)
	if !ok {
		testenv.Require(t, "cachestat", "this kernel cannot tell what the page cache holds (cachestat needs Linux 6.5)")
	}
	if pct < 50 {
		t.Errorf("%.1f %% cached right after writing the file", pct)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var fs unix.Statfs_t
	if unix.Statfs(path, &fs) == nil && fs.Type == unix.TMPFS_MAGIC {
		return // tmpfs pages are the file itself: there is nothing to drop
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		t.Fatal(err)
	}
	if pct, _ := pageCacheShare(path, 0, 4<<20); pct > 10 {
		t.Errorf("%.1f %% cached after dropping the file's pages", pct)
	}
}

func TestCacheWarnings(t *testing.T) {
	tests := []struct {
		before, after float64
		random        bool
		want          string
	}{
		{0, 0, true, ""},
		{0, 100, false, ""}, // a sequential pass leaves what it read behind
		{5, 9, true, ""},
		{100, 100, false, "The page cache held all of the region this step reads before it started"},
		{0, 42, true, "The page cache held 42 % of the region this step reads by its end"},
	}
	for _, tt := range tests {
		got := cacheWarnings(tt.before, tt.after, tt.random)
		switch {
		case tt.want == "" && len(got) != 0:
			t.Errorf("%+v: %+v", tt, got)
		case tt.want != "" && (len(got) != 1 || got[0].Kind != results.WarnPageCache || !strings.HasPrefix(got[0].Message, tt.want)):
			t.Errorf("%+v: %+v", tt, got)
		}
	}
}

// TestBufferedReadOfCachedDataIsMarked: a buffered read of what a
// buffered write just left in the page cache records the share cached
// and says its figures are memory's; an O_DIRECT read says nothing of it.
func TestBufferedReadOfCachedDataIsMarked(t *testing.T) {
	if _, ok := pageCacheShare("testdata/cached.hcl", 0, 1); !ok {
		testenv.Require(t, "cachestat", "this kernel cannot tell what the page cache holds (cachestat needs Linux 6.5)")
	}
	p, g := load(t, "testdata/cached.hcl", nil)
	out, err := Run(context.Background(), p, g, Options{Dir: filepath.Join(t.TempDir(), "out")})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, rec := range out.Records {
		marked := false
		for _, w := range rec.Warnings {
			marked = marked || w.Kind == results.WarnPageCache
		}
		switch {
		case strings.HasSuffix(rec.Name, "buffered-read"):
			seen++
			if rec.Host == nil || rec.Host.CachedPct == nil || *rec.Host.CachedPct < 50 || !marked {
				t.Errorf("%s: host %+v, warnings %+v", rec.Name, rec.Host, rec.Warnings)
			}
		case strings.HasSuffix(rec.Name, "direct-read"):
			seen++
			if rec.Host != nil && rec.Host.CachedPct != nil || marked {
				t.Errorf("%s: an O_DIRECT read has a page cache figure: %+v %+v", rec.Name, rec.Host, rec.Warnings)
			}
		}
	}
	if seen != 2 {
		t.Errorf("%d of the two read steps ran", seen)
	}
}
