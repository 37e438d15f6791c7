#include "RunDirectory.h"
#include "TestSupport.h"
#include "support/Warning.h"
#include "train/Train.h"

using namespace mlgo;
using namespace mlgo::test;

TEST_CASE("train writes only into a new, empty or earlier run's directory", "[train]") {
  std::string Dir = makeTempDir("run-directory");
  requireSuccess(checkRunDirectory(Dir + "/new", false));
  CHECK(requireError(checkRunDirectory(Dir + "/new", true)) ==
        Dir + "/new/checkpoint.json: does not exist: nothing to resume");
  requireSuccess(checkRunDirectory(Dir, false)); // empty

  // A run stopped before its first checkpoint: its lock and files only.
  writeFile(Dir + "/stopped/lock", "");
  writeFile(Dir + "/stopped/work/cache/x", "");
  writeFile(Dir + "/stopped/log.jsonl", "");
  writeFile(Dir + "/stopped/shortlist.json", "[]");
  writeFile(Dir + "/stopped/shortlist/1.json", "{}");
  requireSuccess(checkRunDirectory(Dir + "/stopped", false));

  writeFile(Dir + "/mine/policy.json", "{}");
  writeFile(Dir + "/mine/lock", "");
  writeFile(Dir + "/mine/notes.txt", "");
  CHECK(requireError(checkRunDirectory(Dir + "/mine", false)) ==
        Dir + "/mine/policy.json: would be overwritten: " + Dir +
            "/mine is not a training directory; train into a new or empty directory");
  writeFile(Dir + "/other/notes.txt", "");
  CHECK(requireError(checkRunDirectory(Dir + "/other", true)) ==
        Dir + "/other: is not empty and not a training directory; train into a new or "
              "empty directory");
  CHECK(requireError(checkRunDirectory(Dir + "/other/notes.txt", false)) ==
        Dir + "/other/notes.txt: is not a directory");

  writeFile(Dir + "/run/checkpoint.json",
            R"({"format": "mlgo-ra.train-checkpoint", "version": 1})");
  writeFile(Dir + "/run/notes.txt", "");
  requireSuccess(checkRunDirectory(Dir + "/run", true));
  writeFile(Dir + "/policy/checkpoint.json", R"({"format": "mlgo-ra-policy"})");
  CHECK(requireError(checkRunDirectory(Dir + "/policy", true)) ==
        Dir + "/policy/checkpoint.json: not a training checkpoint (format 'mlgo-ra-policy')");
}

TEST_CASE("A resumed run's log must be its checkpoint's", "[train]") {
  std::string Dir = makeTempDir("run-log");
  std::string Log = Dir + "/log.jsonl";
  writeFile(Log, "{\"step\":0,\"a\":1}\n{\"step\":1}\n{\"step\":2}\n");
  requireSuccess(truncateLog(Log, 2)); // step 2 was logged, not checkpointed
  CHECK(readFile(Log) == "{\"step\":0,\"a\":1}\n{\"step\":1}\n");
  CHECK(requireError(truncateLog(Log, 3)) ==
        Log + ": records 2 steps, but the checkpoint is at step 3: the log is not the "
              "checkpoint's");
  writeFile(Log, "{\"step\":0}\n{\"step\":-1}\n");
  CHECK(requireError(truncateLog(Log, 1)) == Log + ": line 2 is not a step record");
  writeFile(Log, "{\"step\":1}\n");
  CHECK(requireError(truncateLog(Log, 1)) ==
        Log + ": line 1 records step 1, not 0: the log is not the checkpoint's");
  CHECK(requireError(truncateLog(Dir + "/none.jsonl", 1)).find("none.jsonl: cannot read") !=
        std::string::npos);
  requireSuccess(truncateLog(Dir + "/none.jsonl", 0));
}

TEST_CASE("A resumed run's log keeps the validations of its steps", "[train]") {
  std::string Dir = makeTempDir("run-validated");
  std::string Log = Dir + "/log.jsonl";
  writeFile(Log, "{\"step\":0}\n{\"validation\":{\"steps\":1}}\n{\"step\":1}\n"
                 "{\"validation\":{\"steps\":2}}\n");
  requireSuccess(truncateLog(Log, 1)); // the run was validated after 2 steps, then cut
  CHECK(readFile(Log) == "{\"step\":0}\n{\"validation\":{\"steps\":1}}\n");
  writeFile(Log, "{\"step\":0}\n{\"validation\":{}}\n");
  CHECK(requireError(truncateLog(Log, 1)) == Log + ": line 2 is not a validation record");
}

TEST_CASE("A resumed run drops its log's unfinished last record, saying so", "[train]") {
  std::string Dir = makeTempDir("run-log-cut");
  std::string Log = Dir + "/log.jsonl";
  std::vector<std::string> Warnings;
  setWarningSink([&](llvm::StringRef W) { Warnings.push_back(W.str()); });
  // A full disk cut the record of step 2 short: the checkpoint is at step 2.
  writeFile(Log, "{\"step\":0}\n{\"step\":1}\n{\"step\":2,\"unpert");
  requireSuccess(truncateLog(Log, 2));
  CHECK(readFile(Log) == "{\"step\":0}\n{\"step\":1}\n");
  CHECK(Warnings == std::vector<std::string>{
                        Log + ": dropping its unfinished last line (17 bytes), a record cut "
                              "short"});
  // A whole record whose newline was not written is kept; a cut line before the last
  // is no short write, and still an error.
  Warnings.clear();
  writeFile(Log, "{\"step\":0}\n{\"step\":1}");
  requireSuccess(truncateLog(Log, 2));
  CHECK(readFile(Log) == "{\"step\":0}\n{\"step\":1}\n");
  CHECK(Warnings.empty());
  writeFile(Log, "{\"step\":0}\n{\"ste\n{\"step\":1}\n");
  CHECK(requireError(truncateLog(Log, 2)) == Log + ": line 2 is not a step record");
  setWarningSink(nullptr);
}
