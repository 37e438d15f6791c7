/// \file
/// Training on the ranks of an MPI job. Per step: the leader broadcasts a header
/// (continue, step, parameter count) and the parameters; afterwards each rank sends the
/// JSON of its evaluations to the leader (MPI_Gatherv). Only the main thread calls MPI.
#include "Team.h"
#include "support/Error.h"

#include <mpi.h>

namespace mlgo {

namespace {

class MpiTeam : public Team {
public:
  MpiTeam() {
    int R = 0, S = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &R);
    MPI_Comm_size(MPI_COMM_WORLD, &S);
    Rank = unsigned(R);
    Size = unsigned(S);
  }
  ~MpiTeam() override { MPI_Finalize(); }

  unsigned rank() const override { return Rank; }
  unsigned size() const override { return Size; }

  llvm::Expected<bool> shareStep(uint64_t &Step, std::vector<float> &Parameters) override {
    uint64_t Header[3] = {1, Step, Parameters.size()};
    MPI_Bcast(Header, 3, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (Header[0] == 0)
      return false;
    Step = Header[1];
    Parameters.resize(Header[2]);
    MPI_Bcast(Parameters.data(), int(Parameters.size()), MPI_FLOAT, 0, MPI_COMM_WORLD);
    return true;
  }

  void release() override {
    uint64_t Header[3] = {0, 0, 0};
    MPI_Bcast(Header, 3, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  }

  llvm::Error gather(std::vector<StepEvaluation> &Evaluations) override {
    Json Mine = Json::array();
    for (size_t I = Rank; I < Evaluations.size(); I += Size)
      Mine.push_back(Evaluations[I].toJSON());
    std::string Bytes = dumpJson(Mine, -1);
    int Length = int(Bytes.size());
    std::vector<int> Lengths(Size), Offsets(Size);
    MPI_Gather(&Length, 1, MPI_INT, Lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::string All;
    if (Rank == 0) {
      for (unsigned R = 0, Total = 0; R < Size; Total += Lengths[R++])
        Offsets[R] = int(Total);
      All.resize(size_t(Offsets.back()) + Lengths.back());
    }
    MPI_Gatherv(Bytes.data(), Length, MPI_CHAR, All.data(), Lengths.data(), Offsets.data(),
                MPI_CHAR, 0, MPI_COMM_WORLD);
    if (Rank != 0)
      return llvm::Error::success();
    for (unsigned R = 1; R < Size; ++R) {
      Json Theirs = Json::parse(All.substr(Offsets[R], Lengths[R]), nullptr, false);
      if (!Theirs.is_array())
        return stageError("rank {} sent malformed evaluations", R);
      size_t I = R;
      for (const Json &Value : Theirs) {
        auto E = StepEvaluation::fromJSON(Value);
        if (!E)
          return E.takeError();
        if (I >= Evaluations.size())
          return stageError("rank {} sent more evaluations than it had", R);
        Evaluations[I] = std::move(*E);
        I += Size;
      }
    }
    return llvm::Error::success();
  }

  [[noreturn]] void abort(int Code) override {
    MPI_Abort(MPI_COMM_WORLD, Code);
    std::exit(Code);
  }

private:
  unsigned Rank = 0, Size = 1;
};

} // namespace

bool haveMpi() { return true; }

llvm::Expected<std::unique_ptr<Team>> mpiTeam() {
  int Initialized = 0;
  MPI_Initialized(&Initialized);
  if (!Initialized) {
    int Provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &Provided) != MPI_SUCCESS)
      return stageError("cannot initialize MPI");
  }
  return std::make_unique<MpiTeam>();
}

} // namespace mlgo
