// Every gamefmt option, as Assimp property names (Importer::SetProperty*, ExportProperties::Set*).
//
// Prefixes per format family: GAMEFMT_RBXMESH_ (Roblox mesh), GAMEFMT_RBX_ (Roblox model/place),
// GAMEFMT_SLMESH_ (Second Life mesh), GAMEFMT_RG_ (Redguard). Each option is documented here and in
// the README, and the gamefmt command line accepts it as `--option NAME=VALUE` (plus a named flag
// where one exists).
#pragma once

// (Format options arrive with their formats.)
