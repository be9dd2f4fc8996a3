// The mutation score of the suite: every planted planner bug must be
// reported by the oracle with its expected code, on the planner's plan or
// on the plan read back from the emitted program.
#include "properties/mutants.h"

#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "properties/report.h"

namespace memplan {
namespace properties {
namespace {

std::string Join(const std::set<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ",") + name;
  return out.empty() ? "-" : out;
}

TEST(MutantsTest, EveryPlantedPlannerBugIsKilled) {
  const std::vector<Mutant> mutants = PlannerMutants();
  ASSERT_EQ(mutants.size(), 7u);
  std::ostringstream table;
  table << "mutant                          killed-by"
        << "                                                              code"
        << "          killed/applicable\n";
  int killed_mutants = 0;
  for (const Mutant& mutant : mutants) {
    MutantOutcome outcome = RunMutant(mutant);
    char line[512];
    std::snprintf(line, sizeof(line), "%-31s %-70s %-13s %d/%d\n",
                  mutant.name.c_str(), Join(outcome.killed_by).c_str(),
                  ViolationCodeName(mutant.expected), outcome.killed,
                  outcome.applicable);
    table << line;
    EXPECT_TRUE(outcome.baseline_failure.empty())
        << mutant.name << ": an unmutated plan was not clean:\n"
        << outcome.baseline_failure;
    EXPECT_GT(outcome.applicable, 0) << mutant.name << " never applied";
    EXPECT_GT(outcome.killed, 0) << mutant.name << " survived every case";
    if (mutant.every_case) {
      EXPECT_EQ(outcome.killed, outcome.applicable) << mutant.name;
    }
    if (mutant.always_flagged) {
      EXPECT_TRUE(outcome.first_survivor.empty())
          << mutant.name << " passed every check on:\n"
          << outcome.first_survivor;
    }
    if (outcome.killed > 0) ++killed_mutants;
  }
  table << "mutation score: " << killed_mutants << "/" << mutants.size()
        << "\n";
  std::cout << table.str();
  EXPECT_EQ(killed_mutants, 7);
}

}  // namespace
}  // namespace properties
}  // namespace memplan
