//===- Report.cpp - what softmax-run prints and appends -------------------===//
#include "Report.h"

#include "RunFacts.h"

#include "blk/Runtime/Files.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

using namespace softmax_run;

static bool reportGoesToStandardError = false;

void softmax_run::reportToStandardError(bool toStandardError) {
  reportGoesToStandardError = toStandardError;
}

llvm::raw_ostream &softmax_run::report() {
  return reportGoesToStandardError ? llvm::errs() : llvm::outs();
}

int softmax_run::fail(const std::string &message) {
  llvm::errs() << "softmax-run: " << message << "\n";
  RunFacts::get().set("error", message);
  return 1;
}

double
softmax_run::millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

bool softmax_run::writeOutputFile(
    const std::string &path,
    llvm::function_ref<void(llvm::raw_ostream &)> write) {
  std::string text;
  llvm::raw_string_ostream os(text);
  write(os);
  if (blk::runtime::Status status = blk::runtime::writeFileWhole(path, text);
      !status) {
    fail(status.message());
    return false;
  }
  return true;
}

void softmax_run::reportCompileTimes(const RunOptions &options,
                                     const mlir::blk::CompileTimes &times,
                                     double loadMs) {
  RunFacts::get().set("compile", llvm::json::Object{
                                     {"cache_hit", times.cacheHit},
                                     {"lookup_ms", times.lookup},
                                     {"compile_ms", times.compile},
                                     {"load_ms", loadMs}});
  if (!options.verbose)
    return;
  report() << "  compile: " << (times.cacheHit ? "cache hit" : "compiled")
           << ", look-up " << llvm::format("%.2f", times.lookup)
           << " ms, compile " << llvm::format("%.2f", times.compile)
           << " ms, load " << llvm::format("%.2f", loadMs) << " ms\n";
}

/// Adds a row to the CSV: the file is rewritten through a temporary file
/// renamed over it, so a failed write leaves the rows it had.
/// `target` says where the row was measured ("cpu", "gpu NVIDIA H200
/// sm_90"); rows are only added to a file with the same columns.
static bool appendCsv(const std::string &csvPath, const Problem &problem,
                      const std::string &provider, double gbps,
                      std::string target) {
  const llvm::StringRef header = "dtype,M,N,provider,gbps,target\n";
  std::string previous = header.str();
  if (llvm::sys::fs::is_regular_file(csvPath)) {
    auto file = llvm::MemoryBuffer::getFile(csvPath);
    if (!file) {
      fail("cannot read " + csvPath + ": " + file.getError().message());
      return false;
    }
    previous = (*file)->getBuffer().str();
    if (!previous.empty() && !llvm::StringRef(previous).starts_with(header)) {
      fail(csvPath + " has other columns than " + header.rtrim().str() +
           " (written by an older softmax-run?); give a new file");
      return false;
    }
    if (!previous.empty() && previous.back() != '\n')
      previous += '\n';
    if (previous.empty())
      previous = header.str();
  }
  std::replace(target.begin(), target.end(), ',', ' ');
  return writeOutputFile(csvPath, [&](llvm::raw_ostream &csv) {
    csv << previous << blk::runtime::elementTypeName(problem.type()) << ","
        << problem.rows() << "," << problem.cols() << "," << provider << ","
        << llvm::format("%.1f", gbps) << "," << target << "\n";
  });
}

bool softmax_run::reportBench(const RunOptions &options,
                              const Problem &problem,
                              const std::string &kernel,
                              const std::string &target,
                              const Timing &timing) {
  double gbps = double(timing.movedBytes) / (timing.milliseconds * 1e6);
  report() << "  bench: " << llvm::format("%.4f", timing.milliseconds)
           << " ms (median of " << timing.runs << timing.how << "), "
           << llvm::format("%.1f", gbps) << " GB/s";
  if (timing.copyGBps > 0)
    report() << " = " << llvm::format("%.1f", 100 * gbps / timing.copyGBps)
             << "% of a " << timing.copyKind << " copy ("
             << llvm::format("%.1f", timing.copyGBps) << " GB/s)";
  // A product's work is its multiply-adds: 2 M N K operations, and
  // attention's two products 4 M N K (B H of them; half of it causal).
  using blk::runtime::ReferenceKind;
  double instances = double(problem.batch) * double(problem.heads);
  double products = double(problem.rows()) * double(problem.cols()) *
                    double(problem.desc.inner) * instances /
                    (timing.milliseconds * 1e9);
  bool attention = problem.reference == ReferenceKind::attention;
  bool causal = attention && problem.causal;
  double tflops = attention ? (causal ? 2 : 4) * products : 2 * products;
  if (tflops > 0)
    report() << ", " << llvm::format("%.1f", tflops) << " TFLOP/s"
             << (attention ? (causal ? " (2 B H M N K: causal attention)"
                                     : " (4 B H M N K: attention)")
                           : " (2 M N K)");
  report() << "\n";
  llvm::json::Object bench{
      {"ms", timing.milliseconds}, {"runs", timing.runs}, {"gbps", gbps}};
  if (tflops > 0)
    bench["tflops"] = tflops;
  if (timing.copyGBps > 0) {
    bench["copy_gbps"] = timing.copyGBps;
    bench["percent_of_copy"] = 100 * gbps / timing.copyGBps;
  }
  RunFacts::get().set("bench", std::move(bench));
  if (options.csvPath.empty())
    return true;
  return appendCsv(options.csvPath, problem,
                   options.provider.empty() ? "blk-" + kernel
                                            : options.provider,
                   gbps, target);
}
