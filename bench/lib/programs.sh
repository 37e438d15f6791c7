# shellcheck shell=bash disable=SC2154,SC2034
# bench/lib/programs.sh: the programs as the training benches prepare them, sourced by
# bench/train-native and bench/train-headroom (one preparation, so that their traces and
# subsets are the same): the bundled programs, or with arena set (their --arena) the
# arena's real programs (bench/arena). The sourcing script sets top (the checkout), mlgo
# (mlgo-ra), out (its output directory), log (the file every command's output goes to)
# and bench_name (the prefix of its messages) before calling these functions.

# name | training trace's arguments | held-out trace's | measured run's ({n}: the count
# that makes an iteration last about ITERATION_SECONDS; {x}: the scale that does, for
# json, whose one argument is a scale: 1 is 20 rounds of orders, about 0.2 s). Training
# traces as bench/accuracy's (0.5 M to 2 M instructions); held out: the same program at
# twice the size, another input.
programs=(
  "workload|0.05 1|0.1 1|1 {n}"
  "json|0.002|0.004|{x}"
  "interp|0.03 1|0.06 1|1 {n}"
  "crypto|0.125 2|0.25 1|1 {n}"
  "parse|0.1 3|0.2 1|1 {n}"
  "dsp|0.25 2|0.5 1|1 {n}"
)

if [ -n "${arena:-}" ]; then # name | - | - | - : the arena's own runs
  # shellcheck source=bench/lib/arena.sh
  source "$top/bench/lib/arena.sh"
  programs=()
  for name in $(arena_names); do programs+=("$name|-|-|-"); done
fi

# As bench/accuracy: functions and loops on 64-byte boundaries in every build, so that a
# change of size in one function does not move the others across cache lines.
align_flags=${ALIGN_FLAGS--falign-functions=64 -falign-loops=64}

say() { echo "$bench_name: $*" >&2; }
die() { say "$*"; exit 1; }

# check_programs NAME...: exits 2 on a name that is not a bundled program.
check_programs() {
  local name
  for name in "$@"; do
    printf '%s\n' "${programs[@]}" | grep -q "^$name|" ||
      { echo "$bench_name: unknown program $name" >&2; exit 2; }
  done
}

step() { # step WHAT CMD...: runs CMD with its output in the log; on failure shows it
  local what=$1
  shift
  echo "== $what: $*" >>"$log"
  "$@" >>"$log" 2>&1 || { say "failed: $what (see $log)"; tail -5 "$log" >&2; exit 1; }
}

step_to() { # step_to FILE WHAT CMD...: the same, CMD's standard output into FILE
  local file=$1 what=$2
  shift 2
  echo "== $what: $*" >>"$log"
  "$@" >"$file" 2>>"$log" || { say "failed: $what (see $log)"; tail -5 "$log" >&2; exit 1; }
}

# locate NAME: sets dir, target, binary and link (the link command) of a built program;
# of an arena program, also inputs (where its runs start), run (its training run's
# arguments) and run_env.
locate() {
  if [ -n "${arena:-}" ]; then
    arena_load "$1"
    dir=$out/$1
    target=$binary
    binary=$build/$binary
    link=$(cat "$root/link")
    inputs=$root/inputs
    return
  fi
  dir=$out/$1
  target=$([ "$1" = workload ] && echo workload || echo "$1-workload")
  binary=$dir/build/$target
  link=$(ninja -C "$dir/build" -t commands "$target" | tail -1)
}

# prepare NAME TRAIN_ARGS HELD_ARGS: DIR/NAME with the program built, its corpus, its
# training and held-out traces and its subset; sets dir, target, binary and link.
prepare() {
  local name=$1 train_args=$2 held_args=$3
  dir=$out/$name
  rm -rf "$dir"
  mkdir -p "$dir/variants"
  if [ -n "${arena:-}" ]; then # built, traced on its two runs and cached by bench/arena
    say "$name: prepare (bench/arena)"
    step "$name prepare" "$top/bench/arena" prepare "$name"
    locate "$name"
    cp -r "$root/corpus" "$dir/corpus"
    ln -s "$root/train.bbtrace" "$dir/train.bbtrace"
    ln -s "$root/heldout.bbtrace" "$dir/heldout.bbtrace"
    step "$name subset" "$mlgo" subset --corpus "$dir/corpus" --trace "$dir/train.bbtrace" \
      -o "$dir/subset"
    return
  fi
  say "$name: build, corpus, traces ($train_args; held out $held_args)"
  step "$name build" env EXAMPLE="$name" "$top/examples/build-workload.sh" "$dir/build" \
    "-DCMAKE_C_FLAGS=$align_flags" "-DCMAKE_CXX_FLAGS=$align_flags"
  locate "$name"
  step "$name corpus" "$mlgo" extract-corpus "$dir/build/compile_commands.json" -o "$dir/corpus"
  # shellcheck disable=SC2086
  step "$name training trace" "$mlgo" trace record --binary "$binary" -o "$dir/train.bbtrace" \
    -- "$binary" $train_args
  # shellcheck disable=SC2086
  step "$name held-out trace" "$mlgo" trace record --binary "$binary" -o "$dir/heldout.bbtrace" \
    -- "$binary" $held_args
  step "$name subset" "$mlgo" subset --corpus "$dir/corpus" --trace "$dir/train.bbtrace" \
    -o "$dir/subset"
}
