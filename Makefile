# SPDX-License-Identifier: GPL-2.0
#
# fsload: build the module (module/fsload.ko) and the control tool
# (ctl/fsloadctl); run the demo and the tests in a QEMU guest.
#
#   make                 build both, against KDIR
#   make demo            smallfiles on ext4 on a ramdisk, in a VM
#   make check           lint + the test suite, in VMs
#   make lint            checkpatch --strict, sparse (C=2), W=1
#   make kernels         the trixie root with Debian's 6.12 and 7.x kernels
#   make check-all       lint + the test suite on 6.1, 6.12 and 7.x
#   make check-debug     the suite on a debug kernel (KASAN, lockdep, ...)
#   make check-multi     mpirun fsloadctl-mpi across two guests joined over
#                        the loopback, one exporting NFS (tests/multi.sh)
#   make check-bisect    scripts/bisect on a 6.1 tree: injected regressions,
#                        a decoy, a range without one, a typo (icount)
#   make compare-kernels one workload on KERNELS, each against the first:
#                        noise bands, verdicts, changed functions, differential
#                        flame graphs (scripts/compare-kernels; COMPARE_ARGS)
#   make check-compare-kernels  scripts/compare-kernels 6.1 6.12 end to end
#   make bench           per-op cost, kernel vs user engine, instruction clock
#   make fidelity        fs_mark beside fsload's fsmark profile, both engines,
#                        ext4 and xfs, instruction clock (FIDELITY_ARGS)
#   make matrix          a profile over filesystems x mkfs x mount options,
#                        one table (MATRIX_ARGS: scripts/matrix.py vm ...)
#   make install         module (updates/), fsloadctl, man page, completion,
#                        uapi header; DESTDIR, PREFIX (/usr/local)
#   make uninstall       remove exactly what install wrote
#   make dkms-src        the module's sources to DESTDIR/usr/src/fsload-VERSION
#   make check-dkms      dkms add/build/install against every kernel here
#   make deps            install what every target needs (scripts/deps.sh all)
#   make gen             regenerate the protocol's files from its spec
#                        (uapi header, module policies, ctl attribute tables)

# Every documented target runs `scripts/deps.sh TARGET` first (deps-TARGET
# below), before anything looks for a kernel header, a compiler or QEMU:
# nothing may need them while make reads this file.
DEPS = scripts/deps.sh

# The kernel to build against: the running one when its build tree is
# there, else the newest installed Debian headers.  Looked up each time
# it is used ($(shell), not $(wildcard), whose directory cache would not
# see headers that scripts/deps.sh has just installed), and checked only
# by the recipes that build against it.
KDIR ?= $(shell d=/lib/modules/$$(uname -r)/build; [ -d "$$d" ] || \
	d=$$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1); \
	echo "$$d")
NEED_KDIR = @[ -n "$(KDIR)" ] || { echo "no kernel headers found: run \`sudo $(DEPS) build\` (or set KDIR)" >&2; exit 1; }

# KERNEL=6.1|6.12|7.x|RELEASE (module, lint, check, clean): build and test
# against that Debian kernel instead, the newest installed match, from the
# host or from the root that scripts/kernels.sh makes (6.12 and 7.x need
# gcc-14: kbuild runs chrooted there, the repository bind-mounted).
KROOT := /
ifneq ($(KERNEL),)
KRESOLVED := $(shell scripts/kernels.sh resolve '$(KERNEL)' 2>/dev/null)
ifneq ($(KRESOLVED),)
KRELEASE := $(word 1,$(KRESOLVED))
KROOT := $(word 2,$(KRESOLVED))
KDIR := /usr/src/linux-headers-$(KRELEASE)
else
KMISSING = $(error $(shell scripts/kernels.sh resolve '$(KERNEL)' 2>&1))
endif
endif
KMAKE := $(if $(filter-out /,$(KROOT)),scripts/kernels.sh run -- make,$(MAKE))

# Kernel the VM harness boots; matches KDIR by default.
KRELEASE ?= $(patsubst linux-headers-%,%,$(notdir $(realpath $(KDIR))))
export KDIR KRELEASE KERNEL

.PHONY: all module ctl ctl-mpi tests demo check lint deps clean

all: module ctl

module:
	$(KMISSING)
	$(NEED_KDIR)
	$(KMAKE) -C $(KDIR) M=$(CURDIR) modules

ctl:
	$(MAKE) -C ctl

# fsloadctl-mpi: multi-client runs over MPI (scripts/deps.sh's mpi group)
ctl-mpi:
	$(MAKE) -C ctl mpi

tests: ctl
	$(MAKE) -C tests

# Everything every target needs (scripts/deps.sh all); each target below
# installs only its own part first, through its deps-TARGET (a target of
# its own, so that its recipe, and the environment make gives it, comes
# after the packages are there).  KERNEL=... adds the root's tools.
DEPS_GOALS := demo lint check check-all kernels check-debug check-bisect \
	bench matrix install check-dkms gen fidelity check-multi \
	compare-kernels check-compare-kernels
.PHONY: $(DEPS_GOALS:%=deps-%)
deps:
	$(DEPS) all

$(DEPS_GOALS:%=deps-%): deps-%:
	$(DEPS) $* $(if $(KERNEL),kernels)

demo: deps-demo
	$(MAKE) all
	scripts/vm-run --fs ext4 --dev ram -- fsloadctl start --profile smallfiles --dir '$$FSLOAD_DIR'

lint: deps-lint
	$(MAKE) module
	scripts/lint.sh

check: deps-check
	$(if $(KERNEL),scripts/kernels.sh setup $(KERNEL))
	$(MAKE) all tests ctl-mpi
	scripts/lint.sh
	FSLOAD_SPEC_STRICT=1 tests/run-all.sh

# Multi-client runs over MPI on two machines (issue 17): two guests joined
# by a QEMU socket network over the host's loopback, one exporting its
# scratch filesystem over NFSv4, mpirun's ranks in both (tests/multi.sh).
# Not in make check: its time.
.PHONY: check-multi
check-multi: deps-check-multi
	$(MAKE) all tests ctl-mpi
	$(MAKE) -C tests check-multi

# Each supported kernel in turn: build, lint, suite (scripts/check-all.sh).
KERNELS ?= 6.1 6.12 7.x
.PHONY: check-all kernels
check-all: deps-check-all
	scripts/check-all.sh $(KERNELS)

kernels: deps-kernels
	scripts/kernels.sh setup $(or $(KERNEL),$(KERNELS))

# One workload on each of KERNELS (series installed by scripts/kernels.sh,
# or bzImage paths), compared with the first: under the instruction clock,
# --boots 3 each, one host-made filesystem image for all, CPU profiles
# (scripts/compare-kernels). E.g. make compare-kernels KERNELS="6.1 6.12"
# COMPARE_ARGS="--boots 5 -- --profile smallfiles --files 2000".
# check-compare-kernels: its KTAP test (tests/compare-kernels.sh), not in
# make check (~3 minutes, 5 guests).
COMPARE_ARGS ?= -- --profile metadata --items 2000
.PHONY: compare-kernels check-compare-kernels
compare-kernels: deps-compare-kernels
	scripts/kernels.sh setup $(foreach k,$(KERNELS),$(if $(findstring /,$(k)),,$(k)))
	$(MAKE) ctl
	scripts/compare-kernels $(KERNELS) $(COMPARE_ARGS)

check-compare-kernels: deps-check-compare-kernels
	scripts/kernels.sh setup 6.1 6.12
	$(MAKE) ctl
	tests/compare-kernels.sh 6.1 6.12

# The protocol is written once, in Documentation/netlink/specs/fsload.yaml:
# scripts/nl-gen.py makes the uapi header, the module's request policies
# and fsloadctl's attribute tables of it, with the kernel's ynl-gen-c (from
# Debian 12's linux-source-6.12, bookworm-security, which deps-gen
# installs; make check's tests/spec.py regenerates them and fails on any
# difference).
.PHONY: gen
gen: deps-gen
	scripts/nl-gen.py

# The suite on a debug kernel (KASAN, lockdep, kmemleak, UBSAN), built
# once per machine by scripts/debug-kernel.sh.
.PHONY: check-debug
check-debug: deps-check-debug
	scripts/check-debug.sh

# scripts/bisect end to end (scripts/check-bisect.sh): a git tree of
# Debian's linux-source-6.1 (cached in ~/.cache/fsload/bisect) with
# branches of injected regressions (ext4, the system-call path, 0.3 % next
# to a decoy), one without, and a typo'd phase; KTAP, one test each.
.PHONY: check-bisect
check-bisect: deps-check-bisect
	$(MAKE) ctl
	scripts/check-bisect.sh $(BISECT_ARGS)

# Figures, not tests: the standard profiles on ext4 and xfs under QEMU's
# instruction clock, kernel and user engines side by side (scripts/bench.sh).
.PHONY: bench
bench: deps-bench
	$(MAKE) all
	scripts/bench.sh $(BENCH_ARGS)

# fs_mark beside fsload's fsmark profile, both engines, in one guest per
# filesystem under the instruction clock (scripts/fidelity.sh).
.PHONY: fidelity
fidelity: deps-fidelity
	$(MAKE) all
	scripts/fidelity.sh $(FIDELITY_ARGS)

# The option matrix (scripts/matrix.py): one profile over filesystems,
# mkfs and mount options, each cell on a fresh filesystem in one guest;
# one table with fsck times.  Default: the classic block device vs ext2
# vs ext3 (vs ext4, xfs, btrfs) on largefile.
MATRIX_ARGS ?= --preset classic -- --files 2 --size 64M
.PHONY: matrix
matrix: deps-matrix
	$(MAKE) all
	scripts/matrix.py vm $(MATRIX_ARGS)

clean:
	$(KMISSING)
	$(NEED_KDIR)
	$(KMAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C ctl clean
	$(MAKE) -C tests clean

# Installing: scripts/install.sh, with the usual DESTDIR and PREFIX.
PREFIX ?= /usr/local
export DESTDIR PREFIX

.PHONY: install uninstall dkms-src check-dkms

install: deps-install
	$(MAKE) all
	scripts/install.sh install

uninstall:
	scripts/install.sh uninstall

dkms-src:
	scripts/install.sh dkms-src

check-dkms: deps-check-dkms
	tests/dkms.sh
