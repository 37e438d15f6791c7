# shellcheck shell=bash disable=SC2034
# bench/lib/arena.sh: the arena, real programs from Debian 12's source packages, as the
# benches prepare them. Sourced by bench/arena and by the benches that run on the arena.
# Each program is a recipe, bench/programs/NAME/recipe.sh (bench/programs/README.md says
# what it defines). For a program this library
#   - fetches its source with apt-get source through a sources list and apt state of the
#     arena's own (the machine's apt configuration is untouched), once;
#   - builds it through its own build system with clang-22 and mlgo-ra's flags, behind a
#     compiler wrapper that records each link (bench/programs/tools/cc);
#   - links the binary again from the program's own objects named one by one (archives
#     resolved to their members), so that a variant (the same objects compiled with
#     another policy, `mlgo-ra compile`) links the same way from its own directory;
#   - extracts the corpus of those objects, writes the inputs of its benchmark runs and
#     records the traces of the training run and of the held-out run.
# Everything is cached in $ARENA_DIR (default ~/.cache/mlgo-ra/arena): a build as long as
# its recipe's build function (and the recipe files it names), the wrapper, the compiler,
# the flags and arena_build_version are the same (arena_stamp); the inputs and traces as
# long as the build and the recipe's files are (arena_inputs).
#
# Per program, in $ARENA_DIR/NAME: build/ (the source tree, built; the binary is
# build/$binary), link (the link command, run from build/ or from a variant directory),
# link.rsp (the objects), corpus/, inputs/, train.bbtrace, heldout.bbtrace, info.json.

arena_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
arena_recipes=$arena_top/bench/programs
arena_dir=${ARENA_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mlgo-ra/arena}
arena_mlgo=${MLGO_RA:-$arena_top/build/mlgo-ra}
arena_llvm_bin=$(llvm-config-22 --bindir 2>/dev/null || echo /usr/lib/llvm-22/bin)
# The flags of README.md's "Building a program for mlgo-ra".
arena_flags="-O2 -Xclang -fembed-bitcode=all -fbasic-block-address-map \
-mllvm -disable-branch-fold -mllvm -enable-tail-merge=false \
-mllvm -branch-fold-placement=false -mllvm -disable-tail-duplicate \
-mllvm -tail-dup-placement=false -mllvm -enable-shrink-wrap=false"
# And functions and loops on 64-byte boundaries (ARENA_ALIGN= builds without), as
# bench/accuracy builds the bundled programs: a policy that changes one function's size
# then does not move the other functions' loops within their fetch lines. Without them,
# Lua's interpreter loop, its instructions the same, sat 16 bytes later in a variant
# whose other functions changed, and ran 11% faster (Zen 4).
arena_flags="$arena_flags ${ARENA_ALIGN--falign-functions=64 -falign-loops=64}"

# Raise it when a change here changes what a build makes.
arena_build_version=1

arena_say() { echo "arena: $*" >&2; }
arena_die() { arena_say "$*"; exit 1; }

# arena_names: every recipe's name, one a line.
arena_names() {
  local r
  for r in "$arena_recipes"/*/recipe.sh; do
    r=${r%/recipe.sh}
    echo "${r##*/}"
  done
}

# arena_load NAME: reads NAME's recipe into package, tree, language, domain, binary, needs,
# run, heldout, run_env and the functions build and inputs; sets recipe (its directory),
# root ($ARENA_DIR/NAME) and build (root/build) first, for the recipe to use.
arena_load() {
  local name=$1
  recipe=$arena_recipes/$name
  [ -f "$recipe/recipe.sh" ] || { arena_say "unknown program $name (see bench/arena list)"; exit 2; }
  arena_name=$name
  root=$arena_dir/$name
  build=$root/build
  package= tree=tree language= domain= binary= needs=() run=() heldout=() run_env=()
  inputs() { :; }
  build() { arena_die "$name: its recipe defines no build"; }
  # shellcheck disable=SC1091
  source "$recipe/recipe.sh"
  [ -n "$package" ] && [ -n "$binary" ] && [ ${#run[@]} -gt 0 ] && [ ${#heldout[@]} -gt 0 ] ||
    arena_die "$name: recipe.sh must set package, binary, run and heldout"
}

# arena_apt ARGS...: apt-get with the arena's own sources list and state.
arena_apt() {
  local apt=$arena_dir/apt
  if [ ! -f "$apt/sources.list" ]; then
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
    echo "deb-src http://deb.debian.org/debian bookworm main" >"$apt/sources.list.new"
    mv "$apt/sources.list.new" "$apt/sources.list"
  fi
  apt-get -q -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
    -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" -o APT::Sandbox::User=root "$@"
}

# arena_fetch: the source of $package unpacked in $arena_dir/sources/$package/$tree
# (once): tree, Debian's source with its patches (dpkg-source -x), or orig, the
# upstream tarball as released; sets version and source.
arena_fetch() {
  local dir=$arena_dir/sources/$package
  if [ ! -f "$dir/fetched" ]; then
    [ -n "$(ls "$arena_dir/apt/lists" 2>/dev/null | grep Sources)" ] ||
      arena_apt update >/dev/null || arena_die "apt-get update failed"
    rm -rf "$dir" && mkdir -p "$dir"
    (cd "$dir" && arena_apt source --download-only "$package" >fetch.log 2>&1) ||
      arena_die "$package: apt-get source failed (see $dir/fetch.log)"
    touch "$dir/fetched"
  fi
  source=$dir/$tree
  if [ ! -d "$source" ]; then
    rm -rf "$source.new"
    case $tree in
      tree) (cd "$dir" && dpkg-source --no-check -x ./*.dsc tree.new >>fetch.log 2>&1) ;;
      orig) mkdir "$source.new" && tar -xf "$(ls "$dir"/*.orig.tar.* | head -1)" -C "$source.new" \
        --strip-components=1 ;;
      *) false ;;
    esac || arena_die "$package: unpacking its $tree failed (see $dir/fetch.log)"
    mv "$source.new" "$source"
  fi
  version=$(sed -n 's/^Version: //p' "$dir"/*.dsc | head -1)
}

# arena_install_needs: the Debian packages the recipe's build needs, installed with the
# machine's apt (only when missing).
arena_install_needs() {
  local missing=() p
  for p in "${needs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  arena_say "$arena_name: installing ${missing[*]}"
  local sudo=
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null || arena_die "installing ${missing[*]} failed"
}

# arena_stamp: what a build depends on: the recipe's build function and what it names
# of the recipe's files (a driver of ours), the package, the wrapper, clang, the flags.
# Not the runs: a change of their scripts or arguments only makes new inputs and traces.
arena_stamp() {
  local code file
  code=$(declare -f build)
  {
    echo "$code" "$package" "$tree" "$binary" "${needs[*]}"
    for file in "$recipe"/*; do
      [[ $code == *"${file##*/}"* ]] && cat "$file"
    done
    cat "$arena_recipes/tools/cc"
    echo "$arena_build_version $arena_flags $version"
    "$arena_llvm_bin/clang" --version | head -1
  } | cksum | cut -d' ' -f1
}

# arena_build: NAME built, linked object by object and its corpus extracted, unless the
# cached build has the same stamp.
arena_build() {
  arena_fetch
  local stamp
  stamp=$(arena_stamp)
  [ -f "$root/stamp" ] && [ "$(cat "$root/stamp")" = "$stamp" ] && return
  arena_install_needs
  arena_say "$arena_name: building $package $version (log: $root/build.log)"
  rm -rf "$root" && mkdir -p "$root"
  cp -a "$source" "$build"
  (
    cd "$build"
    export ARENA_CC=$arena_llvm_bin/clang ARENA_CXX=$arena_llvm_bin/clang++
    export ARENA_LINK_LOG=$root/links.log
    export CC=$arena_recipes/tools/cc CXX=$arena_recipes/tools/c++
    # LLVM's archiver: binutils' ar reads objects through the LLVM gold plugin of an older
    # LLVM, if one is installed, which fails on LLVM 22's bitcode and breaks the index.
    export AR=$arena_llvm_bin/llvm-ar RANLIB=$arena_llvm_bin/llvm-ranlib NM=$arena_llvm_bin/llvm-nm
    export CFLAGS=$arena_flags CXXFLAGS=$arena_flags LDFLAGS=
    export MAKEFLAGS="-j$(nproc)"
    build
  ) >"$root/build.log" 2>&1 || arena_die "$arena_name: build failed (see $root/build.log)"
  [ -x "$build/$binary" ] || arena_die "$arena_name: the build made no $binary (see $root/build.log)"
  arena_flatten_link
  (cd "$build" && bash -c "$(cat "$root/link")") >>"$root/build.log" 2>&1 ||
    arena_die "$arena_name: linking the objects one by one failed (see $root/build.log)"
  "$arena_mlgo" extract-corpus "$root/link.rsp" --object-base-dir "$build" -o "$root/corpus" \
    >>"$root/build.log" 2>&1 || arena_die "$arena_name: extract-corpus failed (see $root/build.log)"
  echo "$stamp" >"$root/stamp"
}

# arena_flatten_link: from the last recorded link of $binary, the command that links the
# objects it used one by one (archive members resolved to the build's objects by their
# bytes): $root/link (to run from build/ or a variant directory: the program's objects
# relative to it, every other path absolute) and $root/link.rsp (those objects).
arena_flatten_link() {
  local line out cwd cmd words=() i
  line=$(awk -F'\t' -v o="$build/$binary" '$1 == o' "$root/links.log" | tail -1)
  [ -n "$line" ] || arena_die "$arena_name: no link of $binary was recorded (see $root/links.log)"
  IFS=$'\t' read -r out cwd cmd <<<"$line"
  eval "cwd=$cwd"
  eval "words=($cmd)"
  # The objects the linker used, in its order (ld -t -t: archive members too).
  local traced=() probe=("${words[@]}")
  for ((i = 1; i < ${#probe[@]}; i++)); do
    [ "${probe[i - 1]}" = -o ] && probe[i]=$root/link-probe
  done
  mapfile -t traced < <(cd "$cwd" && "${probe[@]}" -Wl,-t,-t 2>>"$root/build.log")
  rm -f "$root/link-probe"
  # Every object of the build by its checksum, to name an archive's members.
  declare -A by_sum=()
  local sum size file
  while read -r sum size file; do
    by_sum[$sum.$size]=${file#./}
  done < <(cd "$build" && find . -name '*.o' -type f -exec cksum {} +)
  local objects=() entry archive member path
  for entry in "${traced[@]}"; do
    archive= member=
    if [[ $entry =~ ^\((.*)\)(.*)$ ]]; then # GNU ld: (lib.a)member.o
      archive=${BASH_REMATCH[1]} member=${BASH_REMATCH[2]}
    elif [[ $entry =~ ^(.*\.a)\((.*)\)$ ]]; then # lld: lib.a(member.o)
      archive=${BASH_REMATCH[1]} member=${BASH_REMATCH[2]}
    fi
    if [ -n "$archive" ]; then
      path=$(cd "$cwd" && realpath -m "$archive")
      [[ $path == "$build"/* ]] || continue
      read -r sum size _ < <(cd "$cwd" && ar p "$archive" "$member" | cksum)
      [ -n "${by_sum[$sum.$size]:-}" ] ||
        arena_die "$arena_name: no object of the build is $archive's member $member"
      objects+=("${by_sum[$sum.$size]}")
    elif [[ $entry == *.o ]]; then
      path=$(cd "$cwd" && realpath -m "$entry")
      [[ $path == "$build"/* ]] && objects+=("${path#"$build"/}")
    fi
  done
  [ ${#objects[@]} -gt 0 ] || arena_die "$arena_name: the link of $binary used no object of the build"
  # The command: the program's objects where its first object or archive stood.
  local linked=("${words[0]}") placed= word prev=
  for ((i = 1; i < ${#words[@]}; i++)); do
    word=${words[i]}
    if [ "$prev" = -o ]; then
      linked+=("$binary")
    elif [[ $word == *.o || $word == *.a || $word == *.lo ]] &&
      [[ $(cd "$cwd" && realpath -m "$word") == "$build"/* ]]; then
      [ -n "$placed" ] || linked+=("${objects[@]}")
      placed=1
    elif [[ $word == -L* && ${word#-L} != /* ]]; then
      linked+=("-L$(cd "$cwd" && realpath -m "${word#-L}")")
    elif [[ $word != -* && $word != /* && -e $cwd/$word ]]; then
      linked+=("$(cd "$cwd" && realpath "$word")")
    else
      linked+=("$word")
    fi
    prev=$word
  done
  [ -n "$placed" ] || linked+=("${objects[@]}")
  local quoted=()
  for word in "${linked[@]}"; do quoted+=("$(arena_quote "$word")"); done
  echo "${quoted[*]}" >"$root/link"
  printf '%s\n' "${objects[@]}" >"$root/link.rsp"
}

# arena_quote WORD: WORD quoted for sh (as is when it needs no quotes).
arena_quote() {
  if [[ $1 =~ ^[A-Za-z0-9_./=,:+@%-]+$ ]]; then
    printf '%s' "$1"
  else
    printf "'%s'" "${1//\'/\'\\\'\'}"
  fi
}

# arena_inputs: the inputs of NAME's runs in $root/inputs, made again (and the traces
# dropped) when the recipe's files or the tools its inputs function names (an input
# generator of bench/programs/tools) change.
arena_inputs() {
  local stamp code file
  code=$(declare -f inputs)
  stamp=$({
    for file in "$arena_recipes"/tools/*; do
      if [[ $code == *"tools/${file##*/}"* ]]; then cat "$file"; fi
    done
    cat "$recipe"/* "$root/stamp"
  } | cksum | cut -d' ' -f1)
  [ -f "$root/inputs/.done" ] && [ "$(cat "$root/inputs/.done")" = "$stamp" ] && return
  rm -rf "$root/inputs" "$root"/*.bbtrace && mkdir -p "$root/inputs"
  (cd "$root/inputs" && inputs) >>"$root/build.log" 2>&1 ||
    arena_die "$arena_name: making the inputs failed (see $root/build.log)"
  echo "$stamp" >"$root/inputs/.done"
}

# arena_args WHICH: the arguments of the run WHICH (train or heldout), in args.
arena_args() {
  case $1 in
    train) args=("${run[@]}") ;;
    heldout) args=("${heldout[@]}") ;;
    *) arena_die "no run $1 (train or heldout)" ;;
  esac
}

# arena_exec WHICH PROGRAM: PROGRAM (a build of NAME) run natively on WHICH's inputs,
# its output to $root/out-WHICH.txt; exits as the program does.
arena_exec() {
  local args
  arena_args "$1"
  (cd "$root/inputs" && env "${run_env[@]}" "$2" "${args[@]}" >"$root/out-$1.txt")
}

# arena_trace WHICH [OPTIONS...]: $root/WHICH.bbtrace, the run recorded (once per inputs;
# options of trace record, e.g. --keep-unmapped, give $root/WHICH-OPTIONS.bbtrace).
arena_trace() {
  local which=$1 args
  shift
  local tag
  tag=$(printf '%s' "$*" | sed 's/^-*//; s/ -*/-/g' | tr -c 'a-z0-9-' '-')
  trace=$root/$which${tag:+-$tag}.bbtrace
  [ -f "$trace" ] && return
  arena_args "$which"
  arena_say "$arena_name: recording the $which run"
  (cd "$root/inputs" && env "${run_env[@]}" "$arena_mlgo" trace record "$@" --binary "$build/$binary" \
    -o "$trace.new" -- "$build/$binary" "${args[@]}" >/dev/null 2>>"$root/trace.log") ||
    arena_die "$arena_name: trace record of the $which run failed (see $root/trace.log)"
  mv "$trace.new" "$trace"
}

# arena_prepare NAME: built, inputs written, both runs traced; writes info.json.
arena_prepare() {
  arena_load "$1"
  arena_build
  arena_inputs
  local which
  for which in train heldout; do arena_trace "$which"; done
  local modules train_instructions heldout_instructions
  modules=$(grep -o '"[^"]*\.o"' "$root/corpus/corpus_description.json" | wc -l)
  train_instructions=$(arena_instructions "$root/train.bbtrace")
  heldout_instructions=$(arena_instructions "$root/heldout.bbtrace")
  printf '{"name": "%s", "package": "%s", "version": "%s", "language": "%s", "domain": "%s", "modules": %s, "train_instructions": %s, "heldout_instructions": %s}\n' \
    "$arena_name" "$package" "$version" "$language" "$domain" "$modules" \
    "$train_instructions" "$heldout_instructions" >"$root/info.json"
}

# arena_instructions TRACE: the instructions a trace holds.
arena_instructions() {
  "$arena_mlgo" trace show --json "$1" | grep -m1 -o '"instructions": [0-9]*' | grep -o '[0-9]*$'
}

# arena_host_cpu: this host's CPU as the results name it (vendor, family, model).
arena_host_cpu() {
  awk -F': ' '/^vendor_id/ { v = $2 } /^cpu family/ { f = $2 } /^model\t/ { m = $2 }
    END { printf "%s family %s model %s", v, f, m }' /proc/cpuinfo
}
