// Package blockdev knows Linux block devices whatever their protocol
// (NVMe, SATA, SAS, loop, device-mapper): their facts and whether
// drivebench may write to them. It is apart from package nvme because the
// guard that keeps a benchmark off someone's data must cover every device
// a plan can name, not only NVMe ones, and every image file, which is a
// disk once a loop device is attached to it.
//
//   - BlockInfo reads size, logical and physical block sizes, rotational
//     flag, scheduler and model from ioctls and sysfs, and for a loop
//     device the file it is attached to (LOOP_GET_STATUS64).
//   - FileDirectAlignment says what O_DIRECT needs on a file: the
//     alignment of the device under its file system, not the file
//     system's block size. Validate and run both ask it, so they agree.
//   - CheckWritable refuses a device that is mounted (or has a mounted
//     partition), used as swap, held by device-mapper or md, partitioned,
//     or that carries a partition table or filesystem signature
//     (DetectSignature); an UnsafeError says which, and whether the device
//     is in use or merely holds data. CheckNotInUse is the in-use half,
//     for an erase that destroys the data anyway. Claim opens a device
//     exclusively, so that nothing mounts or claims it while a run
//     writes it.
//   - CheckFileWritable does the same for an image file: it refuses one
//     attached to a loop device (matched by device and inode), in use
//     when the loop device is, and one that carries a signature.
//   - System, Node and their methods read the sysfs topology (disks,
//     partitions, holders), so package nvme can add controllers and
//     namespaces on top, and tests can point them at a crafted tree
//     (blockdevtest).
//
// Everything but DetectSignature is Linux-only.
package blockdev
