package demo

import "embed"

// Trails holds the demo's example trails (the flows of FLOWS.md as trail
// files), the file their upload step attaches, and the project config that
// names the shop. `host demo` replays them against a shop it serves.
//
//go:embed trails trailpin.yaml
var Trails embed.FS

// TrailsDir is the folder of the example trails inside Trails.
const TrailsDir = "trails"

// ConfigFile is the project config inside Trails; its apps.shop.baseURL is
// a placeholder that `host demo` replaces with the shop's address.
const ConfigFile = "trailpin.yaml"
