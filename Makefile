# SPDX-License-Identifier: GPL-2.0
#
# fsload: build the module (module/fsload.ko) and the control tool
# (ctl/fsloadctl); run the demo and the tests in a QEMU guest.
#
#   make                 build both, against KDIR
#   make demo            smallfiles on ext4 on a ramdisk, in a VM
#   make check           lint + the test suite, in VMs
#   make lint            checkpatch --strict, sparse (C=2), W=1

# The kernel to build against: the running one when its build tree is
# there, else the newest installed Debian headers.
KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
	$(lastword $(sort $(wildcard /usr/src/linux-headers-*-amd64))))
ifeq ($(KDIR),)
$(error no kernel headers found: install linux-headers-amd64 or set KDIR)
endif

# Kernel the VM harness boots; matches KDIR by default.
KRELEASE ?= $(patsubst linux-headers-%,%,$(notdir $(realpath $(KDIR))))
export KDIR KRELEASE

.PHONY: all module ctl tests demo check lint deps clean

all: module ctl

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

ctl:
	$(MAKE) -C ctl

tests: ctl
	$(MAKE) -C tests

deps:
	scripts/deps.sh

demo: deps
	$(MAKE) all
	scripts/vm-run --fs ext4 --dev ram -- fsloadctl start --profile smallfiles --dir '$$FSLOAD_DIR'

lint: deps module
	scripts/lint.sh

check: deps
	$(MAKE) all tests
	scripts/lint.sh
	tests/run-all.sh

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C ctl clean
	$(MAKE) -C tests clean
