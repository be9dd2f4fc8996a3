#include "planner/slack_spread.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>

namespace memplan {
namespace planner {
namespace {

// Each section's growth: what the spread adds up to there.
std::vector<uint64_t> GrowthPerSection(const std::vector<SectionSpan>& items,
                                       const std::vector<uint64_t>& growth,
                                       size_t sections) {
  std::vector<uint64_t> total(sections, 0);
  for (size_t i = 0; i < items.size(); ++i) {
    for (uint32_t t = items[i].lo; t <= items[i].hi; ++t) total[t] += growth[i];
  }
  return total;
}

// Spans over `sections` sections and growths for them: their sums are a
// slack that has a spread.
struct Grown {
  size_t sections;
  std::vector<SectionSpan> items;
  std::vector<uint64_t> growth;
};

rc::Gen<Grown> GenGrown() {
  return rc::gen::mapcat(rc::gen::inRange<size_t>(1, 40), [](size_t sections) {
    auto span = rc::gen::mapcat(
        rc::gen::inRange<uint32_t>(0, static_cast<uint32_t>(sections)),
        [sections](uint32_t lo) {
          return rc::gen::map(
              rc::gen::inRange<uint32_t>(lo, static_cast<uint32_t>(sections)),
              [lo](uint32_t hi) {
                return SectionSpan{lo, hi};
              });
        });
    return rc::gen::map(
        rc::gen::nonEmpty(
            rc::gen::container<std::vector<std::pair<SectionSpan, uint64_t>>>(
                rc::gen::pair(span, rc::gen::inRange<uint64_t>(0, 1'000'000)))),
        [sections](const std::vector<std::pair<SectionSpan, uint64_t>>& all) {
          Grown grown{sections, {}, {}};
          for (const auto& [span, growth] : all) {
            grown.items.push_back(span);
            grown.growth.push_back(growth);
          }
          return grown;
        });
  });
}

// Planted by hand and reverted: each item's arc ending at hi instead of
// hi + 1, or the last node's demand dropped, fails this property at once
// (and the tests below); costs that ignore the seed fail
// SeedsChooseWhichItemsGrowAndPinTheChoice.
RC_GTEST_PROP(SlackSpread, FillsEverySectionWhereSomeSpreadDoes, ()) {
  const Grown grown = *GenGrown();
  const std::vector<uint64_t> slack =
      GrowthPerSection(grown.items, grown.growth, grown.sections);
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  const std::optional<std::vector<uint64_t>> spread =
      SpreadSlack(grown.items, slack, seed);
  RC_ASSERT(spread.has_value());
  RC_ASSERT(spread->size() == grown.items.size());
  RC_ASSERT(GrowthPerSection(grown.items, *spread, grown.sections) == slack);
}

TEST(SlackSpread, RefusesSlackThatNoGrowthMakes) {
  // Items over sections 0-1 and 1-2: slack in section 1 alone would need
  // one of them to grow there and not in its other section.
  const std::vector<SectionSpan> items = {{0, 1}, {1, 2}};
  EXPECT_EQ(SpreadSlack(items, {0, 5, 0}, 1), std::nullopt);
  // Less slack in the middle than at either side: someone must shrink.
  EXPECT_EQ(SpreadSlack(items, {4, 3, 4}, 1), std::nullopt);
  // Slack in a section that no item lives in.
  EXPECT_EQ(SpreadSlack({{0, 0}}, {0, 2}, 1), std::nullopt);
  // The same spans with slack they can take.
  EXPECT_THAT(SpreadSlack(items, {4, 8, 4}, 1),
              testing::Optional(testing::ElementsAre(4u, 4u)));
}

TEST(SlackSpread, RefusesSpansOutsideTheSectionsAndHugeSlack) {
  EXPECT_EQ(SpreadSlack({{0, 3}}, {1, 1, 1}, 1), std::nullopt);
  EXPECT_EQ(SpreadSlack({{2, 1}}, {1, 1, 1}, 1), std::nullopt);
  // Rises adding up to 2^62 + 2 units.
  const uint64_t half = (uint64_t{1} << 61) + 1;
  EXPECT_EQ(SpreadSlack({{0, 0}, {2, 2}}, {half, 0, half}, 1), std::nullopt);
  EXPECT_THAT(SpreadSlack({{0, 0}, {2, 2}}, {half - 1, 0, half - 1}, 1),
              testing::Optional(testing::ElementsAre(half - 1, half - 1)));
}

TEST(SlackSpread, SeedsChooseWhichItemsGrowAndPinTheChoice) {
  // Three items of one lifetime: any of them can take all of the slack.
  const std::vector<SectionSpan> items = {{0, 2}, {0, 2}, {0, 2}};
  std::set<std::vector<uint64_t>> seen;
  for (uint64_t seed = 0; seed < 32; ++seed) {
    const std::optional<std::vector<uint64_t>> spread =
        SpreadSlack(items, {7, 7, 7}, seed);
    ASSERT_TRUE(spread.has_value());
    EXPECT_EQ(SpreadSlack(items, {7, 7, 7}, seed), spread);
    seen.insert(*spread);
  }
  EXPECT_EQ(seen,
            (std::set<std::vector<uint64_t>>{{7, 0, 0}, {0, 7, 0}, {0, 0, 7}}));
}

}  // namespace
}  // namespace planner
}  // namespace memplan
