// Subcommands of the memplan command line; each lives in its own file and
// returns the process exit code (0 ok, 1 findings, 2 unusable input/usage).
#pragma once

namespace memplan {
namespace cli {

int RunCheck(int argc, char** argv);    // tools/check_command.cc
int RunInspect(int argc, char** argv);  // tools/inspect_command.cc
int RunPlan(int argc, char** argv);     // tools/plan_command.cc
int RunRender(int argc, char** argv);   // tools/render_command.cc
int RunVerify(int argc, char** argv);   // tools/verify_command.cc

}  // namespace cli
}  // namespace memplan
