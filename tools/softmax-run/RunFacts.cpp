//===- RunFacts.cpp - what a run found, for --json ------------------------===//
#include "RunFacts.h"

using namespace softmax_run;

RunFacts &RunFacts::get() {
  static RunFacts facts;
  return facts;
}

void RunFacts::print(llvm::raw_ostream &os, bool ok) const {
  llvm::json::Object object = facts;
  if (!checks.empty())
    object["checks"] = llvm::json::Array(checks);
  object["ok"] = ok;
  os << llvm::json::Value(std::move(object)) << "\n";
}
