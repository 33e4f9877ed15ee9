#!/usr/bin/env bash
# The project's test command (README, CI). It installs what the slower tiers
# need when it is absent, then runs, in order:
#   1. formatting and vet
#   2. go test ./...            unit, fixture, golden and in-process CLI tests, and the
#                               end-to-end tiers: fio, FUSE faults, loop devices, headless
#                               Chromium, QEMU with an emulated NVMe drive (root only),
#                               the catalog on a PostgreSQL server started here
#   3. short fuzzing runs       each parser's fuzz target for FUZZTIME (default 10s)
# The suite proves what it ran: with DRIVEBENCH_REQUIRE=all (the default
# here) a test that cannot run, for want of root, a tool or a server,
# fails instead of skipping (internal/testenv), and go test -json goes
# through internal/testenv/testreport, which lists every skipped test
# with its reason and fails on one that testdata/skip-allowlist.txt (a
# real NVMe drive) does not name. CI runs this as root, which installs
# every tool. DRIVEBENCH_REQUIRE=none ./test.sh lets tests skip, for a
# machine without root, and only lists the skips.
set -euo pipefail
cd "$(dirname "$0")"

FUZZTIME=${FUZZTIME:-10s}
export DRIVEBENCH_REQUIRE=${DRIVEBENCH_REQUIRE:-all}

need_pkg() { # need_pkg COMMAND PACKAGE: install PACKAGE with apt-get when COMMAND is absent
  command -v "$1" >/dev/null 2>&1 || install_pkg "$1" "$2"
}

install_pkg() { # install_pkg WHAT PACKAGE: install PACKAGE, which provides WHAT, with apt-get
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing $2"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$2" >/dev/null ||
      { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$2" >/dev/null; }
  else
    echo "== $1 is missing and cannot be installed here (not root or no apt-get); tests that need it will fail, or skip under DRIVEBENCH_REQUIRE=none"
  fi
}

need_pkg losetup mount            # loop-device safety tests
need_pkg mkfs.ext4 e2fsprogs      # filesystem signatures on loop devices
need_pkg mkfs.xfs xfsprogs        # XFS, btrfs and FAT signatures, checked against blkid
need_pkg mkfs.btrfs btrfs-progs
need_pkg mkfs.vfat dosfstools
need_pkg sfdisk fdisk             # partition tables on loop devices
need_pkg ip iproute2              # fio servers each in a network namespace
need_pkg groff groff-base         # the man page is read by groff
need_pkg tmux tmux                # the quickstart is run and read in a tmux pane
need_pkg pvcreate lvm2            # LVM physical volumes the guard refuses
need_pkg fio fio                  # the fio engine, importer and equivalence tests
need_pkg blkparse blktrace        # the trace reader reads what the real blkparse -d dumps
need_pkg chromium chromium        # the HTML report is loaded in a real browser
need_pkg qemu-system-x86_64 qemu-system-x86   # the emulated NVMe drive
need_pkg busybox busybox-static   # the QEMU guest's userland
need_pkg nvme nvme-cli            # nvme-cli's view of the emulated drive, to compare with ours
need_pkg zsh zsh                  # the zsh completion script is checked by zsh
need_pkg fish fish                # and the fish one by fish
need_pkg cpio cpio                # cross-checks the initramfs archive writer
need_pkg sysbench sysbench        # the application-workload examples
need_pkg pg_lsclusters postgresql # PostgreSQL with its data on the drive under test

# The QEMU tier and promtool below download Debian packages with apt-get
# download, which needs the package lists.
if [ "$(id -u)" = 0 ] && ! apt-cache show linux-image-cloud-amd64 prometheus >/dev/null 2>&1; then
  apt-get update >/dev/null
fi

# The catalog's metrics export is read by prometheus_client's OpenMetrics
# parser, the reference reader; apt installs it for /usr/bin/python3.
/usr/bin/python3 -c 'import prometheus_client' >/dev/null 2>&1 ||
  install_pkg "python3's prometheus_client" python3-prometheus-client
# ... and its Prometheus text by promtool, which comes in the prometheus
# package; installing that would start a Prometheus server, so promtool is
# taken out of the downloaded package instead.
if ! command -v promtool >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  promdir=$PWD/.artifacts/promtool
  if [ ! -x "$promdir/usr/bin/promtool" ]; then
    echo "== extracting promtool from the prometheus package"
    mkdir -p "$promdir"
    (cd "$promdir" && apt-get download prometheus >/dev/null 2>&1 && dpkg-deb -x prometheus_*.deb . && rm -f prometheus_*.deb) ||
      echo "== promtool cannot be downloaded here; the export's Prometheus text is not linted"
  fi
  [ -x "$promdir/usr/bin/promtool" ] && export PATH="$promdir/usr/bin:$PATH"
fi

export DRIVEBENCH_E2E_QEMU=${DRIVEBENCH_E2E_QEMU:-1}
# go install ...@VERSION of this commit from a module proxy on disk.
export DRIVEBENCH_INSTALL_TEST=${DRIVEBENCH_INSTALL_TEST:-1}

# Screenshots and other artefacts the tests keep.
export DRIVEBENCH_ARTIFACTS=${DRIVEBENCH_ARTIFACTS:-$PWD/.artifacts}
mkdir -p "$DRIVEBENCH_ARTIFACTS"

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

echo "== go vet"
go vet ./...

# The catalog's tests run against a real PostgreSQL server as well as
# SQLite: a throwaway one, stopped when this script ends. One that is
# installed but does not start fails the suite.
source scripts/postgres-server.sh
if [ -z "${DRIVEBENCH_TEST_POSTGRES:-}" ]; then
  trap postgres_stop EXIT
  postgres_start || { echo "== the catalog's PostgreSQL server did not start: the suite fails"; exit 1; }
fi

echo "== go test (DRIVEBENCH_REQUIRE=$DRIVEBENCH_REQUIRE)"
go build -o "$DRIVEBENCH_ARTIFACTS/testreport" ./internal/testenv/testreport
allow=(-allow testdata/skip-allowlist.txt)
[ "$DRIVEBENCH_REQUIRE" = all ] || allow=()
go test -count=1 -json ./... | "$DRIVEBENCH_ARTIFACTS/testreport" "${allow[@]}"

echo "== fuzz ($FUZZTIME each)"
# Each package's fuzz targets run briefly; a crasher fails the run and is
# kept under the package's testdata/fuzz as a regression case.
fuzz_targets() { # fuzz_targets DIR: the Fuzz functions of a package's tests
  cat "$1"/*_test.go 2>/dev/null | sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' || true
}
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for target in $(fuzz_targets "$dir"); do
    echo "-- $pkg $target"
    if ! out=$(go test -run='^$' -fuzz="^${target}\$" -fuzztime="$FUZZTIME" -fuzzminimizetime=5s "$pkg" 2>&1); then
      # Go 1.26's fuzz coordinator can end a run at its -fuzztime deadline
      # with a bare "context deadline exceeded" and no failing input
      # (go.dev/issue/75804): that is the toolchain's race, not a crasher.
      if ! grep -q 'Failing input written' <<<"$out" && [ "$(grep -c '^    context deadline exceeded$' <<<"$out")" = 1 ] &&
        ! grep -q -e '^--- FAIL: .*/' -e 'panic:' <<<"$out"; then
        echo "   (the fuzz coordinator's deadline race, go.dev/issue/75804; no failing input)"
        continue
      fi
      echo "$out"; exit 1
    fi
  done
done

echo "== all tests passed"
