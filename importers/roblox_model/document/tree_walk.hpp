// The one walk over a Roblox document's instance tree: every caller that visits instances in tree order (the
// scene builder, rigs, keyframes, the binary writer, the command line's dump and info) goes through here.
// Iterative with an explicit stack: the file decides the depth, so no recursion proportional to it.
#pragma once

#include "importers/roblox_model/document/dom.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace gamefmt::rbx {

// One visit: the instance, the instance it was reached from (`parent`: kNoInstance for a root), its depth (the
// starts have depth 1).
struct TreeStep {
    std::uint32_t index;
    std::uint32_t parent;
    std::size_t depth;
};

// Visits the instances reachable from `starts` (reached from `parent`) in document pre-order — a start, then its
// children in their order, depth first — each once: an index out of range, or already marked in `visited` (size
// doc.instances.size(); the caller may share it between walks), is skipped. `visit(const TreeStep &)` returns
// nothing (every child is walked) or a bool: false leaves the instance's children out.
template <typename Visit>
void WalkTree(const Document &doc, const std::vector<std::uint32_t> &starts, std::uint32_t parent,
              std::vector<bool> &visited, Visit &&visit) {
    const std::size_t n = doc.instances.size();
    std::vector<TreeStep> stack;
    for (auto it = starts.rbegin(); it != starts.rend(); ++it) stack.push_back({*it, parent, 1});
    while (!stack.empty()) {
        const TreeStep step = stack.back();
        stack.pop_back();
        if (step.index >= n || step.index >= visited.size() || visited[step.index]) continue;
        visited[step.index] = true;
        if constexpr (std::is_same_v<decltype(visit(step)), void>) {
            visit(step);
        } else if (!visit(step)) {
            continue;
        }
        const auto &children = doc.instances[step.index].children;
        for (auto c = children.rbegin(); c != children.rend(); ++c) stack.push_back({*c, step.index, step.depth + 1});
    }
}

// The whole tree from the document's roots: the instances the document shows (orphans a damaged file holds are
// not visited).
template <typename Visit> void ForEachInTreeOrder(const Document &doc, Visit &&visit) {
    std::vector<bool> visited(doc.instances.size(), false);
    WalkTree(doc, doc.roots, kNoInstance, visited, visit);
}

} // namespace gamefmt::rbx
