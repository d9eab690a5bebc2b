// The one walk over a Roblox document (importers/roblox_model/document/tree_walk.hpp): pre-order, each instance
// once, depth and parent as reached, a visit that leaves a subtree out, shared visited sets, damaged child lists.
#include "importers/roblox_model/document/tree_walk.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gamefmt {
namespace {

// A (B (D, E), C) and a second root F.
rbx::Document Tree() {
    rbx::Document doc;
    const std::uint32_t a = doc.addInstance("Model", "A", rbx::kNoInstance);
    const std::uint32_t b = doc.addInstance("Model", "B", a);
    doc.addInstance("Part", "D", b);
    doc.addInstance("Part", "E", b);
    doc.addInstance("Part", "C", a);
    doc.addInstance("Model", "F", rbx::kNoInstance);
    return doc;
}

std::string Names(const rbx::Document &doc, const std::vector<rbx::TreeStep> &steps) {
    std::string out;
    for (const rbx::TreeStep &s : steps)
        out += doc.instances[s.index].name + std::to_string(s.depth) +
               (s.parent == rbx::kNoInstance ? std::string("-") : doc.instances[s.parent].name) + " ";
    return out;
}

TEST(RbxTreeWalk, PreOrderWithDepthAndParent) {
    const rbx::Document doc = Tree();
    std::vector<rbx::TreeStep> steps;
    rbx::ForEachInTreeOrder(doc, [&](const rbx::TreeStep &s) { steps.push_back(s); });
    EXPECT_EQ(Names(doc, steps), "A1- B2A D3B E3B C2A F1- ");
}

TEST(RbxTreeWalk, AVisitReturningFalseLeavesTheSubtreeOut) {
    const rbx::Document doc = Tree();
    std::vector<rbx::TreeStep> steps;
    rbx::ForEachInTreeOrder(doc, [&](const rbx::TreeStep &s) {
        steps.push_back(s);
        return doc.instances[s.index].name != "B";
    });
    EXPECT_EQ(Names(doc, steps), "A1- B2A C2A F1- ");
}

TEST(RbxTreeWalk, SharedVisitedSetAndDamagedChildLists) {
    rbx::Document doc = Tree();
    doc.instances[0].children.push_back(2);   // D listed a second time, under A
    doc.instances[0].children.push_back(999); // and an index the document does not have
    std::vector<bool> visited(doc.instances.size(), false);
    std::vector<rbx::TreeStep> steps;
    const auto visit = [&](const rbx::TreeStep &s) { steps.push_back(s); };
    rbx::WalkTree(doc, doc.instances[1].children, 1, visited, visit); // below B: D, E
    EXPECT_EQ(Names(doc, steps), "D1B E1B ");
    steps.clear();
    rbx::WalkTree(doc, doc.roots, rbx::kNoInstance, visited, visit); // D and E were visited already
    EXPECT_EQ(Names(doc, steps), "A1- B2A C2A F1- ");
}

} // namespace
} // namespace gamefmt
