// Package faultfs serves a file through FUSE that fails on purpose, so
// drivebench's handling of a dying drive is tested against real system
// calls that really return EIO or come back short, not against a mock.
// This machine's kernel has no device-mapper error or flakey targets, but
// it has FUSE; faultfs plays their part.
//
// The served file is backed by an ordinary file. Reads and writes pass
// through to it, except those that touch a fault's offset: they fail with
// EIO, or transfer fewer bytes than asked. The file is opened with
// FOPEN_DIRECT_IO so every read and write reaches faultfs, bypassing the
// page cache.
package faultfs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// FileName is the name of the served file inside the mount point.
const FileName = "disk.img"

// Kind is what a fault does to an I/O.
type Kind int

// The kinds of fault.
const (
	// EIO fails the I/O with an input/output error.
	EIO Kind = iota
	// Short transfers only the bytes before the fault's offset.
	Short
)

// Op selects the I/Os a fault applies to.
type Op int

// The operations a fault can apply to.
const (
	Read Op = 1 << iota
	Write
)

// Fault makes every I/O of Op that covers Offset fail as Kind says.
type Fault struct {
	Op     Op
	Offset int64
	Kind   Kind
}

// Mount is a mounted fault-injecting file system.
type Mount struct {
	dir    string
	server *fuse.Server
	file   *faultyFile
}

// New mounts a file system at dir (which must exist) serving backing as
// dir/disk.img with the given faults. It needs permission to mount FUSE
// file systems (root, or fusermount).
func New(dir, backing string, faults []Fault) (*Mount, error) {
	f, err := os.OpenFile(backing, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	file := &faultyFile{backing: f, faults: faults}
	root := &rootDir{file: file}
	server, err := fs.Mount(dir, root, &fs.Options{MountOptions: fuse.MountOptions{
		DirectMount: true,
		FsName:      "faultfs",
		Name:        "faultfs",
	}})
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("mount faultfs at %s: %w", dir, err)
	}
	return &Mount{dir: dir, server: server, file: file}, nil
}

// Path is the served file.
func (m *Mount) Path() string { return filepath.Join(m.dir, FileName) }

// Injected counts the I/Os that faults have failed so far.
func (m *Mount) Injected() int64 { return m.file.injected.Load() }

// Close unmounts the file system and closes the backing file.
func (m *Mount) Close() error {
	err := m.server.Unmount()
	m.file.backing.Close()
	return err
}

type rootDir struct {
	fs.Inode
	file *faultyFile
}

var _ fs.NodeOnAdder = (*rootDir)(nil)

func (r *rootDir) OnAdd(ctx context.Context) {
	child := r.NewPersistentInode(ctx, r.file, fs.StableAttr{Mode: syscall.S_IFREG, Ino: 2})
	r.AddChild(FileName, child, false)
}

// faultyFile passes I/O through to its backing file, failing the I/Os its
// faults select.
type faultyFile struct {
	fs.Inode
	backing  *os.File
	faults   []Fault
	injected atomic.Int64
}

var (
	_ fs.NodeOpener    = (*faultyFile)(nil)
	_ fs.NodeGetattrer = (*faultyFile)(nil)
	_ fs.NodeSetattrer = (*faultyFile)(nil)
	_ fs.NodeReader    = (*faultyFile)(nil)
	_ fs.NodeWriter    = (*faultyFile)(nil)
	_ fs.NodeFsyncer   = (*faultyFile)(nil)
)

func (f *faultyFile) Open(context.Context, uint32) (fs.FileHandle, uint32, syscall.Errno) {
	return nil, fuse.FOPEN_DIRECT_IO, 0
}

func (f *faultyFile) Getattr(_ context.Context, _ fs.FileHandle, out *fuse.AttrOut) syscall.Errno {
	info, err := f.backing.Stat()
	if err != nil {
		return fs.ToErrno(err)
	}
	out.Mode = syscall.S_IFREG | 0o644
	out.Size = uint64(info.Size())
	out.Blksize = 4096
	out.Blocks = (out.Size + 511) / 512
	return 0
}

// Setattr accepts the attribute changes an open for writing may ask for
// but never changes the size: the served file is a fixed-size disk.
func (f *faultyFile) Setattr(ctx context.Context, fh fs.FileHandle, _ *fuse.SetAttrIn, out *fuse.AttrOut) syscall.Errno {
	return f.Getattr(ctx, fh, out)
}

func (f *faultyFile) Read(_ context.Context, _ fs.FileHandle, dest []byte, off int64) (fuse.ReadResult, syscall.Errno) {
	n, errno := f.fault(Read, off, len(dest))
	if errno != 0 {
		return nil, errno
	}
	got, err := f.backing.ReadAt(dest[:n], off)
	if err != nil && got == 0 && n > 0 {
		return fuse.ReadResultData(nil), 0 // end of file
	}
	return fuse.ReadResultData(dest[:got]), 0
}

func (f *faultyFile) Write(_ context.Context, _ fs.FileHandle, data []byte, off int64) (uint32, syscall.Errno) {
	n, errno := f.fault(Write, off, len(data))
	if errno != 0 {
		return 0, errno
	}
	got, err := f.backing.WriteAt(data[:n], off)
	if err != nil {
		return uint32(got), fs.ToErrno(err)
	}
	return uint32(got), 0
}

func (f *faultyFile) Fsync(context.Context, fs.FileHandle, uint32) syscall.Errno {
	return fs.ToErrno(f.backing.Sync())
}

// fault decides what happens to an I/O of length n at off: how many bytes
// to transfer, or an errno.
func (f *faultyFile) fault(op Op, off int64, n int) (int, syscall.Errno) {
	for _, flt := range f.faults {
		if flt.Op&op == 0 || flt.Offset < off || flt.Offset >= off+int64(n) {
			continue
		}
		f.injected.Add(1)
		if flt.Kind == Short {
			return int(flt.Offset - off), 0
		}
		return 0, syscall.EIO
	}
	return n, 0
}
