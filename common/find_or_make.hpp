// De-duplication tables: "find or make the element for this key". A table maps a key to the index of the element
// that was made for it, and the only way an index gets into a table is as the return value of the `make` callback
// that appended the element. A table never numbers its own keys: the element vectors it indexes are also appended
// to by code that does not go through it (issue #25: counting keys drew 64 % of a real place's parts with another
// part's mesh once unions, mesh assets and terrain appended meshes of their own).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace gamefmt {

// `table[key]` when present; otherwise stores and returns `make()` — which appends the element and returns its
// index (or whatever value the table keeps: a list of indices, -1 for "none"). Works with std::map and
// std::unordered_map. `make` may use other tables, not this one.
template <typename Map, typename Key, typename Make>
typename Map::mapped_type FindOrMake(Map &table, Key &&key, Make &&make) {
    const auto found = table.find(key);
    if (found != table.end()) return found->second;
    typename Map::mapped_type value = make();
    table.emplace(std::forward<Key>(key), value);
    return value;
}

// The same for small fixed-size keys seen once per input item (a shared mesh per distinct part geometry), where
// std::unordered_map's node per entry and pointer chase per lookup dominate: one flat array, linear probing, no
// allocation per entry. Key: equality-comparable and copyable; Hash: std::size_t operator()(const Key &) — its low
// bits pick the slot, so it must mix well.
template <typename Key, typename Hash> class FlatFindOrMake {
public:
    template <typename Make> std::uint32_t findOrMake(const Key &key, Make &&make) {
        if (const Slot *slot = find(key)) return slot->value;
        const auto value = static_cast<std::uint32_t>(make());
        insert(key, value);
        return value;
    }

private:
    struct Slot {
        Key key{};
        std::uint32_t value = 0;
        bool used = false;
    };
    const Slot *find(const Key &key) const {
        if (mSlots.empty()) return nullptr;
        const std::size_t mask = mSlots.size() - 1;
        for (std::size_t i = Hash()(key) & mask;; i = (i + 1) & mask) {
            const Slot &slot = mSlots[i];
            if (!slot.used) return nullptr;
            if (slot.key == key) return &slot;
        }
    }
    void insert(const Key &key, std::uint32_t value) {
        if ((mCount + 1) * 2 > mSlots.size()) grow();
        place(Slot{key, value, true});
        ++mCount;
    }
    void place(const Slot &s) {
        const std::size_t mask = mSlots.size() - 1;
        std::size_t i = Hash()(s.key) & mask;
        while (mSlots[i].used) i = (i + 1) & mask;
        mSlots[i] = s;
    }
    void grow() {
        std::vector<Slot> old = std::move(mSlots);
        mSlots.assign(old.empty() ? 64 : old.size() * 2, Slot{});
        for (const Slot &s : old)
            if (s.used) place(s);
    }
    std::vector<Slot> mSlots;
    std::size_t mCount = 0;
};

} // namespace gamefmt
