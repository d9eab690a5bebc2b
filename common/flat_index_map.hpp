// An open-addressing map from small fixed-size keys to dense indices (0, 1, 2, … in insertion order): one
// flat array, linear probing, no allocation per entry. For de-duplication tables that see one lookup per
// input item (e.g. a shared mesh per distinct part geometry), where std::unordered_map's node per entry and
// pointer chase per lookup dominate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace gamefmt {

// Key: equality-comparable and copyable; Hash: std::size_t operator()(const Key &) — its low bits pick the
// slot, so it must mix well.
template <typename Key, typename Hash> class FlatIndexMap {
public:
    // The index of `key`, inserting it with the next index when absent; `inserted` says which.
    std::uint32_t findOrInsert(const Key &key, bool &inserted) {
        if ((mCount + 1) * 2 > mSlots.size()) grow();
        const std::size_t mask = mSlots.size() - 1;
        for (std::size_t i = Hash()(key) & mask;; i = (i + 1) & mask) {
            Slot &slot = mSlots[i];
            if (slot.index == kEmpty) {
                slot.key = key;
                slot.index = static_cast<std::uint32_t>(mCount++);
                inserted = true;
                return slot.index;
            }
            if (slot.key == key) {
                inserted = false;
                return slot.index;
            }
        }
    }
    std::size_t size() const { return mCount; }

private:
    static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
    struct Slot {
        Key key{};
        std::uint32_t index = kEmpty;
    };
    void grow() {
        std::vector<Slot> old = std::move(mSlots);
        mSlots.assign(old.empty() ? 64 : old.size() * 2, Slot{});
        const std::size_t mask = mSlots.size() - 1;
        for (const Slot &s : old) {
            if (s.index == kEmpty) continue;
            std::size_t i = Hash()(s.key) & mask;
            while (mSlots[i].index != kEmpty) i = (i + 1) & mask;
            mSlots[i] = s;
        }
    }
    std::vector<Slot> mSlots;
    std::size_t mCount = 0;
};

} // namespace gamefmt
