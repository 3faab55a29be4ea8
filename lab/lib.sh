# shellcheck shell=bash
# Shared helpers for the lab scripts: configuration, paths, messages.
# Sourced, never run. Every lab script starts with
#   . "$(dirname "$0")/lib.sh"

set -eEuo pipefail
# A command that fails where no one expected it says where, instead of
# ending the script in silence.
trap 'printf "lab: %s: line %s: unexpected failure (exit %s)\n" "${0##*/}" "$LINENO" "$?" >&2' ERR

LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LAB_TOP=$(cd "$LAB_DIR/.." && pwd)
export LAB_DIR LAB_TOP

# shellcheck source=lab/lab.conf
. "$LAB_DIR/lab.conf"
if [ -f "$LAB_DIR/local.conf" ]; then
	# shellcheck source=/dev/null
	. "$LAB_DIR/local.conf"
fi

CACHE_DIR=$BUILD_DIR/cache
LOG_DIR=$BUILD_DIR/logs
RESULTS=${RESULTS:-$BUILD_DIR/results.tsv}
export BASE LOG_DIR BUILD_DIR KERNEL_SRC JOBS DEBUG ACCEL VM_CPUS VM_MEM VM_TIMEOUT VM_APPEND \
	SCRATCH_DISKS SCRATCH_SIZE RESULTS KUNIT_SUITES FSTESTS_TESTS FSTESTS_GROUPS FSTESTS_EXCLUDE

# The lab's own git identity and dates, so that imports and `git am` make
# the same commits on every machine and `make export` is reproducible.
lab_git() {
	GIT_AUTHOR_NAME=${GIT_AUTHOR_NAME:-$LAB_GIT_NAME} \
	GIT_AUTHOR_EMAIL=${GIT_AUTHOR_EMAIL:-$LAB_GIT_EMAIL} \
	GIT_COMMITTER_NAME=$LAB_GIT_NAME GIT_COMMITTER_EMAIL=$LAB_GIT_EMAIL \
		git -c advice.detachedHead=false -c core.autocrlf=false \
		    -c gc.auto=0 -c commit.gpgsign=false "$@"
}

msg() { printf 'lab: %s\n' "$*" >&2; }
warn() { printf 'lab: warning: %s\n' "$*" >&2; }
die() {
	printf 'lab: error: %s\n' "$1" >&2
	shift
	for line in "$@"; do
		printf 'lab:   %s\n' "$line" >&2
	done
	exit 1
}

# step N M TEXT: one progress line per stage.
# Stop process PID and every process it started, children first
# (qemu runs in a process group of its own, under timeout).
kill_tree() {
	local child
	for child in $(pgrep -P "$1" || true); do
		kill_tree "$child"
	done
	kill -TERM "$1" 2>/dev/null || true
}
step() { printf '[%s/%s] %s\n' "$1" "$2" "$3"; }

# logged LOG CMD...: run CMD with all output to LOG; on failure show the
# last lines and where the whole log is.
logged() {
	local log=$1
	shift
	mkdir -p "$(dirname "$log")"
	if ! "$@" >"$log" 2>&1; then
		printf 'lab: error: %s failed; last lines of %s:\n' "$1" "$log" >&2
		tail -n 25 "$log" | sed 's/^/    /' >&2
		printf 'lab:   full log: %s\n' "$log" >&2
		return 1
	fi
}

need_cmd() {
	command -v "$1" >/dev/null 2>&1 ||
		die "'$1' is not installed" "run 'make deps' (as root) or: apt-get install $2"
}

# result STATUS NAME [DETAIL]: record one test outcome for the report.
# STATUS is pass, fail or skip.
result() {
	mkdir -p "$(dirname "$RESULTS")"
	printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >>"$RESULTS"
}

# --- the base tree -------------------------------------------------------

# Prints the identity of the base tree: a name safe for paths.
tree_id() {
	if [ -n "$KERNEL_SRC" ]; then
		local real
		real=$(realpath -m "$KERNEL_SRC")
		printf 'src-%s-%s\n' "$(basename "$real")" \
			"$(printf '%s' "$real" | sha1sum | cut -c1-8)"
	else
		local v
		v=$(dpkg-query -W -f='${Version}' "$DEBIAN_SOURCE_PKG" 2>/dev/null) ||
			die "$DEBIAN_SOURCE_PKG is not installed" \
			    "run 'make deps' (as root), or point KERNEL_SRC at a kernel tree"
		printf 'debian-%s\n' "$(printf '%s' "$v" | tr '~:+' '_._')"
	fi
}

# The git repository holding the base commit, and that commit.
base_repo() {
	if [ -n "$KERNEL_SRC" ] && git -C "$KERNEL_SRC" rev-parse --git-dir >/dev/null 2>&1; then
		realpath "$KERNEL_SRC"
	else
		printf '%s/%s\n' "$CACHE_DIR" "$(tree_id)"
	fi
}

base_commit() {
	local repo
	repo=$(base_repo)
	git -C "$repo" rev-parse --verify -q 'refs/tags/wberr-base^{commit}' 2>/dev/null ||
		git -C "$repo" rev-parse HEAD
}

# Which kernel: "patched" (the whole series) or "base" (only the patches
# the series file marks [base]: test suites, so the base can be compared).
check_kind() {
	case $1 in
	patched | base) ;;
	*) die "unknown kernel '$1'" "use 'patched' or 'base'" ;;
	esac
}

src_dir() { printf '%s/src/%s-%s\n' "$BUILD_DIR" "$(tree_id)" "$1"; }

# The kernel flavour DEBUG asks for, in one place: its config fragment
# on top of wberr.config, the suffix of its build and run folders, and
# what reports say of it. DEBUG=0 has none of them.
debug_fragment() {
	case $DEBUG in
	1) echo "$LAB_DIR/config/debug.config" ;;
	kcsan) echo "$LAB_DIR/config/kcsan.config" ;;
	esac
}
debug_suffix() {
	case $DEBUG in 1) echo -debug ;; kcsan) echo -kcsan ;; esac
}
debug_label() {
	case $DEBUG in
	1) echo ' (DEBUG=1: lockdep, KASAN)' ;;
	kcsan) echo ' (DEBUG=kcsan: lockdep, KCSAN)' ;;
	esac
}

obj_dir() {
	printf '%s/obj/%s-%s%s\n' "$BUILD_DIR" "$(tree_id)" "$1" "$(debug_suffix)"
}

kernel_image() { printf '%s/arch/x86/boot/bzImage\n' "$(obj_dir "$1")"; }

# series_patches [base]: the patch files named by patches/series, in order.
series_patches() {
	local want=${1:-all}
	[ -f "$PATCH_DIR/series" ] || die "no patches/series file"
	sed -e 's/[[:space:]]*$//' "$PATCH_DIR/series" |
		while read -r name rest; do
			case $name in '' | '#'*) continue ;; esac
			if [ "$want" = base ]; then
				case $rest in *'[base]'*) ;; *) continue ;; esac
			fi
			printf '%s\n' "$name"
		done
}

# The rows expected to fail, with their reasons: the lab's own
# (lab/known-failures) and the series' (known-failures beside its series
# file, if any), merged into one file whose path is printed.
known_failures_file() {
	local out=$BUILD_DIR/known-failures-$BASE
	mkdir -p "$BUILD_DIR"
	cat "$LAB_DIR/known-failures" >"$out"
	if [ -f "$PATCH_DIR/known-failures" ]; then
		cat "$PATCH_DIR/known-failures" >>"$out"
	fi
	printf '%s\n' "$out"
}

# The series of BASE (lab.conf).
case $BASE in
7.3) PATCH_DIR=$LAB_TOP/patches ;;
6.12) PATCH_DIR=$LAB_TOP/backports/6.12 ;;
*) die "BASE=$BASE: no series for that tree" "BASE=7.3 (mainline: patches/) or BASE=6.12 (the backport: backports/6.12/)" ;;
esac

case $DEBUG in
0 | 1 | kcsan) ;;
*) die "DEBUG=$DEBUG: not a kernel flavour the lab builds" \
	"DEBUG=0 (plain), DEBUG=1 (lockdep, KASAN) or DEBUG=kcsan (lockdep, KCSAN)" ;;
esac
