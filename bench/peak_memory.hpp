// Peak resident memory of one import of a Roblox file, measured in a fresh copy of the benchmark program so that
// nothing else the program holds is counted (Linux: /proc/self/status).
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

namespace gamefmt::bench {

// Imports `bytes` (hint rbxl, default properties) in a child process, then writes its glb (bytes counted, not
// kept). Counters: import_peak_MiB (peak minus the resident size before the import), import_and_glb_peak_MiB,
// process_peak_MiB (what /usr/bin/time would report for such a program).
void PeakMemory(benchmark::State &state, const std::vector<std::uint8_t> &bytes);

// VmRSS or VmHWM of this process, KiB (/proc/self/status); 0 when unreadable.
long StatusKiB(const char *field);

} // namespace gamefmt::bench
