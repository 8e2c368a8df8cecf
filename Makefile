# SPDX-License-Identifier: GPL-2.0-only
#
# Top-level build of the software MRC for Linux.
#   make            kernel module (net/mrc/mrc.ko; the selftests' kernel
#                   verbs consumer tools/testing/kverbs) + userspace (build/bin/)
#   make check      every test suite, ending with "N passed, N failed"
#   make demo       the demo: VM, module, multi-plane fabric, failure
#   make install    modules_install + depmod (real machine), mrcctl, lib_mrc
#   make install-lib  lib_mrc.so, its headers and lib_mrc.pc only
#                   (PREFIX=/usr/local, DESTDIR for a staging tree)
#   make module-debug  mrc.ko for the sanitizer kernel (tools/vm/mkdebugkernel)
#   make soak       the chaos soak (test_80_chaos.sh) for 10 minutes

# Debian's packaged kernel headers, not the running kernel: this build
# machine's own kernel is not the target (see Documentation/admin-guide).
KDIR ?= $(firstword $(wildcard /lib/modules/*-amd64/build))
KVER ?= $(notdir $(patsubst %/build,%,$(KDIR)))
BUILD ?= build
JOBS ?= $(shell nproc)
PREFIX ?= /usr/local

.PHONY: all deps module module-debug userspace check demo soak install install-lib clean bench bench-verbs

all: module userspace

module:
	@test -n "$(KDIR)" || { echo "no kernel headers: run tools/deps.sh" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 KCFLAGS=-Werror modules
	$(MAKE) -C $(KDIR) M=$(CURDIR)/tools/testing/kverbs W=1 KCFLAGS=-Werror modules

# The same sources built against the sanitizer kernel (built once, cached)
# in a copy of the tree, so its objects never mix with the module's above.
# Frames may take 2048 bytes, as in Debian's kernel: that kernel's
# allnoconfig base warns from 1024, and KASAN's redzones enlarge frames.
KDEBUG = $(BUILD)/kdebug
module-debug:
	@kdir=$$(dirname $$(tools/vm/mkdebugkernel))/obj && \
	mkdir -p $(KDEBUG) && \
	rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
		--exclude='*.mod*' Kbuild net include $(KDEBUG)/ && \
	$(MAKE) -C $$kdir M=$(CURDIR)/$(KDEBUG) W=1 \
		KCFLAGS="-Werror -Wframe-larger-than=2048" modules

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo

userspace: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

deps:
	tools/deps.sh

# check and demo install what they need first, then build in a fresh make
# (KDIR is only known once linux-headers-amd64 is installed).
check: deps
	$(MAKE) all
	tools/check.sh

demo: deps
	$(MAKE) all
	tools/demo.sh

# The 2-minute soak runs in make check; this is the long one.
soak: deps
	$(MAKE) all
	MRC_SOAK_SECS=600 tools/vm/run --timeout 1800 -- selftests/mrc/run.sh test_80_chaos.sh

bench: all
	tools/bench/run-all.sh

# Only the perftest comparison with rdma_rxe, e.g. BENCH_ARGS=--quick.
bench-verbs: all
	tools/bench/verbs-vs-rxe.sh $(BENCH_ARGS)

install: module install-lib
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KVER)
	install -D -m 0755 $(BUILD)/bin/mrcctl $(DESTDIR)$(PREFIX)/sbin/mrcctl

# lib_mrc.so.1 (+ the lib_mrc.so link programs link with), include/mrc/
# mrc.h and mrc_api_ver.h, lib/pkgconfig/lib_mrc.pc; ldconfig only for a
# real install.
install-lib: userspace
	DESTDIR=$(DESTDIR) cmake --install $(BUILD) --component lib_mrc --prefix $(PREFIX)
	$(if $(DESTDIR),,-ldconfig)

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	-$(MAKE) -C $(KDIR) M=$(CURDIR)/tools/testing/kverbs clean
	rm -rf $(BUILD)
