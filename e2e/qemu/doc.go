// Package qemu is drivebench's end-to-end tier against a real NVMe
// controller: QEMU's emulated one, under TCG, so it runs on any x86-64
// Linux machine, KVM or not.
//
// Decoding tests compare drivebench with nvme-cli on saved pages; this
// tier checks the live paths that only a controller can answer: the admin
// ioctls on the namespace block device, Format NVM and the kernel's
// rescan after it, the support checks before a sanitize, and a plan run
// on /dev/nvme0n1 with SMART counters read before and after.
//
// TestQEMUNVMe builds a static drivebench, packs it with busybox, nvme-cli
// (and its shared libraries), a guest /init and the plans in testdata/
// into an initramfs, and boots a Debian cloud kernel (downloaded with
// apt-get download once, then cached) with -device nvme on a 256 MiB
// image. The guest runs nvme-cli and drivebench on the same controller
// and sends each command's exit status and output over a second serial
// port, between markers (see parseSteps); the test then compares the two
// tools field by field and checks the purge, the plan run and the growth
// of the SMART write counters. Last, the guest runs SNIA's PTS example
// (examples/snia-pts-enterprise, packed from examples/ with the spec
// sheets it includes) scaled down by its smoke.vars.hcl, and the test
// reads back what its report publishes: the steady-state rounds judged by
// range and slope, window averages, the write saturation's bound, the
// purges and the write cache held off for the run.
//
// The tier is slow (a minute or two) and needs root and QEMU, so go test
// ./... skips it. Run it with
//
//	DRIVEBENCH_E2E_QEMU=1 go test ./e2e/qemu -run QEMU -v
//
// as root on Debian or Ubuntu with qemu-system-x86, busybox-static,
// nvme-cli and apt's package lists. The kernel is cached in
// $DRIVEBENCH_E2E_CACHE (default /var/cache/drivebench-e2e);
// $DRIVEBENCH_E2E_KERNEL names a kernel image to boot instead.
package qemu
