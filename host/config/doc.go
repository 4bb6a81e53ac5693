// Package config is the host's configuration (docs/config.md):
// the user config ($XDG_CONFIG_HOME/trailpin/config.yaml), the project
// config (trailpin.yaml, found upwards or named by --config), TRAILPIN_*
// variables and flags, with one load path and one answer to "what is this
// key's value, and where did it come from".
//
//	Load(opts)                              every layer, for a command (layers.go says which wins)
//	(*Config).Settings(), Source(key)       each key in effect and the layer that set it
//	(*Config).Model()                       the model the agent calls (agent.go: from one file, whole)
//	(*Config).Replay(), Cache(), Agent(), Trace()  replay.*, cache.*, agent.*, trace: with or without a trailpin.yaml
//	LoadProject(dir)                        dir/trailpin.yaml as written, for the recording popup
//	InitProject(dir)                        create a commented starter trailpin.yaml in dir
//	(*Project).AppForOrigin(origin)         the app of a page's origin
//	(*Project).AddApp(name, baseURL)        add apps.<name>.baseURL to trailpin.yaml
//	(*Project).TrailsPath()                 where Export writes, absolute
//	ListProjects(userFile)                  the user config's projects and the current one
//	AddProject(userFile, dir, name)         add a project folder to the user config
//	SetCurrentProject(userFile, nameOrDir)  choose the project recordings go into
//	CurrentProject(userFile)                load the current project
//
// Files are decoded by this package's strict yaml.Node decoder (decode.go),
// which reports every problem with its file, line, key and fix as a
// recorder/yamlerr error, the type trail files use too, and keeps the case
// of app and credential names; viper layers the decoded values
// with the defaults, the variables and the flags (layers.go). Every edit
// the host makes to a file goes through the comment-preserving editor
// (yamledit.go) and is written atomically.
//
// It imports recorder/yamlerr, storage/secrets (the secrets' own resolver,
// which brings the trail format's reference types), agent/model (whose
// check of a model's base URL is the one rule) and storage/atomicfile;
// it must not import
// the host's commands, the database or the replay engine: it says how
// things are configured, never does them.
package config
