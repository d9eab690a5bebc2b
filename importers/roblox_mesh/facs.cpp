// Interprets the FACS blob of 5.00 files and FACS chunks (docs/formats/roblox-mesh.md §8): names, six quantized
// matrices and the corrective tables, every internal size checked against the blob.
#include "common/byte_reader.hpp"
#include "importers/roblox_mesh/mesh_reader.hpp"

#include <new>

namespace gamefmt::rbxmesh {

namespace {

// NUL-separated names; the section ends with a NUL, so the last (empty) split is dropped. A section
// without that final NUL still yields its last name.
std::vector<std::string> SplitNames(const std::uint8_t *p, std::size_t n) {
    std::vector<std::string> names;
    std::size_t start = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (p[i] != 0) continue;
        names.emplace_back(reinterpret_cast<const char *>(p) + start, i - start);
        start = i + 1;
    }
    if (start < n) names.emplace_back(reinterpret_cast<const char *>(p) + start, n - start);
    return names;
}

QuantizedMatrix ReadMatrix(ByteReader &r, const char *name) {
    QuantizedMatrix m;
    const std::size_t at = r.tell();
    m.version = r.u16le();
    m.rows = r.u32le();
    m.cols = r.u32le();
    // Both factors are below 2^32, so the product fits in 64 bits.
    const std::uint64_t count = static_cast<std::uint64_t>(m.rows) * m.cols;
    if (m.version == 1) {
        r.requireArray(count, 4, name);
        m.values.resize(static_cast<std::size_t>(count));
        for (float &v : m.values) v = r.f32le();
    } else if (m.version == 2) {
        m.min = r.f32le();
        m.max = r.f32le();
        r.requireArray(count, 2, name);
        m.q.resize(static_cast<std::size_t>(count));
        m.values.resize(static_cast<std::size_t>(count));
        // In double so that q = 0 and q = 65535 give min and max exactly.
        const double lo = m.min;
        const double step = (static_cast<double>(m.max) - lo) / 65535.0;
        for (std::size_t i = 0; i < m.q.size(); ++i) {
            m.q[i] = r.u16le();
            m.values[i] = static_cast<float>(lo + m.q[i] * step);
        }
    } else {
        r.failAt(at, std::string(name) + " has unknown QuantizedMatrix version " + std::to_string(m.version));
    }
    return m;
}

FacsData Parse(const std::vector<std::uint8_t> &blob) {
    ByteReader r(blob.data(), blob.size(), kFormatName);
    const std::uint32_t boneNamesSize = r.u32le();
    const std::uint32_t controlNamesSize = r.u32le();
    const std::uint64_t transformsSize = r.u64le();
    const std::uint32_t twoPoseSize = r.u32le();
    const std::uint32_t threePoseSize = r.u32le();
    // The u32 terms cannot overflow a u64 sum; the u64 one is bounded by the blob size first.
    const std::uint64_t total = transformsSize > blob.size() ? transformsSize
                                                             : 24 + std::uint64_t{boneNamesSize} + controlNamesSize +
                                                                   transformsSize + twoPoseSize + threePoseSize;
    if (total != blob.size())
        r.failAt(0, "section sizes add up to " + std::to_string(total) + " bytes, but the blob holds " +
                        std::to_string(blob.size()));
    if (twoPoseSize % 4 != 0)
        r.failAt(16, "sizeof_twoPoseCorrectives " + std::to_string(twoPoseSize) + " is not a multiple of 4");
    if (threePoseSize % 6 != 0)
        r.failAt(20, "sizeof_threePoseCorrectives " + std::to_string(threePoseSize) + " is not a multiple of 6");

    FacsData facs;
    facs.faceBoneNames = SplitNames(r.take(boneNamesSize), boneNamesSize);
    facs.controlNames = SplitNames(r.take(controlNamesSize), controlNamesSize);

    ByteReader t = r.sub(static_cast<std::size_t>(transformsSize));
    QuantizedMatrix *matrices[6] = {&facs.px, &facs.py, &facs.pz, &facs.rx, &facs.ry, &facs.rz};
    static const char *const kNames[6] = {"matrix px", "matrix py", "matrix pz", "matrix rx", "matrix ry", "matrix rz"};
    std::size_t matrixAt[6] = {};
    for (int i = 0; i < 6; ++i) {
        matrixAt[i] = t.offset();
        *matrices[i] = ReadMatrix(t, kNames[i]);
    }
    if (!t.atEnd())
        t.fail(std::to_string(t.remaining()) + " bytes follow the six matrices inside sizeof_quantizedTransforms");

    const std::size_t pairsAt = r.tell();
    facs.twoPoseCorrectives.resize(twoPoseSize / 4);
    for (auto &pair : facs.twoPoseCorrectives)
        for (auto &index : pair) index = r.u16le();
    const std::size_t triplesAt = r.tell();
    facs.threePoseCorrectives.resize(threePoseSize / 6);
    for (auto &triple : facs.threePoseCorrectives)
        for (auto &index : triple) index = r.u16le();

    // Consumers index [bone * cols + pose] and controlNames[corrective entry]: make both safe here.
    const std::size_t controls = facs.controlNames.size();
    const std::uint64_t cols = controls + facs.twoPoseCorrectives.size() + facs.threePoseCorrectives.size();
    for (int i = 0; i < 6; ++i) {
        const QuantizedMatrix &m = *matrices[i];
        if (m.rows != facs.faceBoneNames.size() || m.cols != cols)
            r.failAt(matrixAt[i], std::string(kNames[i]) + " is " + std::to_string(m.rows) + " x " +
                                      std::to_string(m.cols) + ", expected " +
                                      std::to_string(facs.faceBoneNames.size()) + " face bones x " +
                                      std::to_string(cols) + " poses (controls + correctives)");
    }
    for (std::size_t i = 0; i < facs.twoPoseCorrectives.size(); ++i)
        for (std::size_t k = 0; k < 2; ++k)
            if (facs.twoPoseCorrectives[i][k] >= controls)
                r.failAt(pairsAt + 4 * i + 2 * k, "two-pose corrective " + std::to_string(i) + " names control " +
                                                      std::to_string(facs.twoPoseCorrectives[i][k]) + " of " +
                                                      std::to_string(controls));
    for (std::size_t i = 0; i < facs.threePoseCorrectives.size(); ++i)
        for (std::size_t k = 0; k < 3; ++k)
            if (facs.threePoseCorrectives[i][k] >= controls)
                r.failAt(triplesAt + 6 * i + 2 * k, "three-pose corrective " + std::to_string(i) + " names control " +
                                                        std::to_string(facs.threePoseCorrectives[i][k]) + " of " +
                                                        std::to_string(controls));
    return facs;
}

} // namespace

std::optional<FacsData> ParseFacs(const std::vector<std::uint8_t> &blob, std::string *error) {
    try {
        return Parse(blob);
    } catch (const FormatError &e) {
        if (error != nullptr) *error = e.message() + " (at blob offset " + std::to_string(e.offset()) + ")";
    } catch (const std::bad_alloc &) {
        // Unreachable with the size checks above; kept so a FACS problem never aborts a whole import.
        if (error != nullptr) *error = "out of memory while interpreting the blob";
    }
    return std::nullopt;
}

} // namespace gamefmt::rbxmesh
