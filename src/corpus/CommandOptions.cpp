/// \file
/// The option tables of the .cmd sanitizer. The kept tables are an allow-list: an
/// option is kept only if it can change the object code clang makes from IR (target,
/// ABI, optimization level and pipeline, floating point, code-generation and debug-info
/// options, sanitizers and instrumentation) and it neither writes a file nor loads code.
/// The dropped tables list options known not to matter for IR input (preprocessor,
/// source language, diagnostics, front-end bookkeeping) and the options that name the
/// input, the outputs or the action, which our compiles supply themselves. Any other
/// option is unknown and refused: dropping it could silently change the code (and a
/// variant would not reproduce the traced binary), keeping it could write files.
#include "CommandOptions.h"

#include "llvm/ADT/ArrayRef.h"

namespace mlgo {
namespace {

enum class Form {
  Flag,     ///< exactly this word
  Separate, ///< exactly this word; the value is the next word
  Joined,   ///< this prefix and a value in the same word ("-O2", "-mcmodel=small")
};

struct Rule {
  const char *Name;
  Form Shape;
};

// clang-format off
const Rule Kept[] = {
    // Target and ABI.
    {"-triple", Form::Separate}, {"-target-cpu", Form::Separate},
    {"-tune-cpu", Form::Separate}, {"-target-feature", Form::Separate},
    {"-target-abi", Form::Separate}, {"-target-linker-version", Form::Separate},
    {"-target-sdk-version=", Form::Joined}, {"-mrelocation-model", Form::Separate},
    {"-pic-level", Form::Separate}, {"-pic-is-pie", Form::Flag},
    {"-mthread-model", Form::Separate}, {"-mfloat-abi", Form::Separate},
    {"-mfpmath", Form::Separate}, {"-mregparm", Form::Separate},
    {"-mlimit-float-precision", Form::Separate}, {"-msmall-data-limit", Form::Separate},
    {"-mtp", Form::Separate}, {"-meabi", Form::Separate},
    {"-mframe-pointer=", Form::Joined}, {"-mcmodel=", Form::Joined},
    {"-mlarge-data-threshold=", Form::Joined}, {"-mtls-dialect=", Form::Joined},
    {"-mtls-size=", Form::Joined}, {"-mstack-alignment=", Form::Joined},
    {"-mstack-probe-size=", Form::Joined}, {"-mprefer-vector-width=", Form::Joined},
    {"-mrecip=", Form::Joined}, {"-mrecip", Form::Flag},
    {"-mfunction-return=", Form::Joined}, {"-msign-return-address=", Form::Joined},
    {"-msign-return-address-key=", Form::Joined}, {"-mbranch-target-enforce", Form::Flag},
    {"-mabi=", Form::Joined}, {"-mrelax-relocations=", Form::Joined},
    {"-mdouble=", Form::Joined}, {"-mlong-double-", Form::Joined},
    {"-mcf-branch-label-scheme=", Form::Joined}, {"-mstack-protector-guard", Form::Joined},
    {"-mconstructor-aliases", Form::Flag}, {"-mno-constructor-aliases", Form::Flag},
    {"-mrelax-all", Form::Flag}, {"-mnoexecstack", Form::Flag},
    {"-msoft-float", Form::Flag}, {"-mstackrealign", Form::Flag},
    {"-mfentry", Form::Flag}, {"-mrecord-mcount", Form::Flag}, {"-mnop-mcount", Form::Flag},
    {"-mpacked-stack", Form::Flag}, {"-mbackchain", Form::Flag},
    {"-mskip-rax-setup", Form::Flag}, {"-mglobal-merge", Form::Flag},
    {"-mno-global-merge", Form::Flag}, {"-moutline", Form::Flag}, {"-mno-outline", Form::Flag},
    {"-moutline-atomics", Form::Flag}, {"-mno-outline-atomics", Form::Flag},
    {"-mno-tls-direct-seg-refs", Form::Flag}, {"-mindirect-branch-cs-prefix", Form::Flag},
    {"-msave-reg-params", Form::Flag}, {"-mno-stack-arg-probe", Form::Flag},
    {"-mno-fmv", Form::Flag}, {"-mspeculative-load-hardening", Form::Flag},
    {"-mdisable-tail-calls", Form::Flag}, {"-disable-red-zone", Form::Flag},
    {"-no-implicit-float", Form::Flag}, {"-menable-no-infs", Form::Flag},
    {"-menable-no-nans", Form::Flag}, {"-exception-model", Form::Separate},
    {"-exception-model=", Form::Joined},
    // Optimization level and pipeline.
    {"-O", Form::Flag}, {"-O", Form::Joined}, {"-vectorize-loops", Form::Flag},
    {"-vectorize-slp", Form::Flag}, {"-disable-llvm-verifier", Form::Flag},
    {"-discard-value-names", Form::Flag}, {"-disable-lifetime-markers", Form::Flag},
    {"-no-struct-path-tbaa", Form::Flag}, {"-no-pointer-tbaa", Form::Flag},
    {"-funroll-loops", Form::Flag}, {"-fno-unroll-loops", Form::Flag},
    {"-finline-functions", Form::Flag}, {"-finline-hint-functions", Form::Flag},
    {"-finline-max-stacksize=", Form::Joined}, {"-fmerge-functions", Form::Flag},
    {"-fmerge-all-constants", Form::Flag}, {"-floop-interchange", Form::Flag},
    {"-fno-loop-interchange", Form::Flag}, {"-fexperimental-loop-fusion", Form::Flag},
    {"-fno-builtin", Form::Flag}, {"-fno-builtin-", Form::Joined},
    {"-fno-math-builtin", Form::Flag}, {"-ffreestanding", Form::Flag},
    {"-fveclib=", Form::Joined}, {"-fno-delete-null-pointer-checks", Form::Flag},
    {"-fno-optimize-sibling-calls", Form::Flag}, {"-fno-jump-tables", Form::Flag},
    {"-fwhole-program-vtables", Form::Flag}, {"-fvirtual-function-elimination", Form::Flag},
    {"-fsplit-lto-unit", Form::Flag}, {"-flto-unit", Form::Flag}, {"-flto", Form::Flag},
    {"-flto=", Form::Joined}, {"-fno-lto", Form::Flag}, {"-funified-lto", Form::Flag},
    {"-flto-visibility-public-std", Form::Flag}, {"-fno-inline", Form::Flag},
    {"-fno-inline-functions", Form::Flag}, {"-fopenmp", Form::Flag},
    {"-fopenmp-version=", Form::Joined}, {"-fopenmp-simd", Form::Flag},
    // Floating point.
    {"-fmath-errno", Form::Flag}, {"-fno-rounding-math", Form::Flag},
    {"-frounding-math", Form::Flag}, {"-ffp-contract=", Form::Joined},
    {"-ffp-exception-behavior=", Form::Joined}, {"-ffp-eval-method=", Form::Joined},
    {"-fdenormal-fp-math=", Form::Joined}, {"-fdenormal-fp-math-f32=", Form::Joined},
    {"-ffast-math", Form::Flag}, {"-ffinite-math-only", Form::Flag},
    {"-fno-signed-zeros", Form::Flag}, {"-freciprocal-math", Form::Flag},
    {"-fapprox-func", Form::Flag}, {"-funsafe-math-optimizations", Form::Flag},
    {"-fcomplex-arithmetic=", Form::Joined}, {"-fprotect-parens", Form::Flag},
    {"-mreassociate", Form::Flag}, {"-complex-range=", Form::Joined},
    {"-fno-honor-infinities", Form::Flag}, {"-fno-honor-nans", Form::Flag},
    // Code layout, sections, unwinding, exceptions.
    {"-fbasic-block-address-map", Form::Flag}, {"-fbasic-block-sections=", Form::Joined},
    {"-funique-basic-block-section-names", Form::Flag},
    {"-ffunction-sections", Form::Flag}, {"-fdata-sections", Form::Flag},
    {"-fno-unique-section-names", Form::Flag}, {"-funique-internal-linkage-names", Form::Flag},
    {"-fsplit-machine-functions", Form::Flag}, {"-fpartition-static-data-sections", Form::Flag},
    {"-fseparate-named-sections", Form::Flag}, {"-falign-loops=", Form::Joined},
    {"-function-alignment", Form::Separate}, {"-fno-plt", Form::Flag},
    {"-fno-use-init-array", Form::Flag}, {"-fno-zero-initialized-in-bss", Form::Flag},
    {"-femulated-tls", Form::Flag}, {"-fdirect-access-external-data", Form::Flag},
    {"-fno-direct-access-external-data", Form::Flag},
    {"-fhalf-no-semantic-interposition", Form::Flag}, {"-faddrsig", Form::Flag},
    {"-fdwarf2-cfi-asm", Form::Flag}, {"-funwind-tables=", Form::Joined},
    {"-fforce-dwarf-frame", Form::Flag}, {"-femit-dwarf-unwind=", Form::Joined},
    {"-femit-compact-unwind-non-canonical", Form::Flag}, {"-fbinutils-version=", Form::Joined},
    {"-fno-preserve-as-comments", Form::Flag}, {"-fexceptions", Form::Flag},
    {"-fcxx-exceptions", Form::Flag}, {"-fobjc-exceptions", Form::Flag},
    {"-fasync-exceptions", Form::Flag}, {"-fignore-exceptions", Form::Flag},
    {"-fwinx64-eh-unwindv2=", Form::Joined}, {"-fobjc-arc", Form::Flag},
    {"-fembed-bitcode=", Form::Joined},
    // Hardening and instrumentation (some read a list file; none write one).
    {"-stack-protector", Form::Separate}, {"-stack-protector-buffer-size", Form::Separate},
    {"-fstack-clash-protection", Form::Flag}, {"-fstack-size-section", Form::Flag},
    {"-fsplit-stack", Form::Flag}, {"-fcf-protection", Form::Flag},
    {"-fcf-protection=", Form::Joined}, {"-fzero-call-used-regs=", Form::Joined},
    {"-ftrivial-auto-var-init=", Form::Joined}, {"-ftrap-function=", Form::Joined},
    {"-fpatchable-function-entry=", Form::Joined},
    {"-fpatchable-function-entry-offset=", Form::Joined},
    {"-fpatchable-function-entry-section=", Form::Joined}, {"-fms-hotpatch", Form::Flag},
    {"-fjmc", Form::Flag}, {"-ftrapv", Form::Flag}, {"-fwrapv", Form::Flag},
    {"-fsanitize", Form::Joined}, {"-fno-sanitize", Form::Joined},
    {"-fexperimental-sanitize-metadata", Form::Joined}, {"-fxray-", Form::Joined},
    {"-fprofile-", Form::Joined}, {"-fcoverage-mapping", Form::Flag},
    {"-fcoverage-mcdc", Form::Flag}, {"-coverage-data-file=", Form::Joined},
    {"-coverage-version=", Form::Joined}, {"-fpseudo-probe-for-profiling", Form::Flag},
    {"-fdebug-info-for-profiling", Form::Flag}, {"-fsample-profile-use-profi", Form::Flag},
    // Debug information.
    {"-debug-info-kind=", Form::Joined}, {"-dwarf-version=", Form::Joined},
    {"-debugger-tuning=", Form::Joined}, {"-dwarf-debug-flags", Form::Separate},
    {"-dwarf-debug-producer", Form::Separate}, {"-record-command-line", Form::Separate},
    {"-dwarf-explicit-import", Form::Flag}, {"-dwarf-ext-refs", Form::Flag},
    {"-fdebug-compilation-dir=", Form::Joined}, {"-fcoverage-compilation-dir=", Form::Joined},
    {"-fdebug-prefix-map=", Form::Joined}, {"-fcoverage-prefix-map=", Form::Joined},
    {"-fdebug-ranges-base-address", Form::Flag}, {"-fsplit-dwarf-inlining", Form::Flag},
    {"-gkey-instructions", Form::Flag}, {"-gcall-site-info", Form::Flag},
    {"-gno-call-site-info", Form::Flag}, {"-gcodeview", Form::Flag},
    {"-gcodeview-ghash", Form::Flag}, {"-gcodeview-command-line", Form::Flag},
    {"-gno-codeview-command-line", Form::Flag}, {"-gdwarf32", Form::Flag},
    {"-gdwarf64", Form::Flag}, {"-gembed-source", Form::Flag},
    {"-gno-inline-line-tables", Form::Flag}, {"-gsimple-template-names=", Form::Joined},
    {"-gstrict-dwarf", Form::Flag}, {"-gstructor-decl-linkage-names", Form::Flag},
    {"-gno-column-info", Form::Flag}, {"-gpubnames", Form::Flag},
    {"-ggnu-pubnames", Form::Flag}, {"-gsrc-hash=", Form::Joined},
    {"-gtemplate-alias", Form::Flag}, {"-gomit-unreferenced-methods", Form::Flag},
    {"-fno-eliminate-unused-debug-types", Form::Flag}, {"-fuse-ctor-homing", Form::Flag},
    {"-fno-use-ctor-homing", Form::Flag}, {"-main-file-name", Form::Separate},
};

const Rule Dropped[] = {
    // The input, outputs and action: our compiles supply their own.
    {"-o", Form::Separate}, {"-x", Form::Separate}, {"-", Form::Flag},
    {"-fthinlto-index=", Form::Joined}, {"-emit-obj", Form::Flag}, {"-emit-llvm", Form::Flag},
    {"-emit-llvm-bc", Form::Flag}, {"-emit-llvm-only", Form::Flag},
    {"-emit-codegen-only", Form::Flag}, {"-emit-llvm-uselists", Form::Flag},
    {"-no-emit-llvm-uselists", Form::Flag}, {"-S", Form::Flag}, {"-E", Form::Flag},
    {"-fsyntax-only", Form::Flag}, {"-disable-llvm-passes", Form::Flag},
    // Side outputs: dependency files, split DWARF, remarks, statistics, timing, crashes.
    {"-dependency-file", Form::Separate}, {"-dependency-dot", Form::Separate},
    {"-MT", Form::Separate}, {"-MQ", Form::Separate}, {"-MP", Form::Flag},
    {"-MV", Form::Flag}, {"-sys-header-deps", Form::Flag},
    {"-module-file-deps", Form::Flag}, {"-header-include-file", Form::Separate},
    {"-header-include-format=", Form::Joined}, {"-header-include-filtering=", Form::Joined},
    {"-show-includes", Form::Flag}, {"-split-dwarf-file", Form::Separate},
    {"-split-dwarf-output", Form::Separate}, {"-coverage-notes-file", Form::Separate},
    {"-coverage-notes-file=", Form::Joined}, {"-opt-record-file", Form::Separate},
    {"-opt-record-passes", Form::Separate}, {"-opt-record-format", Form::Separate},
    {"-stack-usage-file", Form::Separate}, {"-ftime-trace", Form::Flag},
    {"-ftime-trace=", Form::Joined}, {"-ftime-trace-granularity=", Form::Joined},
    {"-ftime-trace-verbose", Form::Flag}, {"-ftime-report", Form::Flag},
    {"-ftime-report=", Form::Joined}, {"-stats-file=", Form::Joined},
    {"-stats-file-append", Form::Flag}, {"-stats-file-timers", Form::Flag},
    {"-print-stats", Form::Flag}, {"-diagnostic-log-file", Form::Separate},
    {"-fcrash-diagnostics-dir=", Form::Joined}, {"-fthin-link-bitcode=", Form::Joined},
    {"-R", Form::Joined}, {"-fdiagnostics-hotness-threshold=", Form::Joined},
    {"-mdebug-pass", Form::Separate}, {"-fverbose-asm", Form::Flag},
    {"-fno-verbose-asm", Form::Flag},
    // Front-end bookkeeping.
    {"-disable-free", Form::Flag}, {"-no-disable-free", Form::Flag},
    {"-clear-ast-before-backend", Form::Flag}, {"-no-clear-ast-before-backend", Form::Flag},
    {"-resource-dir", Form::Separate}, {"-ferror-limit", Form::Separate},
    {"-fmessage-length=", Form::Joined}, {"-fgnuc-version=", Form::Joined},
    {"-v", Form::Flag}, {"-disable-O0-optnone", Form::Flag},
    {"-enable-noundef-analysis", Form::Flag}, {"-no-enable-noundef-analysis", Form::Flag},
    // Preprocessor and header search.
    {"-D", Form::Separate}, {"-D", Form::Joined}, {"-U", Form::Separate},
    {"-U", Form::Joined}, {"-I", Form::Separate}, {"-I", Form::Joined},
    {"-isystem", Form::Separate}, {"-internal-isystem", Form::Separate},
    {"-internal-externc-isystem", Form::Separate}, {"-iquote", Form::Separate},
    {"-idirafter", Form::Separate}, {"-isysroot", Form::Separate},
    {"-include", Form::Separate}, {"-imacros", Form::Separate},
    {"-include-pch", Form::Separate}, {"-iprefix", Form::Separate},
    {"-iwithprefix", Form::Separate}, {"-iwithprefixbefore", Form::Separate},
    {"-iwithsysroot", Form::Separate}, {"-cxx-isystem", Form::Separate},
    {"-c-isystem", Form::Separate}, {"-objc-isystem", Form::Separate},
    {"-nostdsysteminc", Form::Flag}, {"-nobuiltininc", Form::Flag},
    {"-nostdinc++", Form::Flag}, {"-fdeprecated-macro", Form::Flag},
    {"-fno-deprecated-macro", Form::Flag}, {"-fmacro-prefix-map=", Form::Joined},
    {"-ffile-reproducible", Form::Flag}, {"-fno-file-reproducible", Form::Flag},
    {"-fkeep-system-includes", Form::Flag}, {"-fminimize-whitespace", Form::Flag},
    {"-fuse-line-directives", Form::Flag},
    // Diagnostics.
    {"-W", Form::Joined}, {"-w", Form::Flag}, {"-pedantic", Form::Flag},
    {"-pedantic-errors", Form::Flag}, {"-fcolor-diagnostics", Form::Flag},
    {"-fno-color-diagnostics", Form::Flag}, {"-fdiagnostics-", Form::Joined},
    {"-fno-diagnostics-", Form::Joined}, {"-fmacro-backtrace-limit=", Form::Joined},
    {"-ftemplate-", Form::Joined}, {"-fconstexpr-", Form::Joined},
    {"-fcaret-diagnostics-max-lines=", Form::Joined}, {"-fshow-overloads=", Form::Joined},
    {"-fno-show-column", Form::Flag}, {"-fno-show-source-location", Form::Flag},
    {"-fspell-checking-limit=", Form::Joined}, {"-fno-spell-checking", Form::Flag},
    {"-ftabstop", Form::Separate}, {"-fno-elide-type", Form::Flag},
    {"-fansi-escape-codes", Form::Flag},
    // Source language: decided before the IR was written.
    {"-std=", Form::Joined}, {"-fskip-odr-check-in-gmf", Form::Flag},
    {"-fno-skip-odr-check-in-gmf", Form::Flag}, {"-fmodule", Form::Joined},
    {"-fno-modules", Form::Joined}, {"-fimplicit-module-maps", Form::Flag},
    {"-fno-implicit-modules", Form::Flag}, {"-fprebuilt-module-path=", Form::Joined},
    {"-fprebuilt-implicit-modules", Form::Flag}, {"-fcxx-modules", Form::Flag},
    {"-fno-cxx-modules", Form::Flag}, {"-fvalidate-ast-input-files-content", Form::Flag},
    {"-fno-validate-pch", Form::Flag}, {"-fno-pch-timestamp", Form::Flag},
    {"-fsized-deallocation", Form::Flag}, {"-fno-sized-deallocation", Form::Flag},
    {"-faligned-allocation", Form::Flag}, {"-fno-aligned-allocation", Form::Flag},
    {"-fnew-alignment=", Form::Joined}, {"-fno-rtti", Form::Flag},
    {"-fno-rtti-data", Form::Flag}, {"-fno-elide-constructors", Form::Flag},
    {"-fdelayed-template-parsing", Form::Flag},
    {"-fno-delayed-template-parsing", Form::Flag}, {"-fms-extensions", Form::Flag},
    {"-fms-compatibility", Form::Flag}, {"-fms-compatibility-version=", Form::Joined},
    {"-fms-volatile", Form::Flag}, {"-fdeclspec", Form::Flag}, {"-fno-declspec", Form::Flag},
    {"-fgnu-keywords", Form::Flag}, {"-fgnu89-inline", Form::Flag},
    {"-fdollars-in-identifiers", Form::Flag}, {"-fno-dollars-in-identifiers", Form::Flag},
    {"-fno-signed-char", Form::Flag}, {"-fno-wchar", Form::Flag},
    {"-fwchar-type=", Form::Joined}, {"-fsigned-wchar", Form::Flag},
    {"-fno-signed-wchar", Form::Flag}, {"-fchar8_t", Form::Flag},
    {"-fno-char8_t", Form::Flag}, {"-fcoroutines", Form::Flag}, {"-fblocks", Form::Flag},
    {"-fno-threadsafe-statics", Form::Flag}, {"-fno-access-control", Form::Flag},
    {"-fno-operator-names", Form::Flag}, {"-ftrigraphs", Form::Flag},
    {"-fno-trigraphs", Form::Flag}, {"-fdigraphs", Form::Flag}, {"-fno-digraphs", Form::Flag},
    {"-fraw-string-literals", Form::Flag}, {"-fno-raw-string-literals", Form::Flag},
    {"-fwritable-strings", Form::Flag}, {"-fconst-strings", Form::Flag},
    {"-fno-const-strings", Form::Flag}, {"-fpascal-strings", Form::Flag},
    {"-fshort-enums", Form::Flag}, {"-fstrict-enums", Form::Flag},
    {"-fstrict-flex-arrays=", Form::Joined}, {"-fstrict-vtable-pointers", Form::Flag},
    {"-fno-knr-functions", Form::Flag}, {"-fmax-type-align=", Form::Joined},
    {"-fpack-struct=", Form::Joined}, {"-fcommon", Form::Flag}, {"-fno-common", Form::Flag},
    {"-fno-use-cxa-atexit", Form::Flag}, {"-fvisibility=", Form::Joined},
    {"-ftype-visibility=", Form::Joined}, {"-fvisibility-inlines-hidden", Form::Flag},
    {"-fvisibility-inlines-hidden-static-local-var", Form::Flag},
    {"-fclang-abi-compat=", Form::Joined}, {"-fc++-abi=", Form::Joined},
    {"-fno-assume-sane-operator-new", Form::Flag}, {"-fassume-nothrow-exception-dtor", Form::Flag},
    {"-fexternc-nounwind", Form::Flag}, {"-fno-autolink", Form::Flag},
    {"-fapplication-extension", Form::Flag}, {"-fno-gnu-inline-asm", Form::Flag},
    {"-ffixed-point", Form::Flag}, {"-fenable-matrix", Form::Flag},
    {"-finclude-default-header", Form::Flag}, {"-fdeclare-opencl-builtins", Form::Flag},
    {"-fcomment-block-commands=", Form::Joined}, {"-fexperimental-new-constant-interpreter", Form::Flag},
    {"-fno-assumptions", Form::Flag}, {"-ffinite-loops", Form::Flag},
    {"-fno-finite-loops", Form::Flag}, {"-fkeep-static-consts", Form::Flag},
    {"-fkeep-persistent-storage-variables", Form::Flag}, {"-femit-all-decls", Form::Flag},
    {"-fforce-emit-vtables", Form::Flag}, {"-fcheck-new", Form::Flag},
    {"-fno-strict-return", Form::Flag}, {"-fno-strict-float-cast-overflow", Form::Flag},
    {"-fno-bitfield-type-align", Form::Flag}, {"-fno-new-infallible", Form::Flag},
    {"-fnew-infallible", Form::Flag}, {"-fno-experimental-relative-c++-abi-vtables", Form::Flag},
    {"-fcomplete-member-pointers", Form::Flag}, {"-fdefault-calling-conv=", Form::Joined},
    {"-relaxed-aliasing", Form::Flag}, {"-fwrapv-pointer", Form::Flag}, {"-pthread", Form::Flag},
    {"-fshort-wchar", Form::Flag}, {"-fno-strict-overflow", Form::Flag},
};

// -mllvm options kept, by name (without "-" and without "=value").
const char *const LLVMKept[] = {
    // The CFG-stabilizing flags (DESIGN.md) and register allocation.
    "disable-branch-fold", "enable-tail-merge", "branch-fold-placement",
    "disable-tail-duplicate", "tail-dup-placement", "enable-shrink-wrap",
    "stress-regalloc", "regalloc", "split-spill-mode", "enable-deferred-spilling",
    "consider-local-interval-cost", "exhaustive-register-search", "enable-local-reassign",
    "regalloc-csr-first-time-cost", "join-liveintervals", "join-splitedges",
    "join-globalcopies", "terminal-rule", "enable-ipra",
    // Scheduling, placement and other code-generation knobs.
    "enable-misched", "misched", "misched-topdown", "misched-bottomup",
    "enable-post-misched", "post-RA-scheduler", "pre-RA-sched", "disable-sched-hazard",
    "tail-dup-size", "tail-dup-indirect-size", "enable-ext-tsp-block-placement",
    "enable-machine-outliner", "enable-split-machine-functions", "align-all-functions",
    "align-all-blocks", "align-all-nofallthru-blocks", "disable-block-placement",
    "disable-early-taildup", "disable-machine-licm", "disable-machine-cse",
    "disable-machine-sink", "disable-copyprop", "disable-lsr", "x86-cmov-converter",
    "x86-use-base-pointer",
    // Middle-end knobs (the fast path's middle end runs them).
    "inline-threshold", "unroll-threshold", "unroll-count", "enable-loop-distribute",
    "enable-unroll-and-jam", "enable-loopinterchange", "force-vector-width",
    "force-vector-interleave", "slp-threshold", "enable-gvn-hoist", "enable-gvn-sink",
    "hot-cold-split",
};

// -mllvm options dropped: our compiles set their own (advisor, channel, logs, ThinLTO
// import), or they only write files (timing and statistics outputs).
const char *const LLVMDropped[] = {
    "regalloc-enable-advisor", "regalloc-evict-interactive-channel-base",
    "interactive-model-runner-echo-reply", "regalloc-training-log", "training-log",
    "inliner-interactive-channel-base", "thinlto-assume-merged", "info-output-file",
};

const char *const LLVMLoadsCode[] = {"load", "load-pass-plugin", "pass-plugin"};

// cc1 options that load code into the compiler.
const Rule LoadsCode[] = {
    {"-load", Form::Separate},         {"-load", Form::Joined},
    {"-fpass-plugin", Form::Joined},   {"-fplugin", Form::Joined},
    {"-add-plugin", Form::Separate},   {"-add-plugin", Form::Joined},
    {"-plugin", Form::Separate},       {"-plugin-arg-", Form::Joined},
    {"-load-pass-plugin", Form::Separate}, {"-load-pass-plugin", Form::Joined},
};
// clang-format on

/// Length of the rule's match on \p Word (0: none). Exact matches beat prefixes.
size_t matchLength(llvm::StringRef Word, const Rule &R) {
  llvm::StringRef Name(R.Name);
  if (R.Shape == Form::Joined)
    return Word.starts_with(Name) && Word.size() > Name.size() ? Name.size() : 0;
  return Word == Name ? Name.size() + 1000 : 0;
}

void findBest(llvm::StringRef Word, llvm::ArrayRef<Rule> Rules, OptionClass Class,
              size_t &Best, OptionMatch &Match) {
  for (const Rule &R : Rules)
    if (size_t Length = matchLength(Word, R); Length > Best) {
      Best = Length;
      Match = {Class, R.Shape == Form::Separate};
    }
}

bool contains(llvm::ArrayRef<const char *> Names, llvm::StringRef Name) {
  for (llvm::StringRef N : Names)
    if (N == Name)
      return true;
  return false;
}

} // namespace

OptionMatch classifyOption(llvm::StringRef Word) {
  size_t Best = 0;
  OptionMatch Match;
  findBest(Word, Kept, OptionClass::Keep, Best, Match);
  findBest(Word, Dropped, OptionClass::Drop, Best, Match);
  // Checked last and on any match, so that no table can shadow a plugin option.
  size_t Plugin = 0;
  OptionMatch Loads;
  findBest(Word, LoadsCode, OptionClass::LoadsCode, Plugin, Loads);
  return Plugin ? Loads : Match;
}

OptionClass classifyLLVMOption(llvm::StringRef Word) {
  // cl::opt accepts "-name", "--name", "-name=value" and "--name=value".
  if (!Word.consume_front("-"))
    return OptionClass::Unknown;
  Word.consume_front("-");
  llvm::StringRef Name = Word.split('=').first;
  if (contains(LLVMLoadsCode, Name))
    return OptionClass::LoadsCode;
  if (contains(LLVMKept, Name))
    return OptionClass::Keep;
  if (contains(LLVMDropped, Name))
    return OptionClass::Drop;
  return OptionClass::Unknown;
}

} // namespace mlgo
