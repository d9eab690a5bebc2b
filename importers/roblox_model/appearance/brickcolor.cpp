// The BrickColor palette (docs/formats/roblox-model.md §5.1): number → sRGB, the 208 entries of rbx-dom's
// rbx_types/src/brick_color.rs, typed in from the reference's brickcolor-palette.tsv. Looked up by number
// (names repeat).
#include "importers/roblox_model/appearance/brickcolor.hpp"

#include <algorithm>
#include <array>
#include <iterator>

namespace gamefmt::rbx {
namespace {

struct PaletteEntry {
    std::uint16_t number;
    std::uint8_t r, g, b;
};

// Sorted by number.
constexpr PaletteEntry kPalette[] = {
    {1, 242, 243, 243},    // White
    {2, 161, 165, 162},    // Grey
    {3, 249, 233, 153},    // Light yellow
    {5, 215, 197, 154},    // Brick yellow
    {6, 194, 218, 184},    // Light green (Mint)
    {9, 232, 186, 200},    // Light reddish violet
    {11, 128, 187, 219},   // Pastel Blue
    {12, 203, 132, 66},    // Light orange brown
    {18, 204, 142, 105},   // Nougat
    {21, 196, 40, 28},     // Bright red
    {22, 196, 112, 160},   // Med. reddish violet
    {23, 13, 105, 172},    // Bright blue
    {24, 245, 205, 48},    // Bright yellow
    {25, 98, 71, 50},      // Earth orange
    {26, 27, 42, 53},      // Black
    {27, 109, 110, 108},   // Dark grey
    {28, 40, 127, 71},     // Dark green
    {29, 161, 196, 140},   // Medium green
    {36, 243, 207, 155},   // Lig. Yellowich orange
    {37, 75, 151, 75},     // Bright green
    {38, 160, 95, 53},     // Dark orange
    {39, 193, 202, 222},   // Light bluish violet
    {40, 236, 236, 236},   // Transparent
    {41, 205, 84, 75},     // Tr. Red
    {42, 193, 223, 240},   // Tr. Lg blue
    {43, 123, 182, 232},   // Tr. Blue
    {44, 247, 241, 141},   // Tr. Yellow
    {45, 180, 210, 228},   // Light blue
    {47, 217, 133, 108},   // Tr. Flu. Reddish orange
    {48, 132, 182, 141},   // Tr. Green
    {49, 248, 241, 132},   // Tr. Flu. Green
    {50, 236, 232, 222},   // Phosph. White
    {100, 238, 196, 182},  // Light red
    {101, 218, 134, 122},  // Medium red
    {102, 110, 153, 202},  // Medium blue
    {103, 199, 193, 183},  // Light grey
    {104, 107, 50, 124},   // Bright violet
    {105, 226, 155, 64},   // Br. yellowish orange
    {106, 218, 133, 65},   // Bright orange
    {107, 0, 143, 156},    // Bright bluish green
    {108, 104, 92, 67},    // Earth yellow
    {110, 67, 84, 147},    // Bright bluish violet
    {111, 191, 183, 177},  // Tr. Brown
    {112, 104, 116, 172},  // Medium bluish violet
    {113, 229, 173, 200},  // Tr. Medi. reddish violet
    {115, 199, 210, 60},   // Med. yellowish green
    {116, 85, 165, 175},   // Med. bluish green
    {118, 183, 215, 213},  // Light bluish green
    {119, 164, 189, 71},   // Br. yellowish green
    {120, 217, 228, 167},  // Lig. yellowish green
    {121, 231, 172, 88},   // Med. yellowish orange
    {123, 211, 111, 76},   // Br. reddish orange
    {124, 146, 57, 120},   // Bright reddish violet
    {125, 234, 184, 146},  // Light orange
    {126, 165, 165, 203},  // Tr. Bright bluish violet
    {127, 220, 188, 129},  // Gold
    {128, 174, 122, 89},   // Dark nougat
    {131, 156, 163, 168},  // Silver
    {133, 213, 115, 61},   // Neon orange
    {134, 216, 221, 86},   // Neon green
    {135, 116, 134, 157},  // Sand blue
    {136, 135, 124, 144},  // Sand violet
    {137, 224, 152, 100},  // Medium orange
    {138, 149, 138, 115},  // Sand yellow
    {140, 32, 58, 86},     // Earth blue
    {141, 39, 70, 45},     // Earth green
    {143, 207, 226, 247},  // Tr. Flu. Blue
    {145, 121, 136, 161},  // Sand blue metallic
    {146, 149, 142, 163},  // Sand violet metallic
    {147, 147, 135, 103},  // Sand yellow metallic
    {148, 87, 88, 87},     // Dark grey metallic
    {149, 22, 29, 50},     // Black metallic
    {150, 171, 173, 172},  // Light grey metallic
    {151, 120, 144, 130},  // Sand green
    {153, 149, 121, 119},  // Sand red
    {154, 123, 46, 47},    // Dark red
    {157, 255, 246, 123},  // Tr. Flu. Yellow
    {158, 225, 164, 194},  // Tr. Flu. Red
    {168, 117, 108, 98},   // Gun metallic
    {176, 151, 105, 91},   // Red flip/flop
    {178, 180, 132, 85},   // Yellow flip/flop
    {179, 137, 135, 136},  // Silver flip/flop
    {180, 215, 169, 75},   // Curry
    {190, 249, 214, 46},   // Fire Yellow
    {191, 232, 171, 45},   // Flame yellowish orange
    {192, 105, 64, 40},    // Reddish brown
    {193, 207, 96, 36},    // Flame reddish orange
    {194, 163, 162, 165},  // Medium stone grey
    {195, 70, 103, 164},   // Royal blue
    {196, 35, 71, 139},    // Dark Royal blue
    {198, 142, 66, 133},   // Bright reddish lilac
    {199, 99, 95, 98},     // Dark stone grey
    {200, 130, 138, 93},   // Lemon metalic
    {208, 229, 228, 223},  // Light stone grey
    {209, 176, 142, 68},   // Dark Curry
    {210, 112, 149, 120},  // Faded green
    {211, 121, 181, 181},  // Turquoise
    {212, 159, 195, 233},  // Light Royal blue
    {213, 108, 129, 183},  // Medium Royal blue
    {216, 144, 76, 42},    // Rust
    {217, 124, 92, 70},    // Brown
    {218, 150, 112, 159},  // Reddish lilac
    {219, 107, 98, 155},   // Lilac
    {220, 167, 169, 206},  // Light lilac
    {221, 205, 98, 152},   // Bright purple
    {222, 228, 173, 200},  // Light purple
    {223, 220, 144, 149},  // Light pink
    {224, 240, 213, 160},  // Light brick yellow
    {225, 235, 184, 127},  // Warm yellowish orange
    {226, 253, 234, 141},  // Cool yellow
    {232, 125, 187, 221},  // Dove blue
    {268, 52, 43, 117},    // Medium lilac
    {301, 80, 109, 84},    // Slime green
    {302, 91, 93, 105},    // Smoky grey
    {303, 0, 16, 176},     // Dark blue
    {304, 44, 101, 29},    // Parsley green
    {305, 82, 124, 174},   // Steel blue
    {306, 51, 88, 130},    // Storm blue
    {307, 16, 42, 220},    // Lapis
    {308, 61, 21, 133},    // Dark indigo
    {309, 52, 142, 64},    // Sea green
    {310, 91, 154, 76},    // Shamrock
    {311, 159, 161, 172},  // Fossil
    {312, 89, 34, 89},     // Mulberry
    {313, 31, 128, 29},    // Forest green
    {314, 159, 173, 192},  // Cadet blue
    {315, 9, 137, 207},    // Electric blue
    {316, 123, 0, 123},    // Eggplant
    {317, 124, 156, 107},  // Moss
    {318, 138, 171, 133},  // Artichoke
    {319, 185, 196, 177},  // Sage green
    {320, 202, 203, 209},  // Ghost grey
    {321, 167, 94, 155},   // Lilac
    {322, 123, 47, 123},   // Plum
    {323, 148, 190, 129},  // Olivine
    {324, 168, 189, 153},  // Laurel green
    {325, 223, 223, 222},  // Quill grey
    {327, 151, 0, 0},      // Crimson
    {328, 177, 229, 166},  // Mint
    {329, 152, 194, 219},  // Baby blue
    {330, 255, 152, 220},  // Carnation pink
    {331, 255, 89, 89},    // Persimmon
    {332, 117, 0, 0},      // Maroon
    {333, 239, 184, 56},   // Gold
    {334, 248, 217, 109},  // Daisy orange
    {335, 231, 231, 236},  // Pearl
    {336, 199, 212, 228},  // Fog
    {337, 255, 148, 148},  // Salmon
    {338, 190, 104, 98},   // Terra Cotta
    {339, 86, 36, 36},     // Cocoa
    {340, 241, 231, 199},  // Wheat
    {341, 254, 243, 187},  // Buttermilk
    {342, 224, 178, 208},  // Mauve
    {343, 212, 144, 189},  // Sunrise
    {344, 150, 85, 85},    // Tawny
    {345, 143, 76, 42},    // Rust
    {346, 211, 190, 150},  // Cashmere
    {347, 226, 220, 188},  // Khaki
    {348, 237, 234, 234},  // Lily white
    {349, 233, 218, 218},  // Seashell
    {350, 136, 62, 62},    // Burgundy
    {351, 188, 155, 93},   // Cork
    {352, 199, 172, 120},  // Burlap
    {353, 202, 191, 163},  // Beige
    {354, 187, 179, 178},  // Oyster
    {355, 108, 88, 75},    // Pine Cone
    {356, 160, 132, 79},   // Fawn brown
    {357, 149, 137, 136},  // Hurricane grey
    {358, 171, 168, 158},  // Cloudy grey
    {359, 175, 148, 131},  // Linen
    {360, 150, 103, 102},  // Copper
    {361, 86, 66, 54},     // Dirt brown
    {362, 126, 104, 63},   // Bronze
    {363, 105, 102, 92},   // Flint
    {364, 90, 76, 66},     // Dark taupe
    {365, 106, 57, 9},     // Burnt Sienna
    {1001, 248, 248, 248}, // Institutional white
    {1002, 205, 205, 205}, // Mid gray
    {1003, 17, 17, 17},    // Really black
    {1004, 255, 0, 0},     // Really red
    {1005, 255, 176, 0},   // Deep orange
    {1006, 180, 128, 255}, // Alder
    {1007, 163, 75, 75},   // Dusty Rose
    {1008, 193, 190, 66},  // Olive
    {1009, 255, 255, 0},   // New Yeller
    {1010, 0, 0, 255},     // Really blue
    {1011, 0, 32, 96},     // Navy blue
    {1012, 33, 84, 185},   // Deep blue
    {1013, 4, 175, 236},   // Cyan
    {1014, 170, 85, 0},    // CGA brown
    {1015, 170, 0, 170},   // Magenta
    {1016, 255, 102, 204}, // Pink
    {1017, 255, 175, 0},   // Deep orange
    {1018, 18, 238, 212},  // Teal
    {1019, 0, 255, 255},   // Toothpaste
    {1020, 0, 255, 0},     // Lime green
    {1021, 58, 125, 21},   // Camo
    {1022, 127, 142, 100}, // Grime
    {1023, 140, 91, 159},  // Lavender
    {1024, 175, 221, 255}, // Pastel light blue
    {1025, 255, 201, 201}, // Pastel orange
    {1026, 177, 167, 255}, // Pastel violet
    {1027, 159, 243, 233}, // Pastel blue-green
    {1028, 204, 255, 204}, // Pastel green
    {1029, 255, 255, 204}, // Pastel yellow
    {1030, 255, 204, 153}, // Pastel brown
    {1031, 98, 37, 209},   // Royal purple
    {1032, 255, 0, 191},   // Hot pink
};

} // namespace

std::optional<Color3uint8> BrickColorRgb(std::uint32_t number) {
    const auto it = std::lower_bound(std::begin(kPalette), std::end(kPalette), number,
                                     [](const PaletteEntry &e, std::uint32_t n) { return e.number < n; });
    if (it == std::end(kPalette) || it->number != number) return std::nullopt;
    return Color3uint8{it->r, it->g, it->b};
}

} // namespace gamefmt::rbx
