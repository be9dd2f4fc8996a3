// Subcommands of the memplan command line; each lives in its own file and
// returns the process exit code, one of the constants below.
#pragma once

namespace memplan {
namespace cli {

// Exit codes of every subcommand (scripts rely on them; README.md lists
// them). A bad command line and an unusable input share code 2.
constexpr int kExitOk = 0;        // Everything holds.
constexpr int kExitFindings = 1;  // A violation, load failure or refusal.
constexpr int kExitUnusable = 2;  // Unreadable or invalid input.
constexpr int kExitUsage = 2;     // Unknown option, missing or bad value.

int RunCheck(int argc, char** argv);    // tools/check_command.cc
int RunInspect(int argc, char** argv);  // tools/inspect_command.cc
int RunPlan(int argc, char** argv);     // tools/plan_command.cc
int RunRender(int argc, char** argv);   // tools/render_command.cc
int RunVerify(int argc, char** argv);   // tools/verify_command.cc

}  // namespace cli
}  // namespace memplan
