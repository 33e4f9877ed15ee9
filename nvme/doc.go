// Package nvme tells drivebench what a drive is, how healthy it is, and
// whether it is safe to write to.
//
// A benchmark result means little without the drive's identity (model,
// firmware, capacity, the LBA format in use) and its state before and after
// the run (wear, media errors, temperature, unsafe shutdowns). Preconditions
// also need to put a drive into a known state, which for NVMe means Format
// NVM or Sanitize. This package does all of that by talking to the Linux
// NVMe driver directly through NVME_IOCTL_ADMIN_CMD, so a test machine needs
// no nvme-cli and no cgo.
//
// The package keeps three concerns apart:
//
//   - Decoding. DecodeIDCtrl, DecodeIDNs, DecodeSmartLog, DecodeErrorLog,
//     DecodeFwSlotLog and DecodeSanitizeLog turn raw pages into Go values,
//     reading every field at its offset in the NVMe specification with
//     encoding/binary. They work on bytes alone, so a page saved in a results
//     folder can be decoded again later on any machine. JSON tags follow
//     nvme-cli's names where the two overlap; 128-bit counters are Uint128
//     values written to JSON as decimal strings, as nvme-cli does.
//
//   - Commands. Device opens a controller (/dev/nvme0) or namespace
//     (/dev/nvme0n1) and issues Identify, Get Log Page, Format NVM and
//     Sanitize. Each command is built by a pure function and only then handed
//     to the ioctl layer, so its encoding is tested without hardware.
//
//   - Health and purge. Snapshot reads a controller's identity and SMART
//     log through any of its device files (the namespace block device
//     will do), so a run can record the drive before and after; DiffSmart
//     says what the drive counted in between. Purge erases a namespace
//     with Sanitize or Format NVM, after checking that the controller
//     supports the method and that nothing it erases is in use (package
//     blockdev says what "in use" is, for any block device). IsNVMe tells
//     from sysfs alone whether a path is NVMe.
//
// Device, Snapshot, Purge and IsNVMe are Linux-only; the decoders and
// DiffSmart build everywhere.
package nvme
