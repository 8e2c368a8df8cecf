#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Install everything the build, the VM harness and the tests need.
# Idempotent: installs only what is missing. Debian 12 (bookworm).
set -euo pipefail

pkgs=(
	build-essential cmake pkg-config git kmod cpio
	linux-image-amd64 linux-headers-amd64
	qemu-system-x86 busybox-static
	rdma-core ibverbs-utils ibverbs-providers perftest rdmacm-utils
	libibverbs-dev librdmacm-dev libgloo-dev
	libnl-3-dev libnl-genl-3-dev iproute2 iputils-ping
	nlohmann-json3-dev
	libgtest-dev libgmock-dev googletest libbenchmark-dev
	clang libclang-rt-14-dev sparse clang-format libbpf-dev bpftool
	gnuplot-nox python3 python3-docutils python3-yaml iperf3 linux-perf
	linux-source-6.1 flex bison libelf-dev libssl-dev bc rsync
	qperf ucx-utils libfabric-bin
)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
	echo "deps: all ${#pkgs[@]} packages present"
	exit 0
fi

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "deps: installing ${missing[*]}"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
