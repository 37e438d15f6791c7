#!/usr/bin/env python3
"""bench/lib/headroom.py: the sampling and the analysis of bench/train-headroom.

  headroom.py sample DIR --mlgo M --perturb P --samples N --sigmas S... [--jobs J]
      [--mcpu CPU] [--replay-flag F]... [--seed-base B] [--objdump LLVM_OBJDUMP]
    DIR is a prepared program (bench/lib/programs.sh: subset/, train.bbtrace, build/).
    Writes DIR/policies/*.json (perturbations of `initial`), compiles the subset with each
    policy and with default, initial and poor (--record-decisions), replays the training
    trace exactly with each, and writes DIR/headroom.jsonl (one record a policy) and
    DIR/summary.json, and the module mix (DIR/variants/mix, DIR/mix.json). The variants'
    objects are kept (for the mix); their decision recordings only default's and
    initial's.
  headroom.py table OUT PROGRAM...
    OUT/table.md and OUT/result.tsv from OUT/PROGRAM/summary.json.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys


def fail(message):
    sys.stderr.write("bench/train-headroom: %s\n" % message)
    sys.exit(1)


def object_functions(objdump, path):
    """{symbol: instructions} of the functions of an object, disassembled. Addresses are
    dropped (a jump's target stays as symbol+offset): a call from one function to another
    in the same section is resolved by the assembler, so its bytes change when the
    callee's size changes, though the caller's own code has not."""
    text = subprocess.run([objdump, "-d", "--no-show-raw-insn", "--no-leading-addr", path],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if text.returncode != 0:
        fail("%s: %s" % (path, text.stderr.strip() or "llvm-objdump failed"))
    out, name, body = {}, None, []
    for line in text.stdout.splitlines() + [""]:
        m = re.match(r"^<(.+)>:$", line)
        if m:
            name, body = m.group(1), []
        elif name and line.strip():
            body.append(re.sub(r"0x[0-9a-f]+ <", "<", line.strip()))
        elif name:
            out[name], name = "\n".join(body), None
    return out


def variant_code(objdump, variant):
    """{module/symbol: instructions} of every object of a variant directory."""
    code = {}
    for root, _, files in os.walk(variant):
        for f in files:
            if f.endswith(".o"):
                path = os.path.join(root, f)
                module = os.path.relpath(path, variant)
                for symbol, body in object_functions(objdump, path).items():
                    code["%s/%s" % (module, symbol)] = body
    return code


def variant_decisions(variant):
    """{module/function: [decision, ...] in observation order} of a variant compiled
    with --record-decisions (none for `default`, which runs without the advisor)."""
    out = {}
    for root, _, files in os.walk(variant):
        for f in files:
            if not f.endswith(".decisions.jsonl"):
                continue
            path = os.path.join(root, f)
            module = os.path.relpath(path, variant)[:-len(".decisions.jsonl")]
            with open(path) as lines:
                next(lines)  # the header
                for line in lines:
                    r = json.loads(line)
                    key = "%s/%s" % (module, r["function"])
                    out.setdefault(key, []).append((r["observation"], r["decision"]))
    return {k: [d for _, d in sorted(v)] for k, v in out.items()}


def decisions_changed(mine, reference):
    """Decisions of MINE unlike REFERENCE's at the same observation of the same
    function, plus those one has beyond the other's count; and the functions with any."""
    changed, functions = 0, []
    for key in set(mine) | set(reference):
        a, b = mine.get(key, []), reference.get(key, [])
        n = sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))
        if n:
            changed += n
            functions.append(key)
    return changed, sorted(functions)


def run(cmd, log):
    with open(log, "a") as f:
        f.write("== %s\n" % " ".join(cmd))
        f.flush()
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=f, text=True)


def replay_command(args, d, trace, *variants):
    """mlgo-ra replay of TRACE (a file of DIR) with VARIANTS (--code X, or --corpus,
    --baseline and --candidate), as train rewards: the flow engine's exact replay,
    functions the subset lacks with the traced binary's code, as JSON."""
    return [args.mlgo, "replay", "--trace", os.path.join(d, trace), *variants, "--exact",
            "--json", "--mcpu", args.mcpu, "--on-cfg-mismatch", "baseline", "-j", "1",
            "--cache-dir", os.path.join(d, "cache"), *args.replay_flag]


def evaluate(args, d, policy, name, keep):
    """Compiles and replays one policy; its record (with its code and decisions, which
    the caller compares with the references'), or a record with its failure."""
    variant = os.path.join(d, "variants", name)
    log = os.path.join(d, "log", name + ".txt")
    c = run([args.mlgo, "compile", "--corpus", os.path.join(d, "subset"), "--policy", policy,
             "-o", variant, "--record-decisions", "-j", "1", "--cache-dir",
             os.path.join(d, "cache")], log)
    if c.returncode != 0:
        return {"policy": name, "failure": "compile exit %d" % c.returncode}
    r = run(replay_command(args, d, "train.bbtrace", "--code", variant, "--top", "1000000"),
            log)
    if r.returncode != 0:
        return {"policy": name, "failure": "replay exit %d" % r.returncode}
    replayed = json.loads(r.stdout)
    record = {"policy": name, "file": policy, "cycles": replayed["cycles"],
              "functions": {f["function"]: f["cycles"] for f in replayed["functions"]},
              "replayed_with_baseline_code": len(replayed["replayed_with_baseline_code"]),
              "code": variant_code(args.objdump, variant),
              "decisions": variant_decisions(variant)}
    if not keep:  # the objects stay, for the module mix; the recordings are large
        for root, _, files in os.walk(variant):
            for f in files:
                if f.endswith(".decisions.jsonl"):
                    os.remove(os.path.join(root, f))
    return record


def sample(args):
    d = args.dir
    os.makedirs(os.path.join(d, "policies"), exist_ok=True)
    os.makedirs(os.path.join(d, "log"), exist_ok=True)
    # (name, policy, sigma, seed): the built-ins, then SAMPLES perturbations of `initial`
    # at each sigma, each with its own seed (no two share a direction).
    todo = [(p, p, None, None) for p in ("default", "initial", "poor")]
    for i, sigma in enumerate(args.sigmas):
        for k in range(1, args.samples + 1):
            seed = args.seed_base + i * args.samples + k
            name = "s%g-%d" % (sigma, seed)
            path = os.path.join(d, "policies", name + ".json")
            p = run([args.perturb, "initial", "--sigma", repr(sigma), "--seed", str(seed),
                     "-o", path], os.path.join(d, "log", "perturb.txt"))
            if p.returncode != 0:
                fail("accuracy-perturb failed (see %s/log/perturb.txt)" % d)
            todo.append((name, path, sigma, seed))
    # default and initial first: the references of every other policy.
    refs = {n: evaluate(args, d, p, n, True) for n, p, _, _ in todo[:2]}
    for n, r in refs.items():
        if "failure" in r:
            fail("%s: %s failed: %s (see %s/log/%s.txt)" % (d, n, r["failure"], d, n))
    default, initial = refs["default"], refs["initial"]

    def summarize(item, record):
        name, _, sigma, seed = item
        out = {"policy": name, "sigma": sigma, "seed": seed}
        if "failure" in record:
            out["failure"] = record["failure"]
            return out
        code = record["code"]
        changed_code = sorted(k for k in set(code) | set(default["code"])
                              if code.get(k) != default["code"].get(k))
        n, dfun = decisions_changed(record["decisions"], initial["decisions"])
        # Code that differs may still time alike (other registers, the same spills).
        changed_cycles = sorted(f for f in set(record["functions"]) | set(default["functions"])
                                if record["functions"].get(f) != default["functions"].get(f))
        out.update({
            "cycles": record["cycles"],
            "speedup": default["cycles"] / record["cycles"] - 1,
            "functions": record["functions"],
            "replayed_with_baseline_code": record["replayed_with_baseline_code"],
            "code_changed_functions": changed_code,
            "cycles_changed_functions": changed_cycles,
            "decisions": sum(len(v) for v in record["decisions"].values()),
            "decisions_changed_vs_initial": n,
            "decision_functions_changed_vs_initial": dfun})
        return out

    records = [summarize(todo[0], default), summarize(todo[1], initial)]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(evaluate, args, d, p, n, False) for n, p, _, _ in todo[2:]]
        for item, f in zip(todo[2:], futures):
            records.append(summarize(item, f.result()))
    with open(os.path.join(d, "headroom.jsonl"), "w") as f:
        for r in records:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    module_mix(args, d, records, default)
    best = write_summary(d, records)["best"]
    # The best sample on the held-out trace (the program at twice the size): does its
    # gain hold on another input? Functions the subset lacks run the traced binary's code.
    if best and os.path.exists(os.path.join(d, "heldout.bbtrace")):
        h = run(replay_command(args, d, "heldout.bbtrace", "--corpus",
                               os.path.join(d, "subset"), "--baseline", "default",
                               "--candidate",
                               os.path.join(d, "policies", best["policy"] + ".json")),
                os.path.join(d, "log", "heldout.txt"))
        if h.returncode != 0:
            fail("%s: the held-out replay failed (see %s/log/heldout.txt)" % (d, d))
        with open(os.path.join(d, "heldout-best.json"), "w") as f:
            f.write(h.stdout)


def module_mix(args, d, records, default):
    """The module mix, a variant that exists: per module (object), the policy whose
    traced functions in it take the fewest cycles in all (default's if none does
    better), its object put in a copy of default's variant, and the whole replayed.
    Choosing per module keeps functions that share their cycles (a caller and a callee
    in one file, whose costs move between them) from being counted at their best
    twice. Writes DIR/mix.json ({module: policy} and the replay's cycles)."""
    module_of = {symbol(k): k.rsplit("/", 1)[0] for k in default["code"]}
    ok = [r for r in records if "failure" not in r]
    choice = {}
    for module in sorted(set(module_of.values())):
        fns = [f for f in default["functions"] if module_of.get(symbol(f)) == module]
        cost = lambda r: sum(r["functions"].get(f, default["functions"][f]) for f in fns)
        best = min(ok, key=lambda r: (cost(r), r["policy"] != "default"))
        choice[module] = best["policy"]
    mix = os.path.join(d, "variants", "mix")
    shutil.rmtree(mix, ignore_errors=True)
    shutil.copytree(os.path.join(d, "variants", "default"), mix)
    for module, policy in choice.items():
        shutil.copyfile(os.path.join(d, "variants", policy, module), os.path.join(mix, module))
    r = run(replay_command(args, d, "train.bbtrace", "--code", mix, "--top", "1000000"),
            os.path.join(d, "log", "mix.txt"))
    if r.returncode != 0:
        fail("%s: the module mix's replay failed (see %s/log/mix.txt)" % (d, d))
    with open(os.path.join(d, "mix.json"), "w") as f:
        json.dump({"modules": choice, "cycles": json.loads(r.stdout)["cycles"]}, f, indent=1)


def write_summary(d, records):
    """Writes DIR/summary.json and returns it."""
    sigmas = sorted({r["sigma"] for r in records if r["sigma"] is not None})
    summary = analyse(records, sigmas)
    with open(os.path.join(d, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
    return summary


def symbol(function):
    """The symbol of a replayed function ("file.c:name" for a local one, else "name") or
    of a code key ("module/name")."""
    return function.rsplit("/", 1)[-1].rsplit(":", 1)[-1]


def analyse(records, sigmas):
    ok = [r for r in records if "failure" not in r]
    default = next(r for r in ok if r["policy"] == "default")
    initial = next(r for r in ok if r["policy"] == "initial")
    d_cycles = default["cycles"]
    sampled = [r for r in ok if r["sigma"] is not None]
    best = max(sampled, key=lambda r: r["speedup"]) if sampled else None
    per_sigma = []
    for s in sigmas:
        at = [r for r in records if r["sigma"] == s]
        good = [r for r in at if "failure" not in r]
        sp = sorted(r["speedup"] for r in good)
        per_sigma.append({
            "sigma": s, "samples": len(at), "failed": len(at) - len(good),
            "best": sp[-1] if sp else None, "median": sp[len(sp) // 2] if sp else None,
            "worst": sp[0] if sp else None,
            "faster": sum(x > 0 for x in sp), "slower": sum(x < 0 for x in sp),
            "code_differs": sum(bool(r["code_changed_functions"]) for r in good),
            "best_over_initial": (initial["cycles"] / min(r["cycles"] for r in good) - 1
                                  if good else None)})
    # The oracle mix: each function's fewest cycles among every policy replayed (default
    # included), summed. Functions a policy's replay lacks keep default's count. The
    # strict mix takes a function's cycles only from policies that changed its code (a
    # function whose code is default's still times a little differently beside changed
    # neighbours; that is not a choice made for it); where it lies: `where`.
    changed = {r["policy"]: {symbol(k) for k in r["code_changed_functions"]} for r in ok}
    oracle, strict, where = 0, 0, []
    for fn, dc in default["functions"].items():
        oracle += min(r["functions"].get(fn, dc) for r in ok)
        bestc, bestp = dc, "default"
        for r in ok:
            c = r["functions"].get(fn, dc)
            if c < bestc and symbol(fn) in changed[r["policy"]]:
                bestc, bestp = c, r["policy"]
        strict += bestc
        if bestc < dc:
            where.append({"function": fn, "default_cycles": dc, "best_cycles": bestc,
                          "policy": bestp, "share": (dc - bestc) / d_cycles})
    listed = sum(default["functions"].values())
    where.sort(key=lambda w: -w["share"])
    code_fns = sorted({k for r in ok for k in r["code_changed_functions"]})
    dec_fns = sorted({k for r in ok if r["sigma"] is not None
                      for k in r["decision_functions_changed_vs_initial"]})
    return {
        "default_cycles": d_cycles,
        "unlisted_cycles": d_cycles - listed,
        "traced_functions": len(default["functions"]),
        "initial_speedup": initial["speedup"],
        "initial_code_changed_functions": initial["code_changed_functions"],
        "poor_speedup": next((r["speedup"] for r in ok if r["policy"] == "poor"), None),
        "policies": len(records), "failed": len(records) - len(ok),
        "best": None if best is None else {
            "policy": best["policy"], "sigma": best["sigma"], "speedup": best["speedup"],
            "over_initial": initial["cycles"] / best["cycles"] - 1,
            "code_changed_functions": best["code_changed_functions"],
            "decisions_changed_vs_initial": best["decisions_changed_vs_initial"],
            "decisions": best["decisions"]},
        "per_sigma": per_sigma,
        "oracle_cycles": oracle, "oracle_speedup": d_cycles / oracle - 1,
        "oracle_over_initial": initial["cycles"] / oracle - 1,
        "strict_oracle_cycles": strict, "strict_oracle_speedup": d_cycles / strict - 1,
        "headroom_functions": where,
        "policies_cycles_differ": sum(r["cycles"] != d_cycles for r in ok
                                      if r["policy"] != "default"),
        "cycles_changed_functions": sorted({k for r in ok for k in r["cycles_changed_functions"]}),
        "policies_code_differs": sum(bool(r["code_changed_functions"]) for r in ok
                                     if r["policy"] != "default"),
        "code_changed_functions": code_fns,
        "decisions_initial": initial["decisions"],
        "decisions_changed_max": max((r["decisions_changed_vs_initial"] for r in sampled),
                                     default=0),
        "decision_functions_changed": dec_fns}


def pct(x, digits=2):
    return "-" if x is None else "%+.*f%%" % (digits, 100 * x)


def table(args):
    rows, tsv = [], []
    for name in args.programs:
        records = os.path.join(args.out, name, "headroom.jsonl")
        if not os.path.exists(records):
            continue
        write_summary(os.path.join(args.out, name), [json.loads(l) for l in open(records)])
        s = json.load(open(os.path.join(args.out, name, "summary.json")))
        held = os.path.join(args.out, name, "heldout-best.json")
        held = json.load(open(held))["speedup"] if os.path.exists(held) else None
        mix = os.path.join(args.out, name, "mix.json")
        mix = (s["default_cycles"] / json.load(open(mix))["cycles"] - 1
               if os.path.exists(mix) else None)
        b = s["best"]
        top = "; ".join("`%s` %d→%d (%s)" % (w["function"], w["default_cycles"],
                                             w["best_cycles"], pct(w["share"]))
                        for w in s["headroom_functions"][:3]) or "none"
        by_sigma = ", ".join("%g: %s" % (p["sigma"], pct(p["best"], 3))
                             for p in s["per_sigma"])
        rows.append("| %s | %d | %s | %s | %s (σ %g; %d fn of code, %d of %d decisions) | %s | "
                    "%s | %s | %s | %s | %s | %s | %d, %d of %d | %d, %d of %d | %d of %d (%d fn) | %s |" % (
                        name, s["default_cycles"], pct(s["initial_speedup"], 3),
                        pct(s["poor_speedup"], 1), pct(b["speedup"], 3), b["sigma"],
                        len(b["code_changed_functions"]), b["decisions_changed_vs_initial"],
                        b["decisions"], pct(b["over_initial"], 3), pct(held, 3), by_sigma,
                        pct(s["oracle_speedup"], 3), pct(s["strict_oracle_speedup"], 3),
                        pct(mix, 3), top,
                        s["policies_code_differs"], s["policies_cycles_differ"],
                        s["policies"] - 1, len(s["code_changed_functions"]),
                        len(s["cycles_changed_functions"]), s["traced_functions"],
                        s["decisions_changed_max"], s["decisions_initial"],
                        len(s["decision_functions_changed"]), s["failed"]))
        tsv.append("\t".join(str(x) for x in (
            name, s["default_cycles"], s["initial_speedup"], s["poor_speedup"], b["policy"],
            b["sigma"], b["speedup"], b["over_initial"], held, s["oracle_speedup"],
            s["strict_oracle_speedup"], mix, s["oracle_over_initial"], s["policies_code_differs"],
            s["policies_cycles_differ"], s["policies"] - 1, len(s["code_changed_functions"]),
            len(s["cycles_changed_functions"]), s["traced_functions"],
            s["decisions_changed_max"], s["decisions_initial"], s["failed"])))
    if not rows:
        fail("no program done in %s" % args.out)
    head = ("Predicted by `mlgo-ra replay --exact` (flow engine, `--mcpu %s`%s) on the training "
            "trace: speedup over `default`. Best sampled: the best perturbation of `initial` "
            "(with the functions whose code differs from default's, and its eviction "
            "decisions unlike initial's at the same observation). Oracle mix: each traced "
            "function's fewest cycles among all the policies, summed; strict: only from "
            "policies that changed that function's code. Module mix: per object file the "
            "policy whose traced functions there take the fewest cycles, those objects "
            "put together and replayed. Policies: how many of all but "
            "`default` change the code, the cycles. Functions: changed in code, in cycles, "
            "by any policy, of the traced ones. Decisions: the most any sample changes, "
            "of initial's, and the functions where any does. Best held out: the best sample's "
            "speedup over `default` on the held-out trace.\n\n"
            "| program | default cycles | initial | poor | best sampled | best over initial | "
            "best held out | "
            "best per σ | oracle mix | strict mix | module mix, replayed | top headroom (default→best cycles, share "
            "of the program) | policies: code, cycles differ | functions: code, cycles "
            "changed | decisions changed | failed |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
            % (args.mcpu, "".join(" `%s`" % f for f in args.replay_flag)))
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write(head + "\n".join(rows) + "\n")
    with open(os.path.join(args.out, "result.tsv"), "w") as f:
        f.write("\n".join(tsv) + "\n")
    sys.stdout.write(head + "\n".join(rows) + "\n")


def main():
    p = argparse.ArgumentParser(prog="headroom.py")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sample")
    s.add_argument("dir")
    s.add_argument("--mlgo", required=True)
    s.add_argument("--perturb", required=True)
    s.add_argument("--samples", type=int, default=40)
    s.add_argument("--sigmas", type=float, nargs="+", default=[0.05, 0.2, 0.5, 1.0])
    s.add_argument("--seed-base", type=int, default=0)
    s.add_argument("--jobs", type=int, default=2)
    s.add_argument("--mcpu", default="skylake")
    s.add_argument("--replay-flag", action="append", default=[],
                   help="one more option of every replay (repeatable)")
    s.add_argument("--objdump", default="llvm-objdump")
    t = sub.add_parser("table")
    t.add_argument("out")
    t.add_argument("programs", nargs="+")
    t.add_argument("--mcpu", default="skylake")
    t.add_argument("--replay-flag", action="append", default=[])
    args = p.parse_args()
    if args.command == "sample":
        if args.samples < 1 or args.jobs < 1 or any(not x > 0 for x in args.sigmas):
            fail("--samples and --jobs must be at least 1, every sigma positive")
        sample(args)
    else:
        table(args)


if __name__ == "__main__":
    main()
