# wberr lab. `make help` lists the targets; lab/lab.conf the settings
# (override them in the environment or in lab/local.conf).

LAB := lab
KERNEL ?= patched

.PHONY: help run check compare fstests pg bench deps base apply build build-base vm export fixup \
	checkpatch check-bisect build-broad lint clean distclean stress

help: ## list the targets
	@awk -F ':.*## ' '/^[a-z-]+:.*## / { printf "  make %-13s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

run: ## main job: build the patched kernel, boot it, run the tests, report
	@$(LAB)/pipeline run

check: ## the tests: run + series hygiene + lab lint; ends "N passed, N failed"
	@$(LAB)/pipeline check

compare: ## the tests on the base kernel and the patched one, side by side
	@$(LAB)/compare

fstests: ## fstests on the base and patched kernels, ext4 xfs btrfs, side by side
	@$(LAB)/fstests/run

stress: ## errseq_stress on KERNEL for STRESS_SECONDS (DEBUG=1: lockdep + KASAN)
	@$(LAB)/stress/run $(KERNEL)

pg: ## PostgreSQL as a real client of W2/W4 on KERNEL (ext4, xfs, btrfs)
	@$(LAB)/pg/run $(KERNEL)

bench: ## base vs patched, interleaved rounds under TCG -icount, median ratios
	@$(LAB)/bench/run

deps: ## install the packages the lab needs (apt-get, as root)
	@$(LAB)/deps

base: ## unpack/import the base tree into the cache and print its commit
	@$(LAB)/base

apply: ## apply patches/series as commits in build/src/<tree>-patched
	@$(LAB)/apply patched

build: ## build a kernel (KERNEL=patched|base), print its image path
	@$(LAB)/build $(KERNEL)

build-base: ## build the base kernel (only the [base] patches)
	@$(LAB)/build base

vm: ## boot KERNEL and run CMD in it, e.g. make vm CMD='uname -r'
	@$(LAB)/vm --kernel $(KERNEL) -- bash -c '$(or $(CMD),uname -a)'

export: ## write the patched tree's commits back to patches/
	@$(LAB)/export

fixup: ## fold fixup! commits into their patches without touching other files
	@$(LAB)/fixup

checkpatch: ## scripts/checkpatch.pl --strict over every patch
	@RESULTS=/dev/null $(LAB)/checkpatch && echo "checkpatch: clean"

check-bisect: ## build the tree after each patch of the series
	@RESULTS=/dev/null $(LAB)/bisect

build-broad: ## compile fs/ mm/ block/ lib/ with defconfig + every filesystem
	@$(LAB)/broad-build

lint: ## shellcheck the lab
	@n=$$($(LAB)/lint) && echo "shellcheck: $$n scripts clean"

clean: ## remove build outputs and run folders (keeps the base-tree cache)
	rm -rf build/obj build/runs build/logs build/results-*.tsv

distclean: ## remove everything the lab made, the base-tree cache too
	rm -rf build
