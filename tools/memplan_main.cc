// memplan: the command line. Each subcommand lives in its own file
// (tools/*_command.cc) and returns the process exit code.
#include <cstdio>
#include <cstring>
#include <string>

#include "tools/commands.h"

namespace {

struct Subcommand {
  const char* name;
  int (*run)(int argc, char** argv);
  const char* summary;
};

constexpr Subcommand kSubcommands[] = {
    {"check", memplan::cli::RunCheck,
     "plan, judge, emit and load every example graph and real program"},
    {"inspect", memplan::cli::RunInspect,
     "show a program's methods, buffers and planned tensors"},
    {"plan", memplan::cli::RunPlan,
     "plan a graph (or a MiniMalloc CSV) and emit a program"},
    {"render", memplan::cli::RunRender,
     "draw one plan as SVG (time x offset, a panel per buffer)"},
    {"verify", memplan::cli::RunVerify,
     "check any planner's plan (.pte, .csv, .json) against the oracle"},
};

void PrintUsage(FILE* out) {
  std::fprintf(out, "usage: memplan <command> [args]\n\ncommands:\n");
  for (const Subcommand& sub : kSubcommands) {
    std::fprintf(out, "  %-8s %s\n", sub.name, sub.summary);
  }
  std::fprintf(out, "\n'memplan <command> --help' describes one command.\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    PrintUsage(stderr);
    return memplan::cli::kExitUsage;
  }
  std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    PrintUsage(stdout);
    return memplan::cli::kExitOk;
  }
  for (const Subcommand& sub : kSubcommands) {
    if (command == sub.name) return sub.run(argc - 1, argv + 1);
  }
  std::fprintf(stderr, "memplan: unknown command '%s'\n\n", command.c_str());
  PrintUsage(stderr);
  return memplan::cli::kExitUsage;
}
