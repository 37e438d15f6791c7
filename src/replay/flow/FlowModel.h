/// \file
/// The CPU as the flow engine (FlowSimulator.h) sees it, and each distinct instruction
/// as it times it. Everything comes from the data LLVM MCA uses for the same --mcpu,
/// derived once: the scheduling model's dispatch width, reorder buffer, retire width,
/// load and store queues, schedulers and processor resources, and per instruction
/// mca::InstrBuilder's description (micro-ops, write latencies, read advances, resource
/// cycles, buffers, loads and stores, zero and dependency-breaking idioms, movable
/// registers), flattened into small arrays. What the scheduling model does not say
/// about a target's instructions comes from its FlowTarget (FlowTarget.h).
#pragma once

#include "replay/engine/CoreProfile.h"
#include "replay/engine/McaInstructionBuilder.h"
#include "replay/engine/McaTarget.h"
#include "replay/flow/FlowInstruction.h"
#include "replay/flow/FlowTarget.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCSchedule.h"
#include "llvm/Support/Error.h"
#include <deque>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace mlgo {

/// One CPU's tables and its instructions' descriptions, shared by every flow core.
class FlowModel {
public:
  /// Fails for a CPU whose model the engine cannot time. \p Hooks: what the engine
  /// knows of Target's instructions beyond the model.
  static llvm::Expected<std::unique_ptr<FlowModel>>
  create(const McaTarget &Target, std::unique_ptr<FlowTarget> Hooks, CoreProfile Profile = {});

  /// The description of \p Inst; thread-safe.
  llvm::Expected<const FlowInstruction *> describe(const llvm::MCInst &Inst) const;

  /// What the core does beyond its scheduling model (CoreProfile.h).
  const CoreProfile &profile() const { return Profile; }
  unsigned dispatchWidth() const { return DispatchWidth; }
  unsigned reorderBuffer() const { return ReorderBuffer; }
  unsigned retireWidth() const { return RetireWidth; } ///< 0: any number a cycle
  unsigned loadQueue() const { return LoadQueue; }     ///< 0: unbounded
  unsigned storeQueue() const { return StoreQueue; }   ///< 0: unbounded
  /// Cycles from a mispredicted branch's resolution until the right instructions
  /// dispatch (MCSchedModel::MispredictPenalty).
  unsigned mispredictPenalty() const { return MispredictPenalty; }
  /// Register moves eliminated a cycle at most (0: none).
  unsigned movesEliminated() const { return MovesEliminated; }
  /// Cycles from a load's issue until its value is ready, from the cache
  /// (MCSchedModel::LoadLatency).
  unsigned loadLatency() const { return LoadLatency; }
  /// A scheduler's size, by the index FlowInstruction::Buffers holds.
  llvm::ArrayRef<unsigned> buffers() const { return BufferSizes; }
  /// Units of all processor resources ("lanes", at most 64), each busy or free in each
  /// cycle; the lanes a resource (a unit, or a group of units) can use, one bit each.
  unsigned numLanes() const { return NumLanes; }
  uint64_t lanes(uint16_t Resource) const { return Lanes[Resource]; }
  unsigned numResources() const { return Lanes.size(); }
  /// Register units (MCRegUnit): two registers overlap when they share one.
  unsigned numRegisterUnits() const { return NumRegisterUnits; }
  llvm::ArrayRef<uint16_t> units(llvm::MCPhysReg Register) const {
    return llvm::ArrayRef(Units).slice(UnitsBegin[Register],
                                       UnitsBegin[Register + 1] - UnitsBegin[Register]);
  }
  /// How many cycles earlier than its write's latency \p Read may use a value that a
  /// write of \p WriteResource produced.
  int readAdvance(const FlowRead &Read, uint16_t WriteResource) const {
    return Target.subtarget().getReadAdvanceCycles(Read.Advances, Read.UseIndex,
                                                    WriteResource);
  }

private:
  FlowModel(const McaTarget &Target, std::unique_ptr<FlowTarget> Hooks, CoreProfile Profile);
  llvm::Error initialize();
  llvm::Expected<std::unique_ptr<FlowInstruction>> derive(const llvm::MCInst &Inst) const;
  /// Also marks \p Reads of the stack pointer that the stack engine makes independent.
  void followFrame(const llvm::MCInst &Inst, FlowInstruction &D,
                   llvm::MutableArrayRef<FlowRead> Reads) const;

  const McaTarget &Target;
  std::unique_ptr<FlowTarget> Hooks;
  CoreProfile Profile;
  unsigned DispatchWidth = 1, ReorderBuffer = 1, RetireWidth = 0;
  unsigned LoadQueue = 0, StoreQueue = 0, MovesEliminated = 0, MispredictPenalty = 0;
  unsigned LoadLatency = 0;
  std::vector<unsigned> BufferSizes;
  /// By processor resource: its scheduler (BufferSizes index), -1 without.
  std::vector<int> BufferOfResource;
  /// By MCA's resource mask (llvm::mca::computeProcResourceMasks): the resource.
  std::unordered_map<uint64_t, uint16_t> ResourceOfMask;
  std::vector<uint64_t> Masks;
  unsigned NumLanes = 0;
  std::vector<uint64_t> Lanes;
  unsigned NumRegisterUnits = 0;
  std::vector<uint16_t> Units;
  std::vector<uint32_t> UnitsBegin;
  /// Register classes whose moves the register files eliminate.
  std::vector<unsigned> MovableClasses;
  /// The model declares no move elimination: the register moves the target renames
  /// are eliminated (FlowTarget::renamesMove), as many a cycle as dispatch allows.
  bool RenamesUndeclaredMoves = false;
  llvm::MCPhysReg FrameRegisters[2] = {0, 0}; ///< by FramePointer

  /// Descriptions by the instruction's opcode and operands.
  mutable std::mutex Lock;
  mutable std::unique_ptr<McaInstructionBuilder> Builder;
  mutable std::unordered_multimap<uint64_t, const FlowInstruction *> Described;
  mutable std::deque<std::unique_ptr<FlowInstruction>> Descriptions;
};

} // namespace mlgo
